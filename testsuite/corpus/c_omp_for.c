/* corpus-flags: -fopenmp */
/* corpus-env: OMP_NUM_THREADS=2 */
/* Worksharing loops: static, dynamic, guided schedules, collapse,
 * reductions (+, max, min, ^), lastprivate, nowait + barrier, ordered. */
#include <stdio.h>
#include <math.h>

#define N 20000
static double a[N], b[N];

static double g(double x) { return sqrt(x) + 1.0 / (x + 1.0); }

int main(void)
{
	double sum = 0;
	long maxi = -1, mini = 1L << 40;
	unsigned x = 0;
	int last = -1;
#pragma omp parallel
	{
#pragma omp for schedule(static)
		for (int i = 0; i < N; i++)
			a[i] = g(i);
#pragma omp for schedule(dynamic, 64) nowait
		for (int i = 0; i < N; i++)
			b[i] = a[i] * 2;
#pragma omp barrier
#pragma omp for schedule(guided) reduction(+:sum) reduction(max:maxi) reduction(min:mini) reduction(^:x)
		for (int i = 0; i < N; i++) {
			sum += __builtin_floor(b[i] * 1024) / 1024;	/* exact in any order */
			long v = (long)(b[i] * 1000) % 9973;
			if (v > maxi) maxi = v;
			if (v < mini) mini = v;
			x ^= (unsigned)v * 2654435761u;
		}
#pragma omp for lastprivate(last)
		for (int i = 0; i < 1000; i++)
			last = i * 3;
	}
	long c = 0;
#pragma omp parallel for collapse(2) reduction(+:c)
	for (int i = 0; i < 300; i++)
		for (int j = 0; j < 200; j++)
			c += (i * j) % 13;
	char order[64];
	int k = 0;
#pragma omp parallel for ordered schedule(dynamic)
	for (int i = 0; i < 26; i++) {
#pragma omp ordered
		order[k++] = 'a' + i;
	}
	order[k] = 0;
	printf("sum %.6f max %ld min %ld x %08x last %d\n", sum, maxi, mini, x, last);
	printf("collapse %ld ordered %s\n", c, order);
	return 0;
}
