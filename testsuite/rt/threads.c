/* threads.c - 8 pthreads x 100,000 calls (2 of them detached, all ended
 * before exit), plus a thread that calls pthread_exit with a region open.
 * Expected: exactly 800,000 calls of "work", 100,000 per worker thread. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include "rt.h"

FUNC(r_main, "main", 1);
FUNC(r_thread, "thread", 2);
FUNC(r_work, "work", 3);
FUNC(r_leaf, "leaf", 4);
FUNC(r_quit, "quitter", 5);

static sem_t done;
static __thread volatile unsigned long sink;

static void work(unsigned long i)
{
	__selinst_enter(&r_work);
	if (i % 1000 == 0) {
		__selinst_enter(&r_leaf);
		sink += i;
		__selinst_exit(&r_leaf);
	}
	__selinst_exit(&r_work);
}

static void *thread(void *arg)
{
	__selinst_enter(&r_thread);
	for (unsigned long i = 0; i < 100000; i++)
		work(i);
	__selinst_exit(&r_thread);
	if (arg)
		sem_post(&done);	/* detached: tell main we are through */
	return NULL;
}

static void *quitter(void *arg)
{
	(void)arg;
	__selinst_enter(&r_quit);
	rt_busy(2000000);
	pthread_exit(NULL);	/* region open: closed when the thread ends */
}

int main(void)
{
	__selinst_enter(&r_main);
	sem_init(&done, 0, 0);
	pthread_t th[8];
	for (long i = 0; i < 8; i++) {
		pthread_create(&th[i], NULL, thread, (void *)(i < 2 ? 1L : 0L));
		if (i < 2)
			pthread_detach(th[i]);
	}
	pthread_t q;
	pthread_create(&q, NULL, quitter, NULL);
	pthread_join(q, NULL);
	for (int i = 2; i < 8; i++)
		pthread_join(th[i], NULL);
	sem_wait(&done);
	sem_wait(&done);
	__selinst_exit(&r_main);
	return 0;
}
