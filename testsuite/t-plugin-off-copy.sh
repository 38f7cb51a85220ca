#!/bin/bash
# SPDX-License-Identifier: MIT
# off-copy (issue 10): a switched-off region runs code like the plain
# build's.  A function's own hooks go into a copy of its body
# (NAME.selinst) that its entry calls while the region is on; a function
# with loop regions becomes a dispatcher over three copies: all hooks,
# loop hooks only (the function switched off, a loop still on), none
# (everything switched off).  Counted with callgrind against a control
# built without the plugin in the same run: before, the hooks sat in the
# body behind the flag, which stayed live to every exit, and the hook
# calls' saved registers were pushed and popped on every call (libxml2's
# xmlStrEqual 19 instructions a call plain, 37 switched off); here a few.
# Counts, output and the three paths are checked too; off-copy=off keeps
# the hooks in the body.
. "$(dirname "$0")/lib.sh"
cat > oc.c <<'C'
#include <stdio.h>
#include <stdlib.h>
/* xmlStrEqual's shape: a loop of small work, no call. */
__attribute__((noinline)) int eq(const char *a, const char *b)
{
	if (a == b)
		return 1;
	if (!a || !b)
		return 0;
	while (*a == *b) {
		if (!*a)
			return 1;
		a++;
		b++;
	}
	return 0;
}
/* xmlOutputBufferWrite's: a do-while around calls, entered once a call. */
/* Left out (so is main): an instrumented callee's hooks would cost its
 * callers the registers GCC's IPA register allocation saves them. */
static long sink;
__attribute__((noinline, no_instrument_function)) void put(const char *p, int n) { sink += p[0] + n; }
__attribute__((noinline)) int write_all(const char *buf, int len)
{
	int done = 0;
	if (len < 0)
		return -1;
	do {
		int chunk = len > 16 ? 16 : len;
		put(buf, chunk);
		buf += chunk;
		len -= chunk;
		done += chunk;
	} while (len > 0);
	return done;
}
/* A loop entered on every fourth call: still on when its function is
 * switched off. */
__attribute__((noinline)) int some(int k)
{
	int s = 0;
	if (k % 4 == 0)
		for (int i = 0; i < 3; i++) {
			put("x", i);
			s += i;
		}
	return s + k;
}
__attribute__((no_instrument_function)) int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4000, t = 0;
	const char *w[2] = { "alpha", "alphb" };
	for (long i = 0; i < n; i++)
		t += eq(w[0], w[i & 1]) + write_all("0123456789abcdef0123", 20) + some((int)i);
	printf("%ld %ld\n", t, sink);
	return 0;
}
C
gcc -O2 oc.c -o plain || fail "plain build"
si_cc -O2 -fplugin-arg-selinst-threshold=0 oc.c -o inst || fail "instrumented build"
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-off-copy=off oc.c -o incopy ||
	fail "off-copy=off build"
# The copies exist, and the functions themselves call no hook.
nm inst | grep -q ' t eq\.selinst\.' || fail "no copy of eq: $(nm inst | grep eq)"
nm inst | grep -q ' t write_all\.selinst_off\.' || fail "no hook-free copy of write_all"
nm inst | grep -q ' t write_all\.selinst_loops\.' || fail "no loop-hooks copy of write_all"
for f in eq write_all some; do
	gdb -batch -ex "disassemble $f" inst > $f.s 2>&1 || fail "disassemble $f"
	! grep -q 'call.*<__selinst_' $f.s || fail "$f calls a hook itself: $(cat $f.s)"
done
nm incopy | grep -q 'selinst\.' && fail "off-copy=off made copies: $(nm incopy | grep selinst)"
for O in -O0 -O1 -O3 -Os; do
	si_cc $O -fplugin-arg-selinst-threshold=0 oc.c -o inst$O || fail "instrumented build $O"
	[ "$(./inst$O 100)" = "$(./plain 100)" ] || fail "$O: output differs"
done

# Every count as with the hooks in the body: all on, then the early rule
# switching regions off at 1,001 calls (some's loop, entered 1,000 times,
# stays on while some is off: the loop-hooks copy).
./plain > plain.out
for b in inst incopy; do
	for th in off 1000:1000000000; do
		SELINST_THROTTLE=$th SELINST_OUTPUT=$PWD/$b-$th.prof ./$b > out.txt || fail "$b $th run"
		cmp -s out.txt plain.out || fail "$b $th: output differs"
		python3 - $b-$th.prof > $b-$th.txt <<'PY' || fail "$b $th profile"
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
names = {r["id"]: r["name"] for r in p["regions"]}
rows = {}
for t in p["threads"]:
    for n in t["nodes"]:
        k = names[n["region"]]
        c, i = rows.get(k, (0, 0))
        rows[k] = (c + n["calls"], i + n.get("iterations", 0))
for k in sorted(rows):
    print(k, *rows[k])
PY
	done
done
diff inst-off.txt incopy-off.txt > /dev/null || fail "counts differ: $(diff inst-off.txt incopy-off.txt)"
diff inst-1000:1000000000.txt incopy-1000:1000000000.txt > /dev/null ||
	fail "throttled counts differ: $(diff inst-1000:1000000000.txt incopy-1000:1000000000.txt)"
grep -q '^eq 1001 ' inst-1000:1000000000.txt || fail "eq not switched off: $(cat inst-1000:1000000000.txt)"
grep -q '^some 1001 ' inst-1000:1000000000.txt || fail "some not switched off"
grep -q '^oc.c:43 1000 3000$' inst-1000:1000000000.txt ||
	fail "some's loop while some is off: $(cat inst-1000:1000000000.txt)"

# Per call, everything switched off at once: 2 million calls of each
# against the control.
need valgrind
count() { SELINST_OUTPUT=$PWD/x.prof valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
	sed -n 's/.*Collected : //p'; }
p1=$(count ./plain 1000000); p2=$(count ./plain 3000000)
for b in inst incopy; do
	i1=$(SELINST_THROTTLE=1:1000000000 count ./$b 1000000)
	i2=$(SELINST_THROTTLE=1:1000000000 count ./$b 3000000)
	eval per_$b=$(( ((i2 - i1) - (p2 - p1)) / 2000000 ))
done
echo "switched off, per iteration of the three calls: $per_inst instructions more than plain ($per_incopy with off-copy=off)"
[ "$per_inst" -le 18 ] || fail "three switched-off calls cost $per_inst instructions more (want <= 18: a dispatch of two tests and a jump each)"
echo "ok"
