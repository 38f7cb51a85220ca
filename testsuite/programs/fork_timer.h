/* SPDX-License-Identifier: MIT */
/* fork_timer.h - a timer (ITIMER_REAL) whose SIGALRM handler forks, the
 * child _exiting at once: fork_in_handler.c, fork_at_exit.c.
 * fork_timer_forks counts the forks made in the parent.  The handler arms
 * the next expiry itself, once its fork returned: a periodic timer whose
 * period is shorter than a fork (an instrumented process's fork took 140
 * us, a plain one's 65, on a loaded machine more) found its signal
 * pending again at every return, and the program never ran on: a test
 * timed out in CI. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t fork_timer_forks;
static long fork_timer_us;

__attribute__((no_instrument_function)) static void fork_timer_next(void)
{
	struct itimerval it = { { 0, 0 }, { 0, fork_timer_us } };
	setitimer(ITIMER_REAL, &it, NULL);
}

__attribute__((no_instrument_function)) static void fork_timer_on_alarm(int sig)
{
	(void)sig;
	int saved = errno;
	pid_t p = fork();
	if (p == 0)
		_exit(0);
	if (p > 0)
		fork_timer_forks++;
	fork_timer_next();
	errno = saved;
}

/* US microseconds after each fork returned, armed through exit. */
__attribute__((no_instrument_function)) static void fork_timer_arm(long us)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fork_timer_on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGCHLD, SIG_IGN);	/* no zombies */
	fork_timer_us = us;
	fork_timer_next();
}
