/* omp.c - OpenMP pool threads: 4 threads x 2 parallel regions x 25,000
 * calls; the pool is still alive (idle) when the profile is written. */
#include <omp.h>
#include "rt.h"

FUNC(r_main, "main", 1);
FUNC(r_body, "main [omp parallel]", 2);
FUNC(r_work, "work", 3);

static void work(void) { __selinst_enter(&r_work); __asm__ volatile("" ::: "memory"); __selinst_exit(&r_work); }

int main(void)
{
	__selinst_enter(&r_main);
	for (int rep = 0; rep < 2; rep++) {
#pragma omp parallel num_threads(4)
		{
			__selinst_enter(&r_body);
			for (int i = 0; i < 25000; i++)
				work();
			__selinst_exit(&r_body);
		}
	}
	__selinst_exit(&r_main);
	return 0;
}
