/* fork_in_handler.c DUMPS - single-threaded; a 200 us interval timer's
 * SIGALRM handler forks (the child _exits at once) while main takes DUMPS
 * snapshots with selinst_dump and then returns, so forks land inside a
 * dump and inside the final write (issue 11, H: that deadlocked in the
 * fork handler).  The timer stays armed through exit. */
#include <stdio.h>
#include <stdlib.h>
#include "fork_timer.h"
#pragma weak selinst_dump
int selinst_dump(const char *);

typedef void fn(unsigned long, int);
extern fn *tab[];
extern const unsigned ntab;

int main(int argc, char **argv)
{
	int dumps = argc > 1 ? atoi(argv[1]) : 20;
	for (unsigned long x = 0; x < 4000; x++)
		tab[x % ntab](x, 2);
	fork_timer_arm(200);
	for (int i = 0; i < dumps; i++)
		if (selinst_dump && selinst_dump("snap.prof") != 0)
			printf("dump %d failed\n", i);
	printf("%d dumps\n", dumps);
	return 0;
}
