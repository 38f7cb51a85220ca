/* SPDX-License-Identifier: MIT */
/*
 * timeline-demo.c - a small multi-thread program whose trace
 * (SELINST_MODE=trace) makes a readable timeline (bench/timeline.sh):
 * main sets up, starts 3 workers and reduces; each worker runs 4 steps of
 * a solve() whose inner kernel loop takes 1 to 4 ms depending on the
 * worker, then waits at a barrier, so the tracks show the imbalance.
 */
#include <pthread.h>
#include <stdio.h>
#include "selinst.h"

#define WORKERS 3
#define STEPS 4

static pthread_barrier_t bar;
static volatile double sink;

/* About MS milliseconds of arithmetic. */
__attribute__((noinline)) SELINST_ALWAYS static void kernel(int ms)
{
	double x = 0;
	for (long i = 0; i < ms * 1000000L; i++)
		x += (double)i * 1e-9;
	sink += x;
}

__attribute__((noinline)) SELINST_ALWAYS static void solve(int w, int step)
{
	for (int k = 0; k < 2; k++)
		kernel(1 + (w + step + k) % 4);
}

__attribute__((noinline)) SELINST_ALWAYS static void wait_others(void)
{
	pthread_barrier_wait(&bar);
}

__attribute__((noinline)) SELINST_ALWAYS static void *worker(void *arg)
{
	int w = (int)(long)arg;
	for (int s = 0; s < STEPS; s++) {
		solve(w, s);
		wait_others();
	}
	return NULL;
}

__attribute__((noinline)) SELINST_ALWAYS static void setup(void) { kernel(3); }
__attribute__((noinline)) SELINST_ALWAYS static void reduce(void) { kernel(2); }

int main(void)
{
	pthread_t t[WORKERS];
	setup();
	pthread_barrier_init(&bar, NULL, WORKERS);
	for (long i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	reduce();
	printf("%.3f\n", sink);
	return 0;
}
