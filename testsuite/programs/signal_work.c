/* signal_work.c - a 300 us timer's handler, in whichever thread it lands
 * (main in pthread_join, four threads sleeping), reaches new calling
 * contexts, opens a manual region on a fresh name and now and then dumps
 * the profile.  Run under ThreadSanitizer (t-rt-sanitizers.sh), which
 * also reports a handler that changes errno: the runtime's paths outside
 * the hook fast paths (thread start, node and name tables, the writer)
 * must keep it.  Built with gen_funcs.sh's funcs.c. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "selinst.h"
typedef void fn(unsigned long, int);
extern fn *tab[];
extern const unsigned ntab;
static __thread unsigned long x;
static void on_alarm(int sig)
{
	char name[32];
	(void)sig;
	x++;
	tab[x % ntab](x, 2);
	snprintf(name, sizeof name, "sig %lu", x % 5000);
	selinst_region_begin(name);
	selinst_region_end(name);
	if (x % 50 == 0)
		selinst_dump("sig.prof");
}
static void *idle(void *a) { (void)a; for (int i = 0; i < 2000; i++) usleep(100); return NULL; }
int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 300 }, { 0, 300 } };
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, idle, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("ok\n");
	return 0;
}
