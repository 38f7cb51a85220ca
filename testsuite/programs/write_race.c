/* write_race.c - the profile is written while other threads run
 * (issue 11, cases B and C).  Built with the plugin at threshold=0 with a
 * generated funcs.c (gen_funcs N: N functions f_k(x, d) that call
 * tab[(x >> 8d) % N](x, d - 1), so each new x reaches new calling
 * contexts), or plain.
 *   write_race MODE MAIN_CALLS
 * main first makes MAIN_CALLS calls tab[x % N](x, 2) (a tree the writer
 * takes a while to write), then starts the workers, waits until they run,
 * prints "done" and ends while they go on:
 *   nodes   two workers reach new contexts all the time (20,000 values of x each);
 *   manual  a worker opens and closes manual regions on fresh names;
 *   nested  a worker stays in outer(), calling inner() (20 us) again and
 *           again: its inner time grows while the profile is written;
 *   term    as nodes, but main ends by raise(SIGTERM).  */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void fn(unsigned long, int);
extern fn *tab[];
extern const unsigned ntab;
#pragma weak selinst_region_begin
#pragma weak selinst_region_end
void selinst_region_begin(const char *);
void selinst_region_end(const char *);

static volatile int running;
static __thread volatile unsigned long sink;	/* per thread: no data race */

static void *nodes_worker(void *arg)
{
	unsigned long seed = (unsigned long)arg;
	__atomic_add_fetch(&running, 1, __ATOMIC_SEQ_CST);
	for (unsigned long i = 0;; i++) {
		unsigned long x = seed + i % 20000;
		tab[x % ntab](x, 2);
		for (int k = 0; k < 10000; k++)	/* new nodes every few microseconds */
			sink++;
	}
	return NULL;
}

static void *manual_worker(void *arg)
{
	char name[64];
	(void)arg;
	__atomic_add_fetch(&running, 1, __ATOMIC_SEQ_CST);
	for (unsigned long i = 0;; i++) {
		snprintf(name, sizeof name, "fresh %lu", i % 3000);
		if (selinst_region_begin) {
			selinst_region_begin(name);
			selinst_region_end(name);
		}
	}
	return NULL;
}

static void spin_us(long us)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

void inner(void) { spin_us(20); sink++; }
void outer(void)
{
	__atomic_add_fetch(&running, 1, __ATOMIC_SEQ_CST);
	for (;;)
		inner();
}
static void *nested_worker(void *arg) { (void)arg; outer(); return NULL; }

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	const char *mode = argv[1];
	long calls = atol(argv[2]);
	for (long x = 0; x < calls; x++)
		tab[x % ntab]((unsigned long)x, 2);
	int want = 1;
	pthread_t th;
	if (!strcmp(mode, "nodes") || !strcmp(mode, "term")) {
		pthread_create(&th, NULL, nodes_worker, (void *)0UL);
		pthread_create(&th, NULL, nodes_worker, (void *)1000000UL);
		want = 2;
	} else if (!strcmp(mode, "manual")) {
		pthread_create(&th, NULL, manual_worker, NULL);
	} else {
		pthread_create(&th, NULL, nested_worker, NULL);
	}
	while (__atomic_load_n(&running, __ATOMIC_SEQ_CST) < want)
		;
	spin_us(2000);
	printf("done\n");
	fflush(stdout);
	if (!strcmp(mode, "term"))
		raise(SIGTERM);
	return 0;
}
