#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime (issue 11): hooks save and restore errno where their cold paths
# can change it.  testsuite/programs/errno_keep.c limits the address
# space so that the region stack cannot grow while it recurses 100,000
# deep (the hooks' mmap fails with ENOMEM; before: errno 12 after the
# call), then recurses in a signal handler; errno must stay 0 throughout.
. "$(dirname "$0")/lib.sh"
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off \
	"$T/programs/errno_keep.c" -o ek || fail "compile"
out=$(SELINST_OUTPUT=$WORK/ek.prof ./ek 2>err.txt)
rc=$?
[ $rc = 3 ] && skip "cannot read /proc/self/statm or set RLIMIT_AS here"
[ $rc = 0 ] || { cat err.txt; fail "errno_keep: status $rc, '$out'"; }
expect_eq "errno_keep" "errno kept" "$out"
exit 0
