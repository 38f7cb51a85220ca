/* exit() called from a deep call chain (with loops open in every frame),
 * atexit handlers that call functions, and a fixed nonzero exit status. */
#include <stdio.h>
#include <stdlib.h>

static long progress;

static void report(void) { printf("atexit: progress %ld\n", progress); fflush(stdout); }
static void report2(void) { printf("atexit2 first (LIFO)\n"); }

__attribute__((noreturn)) static void die(int code)
{
	printf("dying with %d\n", code);
	exit(code);
}

static void level(int d)
{
	for (int i = 0; i < 3; i++) {
		progress = progress * 3 + i;
		if (d == 0 && i == 1)
			die(3);
		if (d > 0)
			level(d - 1);
	}
}

int main(void)
{
	atexit(report);
	atexit(report2);
	level(6);
	printf("not reached\n");
	return 0;
}
// corpus-levels-metrics: differ (the front end folds a short-circuit test of simple operands into one test only when optimizing: fewer blocks, more statements at -O2)
