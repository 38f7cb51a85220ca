/* fork_in_handler.c DUMPS - single-threaded; a 200 us interval timer's
 * SIGALRM handler forks (the child _exits at once) while main takes DUMPS
 * snapshots with selinst_dump and then returns, so forks land inside a
 * dump and inside the final write (issue 11, H: that deadlocked in the
 * fork handler).  The timer stays armed through exit. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#pragma weak selinst_dump
int selinst_dump(const char *);

typedef void fn(unsigned long, int);
extern fn *tab[];
extern const unsigned ntab;

__attribute__((no_instrument_function)) static void on_alarm(int sig)
{
	(void)sig;
	int saved = errno;
	pid_t p = fork();
	if (p == 0)
		_exit(0);
	errno = saved;
}

int main(int argc, char **argv)
{
	int dumps = argc > 1 ? atoi(argv[1]) : 20;
	for (unsigned long x = 0; x < 4000; x++)
		tab[x % ntab](x, 2);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGCHLD, SIG_IGN);	/* no zombies */
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	setitimer(ITIMER_REAL, &it, NULL);
	for (int i = 0; i < dumps; i++)
		if (selinst_dump && selinst_dump("snap.prof") != 0)
			printf("dump %d failed\n", i);
	printf("%d dumps\n", dumps);
	return 0;
}
