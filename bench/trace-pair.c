/* SPDX-License-Identifier: MIT */
/*
 * trace-pair.c - one enter/exit pair's cost in the mode the environment
 * chooses (SELINST_MODE=profile, trace or flight): ROUNDS rounds of PAIRS
 * pairs of one region, median ns per pair.  bench/trace.sh runs it once
 * per mode, in turn, and compares.
 *
 *   trace-pair [pairs-per-round] [rounds]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "selinst.h"

static const struct selinst_region r_f = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 1, 0, "f", "trace-pair.c", 0 };

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	double ns[64];
	if (rounds < 1 || rounds > 64 || n < 1)
		return 2;
	for (int r = 0; r < rounds; r++) {
		double t0 = now_s();
		for (long i = 0; i < n; i++) {
			__selinst_enter(&r_f);
			__selinst_exit(&r_f);
		}
		ns[r] = (now_s() - t0) * 1e9 / n;
	}
	qsort(ns, rounds, sizeof ns[0], cmp);
	printf("%.2f\n", ns[rounds / 2]);
	return 0;
}
