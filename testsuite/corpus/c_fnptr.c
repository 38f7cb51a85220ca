/* Function pointers: qsort/bsearch callbacks, dispatch tables, functions
 * returning function pointers, recursion through a pointer. */
#include <stdio.h>
#include <stdlib.h>

static int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static int cmp_rev(const void *a, const void *b) { return cmp_int(b, a); }

static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return a * b % 1000003; }
static long op_xor(long a, long b) { return a ^ b; }
typedef long (*binop)(long, long);
static binop table[] = { op_add, op_sub, op_mul, op_xor };

static binop pick(int k) { return table[k & 3]; }

static long (*self)(int);
static long down(int n) { return n <= 0 ? 1 : n + self(n - 1); }

int main(void)
{
	int a[200];
	for (int i = 0; i < 200; i++)
		a[i] = (i * 7919) % 1009;
	qsort(a, 200, sizeof *a, cmp_int);
	int key = a[77];
	int *hit = bsearch(&key, a, 200, sizeof *a, cmp_int);
	printf("sorted %d..%d found at %d\n", a[0], a[199], (int)(hit - a) <= 77 && *hit == key);
	qsort(a, 200, sizeof *a, cmp_rev);
	printf("rev %d..%d\n", a[0], a[199]);
	long acc = 1;
	for (int i = 0; i < 1000; i++)
		acc = pick(i)(acc, i + 1);
	printf("acc %ld\n", acc);
	self = down;
	printf("down %ld\n", self(1000));
	return 0;
}
