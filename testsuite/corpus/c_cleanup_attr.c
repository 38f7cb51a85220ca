/* corpus-flags: -fexceptions */
/* __attribute__((cleanup)) in C built with -fexceptions: cleanups run on
 * return, at block end, on break/continue/goto out of scope, in order. */
#include <stdio.h>
#include <stdlib.h>

static char trail[256];
static int tn;
static void mark(char c) { if (tn < 255) trail[tn++] = c; }

static void close_int(int *p) { mark('0' + *p); }
static void free_ptr(char **p) { mark('f'); free(*p); }

static int early(int x)
{
	int a __attribute__((cleanup(close_int))) = 1;
	char *buf __attribute__((cleanup(free_ptr))) = malloc(32);
	if (x > 5)
		return x;
	{
		int b __attribute__((cleanup(close_int))) = 2;
		if (x == 3)
			return -3;
	}
	return 0;
}

static int loops(void)
{
	int s = 0;
	for (int i = 0; i < 5; i++) {
		int c __attribute__((cleanup(close_int))) = i;
		if (i == 1)
			continue;
		if (i == 3)
			break;
		s += i;
	}
	{
		int d __attribute__((cleanup(close_int))) = 9;
		if (s > 1)
			goto out;
		s = 100;
	}
out:
	return s;
}

int main(void)
{
	int r = early(7) + early(3) + early(0);
	mark('|');
	r += loops();
	trail[tn] = 0;
	printf("r %d trail %s\n", r, trail);
	return 0;
}
// corpus-levels-metrics: differ (cleanup regions with -fexceptions are lowered differently at -O0 and -O2: blocks, statements and call sites differ; cause not analysed further)
