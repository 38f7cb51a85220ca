/* SPDX-License-Identifier: MIT */
/*
 * inline_regions.c - instrumented bodies that GCC inlines (inline=on, the
 * plugin's default): t-plugin-inline.sh.  Small static helpers called
 * from several places, a recursive one, one holding a loop, and the
 * setjmp shapes whose bodies must stay out of line (the longjmp resync
 * tells frames apart by stack pointer).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

/* Two callers, each inlining it: one region "helper". */
static int helper(int x) { return x * 3 + (x >> 2); }
__attribute__((noinline)) long use_a(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += helper(i);
	return s;
}
__attribute__((noinline)) long use_b(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += helper(i ^ 5) + 1;
	return s;
}

/* Recursive: GCC inlines some levels into itself at -O3. */
static int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 1) + (sink & 1); }

/* A loop in an inlined body. */
static int walk(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i * sink + i;
	return s;
}
__attribute__((noinline)) int use_walk(int n) { return walk(n) + walk(n + 1); }

/* setjmp: a helper inlined into the setjmp caller would share its stack
 * pointer; the plugin keeps such helpers out of line. */
static jmp_buf env;
__attribute__((noinline)) void thrower(int i)
{
	sink += i;
	if (i % 3 == 0)
		longjmp(env, 1);
}
static int jumpy(int i) { sink += 2 * i; thrower(i); return sink & 7; }
/* A body that is no region but holds a loop region. */
static int jumpy_loop(int n)
{
	for (int i = 0; i < n; i++)
		thrower(i + 1);
	return sink & 3;
}
__attribute__((noinline, selinst_instrument)) void after(void) { sink++; }
__attribute__((noinline)) int catcher(int i)
{
	int r = 0;
	if (setjmp(env) == 0)
		r = jumpy(i) + jumpy_loop(i % 5);
	after();
	return r;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	long t = use_a(n) + use_b(n);
	for (int i = 0; i < 20; i++)
		t += depth(i);
	for (int i = 0; i < 50; i++)
		t += use_walk(i);
	for (int i = 0; i < 30; i++)
		t += catcher(i);
	printf("%ld %d\n", t, sink);
	return 0;
}
