/* SPDX-License-Identifier: MIT */
/*
 * internal.h - data structures shared by the runtime's files (not installed).
 *
 * One `struct si_thread` per thread that ever ran a hook: its calling-context
 * tree (nodes in mmap'd arenas), its region stack, and a hash index from
 * (parent node, region) to child node.  Only the owning thread writes it
 * while the thread lives; the writer reads it at exit or on dump.
 * All hot-path memory comes from mmap so that hooks are async-signal-safe.
 */
#ifndef SELINST_INTERNAL_H
#define SELINST_INTERNAL_H

#include <stdint.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <sys/types.h>
#include <time.h>
#include "selinst.h"
#include "selinst-profile.h"
#include "trace.h"

#define SI_EXPORT __attribute__((visibility("default")))
#define SI_HIDDEN __attribute__((visibility("hidden")))
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier()   __asm__ __volatile__("" ::: "memory")

/* Trip-count histogram: the profile's buckets (selinst-profile.h). */
#define SI_HIST_BUCKETS SELINST_TRIP_BUCKETS

/* A node's counter block beyond the cache line: loops' iterations and
 * trip counts; mpi regions' bytes (libselinst-mpi, __selinst_mpi_bytes). */
struct si_loop {
	uint64_t iterations;
	uint64_t hist[SI_HIST_BUCKETS];
	uint64_t sent, received;	/* mpi regions only */
};

/* One calling-context tree node: exactly one 64-byte cache line. */
struct si_node {
	const struct selinst_region *region;
	struct si_node *parent;
	struct si_node *mru;		/* last child entered from here (see si_cslot) */
	uint64_t calls;
	uint64_t incl;			/* ticks, outermost activations only */
	uint64_t self;			/* ticks while this node was on top */
	uint32_t active;		/* open activations (recursion folding) */
	uint32_t id;			/* creation index in its thread, root = 0 */
	struct si_loop *loop;		/* loops and mpi regions only */
	struct si_tally *tally;		/* its region's, in this thread (throttle.c) */
};

/* One region's closed activations in one thread, all its calling contexts
 * together: every node of the region in the thread points here, so the
 * throttle counts the region's calls, not one context's (a region called
 * from 9 contexts was counted up to 9 x CALLS times before it was
 * switched off).  Per thread: the hot path stays free of atomics.  With
 * recursion folded (thread.c), nodes of one region never nest, so the
 * sum of their inclusive times counts no time twice. */
struct si_tally {
	int64_t left;			/* closes until the throttle looks; below 0:
					   each exit checks (si_throttle_check) */
	uint64_t incl;			/* ticks: the nodes' incl, summed */
	uint32_t rule;			/* the throttle rule counted to (throttle.c) */
};

/* One open region on a thread's stack: 32 bytes.  Self time needs no
 * per-frame field: a closing frame adds its duration to its node's `self`
 * and subtracts it from its parent frame's node's `self`, so a node's
 * `self` sums, over its closed activations, the time its own code ran
 * (it may be transiently "negative", i.e. wrapped, while an activation
 * whose children have closed is still open; readers add the open part). */
struct si_frame {
	const struct selinst_region *region;
	struct si_node *node;		/* &thread->paused: entered while paused */
	uint64_t start;			/* ticks */
	uintptr_t sp;			/* canonical frame address of the hook */
};

/* map.c: the runtime's one hash table (key words A, B; A nonzero in a
 * slot in use), mask and slots behind one pointer so that a resize is
 * published by one store. */
struct si_mslot { uintptr_t a, b, value; };
struct si_map {
	size_t mask, used;
	struct si_mslot slot[];
};
/* Whether slot S, whose key matched, is the one wanted (ARG: the caller's). */
typedef int si_map_match_fn(const struct si_mslot *s, const void *arg);
/* The slot of key (A, B) for which MATCH (when not NULL) holds, or NULL;
 * M may be NULL (no table yet). */
SI_HIDDEN struct si_mslot *si_map_find(const struct si_map *m, uintptr_t a, uintptr_t b,
				       si_map_match_fn *match, const void *arg);
#define SI_MAP_KEEP_OLD 1u	/* growth leaves the old table mapped */
/* Adds (A, B) -> VALUE (A nonzero), growing *MP (created when NULL) when
 * half full; the new slot, or NULL when out of memory. */
SI_HIDDEN struct si_mslot *si_map_add(struct si_map **mp, uintptr_t a, uintptr_t b,
				      uintptr_t value, unsigned flags);
SI_HIDDEN void si_map_clear(struct si_map *m);
SI_HIDDEN void si_map_free(struct si_map *m);

/* Child lookup, fastest first: the node's last child (mru: a loop calling
 * one function), then a per-thread direct-mapped cache of (parent node,
 * region) -> child, one slot per hash value, last writer wins (several
 * callees in turn, recursion folded through any path), then the index.
 * A cache slot whose parent is NULL is empty. */
#define SI_CACHE_BITS 12
struct si_cslot { struct si_node *parent; struct si_node *child; };

#define SI_CELL_BLOCK	4096		/* cells per block */
#define SI_CELL_BLOCKS	1024		/* frames deeper than 4M share a spare cell */

struct si_thread {
	/* hot: what the fast paths read, in one cache line */
	volatile int in_hook;		/* a hook of this thread is running; always 1
					   in si_nothread, the placeholder */
	uint32_t cap;			/* frames in the stack array */
	struct si_frame *top;		/* top frame; stack[0] is the root's */
	struct si_frame *end;		/* stack + cap */
	struct si_frame *stack;
	struct si_tbuf *trace;		/* trace.c: events; NULL before the first */
	/* warm: node allocation and lookup */
	struct si_map *hash;		/* (parent node, region) -> node */
	char *arena, *arena_end;
	char *arena_base;		/* the current arena block */
	uint64_t nnodes;		/* including root */
	uint64_t max_nodes;
	struct si_node **chunks;	/* node pointers by id, in blocks */
	size_t nchunks, chunks_cap;
	struct si_node root;
	struct si_node paused;		/* node of frames entered while paused */
	struct si_node *overflow;
	/* cold */
	struct si_thread *next;		/* registry */
	uint32_t index;
	pid_t tid;
	int finished;
	uint64_t end_ticks;
	uint64_t cpu_ns;		/* CPU time read at thread exit, */
	int cpu_known;			/* if that read succeeded */
	uint64_t runq_ns;		/* time runnable but not running, then, */
	int runq_known;			/* if that read succeeded */
	struct si_map *manual;		/* manual-region cache: name pointer -> descriptor */
	struct si_samples *samples;	/* sample.c: NULL when not sampling */
	struct si_series *series;	/* iterate.c: NULL when none */
	struct si_map *flow;		/* flow.c: (node id+1, pred id+1) -> count */
	struct si_flow_last *flow_last;	/* flow.c: per stack depth */
	timer_t sample_timer;
	int sample_armed;
	/* Loop iteration cells, one per frame index, in blocks that never
	 * move (the frame stack does when it grows): instrumented code
	 * stores a loop's count there before each call in the loop, so a
	 * loop left by longjmp (or open at thread end) keeps its count. */
	uint64_t *cells[SI_CELL_BLOCKS];
	uint64_t spare_cell;		/* for frames beyond the blocks */
	struct si_tally spare_tally;	/* the root's, the paused node's, and any
					   node's whose tally could not be made:
					   never checked */
	/* Pages touched on use; given back when the thread ends (thread.c),
	 * hence page-aligned. */
	struct si_cslot cache[1u << SI_CACHE_BITS] __attribute__((aligned(4096)));
};

/* The cache slot of (CUR, R): the node address rotated away from the
 * region's bits, so that no layout of nodes and descriptors pairs two keys
 * up (a plain xor does: parent and child nodes 64 bytes apart against
 * two descriptors 64 bytes apart), then a multiply; top bits. */
static inline struct si_cslot *si_cache_slot(struct si_thread *t, const struct si_node *cur,
					     const struct selinst_region *r)
{
	uint64_t c = (uint64_t)(uintptr_t)cur;
	uint64_t h = (((c << 17) | (c >> 47)) ^ (uint64_t)(uintptr_t)r) * 0x9E3779B97F4A7C15ull;
	return &t->cache[h >> (64 - SI_CACHE_BITS)];
}

/* Frames in use, the root's included (1 when nothing is open). */
static inline uint32_t si_depth(const struct si_thread *t)
{
	return (uint32_t)(t->top - t->stack) + 1;
}
static inline void si_set_depth(struct si_thread *t, uint32_t depth)
{
	t->top = t->stack + depth - 1;
}

#define SI_NODES_PER_CHUNK 4096
#define SI_NODE_RECURSIVE 0x80000000u	/* flag in si_node.id: on a folded cycle */
#define SI_NODE_ID(n) ((n)->id & ~SI_NODE_RECURSIVE)

/* clock.c */
/* The one global word the fast paths read, alone on its cache line
 * (written only at start-up and by pause/resume, so the line is never
 * stolen from under the hooks by unrelated writes).  Bit 0 set: the
 * runtime has not started, or the clock is CLOCK_MONOTONIC (the hooks
 * take their out-of-line paths).  Bit 1: events are being recorded
 * (SELINST_MODE=trace or flight, trace.c): the hooks take their traced
 * paths.  Bits 2..: the pause count, in steps of SI_GATE_PAUSE.  Enter's
 * fast path needs the whole word 0; exit's bits 0 and 1. */
#define SI_GATE_SLOW  1
#define SI_GATE_TRACE 2
#define SI_GATE_PAUSE 4
struct si_hot {
	int gate;
	uint64_t throttle_calls;	/* throttle.c: the first rule's CALLS */
} __attribute__((aligned(64)));
SI_HIDDEN extern struct si_hot si_hot;
#define si_clock_tsc (!(__atomic_load_n(&si_hot.gate, __ATOMIC_RELAXED) & SI_GATE_SLOW))
#define si_paused (__atomic_load_n(&si_hot.gate, __ATOMIC_RELAXED) >= SI_GATE_PAUSE)
#define si_tracing (__atomic_load_n(&si_hot.gate, __ATOMIC_RELAXED) & SI_GATE_TRACE)
extern int si_started;
static inline uint64_t si_now(void);
SI_HIDDEN void si_clock_init(void);
SI_HIDDEN void si_clock_publish(void);
SI_HIDDEN int si_clock_is_tsc(void);
SI_HIDDEN uint64_t si_clock_mono_ns(void);
SI_HIDDEN double si_ticks_per_second(void);	/* calibrated on demand */
SI_HIDDEN double si_clock_resolution_ns(void);
SI_HIDDEN const char *si_clock_name(void);
extern uint64_t si_start_ticks;

/* The TSC as one 64-bit value: rdtsc, shl, or (the compiler's own
 * version adds a zero-extension).  Plain rdtsc, not rdtscp or
 * lfence;rdtsc: it is not ordered against the instructions around it, so
 * a region's ends may move by the few cycles the CPU overlaps; the hooks
 * put it after the enter bookkeeping and before the exit bookkeeping. */
static inline uint64_t si_rdtsc(void)
{
	uint64_t lo, hi;
	__asm__ __volatile__("rdtsc\n\tshl $32, %%rdx\n\tor %%rdx, %%rax" : "=a"(lo), "=d"(hi));
	return lo;
}

static inline uint64_t si_now(void)
{
	if (likely(si_clock_tsc))
		return si_rdtsc();
	return si_clock_mono_ns();
}

/* The re-entrancy guard of the cold paths and the control API: a hook
 * (or selinst_* call) of thread T runs only when no other one of T is
 * running, i.e. not inside a signal handler that interrupted one.  Take
 * it before reading any of T's state and release it after the last
 * write; the compiler barriers keep those accesses between the two.  (The
 * fast paths in hooks.c test and set in_hook in their own asm.) */
static inline int si_guard_take(struct si_thread *t)
{
	if (t->in_hook)
		return 0;
	t->in_hook = 1;
	barrier();
	return 1;
}

static inline void si_guard_release(struct si_thread *t)
{
	barrier();
	t->in_hook = 0;
}

/* The frame index (1 or more) of the innermost open activation of R in
 * T, or 0 when R is not open (dropped by a longjmp resync, or an ignored
 * descriptor). */
static inline uint32_t si_frame_of(const struct si_thread *t, const struct selinst_region *r)
{
	uint32_t i = si_depth(t) - 1;
	while (i >= 1 && t->stack[i].region != r)
		i--;
	return i;
}

/* thread.c */
/* The calling thread's profile, or &si_nothread (never NULL: the fast
 * paths then need no NULL test; si_nothread.in_hook is 1, so they leave
 * it to the cold paths).  Initial-exec TLS: one GOT load and one %fs load.
 * In libselinst.so that takes a static TLS slot, which the dynamic linker
 * has for a library linked at start-up; a dlopen'ed libselinst.so relies
 * on glibc's small static-TLS reserve (8 bytes here; ample). */
extern __thread struct si_thread *si_self
	__attribute__((tls_model("initial-exec")));
SI_HIDDEN extern struct si_thread si_nothread;
/* In a forked child, until its profile is made (thread.c): the forking
 * thread's si_self, in_hook 1 as si_nothread's. */
SI_HIDDEN extern struct si_thread si_forked;
/* The calling thread, whose si_self is si_forked: its profile made from
 * the parent's and made si_self; NULL (si_self then &si_nothread, or
 * still si_forked in a signal handler that interrupted the making or a
 * write) when there is none. */
SI_HIDDEN struct si_thread *si_fork_settle(void);
/* Any thread, with the registry lock, before it reads the registry (a
 * write, dlclose): a forked child's pending profile made. */
SI_HIDDEN void si_fork_settle_any(void);
/* The exit of R at NOW (a loop's with ITERATIONS) in a forked child whose
 * profile is not made: 1 when noted (done when it is made) or nothing to
 * do; 0 when the caller must make it (si_fork_settle) and exit there. */
SI_HIDDEN int si_fork_exit(const struct selinst_region *r, uint64_t now, int loop,
			   uint64_t iterations);
/* hooks.c: such an exit, done on T. */
SI_HIDDEN void si_fork_replay(struct si_thread *t, const struct selinst_region *r, uint64_t now,
			      int loop, uint64_t iterations);
/* si_self, or NULL before the thread's first hook; in a forked child,
 * the profile made first. */
static inline struct si_thread *si_thread_get(void)
{
	struct si_thread *t = si_self;
	if (unlikely(t == &si_forked))
		return si_fork_settle();
	return t == &si_nothread ? NULL : t;
}
/* si_self for the exit paths, which take the guard on it: in a forked
 * child, its profile made first. */
static inline struct si_thread *si_self_settled(void)
{
	if (unlikely(si_self == &si_forked))
		si_fork_settle();
	return si_self;
}
SI_HIDDEN extern const struct selinst_region si_root_region;
SI_HIDDEN struct si_thread *si_thread_init(void);
SI_HIDDEN struct si_node *si_lookup_slow(struct si_thread *t, struct si_node *cur,
					 const struct selinst_region *r);
/* The child of CUR for R as an enter finds it, caches first (creating
 * it; NULL for a bad descriptor): omp.c credits a node it did not enter. */
SI_HIDDEN struct si_node *si_child_of(struct si_thread *t, struct si_node *cur,
				      const struct selinst_region *r);
/* Node every node's mru starts at: its region is a descriptor no program
 * has, so a lookup through it always misses. */
SI_HIDDEN extern struct si_node si_no_child;
SI_HIDDEN int si_grow_stack(struct si_thread *t);
/* After a siglongjmp out of a signal handler that interrupted a hook of T:
 * make the interrupted hook's half-done work consistent (hooks.c). */
SI_HIDDEN void si_repair_interrupted(struct si_thread *t);
SI_HIDDEN void si_global_init(void);
SI_HIDDEN struct si_thread *si_registry_head(void);
/* Take the registry lock and return 1, or return 0 without it when this
 * thread already holds it (a signal handler interrupted the holder) or,
 * with WAIT_MS >= 0, when it is not free within WAIT_MS.  Unlock only
 * after a 1. */
SI_HIDDEN int si_registry_lock(int wait_ms);
/* Whether the program runs under ThreadSanitizer (thread.c). */
SI_HIDDEN int si_under_tsan(void);
SI_HIDDEN void si_registry_unlock(void);
/* Profiles of threads that have ended (struct si_snap, list). */
SI_HIDDEN struct si_snap *si_exited_head(void);
SI_HIDDEN void si_pop_to(struct si_thread *t, uint32_t depth, uint64_t now);
SI_HIDDEN void *si_mmap(size_t bytes);
/* Memory for one profile write (walloc.c): between si_wbegin and si_wend
 * the calling thread's si_walloc/si_wcalloc come from mmap'd blocks that
 * si_wend gives back; outside they are malloc/calloc (and si_wrealloc,
 * si_wstrdup realloc, strdup).  si_wfree frees only outside a write.
 * si_wsort sorts in place, allocating nothing. */
struct si_warena { struct si_wblock *top; struct si_warena *outer; };
SI_HIDDEN void si_wbegin(struct si_warena *a);
SI_HIDDEN void si_wend(struct si_warena *a);
SI_HIDDEN void *si_walloc(size_t n);
SI_HIDDEN void *si_wcalloc(size_t n, size_t size);
SI_HIDDEN void si_wfree(void *p);
SI_HIDDEN void *si_wrealloc(void *p, size_t n);
/* si_wrelease gives back what was allocated since si_wmark (the same
 * write, the same or a nested function). */
struct si_wspot { struct si_wblock *block; size_t used; };
SI_HIDDEN void si_wmark(struct si_wspot *m);
SI_HIDDEN void si_wrelease(const struct si_wspot *m);
SI_HIDDEN char *si_wstrdup(const char *s);
SI_HIDDEN void si_wsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* S, digits only (no sign, blanks or prefix: strtoull takes "-5" as
 * 2^64-5), into *OUT: 0, or -1 when S is not such a number, 1 when it is
 * outside MIN..MAX (*OUT then unchanged). */
SI_HIDDEN int si_parse_decimal(const char *s, uint64_t min, uint64_t max, uint64_t *out);
SI_HIDDEN uint64_t *si_loop_cell_slow(struct si_thread *t, uint32_t frame);

/* The iteration cell of frame index FRAME (see struct si_thread). */
static inline uint64_t *si_loop_cell(struct si_thread *t, uint32_t frame)
{
	if (frame < SI_CELL_BLOCK * SI_CELL_BLOCKS) {
		uint64_t *block = t->cells[frame / SI_CELL_BLOCK];
		if (block)
			return &block[frame % SI_CELL_BLOCK];
	}
	return si_loop_cell_slow(t, frame);
}
SI_HIDDEN void *si_arena_alloc(struct si_thread *t, size_t bytes);
SI_HIDDEN void si_after_fork_child(void);
SI_HIDDEN struct si_node *si_node_by_id(struct si_thread *t, uint64_t id);
extern int si_overflowed;

/* snapshot.c */
/* A copy of one thread's profile, as the writer reads it: taken from a
 * running thread in one short pass, or kept when a thread ends (its
 * struct si_thread is then reused by the next new thread). */
struct si_snode {
	const struct selinst_region *region;
	uint64_t parent;		/* node id */
	uint64_t calls, incl, self;	/* ticks */
	struct si_loop *loop;		/* si_walloc'd copy; loops only */
	uint32_t recursive;
};
#define SI_SNAP_PAUSED UINT64_MAX	/* si_sframe.node of a frame entered while paused */
struct si_sframe { uint64_t node, start, cell; };
struct si_snap {
	struct si_snap *next;		/* the exited list */
	uint32_t index;
	pid_t tid;
	int finished;
	uint64_t end_ticks;
	uint64_t cpu_ns;		/* the thread's CPU time, */
	int cpu_known;			/* if it could be read */
	uint64_t runq_ns;		/* its time on the run queue, waiting */
	int runq_known;			/* for a CPU; if it could be read */
	uint64_t nn;			/* nodes, root (id 0) included */
	struct si_snode *nodes;
	uint32_t depth;			/* open frames 1..depth-1 */
	struct si_sframe *frames;
	uint64_t overflow_calls;
	const struct si_samples *samples;	/* sample.c; NULL: none */
	const struct si_series *series;		/* iterate.c; NULL: none */
	struct si_flow_edge *flow;		/* flow.c: a si_walloc'd copy */
	size_t nflow;
};
SI_HIDDEN int si_snap_take(struct si_thread *t, struct si_snap *s);
SI_HIDDEN void si_snap_free(struct si_snap *s);
/* Thread TID's time on the run queue (runnable, waiting for a CPU: the
 * kernel's schedstat run_delay), ns, into *NS: 0, or -1 when unknown. */
SI_HIDDEN int si_runq_ns(pid_t tid, uint64_t *ns);
/* A thread that exits having run less than this leaves its wait unknown
 * (compensated as if it had not waited). */
#define SI_RUNQ_MIN_CPU_NS 10000000u

/* sample.c: one thread's samples, (node id, interrupted PC) -> count,
 * written only by the thread's own signal handler. */
struct si_sample_slot {
	uintptr_t pc;		/* 0: empty */
	uintptr_t ret[2];	/* words on the stack that may be the caller's return address */
	uint32_t node, count;
};
struct si_samples {
	uint64_t total, in_runtime, dropped;	/* in_runtime: a hook was running */
	uintptr_t stack_lo, stack_hi;	/* the thread's stack (0, 0: unknown) */
	uint32_t used;
	struct si_sample_slot slot[];
};
SI_HIDDEN void si_sample_ctor(void);
SI_HIDDEN void si_sample_thread_start(struct si_thread *t);
SI_HIDDEN void si_sample_thread_stop(struct si_thread *t);
SI_HIDDEN int si_sample_hz(void);
/* The sampling signal blocked around the final write, and one that came
 * during it dropped (sample.c). */
struct si_sample_quiet { int on, was_pending; sigset_t mask; };
SI_HIDDEN void si_sample_quiet(struct si_sample_quiet *q);
SI_HIDDEN void si_sample_loud(const struct si_sample_quiet *q);
SI_HIDDEN int si_sample_signal(void);
SI_HIDDEN int si_sample_handler_lost(void);
struct sigaction;
SI_HIDDEN int si_sample_is_handler(const struct sigaction *sa);
/* One write's view of the loaded modules, on the writer's stack, from
 * si_sample_write_begin to si_sample_write_end (sample.c). */
struct si_sample_wstate {
	struct si_sample_wstate *outer;	/* the write this one interrupted */
	struct si_wmod *mods;
	struct si_wseg *segs;		/* executable segments, by address */
	struct si_wmod **used;		/* by index in sample_modules */
	size_t nmods, nsegs, nused, capm, caps, capu;	/* entries, room */
	struct si_map *names;		/* pc -> si_walloc'd name, for PCs named here */
};
SI_HIDDEN void si_sample_write_begin(struct si_sample_wstate *w);
SI_HIDDEN void si_sample_write_end(struct si_sample_wstate *w);
/* Where a sampled PC is: module (index in sample_modules) and file
 * address; or a name made in the process (the vDSO's code, "0x..."
 * outside every module), module -1.  A caller with neither: none. */
struct si_pcref {
	const char *name;
	int32_t module;
	uint64_t address;
};
struct si_sample_row {
	uint64_t node;
	struct si_pcref pc;
	struct si_pcref caller;	/* the call into another module's code, if found */
	uint64_t count;
};
SI_HIDDEN size_t si_sample_modules(void);
SI_HIDDEN char *si_sample_module(size_t i, char *id, size_t len);
SI_HIDDEN int si_sample_same_entry(const struct si_sample_row *a, const struct si_sample_row *b);
SI_HIDDEN struct si_sample_row *si_sample_rows(const struct si_snap *s, const uint64_t *omap,
					       size_t *n);

/* iterate.c: per-iteration records of one loop or phase node of a
 * thread, in chunks of words (see iterate.c for the record layout). */
struct si_chunk {
	struct si_chunk *next;		/* release-stored */
	size_t used, cap;		/* words; used release-stored */
	uint64_t w[];
};
struct si_series {
	struct si_series *next;		/* the thread's list */
	uint64_t node_id;
	const struct selinst_region *region;
	uint64_t recorded, dropped;	/* iterations; recorded release-stored */
	struct si_chunk *head, *tail;
	/* the owning thread's working state */
	int ignored;			/* SELINST_ITERATE=auto: a loop inside a loop */
	int open;
	uint64_t start;			/* ticks, the open iteration's */
	uint64_t *last;			/* (calls, self) by id - node_id */
	size_t last_cap;
	uint64_t seen;			/* nodes when LAST was taken */
};
SI_HIDDEN void si_iterate_init(void);
/* A loop region gets its first node: mark it when SELINST_ITERATE names it. */
SI_HIDDEN void si_iterate_region_seen(const struct selinst_region *r);
SI_HIDDEN void si_iterate_loop_exit(struct si_thread *t, const struct selinst_region *r,
				    uint64_t now);
/* After a phase's region is entered (on top) / before it is left. */
SI_HIDDEN void si_iterate_phase_begun(struct si_thread *t, uint64_t now);
SI_HIDDEN void si_iterate_phase_ending(struct si_thread *t, uint64_t now);
/* SELINST_ITERATE's setting (returns whether given) and what it found. */
/* Whether a profile write would call malloc (output.c): only where a
 * trace is on; see walloc.c. */
SI_HIDDEN int si_write_needs_malloc(void);
SI_HIDDEN int si_iterate_status(const char **file, uint32_t *line, int *found, int *iterable);

/* flow.c: the predecessor graph (SELINST_FLOW). */
#define SI_FLOW_DEPTH 4096		/* deeper frames record no edge */
struct si_flow_last {
	const struct si_node *node;	/* last child entered at this depth */
	uint64_t activation;		/* its parent frame's start */
};
SI_HIDDEN void si_flow_init(void);
SI_HIDDEN int si_flow_enabled(void);
SI_HIDDEN void si_flow_region_seen(const struct selinst_region *r);
/* After T pushed the frame at index D for a region with the flow bit. */
SI_HIDDEN void si_flow_entered(struct si_thread *t, uint32_t d);
struct si_flow_edge { uint64_t node, pred, count; };	/* node ids */
SI_HIDDEN int si_flow_copy(const struct si_thread *t, struct si_flow_edge **out, size_t *n);

/* control.c */
SI_HIDDEN void si_control_after_fork(void);

/* hooks.c */
SI_HIDDEN void si_enter(struct si_thread *t, const struct selinst_region *r, uintptr_t sp);
SI_HIDDEN void si_exit(struct si_thread *t, const struct selinst_region *r, uint64_t now);
/* Count N iterations (one entry) for loop L: total and trip histogram. */
SI_HIDDEN void si_loop_count(struct si_loop *l, uint64_t n);

/* throttle.c */
struct si_throttle_event {
	const struct selinst_region *region;
	uint64_t calls;			/* the region's calls in the deciding thread then */
	uint64_t ticks;			/* since the runtime started */
	int ready;			/* fields above written */
};
struct si_throttle_rule {
	uint64_t calls, ns;		/* more than CALLS closes at under NS each */
};
/* The rules in force, fewest calls first (none: the throttle is off). */
SI_HIDDEN unsigned si_throttle_rules(const struct si_throttle_rule **rules);
SI_HIDDEN void si_throttle_init(void);
SI_HIDDEN int64_t si_throttle_countdown(void);	/* a new tally's left */
SI_HIDDEN void si_throttle_check(struct si_node *n);
SI_HIDDEN void si_throttled_exit(const struct selinst_region *r, uint64_t iterations);
/* The exit hook of a switched-off region R: nothing, unless this thread
 * has an activation of R, entered before the switch, on top. */
static inline void si_exit_switched_off(const struct selinst_region *r, uint64_t iterations)
{
	struct si_thread *t = si_self;		/* si_nothread: in_hook is 1 */
	if (unlikely(t->in_hook)) {
		if (unlikely(t == &si_forked))	/* a forked child's first hook */
			si_throttled_exit(r, iterations);
		return;
	}
	if (likely(t->top->region != r))
		return;
	si_throttled_exit(r, iterations);
}
SI_HIDDEN const struct si_throttle_event *si_throttle_event_of(const struct selinst_region *r);
SI_HIDDEN void si_throttle_moved(const struct selinst_region *from,
				const struct selinst_region *to);

/* calibrate.c */
SI_HIDDEN struct si_thread *si_thread_scratch(void);	/* thread.c */
SI_HIDDEN void si_calibrate_hooks(void);
extern double si_hook_pair_ns;		/* 0: not measured */
/* calibrate.c: of a pair, the ticks between its clock reads (the part in
 * the region's own time); a loop's pair, ns, and its part, ticks */
extern double si_hook_inside_ticks, si_hook_loop_pair_ns, si_hook_loop_inside_ticks;

/* output.c */
SI_HIDDEN int si_write_profile(const char *path, int final, int from_signal, int signo);
/* In a forked child's fork handler: the child's pid, and its start at
 * TICKS (si_now). */
SI_HIDDEN void si_output_after_fork(uint64_t ticks);
SI_HIDDEN void si_output_init(void);
/* SELINST_OUTPUT read at start-up ("" unset; NULL too long for a path). */
SI_HIDDEN const char *si_output_pattern(void);
/* Is this the process the runtime's state belongs to?  Not in a vfork
 * child, nor in a child made without fork's handlers (raw clone). */
SI_HIDDEN int si_output_is_ours(void);
extern int si_forked_child;
/* What the output path's pattern can name (output.c). */
struct si_naming {
	pid_t pid;
	const char *rank;		/* "" when not under MPI */
	const char *host, *program;	/* program: base name */
	int forked;			/* a forked child */
};
SI_HIDDEN int si_expand_output(char *out, size_t n, const char *pat,
			       const struct si_naming *nm, int *keep_earlier);
extern volatile int si_final_written;

/* The profile's naming facts (pid, rank, host, program) for other writers. */
SI_HIDDEN void si_output_names(struct si_naming *nm);

/* trace.c */
enum { SI_MODE_PROFILE, SI_MODE_TRACE, SI_MODE_FLIGHT };
extern int si_trace_mode;
SI_HIDDEN void si_trace_init(void);
SI_HIDDEN void si_trace_after_fork(void);
/* After si_enter, or pops from DEPTH_BEFORE (at NOW), while si_tracing:
 * the events of the frames pushed or popped. */
SI_HIDDEN void si_trace_entered(struct si_thread *t, uint32_t depth_before);
SI_HIDDEN void si_trace_left(struct si_thread *t, uint32_t depth_before, uint64_t now);
/* Records that do not fit the fast way (si_trace_put); COUNT: a loop leave's. */
SI_HIDDEN void si_trace_put_slow(struct si_thread *t, uint64_t ts, const struct si_node *n,
				 unsigned kind, uint64_t count);
/* FINAL: the exit's (or a fatal signal's) write, the last. */
SI_HIDDEN void si_trace_write(const char *profile, int final);
/* A thread's exit: its node ids' regions kept for the trace's write. */
SI_HIDDEN void si_trace_thread_exit(struct si_thread *t);
extern uint64_t si_trace_from, si_trace_until;	/* the window, ticks */
/* Whether TS is inside the window; past its end, recording stops. */
static inline int si_trace_in_window(uint64_t ts)
{
	if (likely(ts - si_trace_from < si_trace_until - si_trace_from))
		return 1;
	if (ts >= si_trace_until)	/* over: the hooks' fast paths again */
		selinst_trace_off();
	return 0;
}
/* One thread's records (trace.h): a ring of chunks, each starting with
 * its time base.  Trace mode fills up to SELINST_TRACE_MB of chunks, then
 * writes the oldest to the thread's spill file before it fills it again;
 * flight mode fills it again without.  Never freed (a thread's structure
 * is reused, its buffer is not). */
struct si_tbuf {
	si_rec *pos, *end;		/* hot: the next slot, the chunk's end */
	uint64_t base, span;		/* hot: the time base, ticks, and the records'
					   span after it (the trace window's end
					   or SI_REC_DT_LIMIT) */
	struct si_tbuf *next;		/* all buffers, newest first */
	struct si_thread *owner;	/* its nodes while owner->index == index */
	const struct selinst_region **regions;	/* by node id, after the thread's exit */
	uint64_t nregions;
	uint32_t index;
	pid_t tid;
	uint64_t lost;
	si_rec **chunks;		/* the ring: the thread's chunk number k
					   (0, 1, ... in recording order) is
					   chunks[k % nchunks] */
	size_t nchunks, max_chunks, cur;
	int flight;
	int fd;				/* the spill file: -1 before the first */
	int spill_err;			/* errno of its failure: recording stopped */
	uint64_t spilled;		/* chunks in the spill file: 0 .. spilled - 1 */
	uint64_t gen;			/* twice the chunks started again (reused);
					   odd while one is (trace.c, collect) */
};
/* An event of node N at TS: 8 bytes, unless a new time base, a new chunk,
 * an escaped id is needed, or TS is outside the trace window (one range
 * check: the base is inside the window): si_trace_put_slow. */
static inline void si_trace_put(struct si_thread *t, uint64_t ts, const struct si_node *n,
				unsigned kind)
{
	struct si_tbuf *b = t->trace;
	if (likely(b != NULL)) {
		uint64_t dt = ts - b->base;
		if (likely(b->pos != b->end) && likely(dt < b->span) && likely(n->id < SI_REC_ESC)) {
			*b->pos = si_rec_event(dt, n->id, kind);
			barrier();	/* a dump reading pos meanwhile sees whole records */
			b->pos++;
			return;
		}
	}
	si_trace_put_slow(t, ts, n, kind, 0);
}
/* A loop's leave with its N iterations: two records. */
static inline void si_trace_put_loop_leave(struct si_thread *t, uint64_t ts,
					   const struct si_node *node, uint64_t n)
{
	struct si_tbuf *b = t->trace;
	if (likely(b != NULL)) {
		uint64_t dt = ts - b->base;
		if (likely(b->end - b->pos >= 2) && likely(dt < b->span) &&
		    likely(node->id < SI_REC_ESC)) {
			b->pos[0] = si_rec_event(dt, node->id, SI_TEV_LOOP_LEAVE);
			b->pos[1] = si_rec_special(SI_REC_COUNT, n);
			barrier();
			b->pos += 2;
			return;
		}
	}
	si_trace_put_slow(t, ts, node, SI_TEV_LOOP_LEAVE, n);
}

/* signals.c */
SI_HIDDEN void si_signals_init(void);
/* In a forked child: the exit-time writer thread is not there to wait for. */
SI_HIDDEN void si_final_writer_after_fork(void);
SI_HIDDEN void si_at_exit(void);

#endif
