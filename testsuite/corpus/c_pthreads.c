/* corpus-flags: -pthread */
// corpus-levels: decisions (condition-variable waits depend on scheduling)
/* pthreads: workers with a mutex-protected queue and a condition
 * variable, a barrier, join with return values, thread-local storage. */
#include <stdio.h>
#include <pthread.h>
#include <stdint.h>

#define NT 4
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int queue[1000], qhead, qtail, done;
static pthread_barrier_t bar;
static __thread long tls_sum;

static long process(int item) { return (long)item * item % 1009; }

static int take(int *item)
{
	pthread_mutex_lock(&mu);
	while (qhead == qtail && !done)
		pthread_cond_wait(&cv, &mu);
	int ok = qhead != qtail;
	if (ok)
		*item = queue[qhead++];
	pthread_mutex_unlock(&mu);
	return ok;
}

static void *worker(void *arg)
{
	int item;
	(void)arg;
	while (take(&item))
		tls_sum += process(item);
	pthread_barrier_wait(&bar);
	return (void *)(intptr_t)tls_sum;
}

int main(void)
{
	pthread_t t[NT];
	pthread_barrier_init(&bar, NULL, NT);
	for (int i = 0; i < NT; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 1000; i++) {
		pthread_mutex_lock(&mu);
		queue[qtail++] = i;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&mu);
	}
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	long total = 0;
	for (int i = 0; i < NT; i++) {
		void *r;
		pthread_join(t[i], &r);
		total += (intptr_t)r;
	}
	printf("total %ld main tls %ld\n", total, tls_sum);
	pthread_barrier_destroy(&bar);
	return 0;
}
