/* Functions with their own optimisation level (optimize attribute),
// corpus-levels: decisions (GCC merges the two calls of the const function sq when optimizing)
 * cold/hot attributes, pure/const functions that calls may be removed
 * for, and a function split into a cold part. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((optimize("O0"))) static int slow_add(int a, int b) { return a + b; }
__attribute__((optimize("O3"), noinline)) static long vec_sum(const int *a, int n) { long s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
__attribute__((cold, noinline)) static void rare(int x) { fprintf(stderr, "rare %d\n", x); }
__attribute__((hot)) static int common(int x) { return x ^ (x >> 3); }
__attribute__((const)) static int sq(int x) { return x * x; }
__attribute__((pure)) static int lookup(const int *t, int i) { return t[i & 63]; }

static int split_me(int x)
{
	if (__builtin_expect(x == 777, 0)) {
		rare(x);
		for (int i = 0; i < 3; i++)
			x += sq(i);
		return x;
	}
	return common(x);
}

int main(void)
{
	int t[64], a[500];
	for (int i = 0; i < 64; i++)
		t[i] = i * 3;
	for (int i = 0; i < 500; i++)
		a[i] = slow_add(i, lookup(t, i));
	long s = 0;
	for (int i = 0; i < 1000; i++)
		s += split_me(i) + sq(i % 10) + sq(i % 10);
	printf("vec %ld split %ld\n", vec_sum(a, 500), s);
	return 0;
}
