/* Nested OpenMP constructs: tasks generated inside a single inside a
 * parallel region.  Both outlined bodies must be named after main and
 * their own construct's line. */
#include <stdio.h>
static int work(int i) { int s = 0; for (int k = 0; k < i * 100; k++) s += k % 7; return s; }
int main(void)
{
	int total = 0;
	#pragma omp parallel reduction(+:total)
	{
		#pragma omp single
		for (int i = 0; i < 10; i++) {
			int x = i;
			#pragma omp task firstprivate(x) shared(total)
			{
				int r = work(x);
				#pragma omp atomic
				total += r;
			}
		}
	}
	printf("%d\n", total);
	return 0;
}
