/* SPDX-License-Identifier: MIT */
/* write_no_malloc.c MODE - the runtime's profile write calls no malloc
 * (runtime/walloc.c).  This program replaces malloc, calloc, realloc,
 * free and the aligned allocators (glibc's own calls and the runtime's
 * come here too) and, once armed, says on stderr that one was called.  Two threads
 * allocate and free until main stops them; main runs instrumented work,
 * arms, then:
 *   exit   returns from main (the final write at exit);
 *   term   raises SIGTERM (the runtime's fatal handler writes);
 *   dump   calls selinst_dump("dump.prof"), disarms, returns;
 *   self   calls malloc itself, armed (the replacement is in effect).
 * Only the thread that armed counts: in "exit" the other threads have
 * been joined already, in "term" and "dump" they still allocate. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "selinst.h"

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void *__libc_memalign(size_t align, size_t n);
void __libc_free(void *p);

static __thread int armed;

__attribute__((no_instrument_function)) static void called(const char *what)
{
	if (!armed)
		return;
	armed = 0;	/* once: the message itself must not loop */
	char line[80] = "malloc family called during the write: ";
	strcat(line, what);
	strcat(line, "\n");
	ssize_t w = write(2, line, strlen(line));
	(void)w;
	armed = 1;
}

void *malloc(size_t n) { called("malloc"); return __libc_malloc(n); }
void *calloc(size_t n, size_t s) { called("calloc"); return __libc_calloc(n, s); }
void *realloc(void *p, size_t n) { called("realloc"); return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { called("memalign"); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { called("aligned_alloc"); return __libc_memalign(a, n); }
void free(void *p) { if (p) called("free"); __libc_free(p); }
int posix_memalign(void **p, size_t a, size_t n)
{
	called("posix_memalign");
	*p = __libc_memalign(a, n);
	return *p ? 0 : 12;
}

static volatile int stop;
static int started;	/* churning threads past their first hook */

static void *churn(void *arg)
{
	__atomic_fetch_add(&started, 1, __ATOMIC_RELEASE);	/* in the profile now */
	void *blk[16] = { 0 };
	for (unsigned i = 0; !stop; i++) {
		unsigned k = i % 16;
		free(blk[k]);
		blk[k] = malloc(16 + 61 * (i % 97));
	}
	for (unsigned k = 0; k < 16; k++)
		free(blk[k]);
	return arg;
}

__attribute__((noinline)) static unsigned long work(unsigned long x)
{
	return x * 2654435761u >> 3;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "exit";
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, churn, NULL);
	unsigned long sum = 0;
	for (unsigned long x = 0; x < 1000; x++)
		sum += work(x);
	while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < 2)
		usleep(1000);
	usleep(20000);
	if (!strcmp(mode, "exit")) {
		stop = 1;
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	}
	armed = 1;
	if (!strcmp(mode, "term"))
		raise(SIGTERM);
	if (!strcmp(mode, "self")) {
		void *volatile v = malloc(32);	/* volatile: GCC drops a pair */
		free(v);
	}
	if (!strcmp(mode, "dump")) {
		selinst_dump("dump.prof");
		armed = 0;
	}
	return sum == 42;
}
