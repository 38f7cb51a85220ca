/* SPDX-License-Identifier: MIT */
/* fork_at_exit.c PROFILE - a single-threaded program whose SIGALRM
 * handler forks (fork_timer.h), 100 us after the last fork, through
 * exit.  After the final write (an exit function registered with no
 * library's handle runs after every library's finalization, the
 * runtime's write included) it allocates and frees blocks too large for
 * malloc's per-thread cache, for 0.3 s and 20 forks at least, so the
 * forks land inside malloc and free.  glibc's fork is safe there only
 * while the process never had a second thread: once it has, fork takes
 * the malloc locks, and a fork from a handler that interrupted free in
 * the same thread waits for itself forever (the runtime's exit-time
 * writer thread did that: t-rt-stress's fork_in_handler hung in libm's
 * __cxa_finalize).  Prints whether PROFILE was written before this tail
 * ran, whether the process was still single-threaded, and whether forks
 * ran. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/single_threaded.h>
#include <time.h>
#include "fork_timer.h"

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

static const char *profile;

__attribute__((no_instrument_function)) static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* After every library's finalization: the profile is written. */
__attribute__((no_instrument_function)) static void tail(void *arg)
{
	(void)arg;
	int written = access(profile, F_OK) == 0;
	int single = __libc_single_threaded;
	int before = fork_timer_forks;
	void *blk[64];
	/* 0.3 s, and on a loaded machine until 20 forks ran (10 s at most). */
	double start = seconds();
	for (unsigned i = 0;; i++) {
		double now = seconds();
		if (now > start + 10 || (now > start + 0.3 && fork_timer_forks - before >= 20))
			break;
		for (unsigned k = 0; k < 64; k++)
			blk[k] = malloc(2048 + 64 * ((i + k) % 32));
		for (unsigned k = 0; k < 64; k++)
			free(blk[k]);
	}
	printf("written %d single %d forks %s\n", written, single,
	       fork_timer_forks > before ? "yes" : "no");
	fflush(stdout);
}

/* A destructor of the program runs before the runtime's library is
 * finalized; what it registers with no handle runs after. */
__attribute__((destructor, no_instrument_function)) static void late(void)
{
	__cxa_atexit(tail, NULL, NULL);
}

static unsigned long work(unsigned long x)
{
	return x * 2654435761u >> 7;
}

int main(int argc, char **argv)
{
	profile = argc > 1 ? argv[1] : "fork_at_exit.prof";
	unsigned long sum = 0;
	for (unsigned long x = 0; x < 100; x++)
		sum += work(x);
	fork_timer_arm(100);
	printf("sum %lu\n", sum);
	return 0;
}
