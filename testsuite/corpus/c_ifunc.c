/* GNU indirect functions: the resolver runs while the dynamic linker
 * relocates the program, before constructors and before any runtime
 * library is initialised; target_clones builds several versions of one
 * function plus a resolver. */
#include <stdio.h>

static int impl_a(int x) { return x * 2; }
static int impl_b(int x) { return x * 3; }
static int choose_b;

static int (*resolve_twice(void))(int)
{
	return choose_b ? impl_b : impl_a;
}
int twice(int x) __attribute__((ifunc("resolve_twice")));

__attribute__((target_clones("avx2", "default"), noinline))
long dotsum(const int *a, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += (long)a[i] * a[i];
	return s;
}

int main(void)
{
	int a[1000];
	for (int i = 0; i < 1000; i++)
		a[i] = i % 37 - 18;
	long s = 0;
	for (int i = 0; i < 100; i++)
		s += twice(i);
	printf("ifunc %ld dotsum %ld\n", s, dotsum(a, 1000));
	return 0;
}
