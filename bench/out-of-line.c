/* SPDX-License-Identifier: MIT */
/* bench/out-of-line.sh: a small function GCC inlines at -O2, called N
 * times; built as is, with -DOUT_OF_LINE (noinline), and with the plugin
 * at threshold 0 (inline=on and off): what a call of a function region
 * costs besides its calibrated hook pair (SELINST_PREDICT_OUT_OF_LINE_NS,
 * include/selinst-predict.h), and the share of a pair inside the hooks. */
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
