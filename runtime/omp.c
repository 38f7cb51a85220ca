/* SPDX-License-Identifier: MIT */
/*
 * omp.c - OpenMP wait states with GCC's libgomp (no OMPT needed).
 *
 * The libgomp entry points GCC emits calls to for the constructs that
 * wait (GOMP_barrier, GOMP_critical_start, omp_set_lock, GOMP_loop_end,
 * GOMP_taskwait, ...) are defined here, in the shared library only (see
 * the Makefile), as in exec.c: the program's calls bind to these, which
 * record the call as a region of kind omp under the calling context and
 * call libgomp's own function, found with dlsym(RTLD_NEXT).  A program
 * that does not use OpenMP never calls them: nothing changes for it.
 *
 * The implicit barrier at the end of a parallel region is inside libgomp,
 * not called by the program: GOMP_parallel is interposed and runs the
 * outlined function through a trampoline that, after the function, waits
 * in a barrier of its own (GOMP_barrier, legal there as for an explicit
 * one), recorded as "omp implicit barrier (parallel end)".  Each thread's
 * wait there is the team's imbalance; libgomp's own barrier that follows
 * finds every thread arrived.  The whole is a region "omp parallel F" per
 * outlined function F in every thread of the team; in the forking thread
 * its exclusive time is the fork and the join (thread management).
 *
 * Off by default (calls pass straight through): SELINST_OMP=1 turns the
 * recording on.
 * Not covered: GOMP_parallel_reductions (task reductions on a parallel),
 * the old GOMP_parallel_start/end pair (GCC before 4.9), teams and
 * offloading; a cancelled region's threads wait in the end barrier here.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define EXPORT __attribute__((visibility("default")))

/* libgomp's definition of NAME, found past ours once.  A program whose
 * every libgomp call is one defined here was linked without libgomp
 * under --as-needed (Debian's gcc passes it: libselinst satisfied the
 * references), so libgomp is then loaded by name; a program that calls a
 * GOMP entry point with no libgomp at all cannot go on. */
static void *real(void **cache, const char *name)
{
	void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
	if (f)
		return f;
	f = dlsym(RTLD_NEXT, name);
	if (!f) {
		void *gomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL);
		f = gomp ? dlsym(gomp, name) : NULL;
	}
	if (!f) {
		fprintf(stderr, "selinst: %s not found past libselinst (libgomp?)\n", name);
		abort();
	}
	__atomic_store_n(cache, f, __ATOMIC_RELEASE);
	return f;
}
#define REAL(type, name) ({ static void *c_; (__typeof__(type) *)real(&c_, #name); })

/* -1 unknown, 0 off, 1 on. */
static int omp_on = -1;
static bool recording(void)
{
	int on = __atomic_load_n(&omp_on, __ATOMIC_RELAXED);
	if (on < 0) {
		/* Off unless asked for: the barrier that measures each
		 * thread's wait at a parallel region's end costs 1.5-18 us a
		 * fork (bench/README.md), too much for a default. */
		const char *e = getenv("SELINST_OMP");
		on = e && !strcmp(e, "1");
		__atomic_store_n(&omp_on, on, __ATOMIC_RELAXED);
	}
	return on;
}

/* One hand-made descriptor per wait (selinst-profile.h names them; file
 * "": the call site is the calling context). */
static struct selinst_region waits[SELINST_OMP_WAITS];
static pthread_once_t waits_once = PTHREAD_ONCE_INIT;
static void waits_init(void)
{
	for (unsigned i = 0; i < SELINST_OMP_WAITS; i++)
		waits[i] = (struct selinst_region){ SELINST_ABI_VERSION, SELINST_KIND_OMP, 0, 0,
						    selinst_omp_waits[i].name, "", NULL };
}
static const struct selinst_region *wait_region(enum selinst_omp_wait w)
{
	pthread_once(&waits_once, waits_init);
	return &waits[w];
}

/* Runs CALL as region W when recording. */
#define WAIT(w, call)                                           \
	do {                                                    \
		if (!recording()) {                             \
			call;                                   \
			break;                                  \
		}                                               \
		const struct selinst_region *r_ = wait_region(w);\
		__selinst_enter(r_);                            \
		call;                                           \
		__selinst_exit(r_);                             \
	} while (0)

/* Set by GOMP_single_start: the thread's next GOMP_barrier ends a single
 * construct (limited parallelism), unless nowait left it out, in which
 * case the next barrier is misnamed; GCC emits no other mark. */
static __thread bool after_single;

EXPORT void GOMP_barrier(void)
{
	enum selinst_omp_wait w = after_single ? SELINST_OMP_SINGLE_BARRIER : SELINST_OMP_BARRIER;
	after_single = false;
	WAIT(w, REAL(void(void), GOMP_barrier)());
}

EXPORT bool GOMP_single_start(void)
{
	after_single = true;
	return REAL(bool(void), GOMP_single_start)();
}

EXPORT void GOMP_critical_start(void)
{
	WAIT(SELINST_OMP_CRITICAL, REAL(void(void), GOMP_critical_start)());
}

EXPORT void GOMP_critical_name_start(void **pptr)
{
	WAIT(SELINST_OMP_CRITICAL, REAL(void(void **), GOMP_critical_name_start)(pptr));
}

EXPORT void GOMP_atomic_start(void)
{
	WAIT(SELINST_OMP_ATOMIC, REAL(void(void), GOMP_atomic_start)());
}

EXPORT void omp_set_lock(void *lock)
{
	WAIT(SELINST_OMP_LOCK, REAL(void(void *), omp_set_lock)(lock));
}

EXPORT void omp_set_nest_lock(void *lock)
{
	WAIT(SELINST_OMP_LOCK, REAL(void(void *), omp_set_nest_lock)(lock));
}

EXPORT void GOMP_loop_end(void)
{
	WAIT(SELINST_OMP_LOOP_END, REAL(void(void), GOMP_loop_end)());
}

EXPORT bool GOMP_loop_end_cancel(void)
{
	bool r = false;
	WAIT(SELINST_OMP_LOOP_END, r = REAL(bool(void), GOMP_loop_end_cancel)());
	return r;
}

EXPORT void GOMP_sections_end(void)
{
	WAIT(SELINST_OMP_SECTIONS_END, REAL(void(void), GOMP_sections_end)());
}

EXPORT bool GOMP_sections_end_cancel(void)
{
	bool r = false;
	WAIT(SELINST_OMP_SECTIONS_END, r = REAL(bool(void), GOMP_sections_end_cancel)());
	return r;
}

EXPORT void GOMP_taskwait(void)
{
	WAIT(SELINST_OMP_TASKWAIT, REAL(void(void), GOMP_taskwait)());
}

/* ---- parallel regions ----------------------------------------------- */

/* The descriptor "omp parallel F" of outlined function F: made once per
 * F, kept for the process's life (profiles name it at exit).  A full
 * table gives the catch-all "omp parallel ?". */
#define NPAR 1024
static struct { void *fn; struct selinst_region *r; } par[NPAR];
static pthread_mutex_t par_lock = PTHREAD_MUTEX_INITIALIZER;
static struct selinst_region par_other = { SELINST_ABI_VERSION, SELINST_KIND_OMP, 0, 0,
					   SELINST_OMP_PARALLEL "?", "", NULL };

/* "omp parallel main._omp_fn.0", or "omp parallel prog+0x1234" when F has
 * no dynamic symbol: the same in every process of one program. */
static struct selinst_region *new_parallel(void *fn)
{
	Dl_info di;
	char buf[512];
	if (dladdr(fn, &di) && di.dli_sname)
		snprintf(buf, sizeof buf, SELINST_OMP_PARALLEL "%s", di.dli_sname);
	else if (di.dli_fname) {
		const char *b = strrchr(di.dli_fname, '/');
		snprintf(buf, sizeof buf, SELINST_OMP_PARALLEL "%s+0x%lx", b ? b + 1 : di.dli_fname,
			 (unsigned long)((char *)fn - (char *)di.dli_fbase));
	} else
		snprintf(buf, sizeof buf, SELINST_OMP_PARALLEL "%p", fn);
	struct selinst_region *r = malloc(sizeof *r);
	char *name = strdup(buf);
	if (!r || !name) {
		free(r);
		free(name);
		return &par_other;
	}
	*r = (struct selinst_region){ SELINST_ABI_VERSION, SELINST_KIND_OMP, 0, 0, name, "", NULL };
	return r;
}

static const struct selinst_region *parallel_region(void *fn)
{
	size_t h = ((uintptr_t)fn >> 4) * 0x9e3779b97f4a7c15ull >> 54;	/* 10 bits */
	for (size_t i = 0; i < NPAR; i++) {
		size_t j = (h + i) & (NPAR - 1);
		void *f = __atomic_load_n(&par[j].fn, __ATOMIC_ACQUIRE);
		if (f == fn)
			return par[j].r;
		if (f)
			continue;
		pthread_mutex_lock(&par_lock);
		if (!par[j].fn) {
			par[j].r = new_parallel(fn);
			__atomic_store_n(&par[j].fn, fn, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&par_lock);
		i--;	/* look at slot j again */
	}
	return &par_other;
}

struct closure {
	void (*fn)(void *);
	void *data;
	const struct selinst_region *region;
	pthread_t master;
};

/* Each thread of the team: the outlined function, then its wait for the
 * others.  The forking thread is inside the region already. */
static void trampoline(void *arg)
{
	const struct closure *c = arg;
	bool worker = !pthread_equal(pthread_self(), c->master);
	if (worker)
		__selinst_enter(c->region);
	c->fn(c->data);
	after_single = false;
	WAIT(SELINST_OMP_END_BARRIER, REAL(void(void), GOMP_barrier)());
	if (worker)
		__selinst_exit(c->region);
}

/* Fills C for a fork of FN in this thread and enters its region; false
 * when not recording (the fork then goes straight to libgomp). */
static bool fork_begin(struct closure *c, void (*fn)(void *), void *data)
{
	if (!recording())
		return false;
	*c = (struct closure){ fn, data, parallel_region((void *)fn), pthread_self() };
	__selinst_enter(c->region);
	return true;
}

/* The forks: GOMP_parallel and the combined parallel worksharing entry
 * points (a parallel loop with constant bounds, parallel sections), all
 * FN, DATA, NUM_THREADS and then their own arguments DECL / ARGS. */
#define PARALLEL(name, decl, ...)                                          \
	EXPORT void name(void (*fn)(void *), void *data, unsigned num_threads decl) \
	{                                                                  \
		struct closure c;                                          \
		if (!fork_begin(&c, fn, data)) {                           \
			REAL(name, name)(fn, data, num_threads, __VA_ARGS__); \
			return;                                            \
		}                                                          \
		REAL(name, name)(trampoline, &c, num_threads, __VA_ARGS__); \
		__selinst_exit(c.region);                                  \
	}
#define LOOP_DECL , long start, long end, long incr, long chunk, unsigned flags
#define LOOP_ARGS start, end, incr, chunk, flags
#define RUNTIME_DECL , long start, long end, long incr, unsigned flags
#define RUNTIME_ARGS start, end, incr, flags

#define PAR_DECL , unsigned flags
#define SECTIONS_DECL , unsigned count, unsigned flags

PARALLEL(GOMP_parallel, PAR_DECL, flags)
PARALLEL(GOMP_parallel_sections, SECTIONS_DECL, count, flags)
PARALLEL(GOMP_parallel_loop_static, LOOP_DECL, LOOP_ARGS)
PARALLEL(GOMP_parallel_loop_dynamic, LOOP_DECL, LOOP_ARGS)
PARALLEL(GOMP_parallel_loop_guided, LOOP_DECL, LOOP_ARGS)
PARALLEL(GOMP_parallel_loop_nonmonotonic_dynamic, LOOP_DECL, LOOP_ARGS)
PARALLEL(GOMP_parallel_loop_nonmonotonic_guided, LOOP_DECL, LOOP_ARGS)
PARALLEL(GOMP_parallel_loop_runtime, RUNTIME_DECL, RUNTIME_ARGS)
PARALLEL(GOMP_parallel_loop_nonmonotonic_runtime, RUNTIME_DECL, RUNTIME_ARGS)
PARALLEL(GOMP_parallel_loop_maybe_nonmonotonic_runtime, RUNTIME_DECL, RUNTIME_ARGS)
