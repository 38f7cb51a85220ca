/* corpus-flags: -fopenmp */
// corpus-levels: decisions (how many tasks run before the cancel depends on timing)
/* corpus-env: OMP_NUM_THREADS=2 OMP_CANCELLATION=true */
/* OpenMP cancellation: a parallel search cancels the worksharing loop
 * when it finds the (unique) match, so threads leave the loop early from
 * cancellation points; also cancel of a parallel region and a taskgroup. */
#include <stdio.h>

/* True for exactly one i: multiplication by an odd constant is a
 * bijection on 64-bit integers. */
static int pred(long i)
{
	unsigned long long k = 0x9E3779B97F4A7C15ULL;
	return (unsigned long long)i * k == 1701075ULL * k;
}

static long find(long n)
{
	long found = -1;
#pragma omp parallel shared(found)
	{
#pragma omp for schedule(dynamic, 64)
		for (long i = 0; i < n; i++) {
			if (pred(i)) {
#pragma omp critical
				found = i;
#pragma omp cancel for
			}
#pragma omp cancellation point for
		}
	}
	return found;
}

static int region_cancel(void)
{
	int flag = 0;
#pragma omp parallel shared(flag)
	{
#pragma omp atomic write
		flag = 1;
#pragma omp cancel parallel
	}
	return flag;
}

static long task_search(long n)
{
	long found = -1;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup
	for (long b = 0; b < n; b += 1000) {
#pragma omp task firstprivate(b) shared(found)
		{
			for (long i = b; i < b + 1000 && i < n; i++)
				if (pred(i)) {
#pragma omp critical
					found = i;
#pragma omp cancel taskgroup
				}
		}
	}
	return found;
}

int main(void)
{
	long f = find(3000000);
	printf("found %ld pred %d flag %d task %ld\n", f, f >= 0 && pred(f), region_cancel(), task_search(3000000));
	return 0;
}
