/* corpus-flags: -pthread */
/* Many short-lived threads (200, at most 8 alive at a time), each
 * running instrumented code and exiting before the program ends: their
 * records must survive them.  Results are collected per thread. */
#include <stdio.h>
#include <pthread.h>
#include <stdint.h>

static long work_item(int id, int i) { return (long)(id * 31 + i) % 97; }

static void *thread_main(void *arg)
{
	intptr_t id = (intptr_t)arg;
	long s = 0;
	for (int i = 0; i < 2000; i++)
		s += work_item((int)id, i);
	return (void *)(intptr_t)s;
}

int main(void)
{
	long total = 0;
	for (int batch = 0; batch < 25; batch++) {
		pthread_t t[8];
		for (int k = 0; k < 8; k++)
			pthread_create(&t[k], NULL, thread_main, (void *)(intptr_t)(batch * 8 + k));
		for (int k = 0; k < 8; k++) {
			void *r;
			pthread_join(t[k], &r);
			total += (intptr_t)r;
		}
	}
	printf("threads 200 total %ld\n", total);
	return 0;
}
