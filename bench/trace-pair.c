/* SPDX-License-Identifier: MIT */
/*
 * trace-pair.c - one enter/exit pair's cost with events recorded and
 * without, in one process (SELINST_MODE=trace or flight): rounds of PAIRS
 * pairs of one region alternate between selinst_trace_off() (the profile
 * mode's fast paths) and selinst_trace_on(), A B A B, so that a loaded
 * machine slows both alike.  Prints the median ns per pair of each and
 * their difference, then the same for the fastest round of each (the
 * least disturbed by other work).  With "cpu", rounds are timed in the
 * thread's CPU time (its page faults included, time it waited for a CPU
 * not): steadier on a shared machine, but blind to a hypervisor's own
 * work on first-touched memory, which wall time shows.
 *
 *   trace-pair [pairs-per-round] [rounds] [cpu]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "selinst.h"

static const struct selinst_region r_f = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 1, 0, "f", "trace-pair.c", 0 };

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(clock_id, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double round_ns(long n)
{
	double t0 = now_s();
	for (long i = 0; i < n; i++) {
		__selinst_enter(&r_f);
		__selinst_exit(&r_f);
	}
	return (now_s() - t0) * 1e9 / n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 500000;
	int rounds = argc > 2 ? atoi(argv[2]) : 9;
	double off[64], on[64];
	if (argc > 3 && !strcmp(argv[3], "cpu"))
		clock_id = CLOCK_THREAD_CPUTIME_ID;
	if (rounds < 1 || rounds > 64 || n < 1)
		return 2;
	for (int r = 0; r < rounds; r++) {
		selinst_trace_off();
		off[r] = round_ns(n);
		selinst_trace_on();
		on[r] = round_ns(n);
	}
	qsort(off, rounds, sizeof off[0], cmp);
	qsort(on, rounds, sizeof on[0], cmp);
	printf("%.2f %.2f %+.2f %.2f %.2f %+.2f\n", off[rounds / 2], on[rounds / 2],
	       on[rounds / 2] - off[rounds / 2], off[0], on[0], on[0] - off[0]);
	return 0;
}
