/* corpus-flags: -pthread */
/* pthread_exit from a deep call chain, pthread_once, cleanup handlers
 * (pthread_cleanup_push/pop), threads that outlive their creator's
 * frame, and detached threads joined through a semaphore. */
#include <stdio.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int inits;
static int cleanups[8];
static sem_t sem;
static long detached_sum[4];

static void init(void) { inits++; }
static void cleanup(void *p) { cleanups[(intptr_t)p]++; }

static void deep_exit(int d, intptr_t id)
{
	if (d == 0)
		pthread_exit((void *)(id * 100 + 42));
	deep_exit(d - 1, id);
}

static void *quitter(void *arg)
{
	intptr_t id = (intptr_t)arg;
	pthread_once(&once, init);
	pthread_cleanup_push(cleanup, arg);
	if (id % 2)
		deep_exit(10, id);
	pthread_cleanup_pop(1);
	return (void *)id;
}

static void *detached(void *arg)
{
	intptr_t id = (intptr_t)arg;
	long s = 0;
	for (int i = 0; i < 1000; i++)
		s += i * id;
	detached_sum[id] = s;
	sem_post(&sem);
	return NULL;
}

int main(void)
{
	pthread_t t[6];
	for (intptr_t i = 0; i < 6; i++)
		pthread_create(&t[i], NULL, quitter, (void *)i);
	for (int i = 0; i < 6; i++) {
		void *r;
		pthread_join(t[i], &r);
		printf("thread %d -> %ld\n", i, (long)(intptr_t)r);
	}
	printf("inits %d cleanups", inits);
	for (int i = 0; i < 6; i++)
		printf(" %d", cleanups[i]);
	printf("\n");
	sem_init(&sem, 0, 0);
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	for (intptr_t i = 0; i < 4; i++) {
		pthread_t d;
		pthread_create(&d, &at, detached, (void *)i);
	}
	for (int i = 0; i < 4; i++)
		sem_wait(&sem);
	printf("detached %ld %ld %ld %ld\n", detached_sum[0], detached_sum[1], detached_sum[2], detached_sum[3]);
	return 0;
}
