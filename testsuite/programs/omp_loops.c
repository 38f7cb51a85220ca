/* omp_loops.c - OpenMP worksharing loops are named by their for's line,
 * one region per source loop (a collapse(2) nest is one), whatever the
 * schedule; the loops OpenMP expansion adds (a dynamic schedule's chunk
 * dispatch, an atomic reduction's retry) are not regions.  Line numbers
 * are checked by t-plugin-loop-levels.sh: keep them. */
#include <stdio.h>
double a[64][64];
int main(void)
{
	double s = 0;
#pragma omp parallel
	{
#pragma omp for
		for (int j = 0; j < 64; j++)		/* line 14 */
			for (int k = 0; k < 64; k++)	/* line 15 */
				a[j][k] = j + k;
#pragma omp for schedule(dynamic, 8)
		for (int j = 0; j < 64; j++)		/* line 18: one entry a chunk */
			a[j][0] += 1;
#pragma omp for collapse(2)
		for (int j = 0; j < 64; j++)		/* line 21 */
			for (int k = 0; k < 64; k++)
				a[j][k] += 2;
	}
#pragma omp parallel for reduction(+:s)
	for (int j = 0; j < 64; j++)			/* line 26 */
		s += a[j][3];
	printf("%f\n", s);
	return 0;
}
