#!/bin/bash
# SPDX-License-Identifier: MIT
# A region the runtime switched off (SELINST_THROTTLE) costs a load and a
# branch in the instrumented function itself: the plugin tests the
# descriptor's throttled bit once at entry and skips both hook calls.
# Measured with callgrind against a control built without the plugin in
# the same run; output, exit status and counts as documented.
. "$(dirname "$0")/lib.sh"
need valgrind
cat > th.c <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }
__attribute__((noinline)) int mid(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += leaf(i);
	if (n < 0)
		abort();
	return s;
}
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300000, t = 0;
	for (long i = 0; i < n; i++)
		t += leaf((int)i) + (i % 1000 == 0 ? mid(10) : 0);
	printf("%ld\n", t);
	return 3;
}
C
gcc -O2 th.c -o plain || fail "plain build"
si_cc -O2 -fplugin-arg-selinst-threshold=0 th.c -o inst || fail "instrumented build"
# TAU's rule (the default's later one; its early rule is t-rt-throttle's):
# leaf is switched off at its 100,001st call in the thread, its two
# calling contexts (main, mid) together; the rest of the run goes on with
# the same output and exit status.
./plain > plain.out; prc=$?
SELINST_THROTTLE=100000:10000 SELINST_OUTPUT=$PWD/th.prof ./inst > inst.out; irc=$?
cmp -s plain.out inst.out && [ $prc = $irc ] || fail "output or status differ ($prc, $irc)"
python3 - th.prof <<'PY' || fail "throttle record"
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
leaf = [r for r in p["regions"] if r["name"] == "leaf"][0]
calls = sum(n["calls"] for t in p["threads"] for n in t["nodes"] if n["region"] == leaf["id"])
th = leaf.get("throttled") or {}
assert th.get("calls") == 100001, th
# mid's 10 calls for each of its 100 runs before the switch among them
# (counted per context, the switch came at 100,001 from main, after
# 1,000 or 1,010 more from mid)
assert calls == 100001, calls
PY
# Per call of a switched-off leaf: everything switched off at once
# (1 call, any time), 2 million calls against the control.
count() { SELINST_OUTPUT=$PWD/x.prof valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
	sed -n 's/.*Collected : //p'; }
p1=$(count ./plain 1000000); p2=$(count ./plain 3000000)
i1=$(SELINST_THROTTLE=1:1000000000 count ./inst 1000000)
i2=$(SELINST_THROTTLE=1:1000000000 count ./inst 3000000)
per=$(( ((i2 - i1) - (p2 - p1)) / 2000000 ))
echo "switched-off call: $per instructions more than the plain call"
[ "$per" -le 8 ] || fail "a switched-off call costs $per instructions (want <= 8)"
