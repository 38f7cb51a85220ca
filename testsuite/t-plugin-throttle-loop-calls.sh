#!/bin/bash
# SPDX-License-Identifier: MIT
# Loops holding a call behind the throttle test (loops.cc, loop_guardable,
# merge_skipped_cells): once the runtime switched such a loop off, its
# enter and exit hooks are no longer called, and the count it stores at
# each body start goes to a variable in the function's own frame.  An
# LD_PRELOAD shim counts the calls of __selinst_loop_enter and
# __selinst_loop_exit for this program's loops and forwards them.  Built
# at -O0 and -O2 with -fchecking: the output is the plain build's, with
# two threads, and with a longjmp out of the loop before and after the
# switch; the profile keeps the loop's counts up to the switch; a call of
# exit() inside the switched-off loop still writes the profile.  In C++,
# an exception leaving the loop before the switch runs its exit hook in
# the plugin's pad, and after the switch skips it too.
. "$(dirname "$0")/lib.sh"
cat > shim.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selinst.h"
static unsigned long enters, exits;
static int ours(const struct selinst_region *r)
{
	return r->file && (strcmp(r->file, "lc.c") == 0 || strcmp(r->file, "lx.cc") == 0);
}
uint64_t *__selinst_loop_enter(const struct selinst_region *r)
{
	static uint64_t *(*next)(const struct selinst_region *);
	if (!next)
		next = (uint64_t *(*)(const struct selinst_region *))
			dlsym(RTLD_NEXT, "__selinst_loop_enter");
	if (ours(r))
		__atomic_add_fetch(&enters, 1, __ATOMIC_RELAXED);
	return next(r);
}
void __selinst_loop_exit(const struct selinst_region *r, uint64_t n)
{
	static void (*next)(const struct selinst_region *, uint64_t);
	if (!next)
		next = (void (*)(const struct selinst_region *, uint64_t))
			dlsym(RTLD_NEXT, "__selinst_loop_exit");
	if (ours(r))
		__atomic_add_fetch(&exits, 1, __ATOMIC_RELAXED);
	next(r, n);
}
__attribute__((destructor)) static void report(void)
{
	FILE *o = fopen(getenv("SHIM_OUT"), "w");
	if (o) {
		fprintf(o, "%lu %lu\n", enters, exits);
		fclose(o);
	}
}
C
cat > lc.c <<'C'
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
static jmp_buf jb;
static long jump_at = -1, exit_at = -1;
static __thread long calls;
__attribute__((noinline, no_instrument_function)) int f(int x)
{
	if (calls == jump_at && x == 3)
		longjmp(jb, 1);
	if (calls == exit_at && x == 3) {
		printf("exit\n");
		fflush(stdout);
		exit(0);
	}
	__asm__ volatile("");
	return x * 3 + 1;
}
__attribute__((noinline)) long work(const int *a, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += f(a[i]);
	return s;
}
__attribute__((no_instrument_function)) static void *run(void *arg)
{
	long n = *(long *)arg, t = 0;
	int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	for (calls = 0; calls < n; calls++) {
		a[calls & 7 & ~2] = (int)calls;
		t += work(a, 8);
	}
	*(long *)arg = t;
	return NULL;
}
__attribute__((no_instrument_function)) int main(int argc, char **argv)
{
	long n = atol(argv[1]), m = n;
	int threads = atoi(argv[2]);
	jump_at = atol(argv[3]);
	exit_at = atol(argv[4]);
	if (threads > 1) {
		pthread_t th;
		pthread_create(&th, NULL, run, &m);
		run(&n);
		pthread_join(th, NULL);
		printf("%ld %ld\n", n, m);
		return 0;
	}
	volatile int jumps = 0;
	if (setjmp(jb))
		jumps++;
	if (jumps < 2) {
		jump_at = jumps ? atol(argv[5]) : jump_at;
		run(&n);
	}
	printf("%ld %d\n", n, jumps);
	return 0;
}
C
cat > lx.cc <<'C'
#include <cstdio>
#include <cstdlib>
static long throw_at[2], calls;
__attribute__((noinline, no_instrument_function)) int g(int x)
{
	if (x == 3 && (calls == throw_at[0] || calls == throw_at[1]))
		throw calls;
	return x * 3 + 1;
}
__attribute__((noinline)) long work(const int *a, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += g(a[i]);
	return s;
}
__attribute__((no_instrument_function)) int main(int argc, char **argv)
{
	long n = atol(argv[1]), t = 0;
	throw_at[0] = atol(argv[2]);
	throw_at[1] = atol(argv[3]);
	int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	for (calls = 0; calls < n; calls++) {
		a[calls & 7 & ~2] = (int)calls;
		try {
			t += work(a, 8);
		} catch (long c) {
			t -= c;
		}
	}
	printf("%ld\n", t);
	return 0;
}
C
gcc -O2 -shared -fPIC -I"$SELINST_ROOT/include" shim.c -o shim.so -ldl || fail "shim build"
gcc -O2 lc.c -o plain -pthread || fail "plain build"
g++ -O2 lx.cc -o plainx || fail "plain build (C++)"
N=100000
export SELINST_THROTTLE=1000:1000000000
for O in -O0 -O2; do
	si_cc $O -pthread -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 \
		lc.c -o inst || fail "$O: instrumented build"
	# what: the arguments (calls, threads, longjmp at, exit at, second longjmp at)
	for what in "$N 1 -1 -1 -1" "$N 2 -1 -1 -1" "$N 1 500 -1 50000" "$N 1 -1 60000 -1"; do
		./plain $what > plain.out || fail "$O $what: plain run"
		rm -f lc.prof
		SHIM_OUT=$PWD/hooks LD_PRELOAD=$PWD/shim.so SELINST_OUTPUT=$PWD/lc.prof \
			./inst $what > inst.out || fail "$O $what: instrumented run"
		cmp -s plain.out inst.out || fail "$O $what: output differs from plain"
		read -r enters exits < hooks || fail "$O $what: no hook counts"
		echo "$O $what: $enters loop enters, $exits loop exits"
		# Each thread counts its own calls up to 1001 before the switch
		# (one thread may be ahead), a few more while the other decides.
		[ "$enters" -ge 1001 ] && [ "$enters" -le 2100 ] ||
			fail "$O $what: $enters loop enters (the switched-off loop's enter still called?)"
		python3 - lc.prof "$what" "$enters" "$exits" <<'PY' || fail "$O $what: profile"
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
what, enters, exits = sys.argv[2].split(), int(sys.argv[3]), int(sys.argv[4])
r = [r for r in p["regions"] if r["kind"] == "loop" and r["name"] == "lc.c:23"]
assert len(r) == 1, p["regions"]
r = r[0]
assert r["throttled"]["calls"] == 1001, r
ns = [n for t in p["threads"] for n in t["nodes"] if n["region"] == r["id"]]
calls = sum(n["calls"] for n in ns)
trips = {}
for n in ns:
    for k, v in (n.get("trip_counts") or {}).items():
        trips[k] = trips.get(k, 0) + v
# every pushed frame closed and counted, by its exit hook or, for a
# longjmp before the switch, by the runtime from the loop's cell: the
# call of f that jumps is the third, two iterations begun before
if what[2] == "500":
    assert enters == exits + 1 and calls == enters and trips.get("3") == 1, (enters, exits, calls, trips)
else:
    assert enters == exits and calls == enters, (enters, exits, calls)
assert sum(trips.values()) == calls and trips.get("8") >= 1000, trips
PY
	done
	si_cxx $O -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 \
		lx.cc -o instx || fail "$O: instrumented build (C++)"
	./plainx $N 500 50000 > plain.out || fail "$O: plain run (C++)"
	SHIM_OUT=$PWD/hooks LD_PRELOAD=$PWD/shim.so SELINST_OUTPUT=$PWD/lx.prof \
		./instx $N 500 50000 > inst.out || fail "$O: instrumented run (C++)"
	cmp -s plain.out inst.out || fail "$O: output differs from plain (C++)"
	read -r enters exits < hooks || fail "$O: no hook counts (C++)"
	echo "$O C++, throws at 500 and 50000: $enters loop enters, $exits loop exits"
	[ "$enters" = 1001 ] && [ "$exits" = 1001 ] ||
		fail "$O: C++: $enters loop enters, $exits exits (want 1001 each)"
	python3 - lx.prof <<'PY' || fail "$O: profile (C++)"
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
r = [r for r in p["regions"] if r["kind"] == "loop" and r["name"] == "lx.cc:13"][0]
assert r["throttled"]["calls"] == 1001, r
ns = [n for t in p["threads"] for n in t["nodes"] if n["region"] == r["id"]]
trips = {}
for n in ns:
    for k, v in (n.get("trip_counts") or {}).items():
        trips[k] = trips.get(k, 0) + v
# the run that threw is counted by the pad: two iterations begun
assert trips == {"8": 1000, "3": 1}, trips
PY
done
