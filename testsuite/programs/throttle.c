/* throttle.c - a cheap function and a cheap inner loop called often, a
 * costly one, a medium one (between the default's bounds), and a thread
 * that calls the cheap one after it was switched off (t-rt-throttle.sh). */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

volatile unsigned sink;

__attribute__((noinline)) void tiny(unsigned i)
{
	sink += i;
}

/* At least 100 us of CPU per call. */
__attribute__((noinline)) void costly(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int k = 0; k < 200; k++)
			sink += k;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 100000);
}

__attribute__((noinline)) void rows(unsigned n)
{
	for (unsigned r = 0; r < n; r++) {
		for (unsigned c = 0; c < 3; c++)	/* the cheap inner loop */
			sink += r * c;
		tiny(r);
	}
}

/* At least 2 us of CPU per call: over the early rule's 200 ns, under
 * TAU's 10 us. */
__attribute__((noinline)) void medium(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	long end = t.tv_sec * 1000000000L + t.tv_nsec + 2000;
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while (t.tv_sec * 1000000000L + t.tv_nsec < end);
}

static void *late(void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < 1000; i++)
		tiny(i);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 150000;
	unsigned heavy = argc > 2 ? (unsigned)atoi(argv[2]) : 0;
	unsigned mid = argc > 3 ? (unsigned)atoi(argv[3]) : 0;
	for (unsigned i = 0; i < n; i++)
		tiny(i);
	for (unsigned i = 0; i < heavy; i++)
		costly();
	for (unsigned i = 0; i < mid; i++)
		medium();
	rows(n);
	pthread_t th;
	pthread_create(&th, NULL, late, NULL);
	pthread_join(th, NULL);
	return 0;
}
