/* Signal handlers invoked synchronously with raise(); handlers calling
 * ordinary functions; a handler raising another signal; SIGALRM-free. */
#include <stdio.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t usr1, usr2, depth_max;
static int trace[32];
static volatile sig_atomic_t ntrace;

static int square(int x) { return x * x; }
static void record(int v) { if (ntrace < 32) trace[ntrace++] = v; }

static void on_usr2(int sig)
{
	usr2++;
	record(square(sig) + usr2);
}

static void on_usr1(int sig)
{
	usr1++;
	record(sig);
	if (usr1 % 3 == 0)
		raise(SIGUSR2);	/* nested handler */
	record(-sig);
}

static long work(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++) {
		s += square(i);
		if (i % 250 == 0)
			raise(SIGUSR1);
	}
	return s;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, on_usr2);
	long s = work(2000);
	printf("work %ld usr1 %d usr2 %d\n", s, (int)usr1, (int)usr2);
	for (int i = 0; i < ntrace; i++)
		printf("%d ", trace[i]);
	printf("\n");
	signal(SIGUSR1, SIG_IGN);
	raise(SIGUSR1);
	printf("ignored ok %d\n", (int)usr1);
	return 0;
}
