/* SPDX-License-Identifier: MIT */
/* fork_timer.h - an interval timer (ITIMER_REAL) whose SIGALRM handler
 * forks, the child _exiting at once: fork_in_handler.c, fork_at_exit.c.
 * fork_timer_forks counts the forks made in the parent. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t fork_timer_forks;

__attribute__((no_instrument_function)) static void fork_timer_on_alarm(int sig)
{
	(void)sig;
	int saved = errno;
	pid_t p = fork();
	if (p == 0)
		_exit(0);
	if (p > 0)
		fork_timer_forks++;
	errno = saved;
}

/* Every US microseconds, armed through exit. */
__attribute__((no_instrument_function)) static void fork_timer_arm(long us)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fork_timer_on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGCHLD, SIG_IGN);	/* no zombies */
	struct itimerval it = { { 0, us }, { 0, us } };
	setitimer(ITIMER_REAL, &it, NULL);
}
