/* SPDX-License-Identifier: MIT */
/* A fatal signal inside a profile write, sampled: with an argument, the
 * program's readlink() (preempting libc's for the runtime: link with
 * -rdynamic) raises SIGTERM the first time the runtime asks for the
 * program's path, which selinst_dump() does near its end, every sampled
 * module already looked up.  The handler's write is then nested in the
 * dump's, on the same thread.  spin() is no region: its samples are
 * named in the profile's modules. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int selinst_dump(const char *path);
static volatile int armed;
ssize_t readlink(const char *path, char *buf, size_t len)
{
	static ssize_t (*real)(const char *, char *, size_t);
	if (!real)
		real = (ssize_t (*)(const char *, char *, size_t))dlsym(RTLD_NEXT, "readlink");
	if (armed && strcmp(path, "/proc/self/exe") == 0) {
		armed = 0;
		raise(SIGTERM);
	}
	return real(path, buf, len);
}
__attribute__((noinline, no_instrument_function)) double spin(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 1e-9;
	return x;
}
__attribute__((noinline)) double work(long n) { return spin(n) + spin(n / 2); }
int main(int argc, char **argv)
{
	(void)argv;
	double x = 0;
	for (int i = 0; i < 20; i++)
		x += work(4000000);
	printf("%.3f\n", x);
	armed = argc > 1;
	selinst_dump("dump.prof");
	return 0;
}
