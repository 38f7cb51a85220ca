/* exits.c MODE - every way out: exit with regions open, longjmp past
 * instrumented frames, fork, signal handlers running instrumented code
 * (and signals landing inside hooks), fatal signals ("sig N": kill
 * ourselves with signal N; "pipe": write to a pipe nobody reads; "yes":
 * write lines to stdout until it is closed).  With EXITS_OWN_INT set, a
 * constructor installs the program's own SIGINT handler (before the
 * runtime starts with the static library, after it with the shared one). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rt.h"

FUNC(r_main, "main", 1);
FUNC(r_a, "a", 2);
FUNC(r_b, "b", 3);
FUNC(r_c, "c", 4);
FUNC(r_f, "f", 5);
FUNC(r_h, "h", 6);
FUNC(r_catcher, "catcher", 7);
FUNC(r_l1, "l1", 8);
FUNC(r_l2, "l2", 9);
FUNC(r_l3, "l3", 10);
LOOP(r_loop, "rt.c:11", "l3", 11);

static jmp_buf jb;
static volatile unsigned long handled, hran;

__attribute__((noinline)) static void l3(void)
{
	__selinst_enter(&r_l3);
	uint64_t *cell = __selinst_loop_enter(&r_loop);
	rt_busy(1000);
	*cell = 3;		/* the plugin stores the running count before each call */
	longjmp(jb, 1);		/* the plugin would call __selinst_exit(&r_l3) first; leave it out */
}
__attribute__((noinline)) static void l2(void) { __selinst_enter(&r_l2); l3(); __selinst_exit(&r_l2); }
__attribute__((noinline)) static void l1(void) { __selinst_enter(&r_l1); l2(); __selinst_exit(&r_l1); }

__attribute__((noinline)) static void catcher(int n)
{
	__selinst_enter(&r_catcher);
	char vla[n + 16];	/* the catcher's frame moves: compare addresses, not depths */
	memset(vla, 0, sizeof vla);
	if (setjmp(jb) == 0) {
		__selinst_setjmp_return();
		l1();
	} else {
		__selinst_setjmp_return();
	}
	__selinst_exit(&r_catcher);
}

__attribute__((noinline)) static void f(void) { __selinst_enter(&r_f); __asm__ volatile("" ::: "memory"); __selinst_exit(&r_f); }

static void h(void) { __selinst_enter(&r_h); hran++; __selinst_exit(&r_h); }
static void on_alarm(int sig) { (void)sig; handled++; h(); }
static void own_handler(int sig) { (void)sig; static const char m[] = "own handler\n"; if (write(1, m, sizeof m - 1)) {} _exit(3); }

__attribute__((constructor)) static void own_int_early(void)
{
	if (getenv("EXITS_OWN_INT"))
		signal(SIGINT, own_handler);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	__selinst_enter(&r_main);
	if (!strcmp(mode, "exit")) {
		__selinst_enter(&r_a);
		__selinst_enter(&r_b);
		__selinst_enter(&r_c);
		rt_busy(2000000);
		exit(5);
	} else if (!strcmp(mode, "longjmp")) {
		for (int i = 0; i < 1000; i++)
			catcher(i % 64);
	} else if (!strcmp(mode, "fork")) {
		for (int i = 0; i < 10; i++) f();
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			for (int i = 0; i < 3; i++) f();
			__selinst_exit(&r_main);
			return 0;
		}
		for (int i = 0; i < 5; i++) f();
		int st;
		waitpid(pid, &st, 0);
		printf("%d\n", (int)pid);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) return 9;
	} else if (!strcmp(mode, "signal")) {
		signal(SIGALRM, on_alarm);
		struct itimerval it = { { 0, 20 }, { 0, 20 } };
		setitimer(ITIMER_REAL, &it, NULL);
		for (long i = 0; i < 3000000; i++) f();
		struct itimerval off = { { 0, 0 }, { 0, 0 } };
		setitimer(ITIMER_REAL, &off, NULL);
		printf("%lu %lu\n", handled, hran);
	} else if (!strcmp(mode, "segv")) {
		__selinst_enter(&r_a);
		f();
		*(volatile int *)(uintptr_t)argc = 1;	/* argc is small: not mapped */
	} else if (!strcmp(mode, "abort")) {
		__selinst_enter(&r_a);
		f();
		abort();
	} else if (!strcmp(mode, "term")) {
		__selinst_enter(&r_a);
		f();
		kill(getpid(), SIGTERM);
		rt_busy(1000000000);
	} else if (!strcmp(mode, "sig") && argc > 2) {
		__selinst_enter(&r_a);
		f();
		kill(getpid(), atoi(argv[2]));
		__selinst_exit(&r_a);	/* reached only where the signal is ignored */
	} else if (!strcmp(mode, "pipe")) {
		int fds[2];
		if (pipe(fds) != 0)
			return 8;
		close(fds[0]);
		__selinst_enter(&r_a);
		f();
		if (write(fds[1], "x", 1) < 0)
			return 9;	/* EPIPE: SIGPIPE was ignored */
		__selinst_exit(&r_a);
	} else if (!strcmp(mode, "yes")) {
		__selinst_enter(&r_a);
		f();
		for (long i = 0; i < 100000000; i++)
			if (write(1, "y\n", 2) < 0)
				return 9;
		__selinst_exit(&r_a);
	} else if (!strcmp(mode, "own")) {
		signal(SIGTERM, own_handler);
		f();
		raise(SIGTERM);
	}
	__selinst_exit(&r_main);
	return 0;
}
