/* __builtin_apply_args/__builtin_apply/__builtin_return: forwarding a
 * call with the caller's exact register arguments; also
 * __builtin_return_address and __builtin_frame_address in use. */
#include <stdio.h>

static double target(int a, double b, long c) { return a * b + c; }

__attribute__((noinline)) static double forward(int a, double b, long c)
{
	(void)a; (void)b; (void)c;
	void *args = __builtin_apply_args();
	void *ret = __builtin_apply((void (*)())target, args, 64);
	__builtin_return(ret);
}

__attribute__((noinline)) static int same_frame(void)
{
	return __builtin_frame_address(0) != 0 && __builtin_return_address(0) != 0;
}

int main(void)
{
	double s = 0;
	for (int i = 0; i < 100; i++)
		s += forward(i, 0.5, i * 3L);
	printf("forward %.1f frame %d\n", s, same_frame());
	return 0;
}
