/* setjmp/longjmp basics: longjmp back into the same function, values
 * returned by setjmp, volatile locals surviving, and a loop driven by
 * longjmp. */
#include <stdio.h>
#include <setjmp.h>

static jmp_buf env;
static int calls;

static void maybe_jump(int x)
{
	calls++;
	if (x % 4 == 3)
		longjmp(env, x);
}

static int try_value(int x)
{
	int r = setjmp(env);
	if (r)
		return r * 10;
	maybe_jump(x);
	return x;
}

int main(void)
{
	int sum = 0;
	for (int i = 0; i < 20; i++)
		sum += try_value(i);
	printf("sum %d calls %d\n", sum, calls);

	volatile int count = 0;
	jmp_buf loop;
	int v = setjmp(loop);
	count++;
	if (v < 10)
		longjmp(loop, v + 1);
	printf("looped %d times, v=%d\n", count, v);

	/* longjmp with value 0 makes setjmp return 1 */
	jmp_buf z;
	volatile int seen = 0;
	int r = setjmp(z);
	if (!seen) {
		seen = 1;
		longjmp(z, 0);
	}
	printf("zero gives %d\n", r);
	return 0;
}
