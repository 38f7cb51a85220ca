/* Paradyn's accuracy test for loops, compiled with the plugin: nested
 * loops of known duration.  The program measures each loop's total time
 * itself (CLOCK_MONOTONIC around the loop statements) and prints
 *   <line of the loop keyword> <total ns> <self ns>
 * for the profile's loop regions to be compared with. */
#include <stdio.h>
#include <time.h>

__attribute__((no_instrument_function)) static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

__attribute__((no_instrument_function, noinline)) static void spin_ms(int ms)
{
	long long end = now_ns() + ms * 1000000LL;
	while (now_ns() < end)
		;
}

int main(void)
{
	long long inner_total = 0, middle_total = 0;
	long long t0 = now_ns();
	for (int i = 0; i < 3; i++) {				/* line 27 */
		spin_ms(20);
		long long m0 = now_ns();
		for (int j = 0; j < 2; j++) {			/* line 30 */
			spin_ms(10);
			long long n0 = now_ns();
			for (int k = 0; k < 4; k++)		/* line 33 */
				spin_ms(5);
			inner_total += now_ns() - n0;
		}
		middle_total += now_ns() - m0;
	}
	long long outer_total = now_ns() - t0;
	printf("27 %lld %lld\n", outer_total, outer_total - middle_total);
	printf("30 %lld %lld\n", middle_total, middle_total - inner_total);
	printf("33 %lld %lld\n", inner_total, inner_total);
	return 0;
}
