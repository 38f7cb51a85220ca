/* SPDX-License-Identifier: MIT */
/* Feedback's prediction of what the next run writes (t-plugin-feedback-
 * predict): eight cheap, hot callers g0..g7 (dropped by a budget of 1%)
 * each call work() on their first call, so that work(), kept, has eight
 * call-tree nodes in the first run and one, under main, once the callers
 * are dropped; leaf() and the callers are small, left out by the model
 * at the default threshold. */
#include <stdio.h>
#include <stdlib.h>

volatile unsigned long sink;

/* The time, outside any region: an instrumented function's own loop may
 * compile to another instruction an iteration (registers around the
 * hooks), which is not what is measured here. */
__attribute__((noinline, no_instrument_function)) static void burn(long n)
{
	unsigned long s = 0;
	for (long i = 0; i < n; i++)
		s += (unsigned long)i * 2654435761u ^ (s >> 3);
	sink += s;
}

__attribute__((noinline)) void work(long n) { burn(n); }

__attribute__((noinline)) void leaf(long i) { sink += (unsigned long)i; }

#define G(k) \
	__attribute__((noinline)) void g##k(long i, long n) \
	{ sink += (unsigned long)i; if (i == 0) work(n); }
G(0) G(1) G(2) G(3) G(4) G(5) G(6) G(7)

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 100000, n = argc > 2 ? atol(argv[2]) : 4000000;
	for (long i = 0; i < calls; i++) {
		g0(i, n); g1(i, n); g2(i, n); g3(i, n);
		g4(i, n); g5(i, n); g6(i, n); g7(i, n);
	}
	for (long i = 0; i < 10; i++)
		leaf(i);
	printf("%lu\n", (unsigned long)sink);
	return 0;
}
