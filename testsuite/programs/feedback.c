/* t-plugin-feedback.sh: a hot cheap function (tiny, called through a
 * pointer so the model sees no call depth and chooses it), a bottleneck
 * (heavy's outer loop: most of the exclusive time) holding a loop and a
 * straight-line helper the model leaves out, and a function called a few
 * times (mid). */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

static int tiny(int n)
{
	int s = 0;
	for (int i = 0; i < (n & 3); i++)
		s += i;
	return s;
}

int (*volatile call_tiny)(int) = tiny;

static int mid(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += call_tiny(i);
	return s;
}

static unsigned helper(unsigned x)
{
	return x * 2654435761u + 1;
}

/* The outer loop is the bottleneck: the model leaves out the inner loop
 * (loop depth 1) and helper (straight-line); feedback adds both. */
static unsigned heavy(unsigned rounds)
{
	unsigned x = 1;
	for (int step = 0; step < 10; step++) {
		x = helper(x);
		for (unsigned i = 0; i < rounds / 10; i++)
			x = x * 1103515245u + 12345u + (x >> 7);
	}
	return x;
}

int (*volatile call_mid)(int) = mid;

int main(int argc, char **argv)
{
	unsigned calls = argc > 1 ? (unsigned)atoi(argv[1]) : 200000;
	unsigned rounds = argc > 2 ? (unsigned)atoi(argv[2]) : 30000000;
	int s = 0;
	for (unsigned i = 0; i < calls; i++)
		s += call_tiny((int)i);
	for (int i = 0; i < 10; i++)
		s += call_mid(4);
	sink = heavy(rounds) + (unsigned)s;
	printf("%u\n", sink);
	return 0;
}
