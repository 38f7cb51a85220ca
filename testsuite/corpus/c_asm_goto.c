/* asm goto: control transfers from inline asm to C labels (x86-64), in
 * and out of loops. */
#include <stdio.h>

static int is_negative(long x)
{
#if defined(__x86_64__)
	__asm__ goto("test %0, %0\n\tjs %l[neg]" : : "r"(x) : "cc" : neg);
	return 0;
neg:
	return 1;
#else
	return x < 0;
#endif
}

static int count_neg(const long *a, int n)
{
	int c = 0;
	for (int i = 0; i < n; i++) {
#if defined(__x86_64__)
		__asm__ goto("test %0, %0\n\tjns %l[skip]" : : "r"(a[i]) : "cc" : skip);
#else
		if (a[i] >= 0) goto skip;
#endif
		c++;
skip:;
	}
	return c;
}

int main(void)
{
	long a[100];
	for (int i = 0; i < 100; i++)
		a[i] = (i * 37) % 19 - 9;
	int s = 0;
	for (int i = 0; i < 100; i++)
		s += is_negative(a[i]);
	printf("neg %d %d\n", s, count_neg(a, 100));
	return 0;
}
