#!/bin/bash
# SPDX-License-Identifier: MIT
# Loop regions behind the throttle test: a call-free loop loads its
# descriptor's switched-off bit at each entry and skips both loop hooks
# (loops.cc, loop_guardable).  Threshold 0, loop-threshold 0, -fchecking:
# the output is the plain build's; with the throttle off every loop run
# and its trip counts are recorded; with TAU's rule (100000:10000, the
# default's later one) each loop stops at 100,001; a switched-off loop costs a few instructions per run, against
# a control built without the plugin in the same run (callgrind).
. "$(dirname "$0")/lib.sh"
need valgrind
cat > lp.c <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) int work(int *a, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (a[i] < 0)
			break;
		s += a[i];
	}
	for (int j = 0; j < n; j++)
		s ^= a[j] << 1;
	return s;
}
__attribute__((no_instrument_function)) int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300000, t = 0;
	int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	for (long i = 0; i < n; i++) {
		a[i & 7] = (i % 5000 == 0) ? -1 : (int)i;
		t += work(a, 8);
	}
	printf("%ld\n", t);
	return 0;
}
C
gcc -O2 lp.c -o plain || fail "plain build"
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 lp.c -o inst ||
	fail "instrumented build"
./plain > plain.out || fail "plain run"
SELINST_THROTTLE=off SELINST_OUTPUT=$PWD/off.prof ./inst > off.out || fail "run, throttle off"
SELINST_THROTTLE=100000:10000 SELINST_OUTPUT=$PWD/on.prof ./inst > on.out || fail "run, TAU's rule"
cmp -s plain.out off.out && cmp -s plain.out on.out || fail "output differs from plain"
python3 - off.prof on.prof <<'PY' || fail "profile counts"
import sys, yaml
def loops(f):
    p = yaml.safe_load(open(f))
    out = {}
    for r in p["regions"]:
        if r["kind"] != "loop" or not r["name"].startswith("lp.c:") or r["name"] == "lp.c:19":
            continue
        ns = [n for t in p["threads"] for n in t["nodes"] if n["region"] == r["id"]]
        out[r["name"]] = (sum(n["calls"] for n in ns), r.get("throttled"),
                          [n.get("trip_counts") for n in ns])
    return out
off, on = loops(sys.argv[1]), loops(sys.argv[2])
assert sorted(off) == ["lp.c:11", "lp.c:6"], sorted(off)
# a[0] is negative for 8 calls in every 5000: those runs stop at once
assert off["lp.c:6"] == (300000, None, [{"1": 480, "8": 299520}]), off["lp.c:6"]
assert off["lp.c:11"] == (300000, None, [{"8": 300000}]), off["lp.c:11"]
for name, (calls, th, _) in on.items():
    assert th and th["calls"] == 100001 and calls == 100001, (name, calls, th)
PY
# Per call of work with everything switched off at once, against the
# same program with its loops not instrumented (the function's own test
# cancels; main is left out, so that its loop's count store and
# iteration mark, once per call of work, do not count here): each switched-off loop run costs its test (a load, a branch
# at entry and at exit) and its iteration counter (1 per iteration, 16
# here, kept: the count is made in a register whatever the switch).  The
# unguarded hooks cost 128 here (each a call, a test and a return, the
# exit's switched-off check).
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off lp.c -o noloops ||
	fail "build without loops"
count() { SELINST_OUTPUT=$PWD/x.prof valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
	sed -n 's/.*Collected : //p'; }
export SELINST_THROTTLE=1:1000000000
p1=$(count ./noloops 500000); p2=$(count ./noloops 1000000)
i1=$(count ./inst 500000); i2=$(count ./inst 1000000)
per=$(( ((i2 - i1) - (p2 - p1)) / 500000 ))
echo "two switched-off loop runs: $per instructions per call"
[ "$per" -le 32 ] || fail "two switched-off loop runs cost $per instructions (want <= 2 x 8 + 16)"
