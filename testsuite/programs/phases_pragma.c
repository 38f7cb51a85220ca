/* Phases marked with #pragma selinst phase (issue 15): C and C++. */
#include <stdio.h>
static volatile double sink;
__attribute__((noinline)) void work(int n) { double s = 0; for (int i = 0; i < n; i++) s += i; sink = s; }
int main(void)
{
	for (int step = 1; step <= 8; step++) {
#pragma selinst phase start timestep
		work(10000 * step);
#pragma selinst phase end timestep
	}
#pragma selinst phase start "tail phase"
	work(5);
#pragma selinst phase end "tail phase"
	printf("ok\n");
	return 0;
}
