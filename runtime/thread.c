/* SPDX-License-Identifier: MIT */
/*
 * thread.c - per-thread profiles and the registry of all threads.
 *
 * A thread's profile is created by its first hook (the only time a lock is
 * taken: the registry lock).  When the thread ends, its profile is copied
 * into a compact struct si_snap kept on the exited list, and its struct
 * si_thread (stack, index, node blocks) goes to a pool that the next new
 * thread takes from: threads that ended, detached threads and OpenMP pool
 * threads are all in the profile, and a program that starts 30,000
 * short threads keeps 30,000 small copies, not 30,000 live structures.  Tree nodes, the region stack and the child index are
 * carved out of mmap'd memory, never malloc, so that hooks stay
 * async-signal-safe.  Also here: fork handling (the child starts afresh,
 * its profile made only when it first needs it: see "fork" below) and the
 * thread-exit destructor that closes a dying thread's regions.
 *
 * Recursion folding: entering region R from node C, where R is already on
 * C's path from the root at node A, reuses A (A.calls counts the entry);
 * A's inclusive time grows only when its outermost activation ends, and
 * its exclusive time is the time A's own code ran.  The fold decision
 * depends only on the path, so it is made once, when (C, R) is first seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#endif
#include <time.h>
#include <unistd.h>
#include "internal.h"

struct si_thread si_nothread = { .in_hook = 1 };
__thread struct si_thread *si_self __attribute__((tls_model("initial-exec"))) = &si_nothread;
struct si_hot si_hot = { SI_GATE_SLOW, UINT64_MAX };
static const struct selinst_region no_child_region = {
	SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 0, 0, "[no child]", "", NULL
};
struct si_node si_no_child = { .region = &no_child_region };
const struct selinst_region si_root_region = {
	SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 0, 0, "[root]", "", NULL
};
int si_overflowed;
int si_started;

/* The registry lock: 0, or the pthread_self() of its holder, set by one
 * compare-and-swap.  A signal handler that interrupts the holder sees its
 * own thread there, with no window between taking the lock and naming
 * the owner (a mutex plus an owner field has one: a fork from a handler
 * there deadlocked).  Waiting sleeps 20 us at a time: the lock is taken
 * only by a thread's first hook, a thread's end, a write and dlclose. */
static unsigned long reg_word;
static struct si_thread *reg_head, **reg_tail = &reg_head;
static uint32_t reg_count;
static struct si_snap *exited_head, **exited_tail = &exited_head;
static struct si_thread *pool;	/* structures of ended threads, for reuse */
static int fork_locked;
static pthread_key_t exit_key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static uint64_t max_nodes = 1u << 22;
static const struct selinst_region overflow_region = {
	SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 0, 0, "[overflow]", "", NULL
};

/* The exits a forked child runs before its profile is made: the plugin
 * closes the regions before _exit and exit, which is most of what a child
 * that does not exec does.  Noted here, without allocating, and done
 * when the profile is made, at their times. */
#define FORK_EXITS 32
struct fork_exit {
	const struct selinst_region *region;
	uint64_t now, iterations;
	int loop;			/* a loop's exit (with ITERATIONS) */
};
/* All the fork handler writes, together: each page a child writes costs
 * it a copy (a fault of a few us). */
static struct {
	struct si_thread *old;		/* the forking thread's profile, the parent's copy */
	struct si_thread *made;		/* made from it, not yet si_self (another
					   thread's write made it) */
	uint64_t ticks;			/* the fork: the copied frames' start */
	uint32_t depth;			/* OLD's frames open at the fork */
	uint32_t open;			/* of those, still open after the noted exits */
	uint32_t nexits;		/* noted exits; release-stored */
	uint32_t replayed;		/* of those, done when the profile was made */
	int noting;			/* the owner is noting one (see si_fork_exit) */
	int carving;			/* si_mmap takes from the reserve */
	char *reserve, *reserve_end;	/* see fork_reserve */
	struct fork_exit exits[FORK_EXITS];
} fk;

/* Hooks run anywhere, signal handlers included: what they allocate must
 * leave errno as the program had it.  While a forked child makes its
 * profile, from the reserve first (see fork_reserve). */
void *si_mmap(size_t bytes)
{
	if (unlikely(fk.carving)) {
		size_t whole = (bytes + 4095) & ~(size_t)4095;
		char *p = __atomic_fetch_add(&fk.reserve, whole, __ATOMIC_RELAXED);
		if ((uintptr_t)p + whole <= (uintptr_t)fk.reserve_end)
			return p;	/* else used up: mapped as usual */
	}
	int saved = errno;
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	errno = saved;
	return p == MAP_FAILED ? NULL : p;
}

/* Publishing a grown stack or index takes several stores; a signal
 * handler that siglongjmp's out between them would leave them
 * inconsistent for good.  Growth is rare (doubling): block signals for
 * the few stores. */
static void block_signals(sigset_t *old)
{
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, old);
}
static void restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static int held_by_me(void)
{
	return __atomic_load_n(&reg_word, __ATOMIC_ACQUIRE) == (unsigned long)pthread_self();
}

/* ThreadSanitizer's annotations, defined where the program runs under
 * it (libtsan; weak: NULL otherwise).  This library is not built with
 * it, so the lock's handoffs (a retired thread's structure given to the
 * next thread, its memory cleared there) are invisible to it, and a
 * program built with -fsanitize=thread got race reports on the runtime's
 * memory, the inlined hooks' stores included. */
extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));

int si_under_tsan(void)
{
	return __tsan_acquire != NULL;
}

int si_registry_lock(int wait_ms)
{
	unsigned long me = (unsigned long)pthread_self();
	if (held_by_me())
		return 0;
	const struct timespec pause = { 0, 20000 };
	for (long waited_us = 0;; waited_us += 20) {
		unsigned long free_word = 0;
		if (__atomic_compare_exchange_n(&reg_word, &free_word, me, 0,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			if (__tsan_acquire)
				__tsan_acquire(&reg_word);
			return 1;
		}
		if (wait_ms >= 0 && waited_us >= (long)wait_ms * 1000)
			return 0;
		nanosleep(&pause, NULL);
	}
}

void si_registry_unlock(void)
{
	if (__tsan_release)
		__tsan_release(&reg_word);
	__atomic_store_n(&reg_word, 0, __ATOMIC_RELEASE);
}

struct si_thread *si_registry_head(void) { return reg_head; }
struct si_snap *si_exited_head(void) { return exited_head; }

/* Take T off the registry, keep its copy S on the exited list and give T
 * to the pool.  Under the registry lock. */
static void retire(struct si_thread *t, struct si_snap *s)
{
	struct si_thread **pp = &reg_head;
	while (*pp && *pp != t)
		pp = &(*pp)->next;
	if (!*pp)
		return;
	*pp = t->next;
	if (reg_tail == &t->next)
		reg_tail = pp;
	*exited_tail = s;
	exited_tail = &s->next;
	t->next = pool;
	pool = t;
}

/* Thread exit: close what the thread left open (pthread_exit from inside a
 * region, a cancelled thread) at the time it ended, then keep a copy and
 * recycle the rest.  Signals are blocked from here to the thread's end: a
 * handler's hook would need the registry lock held here, and one after
 * would make the thread a new profile.  Hooks that run after this, in
 * other keys' destructors, find no profile and start a new one. */
static void thread_exit(void *arg)
{
	struct si_thread *t = arg;
	if (si_self == &si_forked) {
		/* A forked child's thread that ran no hook since the fork: its
		 * profile (ARG is the parent's), made now.  The key is left
		 * empty, or this destructor would be called again. */
		t = si_fork_settle();
		pthread_setspecific(exit_key, NULL);
		if (!t)
			return;
	}
	sigset_t all;
	int saved = errno;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);	/* for good: see the end */
	uint64_t now = si_now();
	t->in_hook = 1;
	uint32_t depth = si_depth(t);
	si_pop_to(t, 1, now);
	if (si_tracing)
		si_trace_left(t, depth, now);
	t->end_ticks = now;
	struct timespec cpu;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0) {
		t->cpu_ns = (uint64_t)cpu.tv_sec * 1000000000u + (uint64_t)cpu.tv_nsec;
		t->cpu_known = 1;
		/* The read costs 5-40 us (a new thread's /proc entry): only
		 * where it is under 0.4% of what the thread ran, and where a
		 * wait can weigh in the profile. */
		t->runq_known = t->cpu_ns >= SI_RUNQ_MIN_CPU_NS &&
				si_runq_ns(t->tid, &t->runq_ns) == 0;
	}
	__atomic_store_n(&t->finished, 1, __ATOMIC_RELEASE);
	/* The child cache (64 KiB) is not needed any more: give its pages
	 * back (they read as empty slots when the structure is reused, or
	 * should a later destructor run instrumented code). */
	if (madvise(t->cache, sizeof t->cache, MADV_DONTNEED) != 0)
		memset(t->cache, 0, sizeof t->cache);
	struct si_snap *s = malloc(sizeof *s);
	int locked = si_registry_lock(-1);
	/* Under the lock: it unmaps a thread's empty sample slots, which a
	 * dump running meanwhile (it holds the lock) may be reading. */
	si_sample_thread_stop(t);
	if (s && si_snap_take(t, s) == 0) {
		si_trace_thread_exit(t);
		retire(t, s);
		t->samples = NULL;	/* the copy keeps them */
		si_self = &si_nothread;
	} else {
		free(s);	/* out of memory: the thread stays as it is */
		t->in_hook = 0;
	}
	if (locked)
		si_registry_unlock();
	/* The mask is not restored: the thread is ending.  A handler that
	 * ran on it from here on (a process-directed signal) made it a new
	 * profile, so this destructor ran again in a later round of the
	 * thread's key destructors, after ThreadSanitizer had torn the
	 * thread down: its malloc crashed (t-rt-sanitizers' signal_work,
	 * 6 runs in 30 with GCC 11).  Such a signal goes to another thread;
	 * glibc blocks them all at the thread's end anyway. */
	errno = saved;
}

/* The memory a forked child makes its profile in (thread structure,
 * stack, node block, index, arena: 1.4 MiB, mostly never touched): one
 * mapping, made in the parent at its first fork and never touched there
 * (forks copy no page of it), carved by the child (si_mmap while
 * fk.carving).  Six mmaps less in each child that makes its profile, and
 * six areas less to tear down at its exit. */
#define FORK_RESERVE (2u << 20)
static void fork_reserve(void)
{
	if (fk.reserve_end || si_self == &si_nothread)
		return;
	char *p = si_mmap(FORK_RESERVE);
	if (p) {
		fk.reserve = p;
		fk.reserve_end = p + FORK_RESERVE;
	}
}

static void after_fork_child(void) { si_after_fork_child(); }
/* A fork from a signal handler that interrupted this thread while it held
 * the lock (a dump) goes on without it: waiting would never end.  A
 * process that never had a second thread takes none: no other thread can
 * hold it, and the unlock after the fork would cost the parent a page
 * copy (the page is shared with the child then). */
static void before_fork(void)
{
	fork_reserve();
#if __has_include(<sys/single_threaded.h>)
	if (__libc_single_threaded) {
		fork_locked = 0;
		return;
	}
#endif
	fork_locked = si_registry_lock(-1);
}
static void after_fork_parent(void)
{
	if (fork_locked)
		si_registry_unlock();
}

static void global_init_once(void)
{
	int saved = errno;
	si_clock_init();
	const char *e = getenv("SELINST_MAX_NODES");
	if (e && *e) {
		/* Node ids are 32-bit, root 0 and the overflow node included. */
		const uint64_t lim = UINT32_MAX - 1;
		int bad = si_parse_decimal(e, 1, lim, &max_nodes);
		if (bad < 0)
			fprintf(stderr, "selinst: SELINST_MAX_NODES=%s is not a positive integer; using %llu\n",
				e, (unsigned long long)max_nodes);
		else if (bad)
			fprintf(stderr, "selinst: SELINST_MAX_NODES=%s is out of range (1..%llu); using %llu\n",
				e, (unsigned long long)lim, (unsigned long long)max_nodes);
	}
	si_throttle_init();
	si_iterate_init();
	si_flow_init();
	pthread_key_create(&exit_key, thread_exit);
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
	si_output_init();
	si_signals_init();
#ifndef SI_STATIC
	atexit(si_at_exit);	/* static library: signals.c's last destructor */
#endif
	__atomic_store_n(&si_started, 1, __ATOMIC_RELEASE);
	si_clock_publish();
	si_calibrate_hooks();
	si_trace_init();	/* after the calibration: profile mode's cost */
	errno = saved;
}

void si_global_init(void)
{
	int saved = errno;
	pthread_once(&once, global_init_once);
	errno = saved;
}

__attribute__((constructor)) static void selinst_ctor(void)
{
	si_global_init();
	si_sample_ctor();	/* sampling-only mode: the main thread now */
}

static int grow_stack_to(struct si_thread *t, uint32_t cap)
{
	struct si_frame *s = si_mmap((size_t)cap * sizeof *s);
	if (!s)
		return 0;
	uint32_t depth = t->stack ? si_depth(t) : 1;
	if (t->stack) {
		memcpy(s, t->stack, (size_t)depth * sizeof *s);
		/* The old block is left mapped: a signal handler interrupting
		 * the copy could still be reading it.  Growth doubles, so the
		 * waste is bounded by the final size. */
	}
	sigset_t old;
	block_signals(&old);
	t->stack = s;
	t->end = s + cap;
	t->cap = cap;
	si_set_depth(t, depth);
	restore_signals(&old);
	return 1;
}

/* si_loop_cell when FRAME's block is not there yet. */
uint64_t *si_loop_cell_slow(struct si_thread *t, uint32_t frame)
{
	uint32_t b = frame / SI_CELL_BLOCK;
	if (b >= SI_CELL_BLOCKS)
		return &t->spare_cell;
	if (!t->cells[b] && !(t->cells[b] = si_mmap(SI_CELL_BLOCK * sizeof(uint64_t))))
		return &t->spare_cell;
	return &t->cells[b][frame % SI_CELL_BLOCK];
}

int si_grow_stack(struct si_thread *t)
{
	return grow_stack_to(t, t->cap * 2);
}

/* A structure from the pool, made as new: its node blocks, stack, child
 * index, cells and manual-name cache stay allocated and are cleared as far
 * as they were used (the loops in its arena were copied at exit). */
static void reset_thread(struct si_thread *t)
{
	for (uint64_t id = 1; id < t->nnodes; id++)
		memset(si_node_by_id(t, id), 0, sizeof(struct si_node));
	si_map_clear(t->hash);
	/* The child cache was given back at thread exit: it reads as empty. */
	si_map_clear(t->manual);
	if (t->arena_base) {
		memset(t->arena_base, 0, (size_t)(t->arena - t->arena_base));
		t->arena = t->arena_base;
	}
	memset(&t->root, 0, sizeof t->root);
	memset(&t->paused, 0, sizeof t->paused);
	t->overflow = NULL;
	t->next = NULL;
	t->finished = 0;
	t->end_ticks = 0;
	t->cpu_known = t->runq_known = 0;	/* the retired thread's times */
	t->runq_ns = 0;
	t->spare_cell = 0;
	t->series = NULL;	/* the retired thread's copy keeps them */
	si_map_clear(t->flow);	/* copied too */
	if (t->flow_last)
		memset(t->flow_last, 0, SI_FLOW_DEPTH * sizeof *t->flow_last);
	t->trace = NULL;	/* the old one stays listed, for the writer */
	si_set_depth(t, 1);
	t->in_hook = 0;
}

static struct si_thread *new_thread(void)
{
	struct si_thread *t = NULL;
	int locked = si_registry_lock(-1);
	if (pool) {
		t = pool;
		pool = t->next;
	}
	if (locked)
		si_registry_unlock();
	if (t) {
		reset_thread(t);
	} else {
		t = si_mmap(sizeof *t);
		if (!t)
			return NULL;
		if (!grow_stack_to(t, 256))
			return NULL;
	}
	t->max_nodes = max_nodes;
	t->spare_tally.left = INT64_MAX;
	t->spare_tally.incl = 0;
	t->spare_tally.rule = 0;
	t->root.tally = &t->spare_tally;
	t->paused.tally = &t->spare_tally;
	t->root.id = 0;
	t->root.mru = &si_no_child;
	t->paused.mru = &si_no_child;
	t->nnodes = 1;
	t->stack[0].node = &t->root;
	t->stack[0].region = &si_root_region;	/* matches no exit */
	t->tid = (pid_t)syscall(SYS_gettid);
	return t;
}

/* A thread state that no thread owns and the registry does not list: the
 * hook-cost calibration runs the real hooks on it (calibrate.c). */
struct si_thread *si_thread_scratch(void)
{
	return new_thread();
}

static void register_thread(struct si_thread *t)
{
	t->index = reg_count++;
	*reg_tail = t;
	reg_tail = &t->next;
}

struct si_thread *si_thread_init(void)
{
	si_global_init();
	if (si_thread_get())
		return si_self;	/* created by a nested call during init */
	/* A signal handler's hook while this thread holds the lock (writing a
	 * dump): not counted. */
	if (held_by_me())
		return NULL;
	int saved = errno;
	struct si_thread *t = new_thread();
	errno = saved;
	if (!t)
		return NULL;
	int locked = si_registry_lock(-1);
	register_thread(t);
	if (locked)
		si_registry_unlock();
	si_self = t;
	pthread_setspecific(exit_key, t);
	si_sample_thread_start(t);
	errno = saved;
	return t;
}

struct si_node *si_node_by_id(struct si_thread *t, uint64_t id)
{
	if (id == 0)
		return &t->root;
	return &t->chunks[id / SI_NODES_PER_CHUNK][id % SI_NODES_PER_CHUNK];
}

/* Index N as the child of PARENT for R (map.c: stored so that a signal
 * handler's hook never sees half a slot; growth publishes the new index
 * with signals blocked). */
static int hash_insert(struct si_thread *t, struct si_node *parent,
		       const struct selinst_region *r, struct si_node *n)
{
	return si_map_add(&t->hash, (uintptr_t)parent, (uintptr_t)r, (uintptr_t)n, 0) != NULL;
}

/* Make N, PARENT's child for R, PARENT's mru and put it in the direct-mapped
 * cache.  The slot is emptied first: a siglongjmp between the stores leaves
 * it empty, never pairing one key's parent with another's child. */
static void cache_fill(struct si_thread *t, struct si_node *parent,
		       const struct selinst_region *r, struct si_node *n)
{
	parent->mru = n;
	struct si_cslot *c = si_cache_slot(t, parent, r);
	c->parent = NULL;
	barrier();
	c->child = n;
	barrier();
	c->parent = parent;
}

/* Per-thread bump allocator over mmap'd blocks (zeroed, 16-byte aligned). */
void *si_arena_alloc(struct si_thread *t, size_t need)
{
	need = (need + 15) & ~(size_t)15;
	if (t->arena_end - t->arena < (ptrdiff_t)need) {
		size_t sz = need > (1u << 20) ? need : (1u << 20);
		t->arena = si_mmap(sz);
		if (!t->arena) {
			t->arena_end = NULL;
			return NULL;
		}
		t->arena_end = t->arena + sz;
		t->arena_base = t->arena;
	}
	void *p = t->arena;
	t->arena += need;
	return p;
}

/* R's tally in T (struct si_tally), made on first sight: in the child
 * index under key word 1, which no node address is. */
static struct si_tally *tally_of(struct si_thread *t, const struct selinst_region *r)
{
	struct si_mslot *s = si_map_find(t->hash, 1, (uintptr_t)r, NULL, NULL);
	if (s)
		return (struct si_tally *)s->value;
	struct si_tally *y = si_arena_alloc(t, sizeof *y);
	if (!y)
		return &t->spare_tally;
	y->left = si_throttle_countdown();
	y->rule = 0;
	if (!si_map_add(&t->hash, 1, (uintptr_t)r, (uintptr_t)y, 0))
		return &t->spare_tally;
	return y;
}

static struct si_node *alloc_node(struct si_thread *t, const struct selinst_region *r,
				  struct si_node *parent)
{
	uint64_t id = t->nnodes;
	size_t ci = id / SI_NODES_PER_CHUNK;
	if (ci >= t->nchunks) {
		if (t->nchunks == t->chunks_cap) {
			size_t ncap = t->chunks_cap ? t->chunks_cap * 2 : 64;
			struct si_node **nc = si_mmap(ncap * sizeof *nc);
			if (!nc)
				return NULL;
			if (t->chunks)
				memcpy(nc, t->chunks, t->nchunks * sizeof *nc);
			t->chunks = nc;	/* old array left mapped (signal safety) */
			t->chunks_cap = ncap;
		}
		struct si_node *c = si_mmap(SI_NODES_PER_CHUNK * sizeof *c);
		if (!c)
			return NULL;
		t->chunks[t->nchunks++] = c;
	}
	struct si_node *n = &t->chunks[ci][id % SI_NODES_PER_CHUNK];
	if (r->kind == SELINST_KIND_LOOP || r->kind == SELINST_KIND_MPI) {
		n->loop = si_arena_alloc(t, sizeof(struct si_loop));
		if (!n->loop)
			return NULL;
		si_iterate_region_seen(r);
	}
	n->tally = tally_of(t, r);
	n->region = r;
	n->parent = parent;
	n->mru = &si_no_child;
	si_flow_region_seen(r);
	n->id = (uint32_t)id;
	/* Release: a writer copying this thread reads whole nodes below it. */
	__atomic_store_n(&t->nnodes, id + 1, __ATOMIC_RELEASE);
	return n;
}

static void warn_abi(const struct selinst_region *r)
{
	static int warned;
	if (__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		return;
	static const char msg[] = "selinst: region descriptor of another ABI version ignored "
				  "(program and libselinst built from different versions)\n";
	(void)r;
	int saved = errno;
	ssize_t w = write(2, msg, sizeof msg - 1);
	(void)w;
	errno = saved;
}

/* The node for region R entered from CUR, created on first sight. */
struct si_node *si_lookup_slow(struct si_thread *t, struct si_node *cur,
			       const struct selinst_region *r)
{
	if (!r)
		return NULL;
	struct si_mslot *s = si_map_find(t->hash, (uintptr_t)cur, (uintptr_t)r, NULL, NULL);
	if (s) {
		struct si_node *known = (struct si_node *)s->value;
		cache_fill(t, cur, r, known);
		return known;
	}
	if (r->abi_version != SELINST_ABI_VERSION) {
		warn_abi(r);
		return NULL;
	}
	/* Recursion: R already on the path from the root to CUR? */
	struct si_node *n = NULL;
	for (struct si_node *a = cur; a && a != &t->root; a = a->parent) {
		if (a->region == r) {
			n = a;
			break;
		}
	}
	if (n) {
		/* Mark the cycle: these nodes' times overlap their children's. */
		for (struct si_node *a = cur; ; a = a->parent) {
			a->id |= SI_NODE_RECURSIVE;
			if (a == n)
				break;
		}
	} else {
		if (t->nnodes - 1 >= t->max_nodes || !(n = alloc_node(t, r, cur))) {
			if (!t->overflow) {
				t->overflow = alloc_node(t, &overflow_region, &t->root);
				if (!t->overflow)
					return NULL;
			}
			__atomic_store_n(&si_overflowed, 1, __ATOMIC_RELAXED);
			return t->overflow;	/* not cached: the index stays bounded */
		}
	}
	if (!hash_insert(t, cur, r, n))
		return n;
	cache_fill(t, cur, r, n);
	return n;
}

/* ---- fork ----------------------------------------------------------
 *
 * In a forked child the forking thread's profile starts afresh: the
 * regions open in it at the fork stay open (their exits will come), with
 * fresh nodes of zero calls, timed from the fork.  Most children exec or
 * _exit at once (make, shells, popen, death tests), and the fork handler
 * may run in a signal handler: so the handler only resets words and notes
 * the fork (fk), and points si_self at si_forked, a placeholder whose
 * in_hook is 1, like si_nothread's.  The hooks' fast paths then leave the
 * thread's hooks to their slow paths: an exit is noted (si_fork_exit);
 * anything else makes the profile (si_fork_settle) and goes on, and so do
 * the control API, sampling's set-up and, for a child that never ran a
 * hook, the write and dlclose (si_fork_settle_any).  A child that only
 * execs or exits makes nothing: it counted nothing, and one that execs
 * writes nothing (exec.c). */
struct si_thread si_forked = { .in_hook = 1 };
/* T's open frames: OLD's first ODEPTH, timed from NOW, each with the
 * node of its region under the frame below (a frame entered while paused
 * keeps the paused node). */
static void copy_open_frames(struct si_thread *t, const struct si_thread *old, uint32_t odepth,
			     uint64_t now)
{
	for (uint32_t i = 1; i < odepth; i++) {
		if (t->top + 1 >= t->end && !si_grow_stack(t))
			break;
		const struct si_frame *of = &old->stack[i];
		struct si_frame *f = t->top + 1;
		struct si_node *cur = &t->root;
		for (uint32_t k = si_depth(t) - 1; k > 0; k--)
			if (t->stack[k].node != &t->paused) {
				cur = t->stack[k].node;
				break;
			}
		f->region = of->region;
		f->sp = of->sp;
		f->start = now;
		f->node = &t->paused;
		if (of->node != &old->paused) {
			struct si_node *n = si_lookup_slow(t, cur, of->node->region);
			if (n)
				f->node = n;
		}
		f->node->active++;
		t->top = f;
	}
}

/* The forking thread's profile in the child, made now if it is not yet
 * (its frames copied, then the noted exits done), and listed first with
 * index 0 (kept for it by the fork handler: the child's threads are
 * numbered as when it was made at the fork).  Under the registry lock (or
 * where the caller could not take it).  NULL when out of memory: the
 * thread then starts afresh at its next hook. */
static struct si_thread *fork_make_locked(void)
{
	struct si_thread *old = fk.old;
	if (fk.made || !old)
		return fk.made;
	fk.old = NULL;
	fk.carving = 1;
	struct si_thread *t = new_thread();
	if (!t) {
		fk.carving = 0;
		return NULL;
	}
	/* The child's one thread is its thread group's leader: tid = pid
	 * (new_thread read the tid of the thread making it, maybe a writer). */
	t->tid = getpid();
	copy_open_frames(t, old, fk.depth, fk.ticks);
	/* Published before the exits are read: the owner notes no more once
	 * it sees it, and one it is noting meanwhile is waited for, unless
	 * the owner is this thread (a write in its signal handler). */
	__atomic_store_n(&fk.made, t, __ATOMIC_SEQ_CST);
	while (si_self != &si_forked && __atomic_load_n(&fk.noting, __ATOMIC_SEQ_CST))
		sched_yield();
	uint32_t n = __atomic_load_n(&fk.nexits, __ATOMIC_ACQUIRE);
	fk.replayed = n;
	for (uint32_t i = 0; i < n; i++)
		si_fork_replay(t, fk.exits[i].region, fk.exits[i].now, fk.exits[i].loop,
			       fk.exits[i].iterations);
	fk.carving = 0;
	t->index = 0;
	t->next = reg_head;
	if (!reg_head)
		reg_tail = &t->next;
	reg_head = t;
	return t;
}

int si_fork_exit(const struct selinst_region *r, uint64_t now, int loop, uint64_t iterations)
{
	if (__atomic_exchange_n(&fk.noting, 1, __ATOMIC_SEQ_CST))
		return 1;	/* a signal handler's hook inside a noting: dropped */
	int done = 0;
	if (!__atomic_load_n(&fk.made, __ATOMIC_SEQ_CST) && fk.old) {
		/* The frame it closes, as si_exit and loop_exit_cold find it:
		 * none (a region not open: nothing to do), or the innermost. */
		uint32_t i = fk.open - 1;
		while (i >= 1 && fk.old->stack[i].region != r)
			i--;
		uint32_t k = fk.nexits;
		done = 1;
		if (i >= 1 && k == FORK_EXITS)
			done = 0;
		else if (i >= 1) {
			fk.exits[k] = (struct fork_exit){ r, now, iterations, loop };
			__atomic_store_n(&fk.nexits, k + 1, __ATOMIC_RELEASE);
			fk.open = i;
		}
		/* A signal handler's hook made the profile meanwhile (this
		 * thread's own: no wait for the noting) without this exit:
		 * the caller does it there. */
		if (done && i >= 1 && si_self != &si_forked && fk.replayed <= k)
			done = 0;
	}
	__atomic_store_n(&fk.noting, 0, __ATOMIC_SEQ_CST);
	return done;
}

/* The calling thread, whose si_self is si_forked, takes its profile T
 * (NULL: none could be made) as its own. */
static struct si_thread *fork_adopt(struct si_thread *t)
{
	fk.made = NULL;
	si_self = t ? t : &si_nothread;
	if (!t)
		return NULL;
	pthread_setspecific(exit_key, t);
	si_sample_thread_start(t);	/* timers are not inherited: a new one */
	return t;
}

struct si_thread *si_fork_settle(void)
{
	/* A signal handler's hook while this thread holds the lock (making
	 * the profile, or writing): not counted, as in si_thread_init. */
	if (held_by_me())
		return NULL;
	int saved = errno;
	int locked = si_registry_lock(-1);
	struct si_thread *t = fork_make_locked();
	if (locked)
		si_registry_unlock();
	fork_adopt(t);
	errno = saved;
	return t;
}

void si_fork_settle_any(void)
{
	if (!__atomic_load_n(&fk.old, __ATOMIC_RELAXED))
		return;
	struct si_thread *t = fork_make_locked();
	if (si_self == &si_forked)
		fork_adopt(t);
}

/* The fork handler (see above): resets only, no allocation, no lock, no
 * call that could take one. */
void si_after_fork_child(void)
{
	uint64_t now = si_now();
	/* Each page written costs the child a copy: words that may be as
	 * wanted already are tested first. */
	if (reg_word)
		reg_word = 0;	/* the child's one thread holds nothing */
	if (exited_head) {	/* the parent's; the child starts afresh */
		exited_head = NULL;
		exited_tail = &exited_head;
	}
	if (pool)
		pool = NULL;
	si_control_after_fork();
	si_trace_after_fork();
	si_final_writer_after_fork();	/* before si_final_written is reset */
	si_output_after_fork(now);
	if (reg_head) {
		reg_head = NULL;
		reg_tail = &reg_head;
	}
	/* A child forked again before it made its profile copies the frames
	 * still open: from what it was to be made of. */
	struct si_thread *old = si_self;
	uint32_t depth = old == &si_forked ? fk.open : si_depth(old);
	if (old == &si_forked && fk.made)
		depth = si_depth(old = fk.made);
	else if (old == &si_forked)
		old = fk.old;
	else if (old == &si_nothread)
		old = NULL;
	if (fk.made || fk.old != old) {
		fk.made = NULL;
		fk.old = old;
	}
	if (fk.nexits || fk.noting || fk.carving) {
		fk.nexits = 0;
		fk.noting = 0;	/* a handler forked in one, */
		fk.carving = 0;	/* or while the profile was made */
	}
	if (reg_count != (old ? 1u : 0u))
		reg_count = old ? 1 : 0;	/* index 0: the forking thread's */
	if (!old)
		return;
	fk.depth = fk.open = depth;
	fk.ticks = now;
	si_self = &si_forked;
	/* Sampling needs the thread's timer from the fork on, and a profile
	 * for its samples: made now, as before. */
	if (si_sample_hz())
		si_fork_settle();
}
