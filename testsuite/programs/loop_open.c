/* loop_open.c - loops still open when the profile is written (issue 11,
 * F): the runtime takes an open loop's count from the cell the loop
 * stores once an iteration.  In every mode a loop "for (;;) step (i)"
 * runs; step is a leaf of this unit that cannot leave by itself (the
 * plugin used to store the count only before calls that might, so these
 * loops reported 0 iterations).  Once step has run 100000 times:
 *   term     a watcher thread sends the process SIGTERM (fatal: the
 *            runtime's handler writes the profile)
 *   jump     the watcher sends main SIGUSR1, whose handler siglongjmps
 *            out of the loop
 *   thread   the loop runs in a thread; main returns
 * The loop's iterations must equal step's calls, or exceed them by one
 * (the signal landed between the body's start and step's entry). */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile long calls;
static sigjmp_buf env;
static pthread_t main_thread;

void step(long i)
{
	calls += 1 + 0 * i;
}

static void on_usr1(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

static void *spin(void *arg)
{
	(void)arg;
	for (long i = 0;; i++)		/* line 39 */
		step(i);
	return NULL;
}

static void *watch(void *arg)
{
	while (calls < 100000)
		;
	/* At the looping thread: a process-directed SIGTERM may be taken by
	 * this thread, whose handler then writes while main goes on looping
	 * (the "thread" case, with its tolerance). */
	pthread_kill(main_thread, arg ? SIGUSR1 : SIGTERM);
	return NULL;
}

/* Not in main: a loop in the function that calls sigsetjmp is left out. */
void run(void)
{
	for (long i = 0;; i++)		/* line 58 */
		step(i);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "term";
	pthread_t t;
	if (!strcmp(mode, "thread")) {
		pthread_create(&t, NULL, spin, NULL);
		while (calls < 100000)
			;
		printf("returning\n");
		return 0;
	}
	main_thread = pthread_self();
	signal(SIGUSR1, on_usr1);
	if (sigsetjmp(env, 1)) {
		printf("jumped\n");
		return 0;
	}
	pthread_create(&t, NULL, watch, strcmp(mode, "jump") ? NULL : "jump");
	run();
}
