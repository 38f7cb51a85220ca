/* Many return paths, early returns from loops and nested blocks. */
#include <stdio.h>

static int classify(int x)
{
	if (x < 0)
		return -1;
	if (x == 0)
		return 0;
	if (x % 15 == 0)
		return 15;
	if (x % 5 == 0)
		return 5;
	if (x % 3 == 0)
		return 3;
	return 1;
}

static int find_first(const int *a, int n, int key)
{
	for (int i = 0; i < n; i++) {
		if (a[i] == key)
			return i;
		if (a[i] > key * 100)
			return -2;
	}
	return -1;
}

static long nested(int a, int b)
{
	for (int i = 0; i < a; i++) {
		for (int j = 0; j < b; j++) {
			if ((i * j) % 97 == 96)
				return (long)i * 1000 + j;
			while (j > 50) {
				if (i > 40)
					return -i;
				break;
			}
		}
	}
	return a + b;
}

static void void_early(int *acc, int x)
{
	if (x & 1) {
		*acc += x;
		return;
	}
	if (x & 2) {
		*acc -= x;
		return;
	}
	*acc ^= x;
}

int main(void)
{
	int hist[32] = {0};
	for (int x = -5; x < 300; x++)
		hist[classify(x) + 1]++;
	for (int i = 0; i < 17; i++)
		if (hist[i])
			printf("class %d: %d\n", i - 1, hist[i]);
	int a[50];
	for (int i = 0; i < 50; i++)
		a[i] = i * 7 % 50;
	printf("find: %d %d %d\n", find_first(a, 50, 21), find_first(a, 50, 51), find_first(a, 50, 0));
	printf("nested: %ld %ld %ld\n", nested(10, 10), nested(60, 60), nested(98, 98));
	int acc = 0;
	for (int x = 0; x < 1000; x++)
		void_early(&acc, x);
	printf("acc: %d\n", acc);
	return 0;
}
