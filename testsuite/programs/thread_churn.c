/* thread_churn.c N - N threads one after another, each calling work(10)
 * once; prints (stderr) how much the peak RSS grew over the last 4/5 of
 * them.  Exited threads must not keep their live structures (issue 11). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
static volatile int sink;
__attribute__((noinline)) void work(int n) { for (int i = 0; i < n; i++) sink += i; }
static void *run(void *a) { work((int)(long)a); return NULL; }
static long rss_kb(void) { struct rusage u; getrusage(RUSAGE_SELF, &u); return u.ru_maxrss; }
int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	long r0 = 0;
	for (int i = 0; i < n; i++) {
		pthread_t t;
		if (i == n / 5) r0 = rss_kb();
		pthread_create(&t, NULL, run, (void *)10L);
		pthread_join(t, NULL);
	}
	fprintf(stderr, "rss growth over the last %d threads: %ld KB (total %ld KB)\n", n - n / 5, rss_kb() - r0, rss_kb());
	return 0;
}
