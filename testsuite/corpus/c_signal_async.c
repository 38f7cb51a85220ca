/* Asynchronous signals: a CPU-time interval timer fires every 0.2 ms of
// corpus-levels: decisions (how many SIGPROF ticks land depends on timing)
 * CPU (in practice every scheduler tick) while instrumented code runs, so
 * signals arrive at arbitrary points, including inside hooks; the handler
 * calls an instrumented function.  Only the computed result and whether signals arrived are
 * printed (their number depends on timing). */
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;
static volatile long handler_work;

static long handler_helper(long x) { return x * 3 + 1; }
static void on_prof(int sig) { (void)sig; ticks++; handler_work = handler_helper(handler_work) % 1000; }

static long leaf(long x) { return (x * x) % 10007; }
static long mid(long x) { long s = 0; for (int i = 0; i < 10; i++) s += leaf(x + i); return s; }

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_prof;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGPROF, &sa, NULL);
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	setitimer(ITIMER_PROF, &it, NULL);
	long total = 0;
	for (long round = 0; round < 300000; round++)
		total = (total + mid(round)) % 1000000007L;
	printf("result %ld\n", total);
	/* Keep running until enough signals came (bounded). */
	static volatile long sink;
	for (long round = 0; ticks < 5 && round < 500000000; round++)
		sink += mid(round) & 1;
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_PROF, &off, NULL);
	printf("signals arrived: %s\n", ticks >= 5 ? "yes" : "no");
	return 0;
}
