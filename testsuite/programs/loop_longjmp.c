/* loop_longjmp.c - loops left by longjmp from a call inside them, one and
 * two loops deep and from a while loop's test: their counts must be what
 * the source says (the count is stored before each call).  Line numbers
 * are checked by t-plugin-loops.sh: keep them. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf jb;
int stop = 7;

__attribute__((noinline)) void step(int i) { if (i == stop) longjmp(jb, 1); }
__attribute__((noinline)) int more(int i) { step(i); return i < 100; }

__attribute__((noinline)) int one_loop(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {	/* 8 body starts: i = 0..7 */
		s += i;
		step(i);
	}
	return s;
}

__attribute__((noinline)) int two_loops(int n)
{
	int s = 0;
	for (int j = 0; j < n; j++)		/* 1 body start */
		for (int i = 0; i < n; i++) {	/* 8 body starts */
			s += i * j;
			step(i);
		}
	return s;
}

__attribute__((noinline)) int in_test(void)
{
	int i = 0;
	while (more(i))		/* leaves from its test at i = 7: 7 body starts */
		i++;
	return i;
}

int main(void)
{
	volatile int done = 0;
	for (int r = 0; r < 3; r++) {
		if (setjmp(jb) == 0)
			done += one_loop(100);
		if (setjmp(jb) == 0)
			done += two_loops(100);
		if (setjmp(jb) == 0)
			done += in_test();
	}
	printf("%d\n", done);
	return 0;
}
