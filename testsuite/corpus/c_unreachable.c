/* __builtin_unreachable on paths never taken, __builtin_trap guarded,
 * __builtin_expect, noreturn helpers after which code is unreachable. */
#include <stdio.h>
#include <stdlib.h>

static int decode(unsigned x)
{
	switch (x & 3) {
	case 0: return 10;
	case 1: return 20;
	case 2: return 30;
	case 3: return 40;
	}
	__builtin_unreachable();
}

__attribute__((noreturn)) static void fatal(const char *m) { fprintf(stderr, "%s\n", m); exit(9); }

static int checked_div(int a, int b)
{
	if (__builtin_expect(b == 0, 0))
		fatal("division by zero");
	return a / b;
}

static int positive_only(int x)
{
	if (x <= 0)
		__builtin_unreachable();
	return x * 2;
}

static int maybe_trap(int x)
{
	if (x == 123456789)
		__builtin_trap();
	return x + 1;
}

int main(void)
{
	long s = 0;
	for (unsigned i = 0; i < 1000; i++)
		s += decode(i) + checked_div(1000, i % 7 + 1) + positive_only(i + 1) + maybe_trap(i);
	printf("s %ld\n", s);
	return 0;
}
