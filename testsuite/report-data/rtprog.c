/* A small program that drives libselinst by hand (no plugin): static
 * region descriptors, known call counts and loop trip counts, two threads.
 * Used by t-report-runtime.sh to check selinst-report on a real profile. */
#include <pthread.h>
#include <stdint.h>
#include "selinst.h"

static const struct selinst_region r_main = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 10, 0, "main", "rtprog.c", 0 };
static const struct selinst_region r_work = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 20, 0, "work", "rtprog.c", 0 };
static const struct selinst_region r_loop = { SELINST_ABI_VERSION, SELINST_KIND_LOOP, 23, 0, "rtprog.c:23", "rtprog.c", "work" };
static const struct selinst_region r_leaf = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 30, 0, "leaf", "rtprog.c", 0 };
static const struct selinst_region r_thr = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 40, 0, "thread_main", "rtprog.c", 0 };

static volatile uint64_t sink;

static void leaf(int k)
{
	__selinst_enter(&r_leaf);
	for (int i = 0; i < 2000; i++)
		sink += (uint64_t)i * (uint64_t)k;
	__selinst_exit(&r_leaf);
}

static void work(int n)
{
	__selinst_enter(&r_work);
	__selinst_loop_enter(&r_loop);
	int i;
	for (i = 0; i < n; i++)
		leaf(i);
	__selinst_loop_exit(&r_loop, (uint64_t)i);
	__selinst_exit(&r_work);
}

static void *thread_main(void *arg)
{
	(void)arg;
	__selinst_enter(&r_thr);
	for (int k = 0; k < 4; k++)
		work(20);
	__selinst_exit(&r_thr);
	return 0;
}

int main(void)
{
	__selinst_enter(&r_main);
	pthread_t t;
	pthread_create(&t, 0, thread_main, 0);
	for (int k = 0; k < 10; k++)
		work(100);
	work(3);
	pthread_join(t, 0);
	__selinst_exit(&r_main);
	return 0;
}
