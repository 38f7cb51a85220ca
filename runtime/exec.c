/* SPDX-License-Identifier: MIT */
/*
 * exec.c - write the profile before exec replaces the process image.
 *
 * The exec family is defined here, in the shared library only (see the
 * Makefile): the program's calls bind to these definitions, because
 * libselinst comes before libc in the symbol lookup order.  Each writes
 * the profile, as at exit, then calls libc's own function.  If exec fails
 * the program goes on, and the profile is written again at exit.
 *
 * A forked child that has counted nothing since the fork (the usual
 * fork-then-exec) writes nothing: there is nothing to lose, and a file per
 * spawned command would litter the directory.  A vfork child writes
 * nothing at all.  posix_spawn, system and
 * popen do not replace this process and are left alone.  With the static
 * library, call selinst_dump(NULL) before exec.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>
#include "internal.h"

extern char **environ;

/* Has this process counted any call?  In a forked child the regions open
 * at the fork come along as nodes with no calls. */
static int counted_anything(void)
{
	struct si_thread *t = si_self;
	/* si_forked: a child that ran no hook since the fork, whose profile
	 * (the open frames, no calls) is not even made. */
	if (!t || t == &si_nothread || t == &si_forked)
		return 0;
	for (uint64_t id = 1; id < t->nnodes; id++)
		if (si_node_by_id(t, id)->calls)
			return 1;
	return 0;
}

static void flush_before_exec(void)
{
	/* A vfork child runs in its parent's memory: it writes nothing (the
	 * parent writes its own profile at its exit). */
	if (!__atomic_load_n(&si_started, __ATOMIC_ACQUIRE) || si_final_written ||
	    !si_output_is_ours())
		return;
	if (si_forked_child && !counted_anything())
		return;
	int saved = errno;
	si_write_profile(NULL, 1, 0, 0);
	errno = saved;
}

/* libc's definition of NAME, found past ours. */
#define REAL(type, name) ((type)dlsym(RTLD_NEXT, name))

typedef int execve_fn(const char *, char *const[], char *const[]);
typedef int execvp_fn(const char *, char *const[]);
typedef int execvpe_fn(const char *, char *const[], char *const[]);
typedef int fexecve_fn(int, char *const[], char *const[]);

static int call_execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn *real = REAL(execve_fn *, "execve");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(path, argv, envp);
}

static int call_execvpe(const char *file, char *const argv[], char *const envp[])
{
	execvpe_fn *real = REAL(execvpe_fn *, "execvpe");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(file, argv, envp);
}

SI_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	flush_before_exec();
	return call_execve(path, argv, envp);
}

SI_EXPORT int execv(const char *path, char *const argv[])
{
	flush_before_exec();
	return call_execve(path, argv, environ);
}

SI_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	flush_before_exec();
	return call_execvpe(file, argv, envp);
}

SI_EXPORT int execvp(const char *file, char *const argv[])
{
	flush_before_exec();
	return call_execvpe(file, argv, environ);
}

SI_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	flush_before_exec();
	fexecve_fn *real = REAL(fexecve_fn *, "fexecve");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fd, argv, envp);
}

/* The list forms: ARG0 ... NULL [, envp] become an argv array on the
 * stack, as libc's own execl does. */
static size_t count_args(const char *arg0, va_list ap)
{
	size_t n = 1;
	if (arg0)
		while (va_arg(ap, const char *))
			n++;
	return n;
}

/* Declares char *ARGV[] = { ARG0, ..., NULL } from the variadic arguments
 * and leaves AP open just past the NULL (execle reads envp there). */
#define LIST_TO_ARGV(argv, arg0, ap)					\
	va_start(ap, arg0);						\
	size_t argc_ = count_args(arg0, ap);				\
	va_end(ap);							\
	char *argv[argc_ + 1];						\
	va_start(ap, arg0);						\
	argv[0] = (char *)(arg0);					\
	for (size_t i_ = 0; argv[i_]; )					\
		argv[++i_] = va_arg(ap, char *)

SI_EXPORT int execl(const char *path, const char *arg0, ...)
{
	va_list ap;
	LIST_TO_ARGV(argv, arg0, ap);
	va_end(ap);
	return execv(path, argv);
}

SI_EXPORT int execlp(const char *file, const char *arg0, ...)
{
	va_list ap;
	LIST_TO_ARGV(argv, arg0, ap);
	va_end(ap);
	return execvp(file, argv);
}

SI_EXPORT int execle(const char *path, const char *arg0, ...)
{
	va_list ap;
	LIST_TO_ARGV(argv, arg0, ap);
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	return execve(path, argv, envp);
}
