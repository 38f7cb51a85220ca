#!/bin/bash
# SPDX-License-Identifier: MIT
# A sample in another module's code names its caller (issue 14, point 3):
# the hot leaf is in a shared library built without the plugin and
# without debug information (as libm's exp), called from two helpers that
# -O2 inlines into one hooked loop.  Each sample in the leaf goes under
# the helper whose call it came from (~helper_a;~hot_leaf), found by the
# return address above the interrupted stack pointer, helper_a's more
# (3 times the work; the ratio itself is not asserted: under load a
# signal's overrun weight can stand for many ticks of one PC); without
# callers both would be one ~hot_leaf under the loop.
. "$(dirname "$0")/lib.sh"
cat >lib.c <<'EOF'
double hot_leaf(double x, int n)
{
	for (int i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}
EOF
cat >main.c <<'EOF'
#include <stdio.h>
#include <time.h>
double hot_leaf(double x, int n);
static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
static inline __attribute__((always_inline)) double helper_a(double x)
{
	return hot_leaf(x, 30000) * 0.5 + 1;
}
static inline __attribute__((always_inline)) double helper_b(double x)
{
	return hot_leaf(x, 10000) * 0.5 + 1;
}
__attribute__((noinline)) double work(double secs)
{
	double x = 1, t0 = cpu_now();
	while (cpu_now() - t0 < secs)	/* secs of CPU, however busy the machine */
		x = helper_a(x) + helper_b(x);
	return x;
}
int main(void)
{
	printf("%g\n", work(0.5));
	return 0;
}
EOF
gcc -O2 -fPIC -shared lib.c -o libhot.so || fail "compile the library"
si_cc -O2 -g -fplugin-arg-selinst-threshold=0 main.c -o main -L. -lhot -Wl,-rpath,"$PWD" ||
	fail "compile the program"
SELINST_SAMPLE=1000 ./main >/dev/null 2>err.txt || fail "run: $(cat err.txt)"
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
sampled_paths main.prof >paths.txt || fail "the report's tree"
python3 - paths.txt <<'PY' || fail "the leaf's samples not under their callers: $(cat paths.txt)"
import sys
named = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[1]))
def under(end):
    return sum(int(v) for k, v in named.items() if k.endswith(end))
a, b = under(";~helper_a;~hot_leaf"), under(";~helper_b;~hot_leaf")
leaf, by = under(";~hot_leaf"), named
# Nearly every leaf sample names its caller; both callers are seen.
# (0.5 s of CPU at 1000 Hz: about 500; under heavy load CI saw half the
# rate, as in t-rt-sample, so the floor is 150.)
assert a + b >= 0.95 * leaf and leaf >= 150, by
# The work is 3:1, but on a loaded machine the shares drift, probably
# because CPU-clock timer expiries come in bursts (one signal standing
# for several at one PC): CI once saw 471:27.  So the test asks for the order and a fair presence only.
assert a > b >= 0.02 * leaf, by
PY
# The run names nothing itself (profile version 3): it never loads libdw
# (which the runtime dlopen'ed at the write before; the report names).
SELINST_SAMPLE=1000 LD_DEBUG=files ./main >/dev/null 2>ld.txt || fail "run with LD_DEBUG"
grep -q 'file=libselinst' ld.txt || fail "LD_DEBUG=files said nothing: $(head ld.txt)"
grep -E 'file=lib(dw|elf)' ld.txt && fail "the sampled run loaded libdw or libelf"
"$REPORT" --format=folded main.prof >f.txt || fail "folded"
grep -Eq '^main;work;main\.c:[0-9]+;~helper_a;~hot_leaf [0-9]+$' f.txt || fail "folded: $(cat f.txt)"
grep -Eq '^main;work;main\.c:[0-9]+;~helper_b;~hot_leaf [0-9]+$' f.txt || fail "folded: $(cat f.txt)"
exit 0
