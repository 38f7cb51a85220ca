/* SPDX-License-Identifier: MIT */
/* OpenMP waits: a parallel region whose master (OpenMP thread 0, the
 * profile's thread 0) works as long as the others and then sleeps about
 * four times that (imbalance at the region's end on the others; a sleep,
 * not more work, so that the others wait for it however loaded the
 * machine is: with work, a starved light thread finished with the
 * master), a
 * dynamic loop with one slow chunk, and a critical section every thread
 * enters often (synchronization).  Argument: units of work. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

static void work(long units)
{
	double x = 0;
	for (long i = 0; i < units * 2000000; i++)
		x += (double)i * 0.5;
	sink = x;
}

static void imbalanced(long units)
{
#pragma omp parallel
	{
		work(units);
		if (omp_get_thread_num() == 0) {
			struct timespec ts = { 0, units * 12500000L };
			while (nanosleep(&ts, &ts) != 0)
				;
		}
	}
}

static void dynamic_loop(long units)
{
#pragma omp parallel for schedule(dynamic)
	for (int i = 0; i < 8; i++)
		work(i == 0 ? 4 * units : units / 2);
}

static void contended(long units)
{
	double total = 0;
#pragma omp parallel
	for (int k = 0; k < 40; k++) {
#pragma omp critical
		{
			work(units / 4 + 1);
			total += 1;
		}
	}
	printf("critical entries %.0f\n", total);
}

int main(int argc, char **argv)
{
	long units = argc > 1 ? atol(argv[1]) : 4;
	imbalanced(units);
	dynamic_loop(units);
	contended(units);
	return 0;
}
