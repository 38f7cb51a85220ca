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
 * outlined function through a trampoline.  Each thread's wait there,
 * "omp implicit barrier (parallel end)", is the team's imbalance.  By
 * default (SELINST_OMP unset or 1) it is estimated with no barrier of
 * ours: each thread stamps the end of its share of the body into a
 * per-fork slot array, and after the join the forking thread credits
 * each thread's wait, latest end less its own, to that thread's
 * end-barrier node (end_credit).  SELINST_OMP=exact measures it: the
 * trampoline waits in a barrier of its own (GOMP_barrier, legal there as
 * for an explicit one; libgomp's own barrier that follows finds every
 * thread arrived), at 1.5-18 us a fork.  SELINST_OMP=0 passes every call
 * straight through.  The whole is a region "omp parallel F" per outlined
 * function F in every thread of the team; in the forking thread its
 * exclusive time is the fork and the join (thread management).
 *
 * GOMP_parallel_reductions (task reductions on a parallel) is a fork like
 * the others; GOMP_teams_reg (host teams) a region "omp teams F".
 * Not covered: the old GOMP_parallel_start/end pair (GCC before 4.9),
 * offloading (target); with SELINST_OMP=exact a cancelled region's
 * threads wait in the end barrier here.
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

/* SELINST_OMP: -1 not read yet, else one of these. */
enum { OMP_OFF, OMP_ESTIMATE, OMP_EXACT };
static int omp_mode = -1;
static int mode(void)
{
	int m = __atomic_load_n(&omp_mode, __ATOMIC_RELAXED);
	if (m < 0) {
		/* On by default, with the parallel-end wait estimated from
		 * each thread's end time (no barrier of ours: well under 1 us
		 * a fork, bench/README.md); "exact" measures it in a barrier
		 * of ours (1.5-18 us a fork); "0" passes every call through. */
		const char *e = getenv("SELINST_OMP");
		m = OMP_ESTIMATE;
		if (e && !strcmp(e, "0"))
			m = OMP_OFF;
		else if (e && !strcmp(e, "exact"))
			m = OMP_EXACT;
		else if (e && *e && strcmp(e, "1"))
			fprintf(stderr, "selinst: SELINST_OMP=%s: not 0, 1 or exact; "
				"recording OpenMP waits (1)\n", e);
		__atomic_store_n(&omp_mode, m, __ATOMIC_RELAXED);
	}
	return m;
}
static bool recording(void)
{
	return mode() != OMP_OFF;
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
 * no dynamic symbol: the same in every process of one program (KIND:
 * SELINST_OMP_PARALLEL, or SELINST_OMP_TEAMS for a teams construct's). */
static struct selinst_region *new_parallel(void *fn, const char *kind)
{
	Dl_info di;
	char buf[512];
	if (dladdr(fn, &di) && di.dli_sname)
		snprintf(buf, sizeof buf, "%s%s", kind, di.dli_sname);
	else if (di.dli_fname) {
		const char *b = strrchr(di.dli_fname, '/');
		snprintf(buf, sizeof buf, "%s%s+0x%lx", kind, b ? b + 1 : di.dli_fname,
			 (unsigned long)((char *)fn - (char *)di.dli_fbase));
	} else
		snprintf(buf, sizeof buf, "%s%p", kind, fn);
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

/* The descriptor of outlined function FN, made with KIND at its first
 * use: GCC outlines each construct's body apart, so one FN is never both
 * a parallel's and a teams construct's. */
static const struct selinst_region *parallel_region(void *fn, const char *kind)
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
			par[j].r = new_parallel(fn, kind);
			__atomic_store_n(&par[j].fn, fn, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&par_lock);
		i--;	/* look at slot j again */
	}
	return &par_other;
}

/* What a thread of the team leaves at the end of its share of the body
 * (estimate mode): its profile, the nodes of the region and of its end
 * wait, and the time.  A cache line each: the threads write theirs at
 * about the same moment. */
struct end_slot {
	struct si_thread *t;		/* NULL: nothing to credit */
	struct si_node *par, *wait;
	uint64_t end;
} __attribute__((aligned(64)));
/* Threads of a team whose end waits are estimated: more are not credited. */
#define END_SLOTS 64

struct closure {
	/* GOMP_parallel_reductions reads its reductions from the first word
	 * of the data it is handed: a copy of the program's, there */
	void *reductions;
	void (*fn)(void *);
	void *data;
	const struct selinst_region *region;
	pthread_t master;
	struct end_slot *slots;		/* END_SLOTS, estimate mode; else NULL */
	unsigned nthreads;		/* the team's, set by thread 0 */
};

/* Estimate mode, in thread number I of the team at the end of its share:
 * fill its slot.  No lock: each thread has its own slot, and the join at
 * the region's end orders these writes before the master reads them. */
static void end_stamp(struct closure *c)
{
	unsigned i = (unsigned)REAL(int(void), omp_get_thread_num)();
	if (i == 0)
		c->nthreads = (unsigned)REAL(int(void), omp_get_num_threads)();
	if (i >= END_SLOTS)
		return;
	struct end_slot *s = &c->slots[i];
	struct si_thread *t = si_thread_get();
	s->t = NULL;
	if (t && si_guard_take(t)) {
		struct si_frame *f = t->top;
		if (si_depth(t) > 1 && f->region == c->region && f->node != &t->paused) {
			s->wait = si_child_of(t, f->node, wait_region(SELINST_OMP_END_BARRIER));
			s->par = f->node;
			s->t = s->wait ? t : NULL;
		}
		si_guard_release(t);
	}
	s->end = si_now();
}

/* Estimate mode, in the forking thread after the join: each thread of
 * the team waited at the region's end from its own end to the latest
 * one, credited to its "omp implicit barrier (parallel end)" node as one
 * call (times as if it had entered and left it then).  The workers are
 * parked in libgomp until this thread's next fork, so their nodes are
 * not being written; a signal handler running hooks in a parked worker
 * could race with this (not guarded). */
static void end_credit(struct closure *c)
{
	unsigned n = c->nthreads < END_SLOTS ? c->nthreads : END_SLOTS;
	uint64_t latest = 0;
	for (unsigned i = 0; i < n; i++)
		if (c->slots[i].end > latest)
			latest = c->slots[i].end;
	for (unsigned i = 0; i < n; i++) {
		const struct end_slot *s = &c->slots[i];
		if (!s->t)
			continue;
		uint64_t w = latest - s->end;
		s->wait->calls++;
		s->wait->incl += w;
		s->wait->self += w;
		if (i == 0) {
			/* still open here: off its self, as a child's close does */
			s->par->self -= w;
		} else {
			/* closed at its own end: its activation now ends at the latest */
			s->par->incl += w;
			if (s->par->parent)
				s->par->parent->self -= w;
		}
	}
}

/* Each thread of the team: the outlined function, then its wait for the
 * others: measured in a barrier of ours (exact mode) or estimated from
 * the end times (end_stamp).  The forking thread is inside the region
 * already. */
static void trampoline(void *arg)
{
	struct closure *c = arg;
	bool worker = !pthread_equal(pthread_self(), c->master);
	if (worker)
		__selinst_enter(c->region);
	c->fn(c->data);
	after_single = false;
	if (c->slots)
		end_stamp(c);
	else
		WAIT(SELINST_OMP_END_BARRIER, REAL(void(void), GOMP_barrier)());
	if (worker)
		__selinst_exit(c->region);
}

/* Fills C for a fork of FN in this thread and enters its region; false
 * when not recording (the fork then goes straight to libgomp). */
static bool fork_begin(struct closure *c, void (*fn)(void *), void *data,
		       struct end_slot *slots)
{
	int m = mode();
	if (m == OMP_OFF)
		return false;
	/* A nested team's threads end right after its join (libgomp keeps
	 * only the outermost team's in a pool), their profiles then copied
	 * and recycled while end_credit would write to them: a nested fork
	 * measures its end wait as in exact mode. */
	bool estimate = m == OMP_ESTIMATE && REAL(int(void), omp_get_level)() == 0;
	*c = (struct closure){ NULL, fn, data, parallel_region((void *)fn, SELINST_OMP_PARALLEL),
			       pthread_self(), estimate ? slots : NULL, 0 };
	__selinst_enter(c->region);
	return true;
}

/* After the join: the estimated end waits, and the region's exit. */
static void fork_end(struct closure *c)
{
	if (c->slots)
		end_credit(c);
	__selinst_exit(c->region);
}

/* The forks: GOMP_parallel and the combined parallel worksharing entry
 * points (a parallel loop with constant bounds, parallel sections), all
 * FN, DATA, NUM_THREADS and then their own arguments DECL / ARGS. */
#define PARALLEL(name, decl, ...)                                          \
	EXPORT void name(void (*fn)(void *), void *data, unsigned num_threads decl) \
	{                                                                  \
		struct closure c;                                          \
		struct end_slot slots[END_SLOTS];                          \
		if (!fork_begin(&c, fn, data, slots)) {                    \
			REAL(name, name)(fn, data, num_threads, __VA_ARGS__); \
			return;                                            \
		}                                                          \
		REAL(name, name)(trampoline, &c, num_threads, __VA_ARGS__); \
		fork_end(&c);                                              \
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

/* A parallel with task reductions (reduction(task, ...)): libgomp reads
 * their descriptor from the first word of DATA, hence the closure's
 * copy.  Its return value is the team's size. */
EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
					 unsigned flags)
{
	typedef unsigned fork_fn(void (*)(void *), void *, unsigned, unsigned);
	struct closure c;
	struct end_slot slots[END_SLOTS];
	if (!fork_begin(&c, fn, data, slots))
		return REAL(fork_fn, GOMP_parallel_reductions)(fn, data, num_threads, flags);
	c.reductions = *(void **)data;
	unsigned n = REAL(fork_fn, GOMP_parallel_reductions)(trampoline, &c, num_threads, flags);
	fork_end(&c);
	return n;
}

/* A teams construct on the host: libgomp runs FN once per team, one
 * after the other, in this thread; recorded as the region "omp teams F"
 * around them (no wait of its own). */
EXPORT void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams,
			   unsigned thread_limit, unsigned flags)
{
	typedef void teams_fn(void (*)(void *), void *, unsigned, unsigned, unsigned);
	if (!recording()) {
		REAL(teams_fn, GOMP_teams_reg)(fn, data, num_teams, thread_limit, flags);
		return;
	}
	const struct selinst_region *r = parallel_region((void *)fn, SELINST_OMP_TEAMS);
	__selinst_enter(r);
	REAL(teams_fn, GOMP_teams_reg)(fn, data, num_teams, thread_limit, flags);
	__selinst_exit(r);
}
