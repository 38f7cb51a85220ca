/* Calling-convention corners (x86-64): ms_abi functions (callee-saved
 * xmm6-15), a function with over-aligned locals (dynamic stack
 * realignment), force_align_arg_pointer, many arguments on the stack,
 * and a function returning a struct in memory through a hidden pointer. */
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__)
#define MSABI __attribute__((ms_abi))
#else
#define MSABI
#endif

MSABI __attribute__((noinline)) static double ms_mix(double a, double b, int c, double d)
{
	return a * b + c - d;
}

__attribute__((noinline)) static double keep_xmm(int n)
{
	double acc[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 8; k++)
			acc[k] = ms_mix(acc[k], 0.5, k, 0.25) + acc[(k + 1) & 7] * 0.125;
	double s = 0;
	for (int k = 0; k < 8; k++)
		s += acc[k];
	return s;
}

__attribute__((noinline)) static unsigned aligned_work(int n)
{
	_Alignas(64) unsigned char buf[256];
	_Alignas(32) unsigned v[8];
	memset(buf, n, sizeof buf);
	for (int i = 0; i < 8; i++)
		v[i] = buf[i * 7] + i;
	return ((unsigned long)buf & 63) == 0 && ((unsigned long)v & 31) == 0 ? v[3] + v[7] : 0xdead;
}

#if defined(__x86_64__)
__attribute__((force_align_arg_pointer, noinline))
#endif
static int realign(int x) { _Alignas(32) int t[4] = { x, x + 1, x + 2, x + 3 }; return t[0] + t[3] + (((unsigned long)t & 31) == 0); }

__attribute__((noinline)) static long many(long a, long b, long c, long d, long e, long f, long g, long h, double x,
					   double y, long i, long j)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + (long)(x * y) + 9 * i + 10 * j;
}

struct wide { long v[9]; };
__attribute__((noinline)) static struct wide widen(long seed)
{
	struct wide w;
	for (int i = 0; i < 9; i++)
		w.v[i] = seed * (i + 1);
	return w;
}

int main(void)
{
	struct wide w = widen(3);
	printf("xmm %.6f aligned %u realign %d many %ld wide %ld\n", keep_xmm(50), aligned_work(5), realign(10),
	       many(1, 2, 3, 4, 5, 6, 7, 8, 2.5, 4.0, 9, 10), w.v[8]);
	return 0;
}
