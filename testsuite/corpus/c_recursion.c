/* Plain recursion: Ackermann, naive Fibonacci, Hanoi, permutations by
 * backtracking, and a recursive flood fill. */
#include <stdio.h>

static unsigned long ack(unsigned long m, unsigned long n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static long moves;
static void hanoi(int n, int from, int to, int via)
{
	if (!n)
		return;
	hanoi(n - 1, from, via, to);
	moves += from * 3 + to;
	hanoi(n - 1, via, to, from);
}

static int queens(int row, int n, unsigned cols, unsigned d1, unsigned d2)
{
	if (row == n)
		return 1;
	int count = 0;
	for (int c = 0; c < n; c++) {
		if ((cols >> c & 1) || (d1 >> (row + c) & 1) || (d2 >> (row - c + n) & 1))
			continue;
		count += queens(row + 1, n, cols | 1u << c, d1 | 1u << (row + c), d2 | 1u << (row - c + n));
	}
	return count;
}

static char grid[20][41];
static int fill(int r, int c)
{
	if (r < 0 || r >= 20 || c < 0 || c >= 40 || grid[r][c] != '.')
		return 0;
	grid[r][c] = '#';
	return 1 + fill(r + 1, c) + fill(r - 1, c) + fill(r, c + 1) + fill(r, c - 1);
}

int main(void)
{
	printf("ack(2,300)=%lu ack(3,6)=%lu\n", ack(2, 300), ack(3, 6));
	printf("fib(27)=%ld\n", fib(27));
	hanoi(16, 1, 3, 2);
	printf("hanoi %ld\n", moves);
	printf("queens(8)=%d\n", queens(0, 8, 0, 0, 0));
	for (int r = 0; r < 20; r++)
		for (int c = 0; c < 40; c++)
			grid[r][c] = (r * 7 + c * 3) % 11 == 0 || c == 20 ? 'X' : '.';
	int f1 = fill(0, 0);
	int f2 = fill(10, 30);
	printf("fill %d %d\n", f1, f2);
	return 0;
}
// corpus-levels-metrics: differ (the front end folds a short-circuit test of simple operands into one test only when optimizing: fewer blocks, more statements at -O2)
