/* corpus-flags: -fopenmp */
/* corpus-env: OMP_NUM_THREADS=4 */
/* OpenMP synchronisation: critical (named and unnamed), atomic, single
 * with copyprivate, master, sections, locks, threadprivate. */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int hist[8];
static long counter;
static int tp;
#pragma omp threadprivate(tp)

static int bucket(int i) { return (i * 2654435761u) >> 29; }
static void add_hist(int b)
{
#pragma omp critical(hist)
	hist[b]++;
}

int main(void)
{
	long sec[3] = { 0, 0, 0 };
	int shared_seed = 0, copied_ok = 0;
#ifdef _OPENMP
	omp_lock_t lock;
	omp_init_lock(&lock);
#endif
	long locked = 0;
#pragma omp parallel reduction(+:copied_ok)
	{
		tp = 5;
#pragma omp for
		for (int i = 0; i < 10000; i++)
			add_hist(bucket(i));
		for (int i = 0; i < 1000; i++) {
#pragma omp atomic
			counter += 2;
		}
		int seed;
#pragma omp single copyprivate(seed)
		seed = 1234;
		copied_ok += seed == 1234;
#pragma omp master
		shared_seed = seed;
#pragma omp sections
		{
#pragma omp section
			for (int i = 0; i < 100; i++) sec[0] += i;
#pragma omp section
			for (int i = 0; i < 200; i++) sec[1] += i;
#pragma omp section
			for (int i = 0; i < 300; i++) sec[2] += i + tp;
		}
		for (int i = 0; i < 100; i++) {
#ifdef _OPENMP
			omp_set_lock(&lock);
#endif
			locked++;
#ifdef _OPENMP
			omp_unset_lock(&lock);
#endif
		}
#pragma omp critical
		counter += 1;
	}
	long threads = locked / 100;
	printf("hist");
	for (int i = 0; i < 8; i++)
		printf(" %d", hist[i]);
	printf("\ncounter/threads %ld seed %d copied/threads %ld\n", (counter - threads) / threads,
	       shared_seed, copied_ok / threads);
	printf("sections %ld %ld %ld\n", sec[0], sec[1], sec[2]);
	return 0;
}
