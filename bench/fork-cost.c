/* SPDX-License-Identifier: MIT */
/*
 * fork-cost.c - what one fork() costs a process: N times fork, the child
 * _exit(0)s at once (as a child about to exec or a death test does), the
 * parent waits.  Prints per fork: wall us, the parent's CPU us and the
 * children's CPU us (getrusage RUSAGE_CHILDREN: what the after-fork
 * handlers, the copy-on-write faults and the exit cost the child).
 * Built plain and at threshold 0 by fork-cost.sh: the regions open in
 * main and in fork_some are then copied into every child's profile.
 * With "call": the child calls helper (instrumented at threshold 0: its
 * first enter makes the child's profile) before it exits.
 *   fork-cost [N [call]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double us_of(struct timeval tv)
{
	return tv.tv_sec * 1e6 + tv.tv_usec;
}

static int call;
volatile int sink;

__attribute__((noinline)) void helper(void)
{
	sink++;
}

__attribute__((noinline)) static int fork_some(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t p = fork();
		if (p < 0)
			return 1;
		if (p == 0) {
			if (call)
				helper();
			_exit(0);
		}
		int st;
		if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000;
	call = argc > 2;
	struct timespec a, b;
	struct rusage self0, self1, kids;
	getrusage(RUSAGE_SELF, &self0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (fork_some(n))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	getrusage(RUSAGE_SELF, &self1);
	getrusage(RUSAGE_CHILDREN, &kids);
	double wall = (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3;
	double parent = us_of(self1.ru_utime) + us_of(self1.ru_stime) -
			us_of(self0.ru_utime) - us_of(self0.ru_stime);
	double child = us_of(kids.ru_utime) + us_of(kids.ru_stime);
	printf("%.1f %.1f %.1f\n", wall / n, parent / n, child / n);
	return 0;
}
