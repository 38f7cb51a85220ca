/* corpus-flags: -fopenmp */
/* corpus-env: OMP_NUM_THREADS=3 */
/* OpenMP parallel regions: several regions in one function, a region in
 * a function called from another region's master, functions called by
 * every thread, num_threads clause, if clause, nested orphaned
 * constructs.  Results are reduced, then printed. */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

static double f(int i) { return (i % 17) * 0.5 + (i % 5); }

static long per_thread_work(int tid, int nth)
{
	long s = 0;
	for (int i = tid; i < 100000; i += nth)
		s += (long)f(i) * 2;
	return s;
}

static long orphan_acc;
static void orphan_sum(int n)
{
#pragma omp for reduction(+:orphan_acc)
	for (int i = 0; i < n; i++)
		orphan_acc += i % 7;
}

static long two_regions(void)
{
	long a = 0, b = 0;
#pragma omp parallel reduction(+:a)
	a += per_thread_work(omp_get_thread_num(), omp_get_num_threads());
#pragma omp parallel num_threads(2)
	orphan_sum(10000);
	b = orphan_acc;
	return a * 1000 + b;
}

static int region_if(int n)
{
	int count = 0;
#pragma omp parallel if (n > 100) reduction(+:count)
	count += 1;
	return n > 100 ? count > 0 : count;
}

int main(void)
{
	printf("two_regions %ld\n", two_regions());
	printf("if %d %d\n", region_if(5), region_if(500));
	long total = 0;
	for (int rep = 0; rep < 50; rep++) {
#pragma omp parallel reduction(+:total)
		{
			total += per_thread_work(omp_get_thread_num(), omp_get_num_threads()) % 1000;
			total -= per_thread_work(omp_get_thread_num(), omp_get_num_threads()) % 1000;
			total += 1;
		}
	}
	printf("reps ok %d\n", total > 0);
	return 0;
}
// corpus-levels-metrics: differ (the outlined bodies count more call sites at -O0 (6 and 3) than at -O2 (2 and 1); cause not analysed)
