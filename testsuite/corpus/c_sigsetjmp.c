/* sigsetjmp/siglongjmp: a signal raised in a deep frame, its handler
 * calling functions and then siglongjmp-ing out; signal mask restored. */
#include <stdio.h>
#include <signal.h>
#include <setjmp.h>
#include <string.h>

static sigjmp_buf env;
static volatile sig_atomic_t hits;
static int log_buf[64], nlog;

static void note(int v) { if (nlog < 64) log_buf[nlog++] = v; }
static int decorate(int s) { note(s * 100 + hits); return s; }

static void handler(int sig)
{
	hits++;
	decorate(sig);
	siglongjmp(env, hits);
}

static int deep(int d, int when)
{
	if (d == when)
		raise(SIGUSR1);
	if (d == 0)
		return 0;
	return deep(d - 1, when) + 1;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);

	int results = 0;
	for (int i = 0; i < 10; i++) {
		int r = sigsetjmp(env, 1);
		if (r == 0)
			results += deep(20, i % 3 == 0 ? i : -1);
		else
			results += 1000 * r;
	}
	sigset_t cur;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	printf("results %d hits %d blocked %d\n", results, (int)hits, sigismember(&cur, SIGUSR1));
	for (int i = 0; i < nlog; i++)
		printf("log %d\n", log_buf[i]);
	/* sigsetjmp without saving the mask */
	sigjmp_buf e2;
	volatile int n = 0;
	if (sigsetjmp(e2, 0) < 3) {
		n++;
		siglongjmp(e2, n);
	}
	printf("n %d\n", n);
	return 0;
}
