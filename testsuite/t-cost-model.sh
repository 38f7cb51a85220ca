#!/bin/bash
# SPDX-License-Identifier: MIT
# The cost model alone, against the paper's Table 1 and decision rules.
. "$(dirname "$0")/lib.sh"
g++ -Wall -Wextra -fno-rtti -fno-exceptions -o cm-test \
	"$T/unit/cost-model-test.cc" "$SELINST_ROOT/plugin/cost-model.cc" -lgmp || fail "build"
./cm-test || fail "cost model"
