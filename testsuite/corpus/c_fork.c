/* fork: the child runs instrumented code and exits through exit(); the
 * parent waits, then reports the child's status.  Output is flushed
 * before fork so nothing is printed twice. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

static long work(int n) { long s = 0; for (int i = 0; i < n; i++) s += i % 13; return s; }

static int child_main(int k)
{
	printf("child %d: %ld\n", k, work(1000 * k));
	fflush(stdout);
	return k + 10;
}

int main(void)
{
	printf("parent start %ld\n", work(500));
	fflush(stdout);
	for (int k = 1; k <= 3; k++) {
		pid_t p = fork();
		if (p == 0)
			exit(child_main(k));
		int st;
		waitpid(p, &st, 0);
		printf("child %d exited %d\n", k, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		fflush(stdout);
	}
	printf("parent end %ld\n", work(700));
	return 0;
}
