/* main returns a fixed nonzero status after deep work. */
#include <stdio.h>

static int collatz_len(unsigned long n) { int k = 0; while (n != 1) { n = n & 1 ? 3 * n + 1 : n / 2; k++; } return k; }

int main(void)
{
	int best = 0, arg = 0;
	for (int i = 1; i < 30000; i++) {
		int l = collatz_len(i);
		if (l > best) { best = l; arg = i; }
	}
	printf("longest below 30000: %d (%d steps)\n", arg, best);
	return 42;
}
