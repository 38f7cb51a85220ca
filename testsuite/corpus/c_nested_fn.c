/* GNU C nested functions: reading and writing the parent's locals, passed
 * as function pointers (trampolines), recursive nested functions, and a
 * non-local goto from a nested function back into its parent. */
#include <stdio.h>
#include <stdlib.h>

static void apply(int n, void (*f)(int))
{
	for (int i = 0; i < n; i++)
		f(i);
}

static int sum_squares(int n)
{
	int total = 0;
	void add(int i) { total += i * i; }
	apply(n, add);
	return total;
}

static int sort_desc(int *a, int n)
{
	int calls = 0;
	int cmp(const void *x, const void *y)
	{
		calls++;
		return *(const int *)y - *(const int *)x;
	}
	qsort(a, n, sizeof *a, cmp);
	return calls > 0;
}

static long fact_nested(int n)
{
	int depth = 0;
	long f(int k) { depth++; return k <= 1 ? 1 : k * f(k - 1); }
	long r = f(n);
	return r * 100 + depth;
}

static int find_neg(const int *a, int n)
{
	__label__ found;
	int where = -1;
	void check(int i)
	{
		if (a[i] < 0) {
			where = i;
			goto found;
		}
	}
	for (int i = 0; i < n; i++)
		check(i);
	return -1;
found:
	return where;
}

int main(void)
{
	printf("sum %d\n", sum_squares(100));
	int a[10] = { 5, 3, 9, 1, 7, 2, 8, 6, 4, 0 };
	int ok = sort_desc(a, 10);
	printf("sorted %d:", ok);
	for (int i = 0; i < 10; i++)
		printf(" %d", a[i]);
	printf("\n");
	printf("fact %ld\n", fact_nested(15));
	int b[] = { 3, 4, 5, -1, 6 }, c[] = { 1, 2 };
	printf("neg %d %d\n", find_neg(b, 5), find_neg(c, 2));
	return 0;
}
