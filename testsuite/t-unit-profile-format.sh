#!/bin/bash
# SPDX-License-Identifier: MIT
# SPDX-License-Identifier: MIT
# The profile format's shared definitions (include/selinst-profile.h) and
# the report's parsers on them, linked from the report's own sources.
. "$(dirname "$0")/lib.sh"
R=$SELINST_ROOT/report
gcc -std=gnu11 -Wall -Wextra -O1 -I"$R" -I"$SELINST_ROOT/include" -o pf-test \
	"$T/unit/profile-format-test.c" $(ls "$R"/*.c | grep -v '/main\.c$') -lyaml -lotf2 -ldw -lelf -lz -lm ||
	fail "build"
./pf-test || fail "profile format"
