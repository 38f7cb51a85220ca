/* GCC's __builtin_setjmp/__builtin_longjmp (the lightweight SJLJ
 * primitives: a five-word buffer, value always 1, the longjmp must not
 * be in the same function as the setjmp). */
#include <stdio.h>

static void *buf[5];
static int depth_reached;

__attribute__((noinline)) static void unwind_from(int d)
{
	depth_reached = d;
	if (d == 0)
		__builtin_longjmp(buf, 1);
	unwind_from(d - 1);
	depth_reached = -1;	/* not reached */
}

__attribute__((noinline)) static int guarded(int d)
{
	if (__builtin_setjmp(buf) == 0) {
		unwind_from(d);
		return -1;
	}
	return depth_reached + d;
}

int main(void)
{
	long s = 0;
	for (int i = 0; i < 1000; i++)
		s += guarded(i % 17);
	printf("guarded %d sum %ld\n", guarded(12), s);
	return 0;
}
