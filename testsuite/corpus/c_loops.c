/* Loop shapes: do-while, while(1) with break, continue, loops left by
 * return and goto, zero-trip loops, nested loops with early exit from the
 * inner one, loops with multiple exits, and an infinite loop left by
 * longjmp-free break. */
#include <stdio.h>

static int zero_trip(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }

static int multi_exit(const int *a, int n, int lim)
{
	int i = 0, s = 0;
	while (1) {
		if (i >= n)
			break;
		if (a[i] < 0)
			return -i;
		s += a[i];
		if (s > lim)
			goto over;
		i++;
	}
	return s;
over:
	return 100000 + i;
}

static long triangle(int n)
{
	long s = 0;
	int i = 0;
	do {
		for (int j = 0; j <= i; j++) {
			if (j % 5 == 4)
				continue;
			if (j > 40)
				break;
			s += j;
		}
	} while (++i < n);
	return s;
}

static int search3(int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			for (int k = 0; k < n; k++)
				if (i * i + j * j == k * k && i > 2 && j > i)
					return i * 10000 + j * 100 + k;
	return -1;
}

int main(void)
{
	int a[] = { 5, 10, 15, 20, -1, 3 };
	printf("zero %d %d\n", zero_trip(0), zero_trip(-5));
	printf("multi %d %d %d\n", multi_exit(a, 6, 1000), multi_exit(a, 4, 1000), multi_exit(a, 6, 20));
	printf("triangle %ld\n", triangle(100));
	printf("search %d\n", search3(30));
	long total = 0;
	for (int r = 0; r < 2000; r++)
		total += multi_exit(a, r % 7, r % 60) + zero_trip(r % 10);
	printf("total %ld\n", total);
	return 0;
}
// corpus-levels-metrics: differ (the front end folds a short-circuit test of simple operands into one test only when optimizing: fewer blocks, more statements at -O2)
