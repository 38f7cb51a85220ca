#!/bin/bash
# SPDX-License-Identifier: MIT
# The plugin's throttle test (t-plugin-throttle-inline.sh) on the other
# ways out of a function: an exception leaving through the exit pad, a
# caught one, a function that calls setjmp (its hooks stay unguarded) and
# a longjmp out of a frame.  Built at threshold 0 with -fchecking: the
# output is the plain build's with TAU's rule (100000:10000, the
# default's later rule; the early one, t-rt-throttle, would switch these
# off at 1,001 calls unless the first exception's unwinding made the mean
# too long) and with the throttle off; with it off every call is counted
# (the guard loses none), with TAU's rule each region is switched off and
# its counts stop there.
. "$(dirname "$0")/lib.sh"
cat > ex.cc <<'C'
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
static jmp_buf jb;
__attribute__((noinline)) int thrower(int i)
{
	if (i % 1000 == 999)
		throw std::runtime_error("x");
	return i & 7;
}
__attribute__((noinline)) int through(int i) { return thrower(i) + 1; }
__attribute__((noinline)) int catcher(int i)
{
	try {
		return through(i);
	} catch (const std::exception &) {
		return -1;
	}
}
__attribute__((noinline)) void jumper(int i)
{
	if (i % 500 == 0)
		longjmp(jb, 1);
}
__attribute__((noinline)) int sj(int i)
{
	volatile int r = i & 3;
	if (setjmp(jb))
		return 5;
	jumper(i);
	return r;
}
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300000, t = 0;
	for (long i = 0; i < n; i++)
		t += catcher((int)i) * 3 + sj((int)i);
	printf("%ld\n", t);
	return 0;
}
C
g++ -O2 ex.cc -o plain || fail "plain build"
si_cxx -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off ex.cc -o inst ||
	fail "instrumented build"
./plain > plain.out || fail "plain run"
for mode in off default; do
	if [ $mode = off ]; then export SELINST_THROTTLE=off; else export SELINST_THROTTLE=100000:10000; fi
	SELINST_OUTPUT=$PWD/$mode.prof ./inst > $mode.out || fail "instrumented run ($mode)"
	cmp -s plain.out $mode.out || fail "output differs from plain ($mode)"
done
# Calls per region (all contexts, all threads) and the throttle record.
python3 - off.prof default.prof <<'PY' || fail "profile counts"
import sys, yaml
def load(f):
    p = yaml.safe_load(open(f))
    # One node per region: every call in its one calling context.
    nodes = [n["region"] for t in p["threads"] for n in t["nodes"]]
    assert len(nodes) == len(set(nodes)) == len(p["regions"]), (f, len(nodes))
    calls = {}
    for t in p["threads"]:
        for n in t["nodes"]:
            calls[n["region"]] = calls.get(n["region"], 0) + n["calls"]
    # "int thrower(int)" -> thrower
    return {r["name"].split("(")[0].split()[-1]: (calls.get(r["id"], 0), r.get("throttled"))
            for r in p["regions"]}
off, on = load(sys.argv[1]), load(sys.argv[2])
names = ["thrower", "through", "catcher", "jumper", "sj"]
for name in names:
    assert off[name] == (300000, None), (name, off[name])
    calls, th = on[name]
    assert th and 100001 <= th["calls"] <= 100002, (name, th)
    # The deciding context passed 100,000 calls; the others (sj's
    # returns by longjmp are its own calling context) stop soon after.
    assert 100001 <= calls <= 100001 + 1000, (name, calls)
PY
exit 0
