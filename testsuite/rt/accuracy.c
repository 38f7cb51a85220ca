/* accuracy.c - regions with known durations (busy waits: 100 ms, 200 ms,
 * 100 x 1 ms, 50 ms self + 100 ms child).  Prints the wall-clock time of
 * each region, measured here with CLOCK_MONOTONIC around the hooks, as
 * "name inclusive_ns exclusive_ns" lines for the test to compare. */
#include <stdio.h>
#include "rt.h"

FUNC(r_main, "main", 1);
FUNC(r_100, "w100", 2);
FUNC(r_200, "w200", 3);
FUNC(r_many, "many", 4);
FUNC(r_1, "w1", 5);
FUNC(r_nest, "nest", 6);
FUNC(r_inner, "inner", 7);

int main(void)
{
	__selinst_enter(&r_main);
	uint64_t t0, t1, t2, sum1 = 0;

	t0 = rt_now_ns(); __selinst_enter(&r_100); rt_busy(100000000); __selinst_exit(&r_100); t1 = rt_now_ns();
	printf("w100 %llu %llu\n", (unsigned long long)(t1 - t0), (unsigned long long)(t1 - t0));
	t0 = rt_now_ns(); __selinst_enter(&r_200); rt_busy(200000000); __selinst_exit(&r_200); t1 = rt_now_ns();
	printf("w200 %llu %llu\n", (unsigned long long)(t1 - t0), (unsigned long long)(t1 - t0));
	t0 = rt_now_ns();
	__selinst_enter(&r_many);
	for (int i = 0; i < 100; i++) {
		uint64_t a = rt_now_ns();
		__selinst_enter(&r_1); rt_busy(1000000); __selinst_exit(&r_1);
		sum1 += rt_now_ns() - a;
	}
	__selinst_exit(&r_many);
	t1 = rt_now_ns();
	printf("w1 %llu %llu\n", (unsigned long long)sum1, (unsigned long long)sum1);
	printf("many %llu %llu\n", (unsigned long long)(t1 - t0), (unsigned long long)(t1 - t0 - sum1));
	t0 = rt_now_ns();
	__selinst_enter(&r_nest);
	rt_busy(50000000);
	t1 = rt_now_ns();
	__selinst_enter(&r_inner); rt_busy(100000000); __selinst_exit(&r_inner);
	t2 = rt_now_ns();
	__selinst_exit(&r_nest);
	uint64_t t3 = rt_now_ns();
	printf("inner %llu %llu\n", (unsigned long long)(t2 - t1), (unsigned long long)(t2 - t1));
	printf("nest %llu %llu\n", (unsigned long long)(t3 - t0), (unsigned long long)(t3 - t0 - (t2 - t1)));
	__selinst_exit(&r_main);
	return 0;
}
