/* corpus-flags: -fopenmp */
/* corpus-env: OMP_NUM_THREADS=2 */
/* OpenMP tasks: recursive fib with taskwait, tree traversal, taskgroup,
 * task with depend clauses, taskloop. */
#include <stdio.h>
#include <stdlib.h>

static long fib(int n)
{
	if (n < 2)
		return n;
	if (n < 12)
		return fib(n - 1) + fib(n - 2);
	long x, y;
#pragma omp task shared(x)
	x = fib(n - 1);
#pragma omp task shared(y)
	y = fib(n - 2);
#pragma omp taskwait
	return x + y;
}

struct node { int v; struct node *l, *r; };

static struct node *build(int lo, int hi)
{
	if (lo > hi)
		return NULL;
	int mid = (lo + hi) / 2;
	struct node *n = malloc(sizeof *n);
	n->v = mid;
	n->l = build(lo, mid - 1);
	n->r = build(mid + 1, hi);
	return n;
}

static long visit(struct node *n)
{
	if (!n)
		return 0;
	long a = 0, b = 0;
#pragma omp task shared(a) if (n->v % 8 == 0)
	a = visit(n->l);
	b = visit(n->r);
#pragma omp taskwait
	long v = a + b + (long)n->v * n->v;
	free(n);
	return v;
}

int main(void)
{
	long f = 0, t = 0, dep = 0, tl = 0;
#pragma omp parallel
#pragma omp single
	{
		f = fib(25);
		t = visit(build(1, 5000));
		long a = 0, b = 0;
#pragma omp taskgroup
		{
#pragma omp task depend(out:a) shared(a)
			a = 10;
#pragma omp task depend(in:a) depend(out:b) shared(a, b)
			b = a * 3;
#pragma omp task depend(in:b) shared(b, dep)
			dep = b + 1;
		}
	}
#pragma omp parallel
#pragma omp single
#pragma omp taskloop reduction(+:tl) grainsize(100)
	for (int i = 0; i < 10000; i++)
		tl += i % 11;
	printf("fib %ld tree %ld dep %ld taskloop %ld\n", f, t, dep, tl);
	return 0;
}
