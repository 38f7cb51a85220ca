#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime (issue 10): the hooks' cost does not depend on the call pattern,
# and folded recursion costs no more than a normal call.  Instructions per
# call (callgrind, exact: the difference between runs of 120k and 240k
# calls, so start-up and the profile write cancel) of
# testsuite/programs/hook_patterns.c at threshold 0, as ratios within this
# run: three and eight callees in turn <= 1.3x one callee repeated;
# direct, mutual and matcher-shaped recursion 1000 deep <= 2x it.
# (Before the per-thread child cache: 66 per call repeated, 165 in turn.)
. "$(dirname "$0")/lib.sh"
# The hooks proper: the default throttle would switch the callees off
# after 100,000 calls (t-rt-throttle.sh measures that).
export SELINST_THROTTLE=off
need valgrind
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off \
	"$T/programs/hook_patterns.c" -o pat || fail "compile"
count() { # PATTERN CALLS: instructions of the whole run
	SELINST_OUTPUT=$WORK/pat.prof valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		./pat "$1" "$2" 2>&1 | awk '/Collected/ { print $4 }'
}
declare -A per
for p in same rr3 rr8 rec mut recx; do
	a=$(count $p 120000); b=$(count $p 240000)
	[ -n "$a" ] && [ -n "$b" ] || fail "callgrind run of $p"
	per[$p]=$(( (b - a) / 120000 ))
	echo "$p: ${per[$p]} instructions per call"
done
calls=$(yget pat.prof 'sum(n["calls"] for t in d["threads"] for n in t["nodes"])')
[ "$calls" -ge 240000 ] || fail "profile of the last run counts $calls calls, not 240000+"
check() { # PATTERN MAX-RATIO
	awk -v a="${per[$1]}" -v b="${per[same]}" -v m="$2" 'BEGIN { exit !(a <= m * b) }' ||
		fail "$1 costs ${per[$1]} instructions per call, more than $2 x ${per[same]} (one callee repeated)"
}
check rr3 1.3; check rr8 1.3
check rec 2; check mut 2; check recx 2

# A loop region's hooks cost about what a function's do: the loop enter
# and exit hooks take the same fast path (loop pair <= 1.5x the function
# pair above; before, 155 instructions against 63 on Lua's run).
cat > loopy.c <<'C'
#include <stdlib.h>
volatile long acc;
__attribute__((noinline)) void with_loop(long i)
{
	for (long j = 0; j < 1 + (i & 0); j++)
		acc += j ^ i;
}
__attribute__((noinline)) void without(long i) { acc += i; }
int main(int argc, char **argv)
{
	long n = atol(argv[2]);
	for (long i = 0; i < n; i++)
		argv[1][0] == 'l' ? with_loop(i) : without(i);
	return 0;
}
C
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 loopy.c \
	-o loopy || fail "compile loopy.c"
lcount() { SELINST_OUTPUT=$WORK/l.prof valgrind --tool=callgrind --callgrind-out-file=/dev/null \
	./loopy "$1" "$2" 2>&1 | awk '/Collected/ { print $4 }'; }
l=$(( ($(lcount l 240000) - $(lcount l 120000)) / 120000 ))
w=$(( ($(lcount w 240000) - $(lcount w 120000)) / 120000 ))
yget l.prof 'any(r["kind"] == "loop" for r in d["regions"])' | grep -q True ||
	fail "the loop is not a region"
pair=$((l - w))
echo "loop region: $pair instructions per entry (function pair and call: ${per[same]})"
awk -v a="$pair" -v b="${per[same]}" 'BEGIN { exit !(a <= 1.5 * b) }' ||
	fail "a loop region's hooks cost $pair instructions per entry, more than 1.5 x ${per[same]}"
exit 0
