#!/bin/bash
# SPDX-License-Identifier: MIT
# The runtime's internals called directly (testsuite/unit/runtime-internals-test.c),
# linked statically with libselinst.a, and again under AddressSanitizer.
. "$(dirname "$0")/lib.sh"
R=$SELINST_ROOT
gcc -std=gnu11 -Wall -Wextra -O1 -pthread -I"$R/runtime" -I"$R/include" -o rt-test \
	"$T/unit/runtime-internals-test.c" "$SELINST_BUILD/libselinst.a" -lyaml || fail "build"
SELINST_OUTPUT=$PWD/unit.prof ./rt-test || fail "runtime internals"
# The same sources under ASan (the library's objects rebuilt with it).
gcc -std=gnu11 -O1 -g -pthread -fsanitize=address -fno-omit-frame-pointer \
	-ftls-model=initial-exec -DSI_STATIC -I"$R/runtime" -I"$R/include" -o rt-test-asan \
	"$T/unit/runtime-internals-test.c" $(ls "$R"/runtime/*.c | grep -v '/exec\.c$\|/dlclose\.c$') \
	-lyaml || fail "build (asan)"
SELINST_OUTPUT=$PWD/unit-asan.prof ./rt-test-asan || fail "runtime internals under ASan"
