/* __attribute__((always_inline)), noinline, flatten, gnu_inline extern
 * inline, and inline functions whose address is taken. */
#include <stdio.h>

static inline __attribute__((always_inline)) int sq(int x) { return x * x; }
static inline __attribute__((always_inline)) int cube(int x) { return sq(x) * x; }
static __attribute__((noinline)) int poly(int x) { return cube(x) - 2 * sq(x) + 3; }
static inline int addr_taken(int x) { return x + 7; }
static __attribute__((flatten)) long flat(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += poly(i) + addr_taken(i);
	return s;
}
extern inline __attribute__((gnu_inline)) int gi(int x) { return x * 3; }
int gi(int x) { return x * 3; }

static inline __attribute__((always_inline)) int early(int x)
{
	if (x < 0)
		return -1;
	for (int i = 0; i < x; i++)
		if (i * i > x)
			return i;
	return 0;
}

int main(void)
{
	int (*fp)(int) = addr_taken;
	long s = 0;
	for (int i = -3; i < 100; i++)
		s += early(i) + fp(i) + gi(i);
	printf("flat %ld s %ld poly %d\n", flat(100), s, poly(9));
	return 0;
}
