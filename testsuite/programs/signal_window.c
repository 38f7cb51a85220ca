/* Signals that land inside a hook (issue 11 D and E); built with the
 * plugin at threshold 0, so every function here is a region.
 *
 *   signal_window jump N   a 100 us interval timer whose handler
 *                          siglongjmps to a sigsetjmp in the caller of a
 *                          loop over mid(20), N times; prints the calls the
 *                          bodies saw: "mid M leaf L spin S jumps J"
 *   signal_window grow T   T threads one after another, each recursing
 *                          240 deep over and over until a signal, sent at
 *                          a random moment, runs a handler that recurses
 *                          400 deep (the region stack grows inside the
 *                          handler); prints "handled H"
 *   signal_window growmain 0   the same once on the main thread, the
 *                          signal from a one-shot timer, then a snapshot
 *                          (selinst_dump) with main's regions open
 *
 * With SW_YIELD=1 in the environment, leaf and the bottom of the
 * recursion sleep for 0 ns: ThreadSanitizer delivers signals only in
 * library calls it intercepts as blocking, never in straight-line code.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "selinst.h"

static volatile long mid_body, leaf_body, spin_body, jumps, target;
static volatile long sink;
static sigjmp_buf jb;
static int yield_points;	/* SW_YIELD: see above */

static void pause_point(void)
{
	struct timespec ts = { 0, 0 };
	nanosleep(&ts, NULL);
}

__attribute__((noinline)) static void leaf(int i)
{
	leaf_body++;
	for (int k = 0; k < 8; k++)
		sink += k ^ i;
	if (yield_points)
		pause_point();
}

__attribute__((noinline)) static void mid(int n)
{
	mid_body++;
	for (int i = 0; i < n; i++)
		leaf(i);
}

__attribute__((noinline)) static void spin(void)
{
	spin_body++;
	for (;;)
		mid(20);
}

static void on_alarm(int sig)
{
	(void)sig;
	if (++jumps >= target) {
		struct itimerval off = { { 0, 0 }, { 0, 0 } };
		setitimer(ITIMER_REAL, &off, NULL);
	}
	siglongjmp(jb, 1);
}

__attribute__((noinline)) static void run_jumps(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 100 }, { 0, 100 } };
	setitimer(ITIMER_REAL, &it, NULL);
	while (jumps < target)
		if (!sigsetjmp(jb, 1))
			spin();
	printf("mid %ld leaf %ld spin %ld jumps %ld\n", mid_body, leaf_body, spin_body, jumps);
}

/* ---- grow ---------------------------------------------------------------- */

static volatile int handled, stop;
static volatile long depth_sink;

__attribute__((noinline)) static void deep(int n)
{
	depth_sink++;
	if (n > 0)
		deep(n - 1);
	depth_sink++;
}

__attribute__((noinline)) static void rec(int n)
{
	depth_sink++;
	if (n > 0)
		rec(n - 1);
	else if (yield_points)
		pause_point();
	depth_sink++;
}

static void on_usr1(int sig)
{
	(void)sig;
	deep(400);
	handled++;
	stop = 1;
}

static void *worker(void *arg)
{
	(void)arg;
	while (!stop)
		rec(240);
	return NULL;
}

__attribute__((noinline)) static void run_grow(int threads)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	for (int i = 0; i < threads; i++) {
		pthread_t th;
		stop = 0;
		if (pthread_create(&th, NULL, worker, NULL))
			exit(2);
		/* a random moment, once the worker is recursing */
		struct timespec ts = { 0, 200000 + rand() % 800000 };
		nanosleep(&ts, NULL);
		pthread_kill(th, SIGUSR1);
		pthread_join(th, NULL);
	}
	printf("handled %d\n", handled);
}

/* The same on the main thread, the signal from a one-shot timer. */
__attribute__((noinline)) static void run_grow_main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGALRM, &sa, NULL);
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	struct itimerval it = { { 0, 0 }, { 0, 200 + rand() % 800 } };
	setitimer(ITIMER_REAL, &it, NULL);
	while (!stop)
		rec(240);
	/* The regions open here must be seen in a snapshot: a stale top left
	 * in the block the handler's growth replaced would hide them. */
	for (int i = 0; i < 10; i++)
		rec(240);
	selinst_dump("signal_window.snap.prof");
	printf("handled %d\n", handled);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	target = atol(argv[2]);
	yield_points = getenv("SW_YIELD") != NULL;
	if (!strcmp(argv[1], "jump"))
		run_jumps();
	else if (!strcmp(argv[1], "grow"))
		run_grow((int)target);
	else if (!strcmp(argv[1], "growmain"))
		run_grow_main();
	else
		return 2;
	return 0;
}
