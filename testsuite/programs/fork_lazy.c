/* SPDX-License-Identifier: MIT */
/* fork_lazy.c MODE - main -> outer -> middle forks once (in MODE sig-*,
 * from the SIGUSR1 handler on_usr1 that middle raises); the parent waits
 * and prints the child's pid.  What the child does after the fork:
 *   quiet      exits through a call the plugin cannot see is noreturn:
 *              no hook at all since the fork
 *   hooks      calls leaf 3 times, then returns to main, which returns
 *   exit       exit(0): the plugin's exit hook of fork_here runs first
 *   exec       calls leaf, then execs /bin/true (the profile is written)
 *   exec-quiet execs /bin/true at once (nothing counted: no profile)
 *   again      returns to middle (fork_here's exit noted), which forks
 *              a grandchild that exits as quiet does, prints its pid
 *              and exits as quiet does
 *   deepN      middle calls rec N deep, which forks; the child returns
 *              through every frame to main, which calls leaf: N + 3
 *              exits before the first other hook
 *   loop       loop_fork's loop forks; the child leaves the loop (its
 *              loop exit hook), returns to main, which calls leaf
 *   sig-quiet, sig-hooks: quiet and hooks in the handler, which then
 *              exits as quiet does
 * The parent calls leaf twice before the fork: the child's profile starts
 * afresh, without them (t-rt-fork-lazy). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

volatile long sink;
static const char *mode;
/* exit through a pointer: no exit hooks before it (the plugin puts them
 * before calls it knows do not return). */
static void (*volatile quit)(int) = exit;
static pid_t child;

__attribute__((noinline)) void leaf(void)
{
	sink++;
}

/* Fork; in the child do what M says, with no call of an instrumented
 * function before the point M is about (0: return normally). */
__attribute__((noinline)) static int fork_here(const char *m)
{
	child = fork();
	if (child < 0)
		quit(2);
	if (child > 0)
		return 1;
	if (!strcmp(m, "quiet"))
		quit(0);
	if (!strcmp(m, "exit"))
		exit(0);
	if (!strcmp(m, "again") || !strncmp(m, "deep", 4))
		return 0;
	if (!strcmp(m, "exec"))
		leaf();
	if (!strncmp(m, "exec", 4)) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(9);
	}
	leaf();
	leaf();
	leaf();
	return 0;
}

/* N frames of rec, then the fork. */
__attribute__((noinline)) static int rec(int n)
{
	int r = n ? rec(n - 1) : fork_here(mode);
	sink += n;
	return r;
}

/* A loop that forks in its third iteration; the child leaves it. */
__attribute__((noinline)) static int loop_fork(void)
{
	for (int i = 0; i < 4; i++) {
		sink += i;
		if (i == 2 && (child = fork()) == 0)
			break;
	}
	return child != 0;
}

__attribute__((noinline)) static void on_usr1(int sig)
{
	(void)sig;
	if (fork_here(mode + 4) == 0)	/* sig-X: X in the handler */
		quit(0);
}

__attribute__((noinline)) static int middle(void)
{
	leaf();
	leaf();
	if (!strncmp(mode, "sig-", 4)) {
		signal(SIGUSR1, on_usr1);
		raise(SIGUSR1);
		return 1;
	}
	int r = !strcmp(mode, "loop") ? loop_fork() :
		strncmp(mode, "deep", 4) ? fork_here(mode) : rec(atoi(mode + 4));
	if (r == 0 && !strcmp(mode, "again")) {
		/* The child, back from fork_here (its exit noted), forks a
		 * grandchild with nothing made yet: no instrumented call here. */
		pid_t g = fork();
		if (g == 0)
			quit(0);
		int st;
		if (g < 0 || waitpid(g, &st, 0) != g || !WIFEXITED(st) || WEXITSTATUS(st))
			quit(3);
		printf("%d\n", (int)g);
		fflush(stdout);
		quit(0);
	}
	return r;
}

__attribute__((noinline)) static int outer(void)
{
	return middle();
}

int main(int argc, char **argv)
{
	mode = argc > 1 ? argv[1] : "quiet";
	if (!outer()) {		/* the child, returned */
		if (!strncmp(mode, "deep", 4) || !strcmp(mode, "loop"))
			leaf();
		return 0;
	}
	int st;
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		return 1;
	printf("%d\n", (int)child);
	return 0;
}
