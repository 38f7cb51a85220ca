/* SPDX-License-Identifier: MIT */
/* loop_counter.c - loops whose iteration counter GCC folds away at -O2
 * (t-plugin-loop-counter.sh): sum's counted for (the count is the
 * induction variable's final value), and ones whose counter stays a value
 * of its own: chase's data-dependent walk, and calls' loop around a call
 * (the count is stored before each call). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) unsigned long sum(const unsigned *a, unsigned n)
{
	unsigned long s = 0;
	for (unsigned i = 0; i < n; i++)	/* line 13: folded */
		s += a[i];
	return s;
}

__attribute__((noinline)) unsigned long chase(const unsigned *a, unsigned n)
{
	unsigned long s = 0;
	unsigned i = 0;
	while (a[i] != 0 && i < n) {		/* line 22: counted */
		s += a[i];
		i += 1 + (a[i] & 1);
	}
	return s;
}

volatile unsigned sink;
__attribute__((noinline)) void work(unsigned i)
{
	sink += i;
}

__attribute__((noinline)) void calls(unsigned n)
{
	for (unsigned i = 0; i < n; i++)	/* line 37: counted */
		work(i);
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 100000;
	unsigned *a = malloc((n + 1) * sizeof *a);
	for (unsigned i = 0; i < n; i++)
		a[i] = i % 7 + 1;
	a[n] = 0;
	unsigned long s = sum(a, n) + chase(a, n);
	calls(n / 10);
	printf("%lu\n", s);
	free(a);
	return 0;
}
