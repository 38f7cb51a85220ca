/* SPDX-License-Identifier: MIT */
/* bench/omp.sh's fork cost: N parallel regions whose body is one store
 * per thread (to its own cache line), the wall microseconds per fork
 * printed.  Linked with -lselinst or not: no plugin needed, the runtime
 * interposes GOMP_parallel. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile long sink[256 * 8];

static void fork_once(void)
{
#pragma omp parallel
	sink[(omp_get_thread_num() & 255) * 8]++;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	struct timespec a, b;
	fork_once();	/* the team's threads are created here */
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		fork_once();
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) /
			       (double)n / 1000.0);
	return 0;
}
