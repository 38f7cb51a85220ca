/* SPDX-License-Identifier: MIT */
/* bench/out-of-line.sh: a small function GCC inlines at -O2, called N
 * times; built once as is and once with -DOUT_OF_LINE (noinline, what the
 * plugin's DECL_UNINLINABLE does to a chosen function).  The difference
 * per call is the feedback's FB_OUT_OF_LINE_NS (plugin/feedback.cc). */
#include <stdio.h>
#include <stdlib.h>

#ifdef OUT_OF_LINE
__attribute__((noinline))
#endif
static double scaled(const double *a, int i)
{
	return a[i & 1023] * 1.0001 + (i & 7);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000000;
	static double a[1024];
	double s = 0;
	for (int i = 0; i < 1024; i++)
		a[i] = i;
	for (long i = 0; i < n; i++)
		s += scaled(a, (int)i);
	printf("%g\n", s);
	return 0;
}
