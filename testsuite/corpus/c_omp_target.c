/* corpus-flags: -fopenmp */
// corpus-levels: none (OpenMP expands the combined target construct into different loop nests at -O0 and -O2)
/* corpus-env: OMP_NUM_THREADS=2 */
/* OpenMP target regions (run on the host here: no offload device), teams
 * distribute, declare target functions, and simd loops with a declare
 * simd function (the compiler makes vector clones of it). */
#include <stdio.h>

#pragma omp declare target
static double scale(double x) { return 2.0 * x + 1.0; }
#pragma omp end declare target

#pragma omp declare simd notinbranch
static double poly(double x) { return x * x * 0.5 - x + 3.0; }

int main(void)
{
	enum { N = 10000 };
	static double a[N], b[N];
	for (int i = 0; i < N; i++)
		a[i] = i % 100;
	double sum = 0;
#pragma omp target teams distribute parallel for map(to:a) map(from:b) reduction(+:sum)
	for (int i = 0; i < N; i++) {
		b[i] = scale(a[i]);
		sum += b[i];
	}
	double s2 = 0;
#pragma omp simd reduction(+:s2)
	for (int i = 0; i < N; i++)
		s2 += poly(b[i]);
	double s3 = 0;
#pragma omp parallel for simd reduction(+:s3)
	for (int i = 0; i < N; i++)
		s3 += poly(a[i]);
	printf("target %.1f simd %.1f parallel simd %.1f\n", sum, s2, s3);
	return 0;
}
