/* returns_twice functions: getcontext/makecontext/swapcontext coroutines
 * (a generator), plus a user function declared returns_twice.  vfork is
 * deliberately not used. */
#include <stdio.h>
#include <ucontext.h>

static ucontext_t main_ctx, gen_ctx;
static long yielded;
static int finished;

static void yield_value(long v)
{
	yielded = v;
	swapcontext(&gen_ctx, &main_ctx);
}

static void collatz_gen(void)
{
	long n = 27;
	while (n != 1) {
		yield_value(n);
		n = n % 2 ? 3 * n + 1 : n / 2;
	}
	yield_value(1);
	finished = 1;
}

static int twice_count;
__attribute__((returns_twice, noinline)) static int once_really(int x)
{
	twice_count++;
	return x + 1;
}

int main(void)
{
	static char stack[64 * 1024];
	getcontext(&gen_ctx);
	gen_ctx.uc_stack.ss_sp = stack;
	gen_ctx.uc_stack.ss_size = sizeof stack;
	gen_ctx.uc_link = &main_ctx;
	makecontext(&gen_ctx, collatz_gen, 0);
	long steps = 0, peak = 0;
	while (!finished) {
		swapcontext(&main_ctx, &gen_ctx);
		if (finished)
			break;
		steps++;
		if (yielded > peak)
			peak = yielded;
	}
	printf("collatz(27): %ld values, peak %ld\n", steps, peak);

	volatile int rounds = 0;
	ucontext_t again;
	getcontext(&again);
	if (++rounds < 4)
		setcontext(&again);
	int once = once_really(41);
	printf("rounds %d twice %d\n", rounds, once + twice_count);
	return 0;
}
