/* SPDX-License-Identifier: MIT */
/* A single-threaded program whose SIGALRM handler calls exit() (not
 * async-signal-safe, but common) while main allocates and frees: the
 * handler may interrupt malloc with its state half updated.  The
 * runtime's final write must not allocate in that context (t-rt-fork-
 * signal).  Prints nothing; exit status 0 from the handler. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static void on_alarm(int sig)
{
	(void)sig;
	exit(0);
}

static void *sleeper(void *arg)
{
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	for (;;)
		pause();
	return arg;
}

/* With a second argument: a SIGCHLD handler that says so, to show the
 * runtime's own child at exit (if any) never reaches the program. */
static void on_child(int sig)
{
	(void)sig;
	static const char msg[] = "SIGCHLD reached the program\n";
	ssize_t w = write(1, msg, sizeof msg - 1);
	(void)w;
}

__attribute__((noinline)) static void *churn(unsigned i)
{
	void *blk[32];
	for (unsigned k = 0; k < 32; k++) {
		blk[k] = malloc(16 + 97 * ((i + k) % 64));
		memset(blk[k], 1, 16);
	}
	for (unsigned k = 0; k < 32; k += 2)
		free(blk[k]);
	void *big = malloc(5000 + (i % 7) * 1000);
	for (unsigned k = 1; k < 32; k += 2)
		free(blk[k]);
	return big;
}

int main(int argc, char **argv)
{
	signal(SIGALRM, on_alarm);
	if (argc > 2)
		signal(SIGCHLD, on_child);
	pthread_t idle;	/* a third argument: a second thread, asleep */
	if (argc > 3 && pthread_create(&idle, NULL, sleeper, NULL) != 0)
		return 2;
	struct itimerval it = { {0, 0}, {0, argc > 1 ? atoi(argv[1]) : 20000} };
	setitimer(ITIMER_REAL, &it, NULL);
	for (unsigned i = 0;; i++)
		free(churn(i));
}
