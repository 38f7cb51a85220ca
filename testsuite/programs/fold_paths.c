/* Recursion folded through different paths (issue 11 N): main -> A(1) ->
 * P(1) -> A(0) -> P(0) -> spin; A(0) -> E -> P(0) -> spin; A(1) -> E ->
 * P(0) -> spin.  A(0) folds into A, so E under A(0) is A's child although
 * it runs inside P(1).  Three equal spins of CPU time. */
#include <time.h>

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) void spin(void)
{
	double end = cpu() + 0.1;
	while (cpu() < end)
		;
}

void A(int n);
__attribute__((noinline)) void P(int n)
{
	if (n)
		A(n - 1);
	else
		spin();
}
__attribute__((noinline)) void E(void) { P(0); }
__attribute__((noinline)) void A(int n)
{
	P(n);
	E();
}

int main(void)
{
	A(1);
	return 0;
}
