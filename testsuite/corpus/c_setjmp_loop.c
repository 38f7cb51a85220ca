/* setjmp inside loop bodies of the same function (loop counters live
 * across the second return of setjmp), longjmp from callees back into the
 * middle of a running loop, and a loop whose back edge is a longjmp. */
#include <stdio.h>
#include <setjmp.h>

static jmp_buf env;
static void bail(int v) { longjmp(env, v); }
static int check(int i) { if (i % 5 == 4) bail(i + 1); return i; }

static long looped(int n)
{
	volatile long acc = 0;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < 3; j++) {
			int r = setjmp(env);
			if (r) {
				acc += r * 1000;
				continue;
			}
			acc += check(i * 3 + j);
		}
	}
	return acc;
}

static int backedge(void)
{
	jmp_buf b;
	volatile int count = 0, sum = 0;
	int v = setjmp(b);
	sum += v;
	for (int k = 0; k < 4; k++) {
		count++;
		if (k == 2 && count < 40)
			longjmp(b, count);
	}
	return sum * 100 + count;
}

int main(void)
{
	printf("looped %ld %ld\n", looped(10), looped(1000));
	printf("backedge %d\n", backedge());
	return 0;
}
