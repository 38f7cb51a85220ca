#!/bin/bash
# SPDX-License-Identifier: MIT
# The exit-time write costs the program no more than its own work: it
# takes no memory from malloc (runtime/walloc.c; before, it ran on a
# thread of its own, whose malloc arena was fresh), so it never
# consolidates the small chunks the program freed (which the plain
# program never pays for).  Instructions (callgrind) of the instrumented
# build over the plain one, measured in the same run.
. "$(dirname "$0")/lib.sh"
need valgrind
cat > churn.c <<'C'
#include <stdio.h>
#include <stdlib.h>
static void *keep[400000];
int main(void)
{
	unsigned long sum = 0;
	for (int i = 0; i < 400000; i++) {
		keep[i] = malloc(16 + (i % 5) * 16);
		sum += (unsigned long)keep[i] & 15;
	}
	for (int i = 0; i < 400000; i += 2)	/* every other: no merging */
		free(keep[i]);
	printf("%lu\n", sum);
	return 0;
}
C
gcc -O2 churn.c -o plain || fail "plain build"
si_cc -O2 churn.c -o inst || fail "instrumented build"
count() { SELINST_OUTPUT=$PWD/churn.prof valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
	sed -n 's/.*Collected : //p'; }
p=$(count ./plain); i=$(count ./inst)
[ -n "$p" ] && [ -n "$i" ] || fail "no instruction counts"
"$REPORT" churn.prof > report.txt || fail "profile unreadable"
grep -q " main$" report.txt || fail "main not in the profile: $(cat report.txt)"
extra=$((i - p))
echo "plain $p, instrumented $i: +$extra instructions"
# Consolidating the freed chunks at exit cost +9.6 million instructions
# (and copying the program's descriptors at exit 3 million more) before;
# the runtime's fixed costs (start-up calibration, the write of a small
# profile) are about 2 million here.
[ $extra -lt 4000000 ] || fail "exit cost +$extra instructions (plain $p)"
