/* 50 time steps, step 17 made 100 times slower (issue 15); threads with phases. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selinst.h"

static _Thread_local volatile double sink;	/* per thread: no data race */

__attribute__((noinline)) void compute(long n)
{
	double s = 0;
	for (long i = 0; i < n; i++)
		s += (double)i * 0.5;
	sink = s;
}

__attribute__((noinline)) void exchange(long n)
{
	double s = 0;
	for (long i = 0; i < n; i++)
		s += (double)i;
	sink = s;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	for (int step = 0; step < 20; step++) {
		selinst_phase_begin("timestep");
		compute(id == 1 ? 400000 : 200000);	/* thread 1: twice the work */
		selinst_phase_end("timestep");
	}
	return NULL;
}

static void *ender(void *arg)
{
	selinst_phase_end("cross");	/* not this thread's: reported, ignored */
	return arg;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "steps";
	if (!strcmp(mode, "steps")) {
		int steps = argc > 2 ? atoi(argv[2]) : 50;
		for (int warm = 0; warm < 200; warm++)	/* many cheap iterations */
			exchange(10);
		for (int step = 1; step <= steps; step++) {
			compute(step == 17 ? 10000000 : 100000);
			exchange(20000);
		}
	} else if (!strcmp(mode, "threads")) {
		pthread_t t[2];
		for (long i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, worker, (void *)i);
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	} else if (!strcmp(mode, "cross")) {
		/* a phase begun in this thread and ended in another one */
		pthread_t t;
		selinst_phase_begin("cross");
		pthread_create(&t, NULL, ender, NULL);
		pthread_join(t, NULL);
		compute(1000);
		selinst_phase_end("cross");	/* the real end: one iteration */
	} else if (!strcmp(mode, "unbalanced")) {
		selinst_phase_end("never-begun");
		selinst_phase_begin("outer");
		selinst_region_begin("inner");
		selinst_phase_end("outer");	/* inner still open: ignored */
		selinst_region_end("inner");
		selinst_phase_end("outer");
		selinst_phase_end("outer");	/* twice: reported once in all */
	}
	printf("done %s\n", mode);
	return 0;
}
