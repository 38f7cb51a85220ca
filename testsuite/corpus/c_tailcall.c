/* Tail calls: self tail recursion, mutual tail recursion, tail calls
 * through function pointers, and sibling calls with different argument
 * counts.  Depths are kept moderate so -O0 (no tail calls) fits the stack. */
#include <stdio.h>

static long gcd(long a, long b) { return b == 0 ? a : gcd(b, a % b); }
static long sum_to(long n, long acc) { return n == 0 ? acc : sum_to(n - 1, acc + n); }

static int ping(int n, int acc);
static int pong(int n, int acc) { if (n <= 0) return acc; return ping(n - 1, acc * 3 % 10007 + 1); }
static int ping(int n, int acc) { if (n <= 0) return acc; return pong(n - 1, acc + 2); }

typedef long (*op_t)(long, int);
static long op_a(long x, int k);
static long op_b(long x, int k);
static op_t ops[2] = { op_a, op_b };
static long op_a(long x, int k) { return k == 0 ? x : ops[k & 1](x + k, k - 1); }
static long op_b(long x, int k) { return k == 0 ? x : ops[(k >> 1) & 1](x ^ k, k - 1); }

static long three(long a, long b, long c) { return a * 100 + b * 10 + c; }
static long one(long a) { return three(a, a + 1, a + 2); }

int main(void)
{
	printf("gcd %ld %ld\n", gcd(1071, 462), gcd(832040, 514229));
	printf("sum %ld\n", sum_to(20000, 0));
	printf("pingpong %d\n", ping(20001, 1));
	printf("ops %ld\n", op_a(1, 5000));
	printf("one %ld\n", one(4));
	return 0;
}
