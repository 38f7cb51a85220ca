/* SPDX-License-Identifier: MIT */
/* trace_prog.c - the tracing tests' program (t-rt-trace*.sh,
 * t-report-trace.sh).  ./trace_prog CASE:
 *   threads  main calls work(2); 3 threads call work(k+1) 100 times each
 *            (k = 0, 1, 2); work(n) runs a loop of n trips calling leaf()
 *   control  a() 10 times, trace off, b() 10 times, trace on, c() 10 times
 *   window   a() 100 times, sleep 1.5 s, b() 100 times
 *   flight   early() 100000 times, late() 1000 times, then selinst_dump to
 *            dump.prof; exits 3
 *   crash    late() 100 times, then abort()
 *   many     leaf() 100000 times; exits 3
 *   busy     a thread calls work(1) 300000 times while main writes
 *            busy1.prof .. busy3.prof with selinst_dump; prints, for each
 *            dump, the calls the thread had finished before it began */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "selinst.h"

static volatile int sink;
__attribute__((noinline)) SELINST_ALWAYS void leaf(int i) { sink += i; }
__attribute__((noinline)) SELINST_ALWAYS void work(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
}
__attribute__((noinline)) SELINST_ALWAYS void a(void) { sink++; }
__attribute__((noinline)) SELINST_ALWAYS void b(void) { sink++; }
__attribute__((noinline)) SELINST_ALWAYS void c(void) { sink++; }
__attribute__((noinline)) SELINST_ALWAYS void early(void) { sink++; }
__attribute__((noinline)) SELINST_ALWAYS void late(void) { sink++; }

static void *thread(void *arg)
{
	for (int i = 0; i < 100; i++)
		work((int)(long)arg);
	return NULL;
}

static void threads(void)
{
	pthread_t t[3];
	work(2);
	for (long k = 0; k < 3; k++)
		pthread_create(&t[k], NULL, thread, (void *)(k + 1));
	for (int k = 0; k < 3; k++)
		pthread_join(t[k], NULL);
}

static void control(void)
{
	for (int i = 0; i < 10; i++)
		a();
	selinst_trace_off();
	for (int i = 0; i < 10; i++)
		b();
	selinst_trace_on();
	for (int i = 0; i < 10; i++)
		c();
}

static int busy_calls;	/* work(1) calls finished by busy_thread */

static void *busy_thread(void *arg)
{
	for (int i = 0; i < 300000; i++) {
		work(1);
		__atomic_store_n(&busy_calls, i + 1, __ATOMIC_RELEASE);
	}
	*(volatile int *)arg = 1;
	return NULL;
}

/* Dumps while a thread records (and spills, with a small
 * SELINST_TRACE_MB): each reads the thread's buffer as it goes on. */
static void busy(void)
{
	pthread_t t;
	volatile int done = 0;
	pthread_create(&t, NULL, busy_thread, (void *)&done);
	for (int k = 1; k <= 3; k++) {
		struct timespec ts = { 0, 5000000 };
		nanosleep(&ts, NULL);
		char name[32] = "busy0.prof";
		name[4] = (char)('0' + k);
		printf("busy%d %d\n", k, __atomic_load_n(&busy_calls, __ATOMIC_ACQUIRE));
		selinst_dump(name);
	}
	pthread_join(t, NULL);
	(void)done;
}

static void window(void)
{
	for (int i = 0; i < 100; i++)
		a();
	struct timespec ts = { 1, 500000000 };
	while (nanosleep(&ts, &ts) != 0)
		;
	for (int i = 0; i < 100; i++)
		b();
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "threads";
	if (!strcmp(c, "threads"))
		threads();
	else if (!strcmp(c, "control"))
		control();
	else if (!strcmp(c, "window"))
		window();
	else if (!strcmp(c, "busy"))
		busy();
	else if (!strcmp(c, "flight") || !strcmp(c, "crash")) {
		for (int i = 0; !strcmp(c, "flight") && i < 100000; i++)
			early();
		for (int i = 0; i < (!strcmp(c, "flight") ? 1000 : 100); i++)
			late();
		if (!strcmp(c, "crash"))
			abort();
		selinst_dump("dump.prof");
		return 3;
	} else if (!strcmp(c, "many")) {
		for (int i = 0; i < 100000; i++)
			leaf(i);
		return 3;
	}
	return 0;
}
