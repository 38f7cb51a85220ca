/* SPDX-License-Identifier: MIT */
/*
 * hooks.c - the hot path: the hook ABI the plugin calls (__selinst_*).
 *
 * A hook touches only its own thread's memory: a TLS pointer (initial-exec),
 * that thread's region stack and tree nodes.  No lock, no atomic
 * read-modify-write, no system call (the TSC is read with rdtsc).  Anything
 * rare (first hook of a thread, a child never seen under this parent,
 * stack growth, a region not on top at exit) is in thread.c or below,
 * out of line.
 *
 * Signals: each thread has an in_hook flag; a hook that finds it set (a
 * signal handler running instrumented code interrupted a hook of the same
 * thread) does nothing, and so does the matching exit, because the whole
 * handler runs while the flag is still set.  The tree is never seen half
 * updated.  Hooks set the flag before they read anything of the thread's
 * state, so a handler's hooks can never move the stack under them.
 *
 * A handler may also siglongjmp out of the hook it interrupted, which then
 * never finishes.  Every hook is therefore ordered so that what it leaves
 * half done is harmless or repaired by __selinst_setjmp_return: a push
 * writes its frame above the top and makes it live with one store of
 * `top`; a pop removes its frame with one store of `top` before it
 * accounts for it (a cut there loses only that activation's time); the one
 * counter that must match the stack, the node's `active`, is recounted
 * from the stack for the node in the frame slot above the top, the only
 * one a cut hook can have left wrong (si_repair_interrupted).
 */
#include "internal.h"

extern char **environ;

/* The calling context of a frame entered while paused: the nearest
 * counted frame below it (the root at worst). */
__attribute__((noinline)) static struct si_node *context_below(struct si_thread *t, uint32_t i)
{
	while (i > 0 && t->stack[i].node == &t->paused)
		i--;
	return i > 0 ? t->stack[i].node : &t->root;
}

/* Make frame F (the slot above the top) live for node N.  The node is
 * stored first and `active` counted before the commit (the store of
 * `top`): a cut in between is repaired from F->node (see the file's
 * head).  Stores are kept in this order by compiler barriers; the CPU
 * keeps program order for its own thread's signal handlers. */
static inline __attribute__((always_inline)) void
push_frame(struct si_thread *t, struct si_frame *f, struct si_node *n,
	   const struct selinst_region *r, uintptr_t sp, uint64_t start)
{
	f->node = n;
	barrier();
	n->calls++;
	n->active++;
	f->region = r;
	f->sp = sp;
	f->start = start;
	barrier();
	t->top = f;
}

/* The child of CUR for R from the caches (mru, then the direct-mapped
 * one), or NULL. */
static inline __attribute__((always_inline)) struct si_node *
cached_child(struct si_thread *t, struct si_node *cur, const struct selinst_region *r)
{
	struct si_node *n = cur->mru;
	if (likely(n->region == r))
		return n;
	struct si_cslot *c = si_cache_slot(t, cur, r);
	if (unlikely(c->parent != cur))
		return NULL;
	n = c->child;
	return likely(n->region == r) ? n : NULL;
}

/* The child of CUR for R: the caches, else the index (creating it). */
static inline struct si_node *child_of(struct si_thread *t, struct si_node *cur,
				       const struct selinst_region *r)
{
	struct si_node *n = cached_child(t, cur, r);
	return n ? n : si_lookup_slow(t, cur, r);
}

struct si_node *si_child_of(struct si_thread *t, struct si_node *cur,
			    const struct selinst_region *r)
{
	return child_of(t, cur, r);
}

/* Push a frame for R on T's stack (T->in_hook is set by the caller). */
__attribute__((always_inline)) inline void
si_enter(struct si_thread *t, const struct selinst_region *r, uintptr_t sp)
{
	if (unlikely(t->top + 1 >= t->end) && !si_grow_stack(t))
		return;
	struct si_frame *f = t->top + 1;
	struct si_node *n = &t->paused;
	if (likely(!si_paused)) {
		struct si_node *cur = f[-1].node;
		if (unlikely(cur == &t->paused))	/* parent entered while paused */
			cur = context_below(t, (uint32_t)(f - 1 - t->stack));
		n = child_of(t, cur, r);
		if (unlikely(!n))
			return;		/* bad descriptor: ignored */
	}
	push_frame(t, f, n, r, sp, si_now());
}

/* Close frame F, the top one, at NOW.  Self time: F's duration goes to
 * its node and comes off the node of the frame below (see si_frame).
 * The frame leaves the stack first (one store); a cut after that loses
 * this activation's times, never counts them twice.  The frame below
 * loses the time before F's node gains it, and inclusive before self,
 * so a cut never leaves any node's self above its inclusive.  Returns
 * the region's throttle countdown (si_tally): below 0, the exit hooks
 * call si_throttle_check. */
static inline __attribute__((always_inline)) struct si_tally *
pop_frame_times(struct si_thread *t, struct si_frame *f, uint64_t now)
{
	t->top = f - 1;
	barrier();
	struct si_node *n = f->node;
	struct si_tally *y = n->tally;
	uint64_t dur = now - f->start;
	__asm__("" : "+r"(dur));	/* one register: GCC would also compute start - now */
	f[-1].node->self -= dur;
	if (likely(--n->active == 0)) {
		n->incl += dur;
		y->incl += dur;
	}
	n->self += dur;
	return y;
}

static inline __attribute__((always_inline)) int64_t
pop_frame(struct si_thread *t, struct si_frame *f, uint64_t now)
{
	return --pop_frame_times(t, f, now)->left;
}

/* The fast exits' countdown of tally Y, then si_throttle_check(N) when it
 * went below 0: a decrement in memory and a branch on its sign (GCC
 * makes a load, subtract, store and test of `--y->left < 0`).  After
 * in_hook is cleared: one instruction, so a signal handler's hook comes
 * before or after it, never inside. */
#define COUNT_DOWN(y, n)							\
	do {									\
		__asm__ goto("subq $1, %0\n\tjs %l[check_]" :: "m"((y)->left)	\
			     : "memory", "cc" : check_);				\
		break;								\
	check_:									\
		si_throttle_check(n);						\
	} while (0)

void si_loop_count(struct si_loop *l, uint64_t n)
{
	l->iterations += n;
	l->hist[selinst_trip_bucket(n)]++;
}

/* Close the frames above DEPTH at NOW.  A loop frame gets its count from
 * its cell: what the loop's exit hook put there, or, for a loop left
 * without one (longjmp, thread end), what the loop stored before its
 * last call. */
void si_pop_to(struct si_thread *t, uint32_t depth, uint64_t now)
{
	while (si_depth(t) > depth) {
		struct si_frame *f = t->top;
		pop_frame(t, f, now);	/* first: see pop_frame */
		if (f->node->loop)
			si_loop_count(f->node->loop, *si_loop_cell(t, (uint32_t)(f - t->stack)));
	}
}

void si_repair_interrupted(struct si_thread *t)
{
	struct si_frame *f = t->top + 1;
	if (f >= t->end || !f->node)
		return;
	struct si_node *n = f->node;
	uint32_t live = 0;
	for (struct si_frame *g = t->stack + 1; g < f; g++)
		live += g->node == n;
	n->active = live;
}

__attribute__((noinline)) static void
exit_slow(struct si_thread *t, const struct selinst_region *r, uint64_t now)
{
	/* R not on top: close the regions above it (loops left by return or
	 * exception, callees skipped by unwinding).  Not on the stack at all
	 * (dropped by a longjmp resync, or an ignored descriptor): nothing. */
	uint32_t i = si_frame_of(t, r);
	if (i >= 1)
		si_pop_to(t, i, now);
}

/* The root frame's region (si_root_region) matches no exit. */
__attribute__((always_inline)) inline void
si_exit(struct si_thread *t, const struct selinst_region *r, uint64_t now)
{
	if (likely(t->top->region == r))
		pop_frame(t, t->top, now);
	else if (t->top > t->stack)
		exit_slow(t, r, now);
}

/* Everything the fast paths below leave out: first hook of a thread, a
 * nested (signal) hook, stack growth, pause, a child not in the cache. */
/* Before the runtime has started, hooks may run where nothing can be set
 * up: IFUNC resolvers called by the dynamic linker while it relocates,
 * before libc is initialised (environ still NULL).  Those calls are
 * dropped; later ones (constructors that run before ours) start the
 * runtime on the spot. */
static int ready(void)
{
	if (likely(__atomic_load_n(&si_started, __ATOMIC_ACQUIRE)))
		return 1;
	if (!environ)
		return 0;
	si_global_init();
	return 1;
}

/* si_enter, then the entry in the predecessor graph when REGION's node,
 * perhaps made just now, has the flow bit (flow.c), and its event while
 * events are recorded (trace.c). */
static inline void enter_noting(struct si_thread *t, const struct selinst_region *region,
				uintptr_t sp)
{
	uint32_t d = si_depth(t);
	si_enter(t, region, sp);
	if (unlikely(region->reserved & SELINST_REGION_FLOW) && si_depth(t) > d)
		si_flow_entered(t, d);
	if (si_tracing)
		si_trace_entered(t, d);
}

__attribute__((noinline)) static void
enter_cold(const struct selinst_region *region, uintptr_t sp)
{
	if (!ready())
		return;
	struct si_thread *t = si_thread_get();
	if (unlikely(!t) && !(t = si_thread_init()))
		return;
	if (unlikely(!si_guard_take(t)))
		return;
	enter_noting(t, region, sp);
	si_guard_release(t);
}

/* The enter fast path's misses (cache miss, stack growth): in_hook is
 * already set. */
__attribute__((noinline)) static void
enter_miss(struct si_thread *t, const struct selinst_region *region, uintptr_t sp)
{
	enter_noting(t, region, sp);
	barrier();
	t->in_hook = 0;
}

/* The exit of REGION at NOW on T, guard taken (or T not yet anyone's:
 * si_fork_replay). */
static void exit_on(struct si_thread *t, const struct selinst_region *region, uint64_t now)
{
	uint32_t d = si_depth(t);
	si_exit(t, region, now);
	if (si_tracing)
		si_trace_left(t, d, now);
}

__attribute__((noinline)) static void
exit_cold(const struct selinst_region *region, uint64_t now)
{
	if (!ready())
		return;
	struct si_thread *t = si_self;		/* si_nothread: in_hook is 1 */
	if (unlikely(t == &si_forked)) {
		/* A forked child's exit before its profile is made: noted,
		 * unless the note is full. */
		if (si_fork_exit(region, now, 0, 0))
			return;
		t = si_self_settled();
	}
	if (unlikely(!si_guard_take(t)))
		return;
	exit_on(t, region, now);
	si_guard_release(t);
}

/* The exit fast path when REGION is not on top: in_hook is already set. */
__attribute__((noinline)) static void
exit_not_top(struct si_thread *t, const struct selinst_region *region, uint64_t now)
{
	si_exit(t, region, now);
	barrier();
	t->in_hook = 0;
}

/* The hooks' own paths: no frame pointer (see the fast paths below). */
#define HOT __attribute__((noinline, optimize("omit-frame-pointer", "no-tree-slp-vectorize")))

/* Enter while events are recorded (the gate is SI_GATE_TRACE alone): the
 * fast path's work and the event (whether it is inside the trace window
 * is checked the slow way: si_trace_put); anything unusual goes the cold
 * way. */
HOT static void enter_traced(const struct selinst_region *region, uintptr_t sp)
{
	struct si_thread *t = si_self;
	if (unlikely(t->in_hook))	/* no thread yet, or a nested hook */
		return enter_cold(region, sp);
	t->in_hook = 1;
	barrier();
	struct si_frame *f = t->top;
	struct si_node *n = cached_child(t, f->node, region);
	f++;
	if (likely(n != NULL) && likely(f < t->end)) {
		uint64_t now = si_rdtsc();
		push_frame(t, f, n, region, sp, now);
		si_trace_put(t, now, n, SI_TEV_ENTER);
	} else {
		enter_noting(t, region, sp);
	}
	barrier();
	t->in_hook = 0;
}

/* Exit while events are recorded (as enter_traced). */
HOT static void exit_traced(const struct selinst_region *region)
{
	uint64_t now = si_rdtsc();
	struct si_thread *t = si_self;
	if (unlikely(t->in_hook)) {	/* no thread, or a nested hook: as the fast path */
		if (unlikely(t == &si_forked))
			exit_cold(region, now);
		return;
	}
	t->in_hook = 1;
	barrier();
	struct si_frame *f = t->top;
	if (unlikely(f->region != region)) {
		uint32_t d = si_depth(t);
		si_exit(t, region, now);
		si_trace_left(t, d, now);
		barrier();
		t->in_hook = 0;
		return;
	}
	int64_t left = pop_frame(t, f, now);
	struct si_node *n = f->node;
	si_trace_put(t, now, n, SI_TEV_LEAVE);
	barrier();
	t->in_hook = 0;
	if (unlikely(left < 0))
		si_throttle_check(n);
}

/* Fast paths.  The hooks are built without a frame pointer and call
 * nothing on the way (cold cases and the monotonic clock are tail calls),
 * so they need no stack frame of their own.  Each reads one global word
 * (si_hot.gate: started, TSC clock, not paused), one TLS pointer (never
 * NULL: &si_nothread, whose in_hook is 1, before the thread's first hook)
 * and its own thread's memory.  The root frame's region is
 * si_root_region, so "the region on top is ours" is one compare with no
 * depth test; the child comes from the thread's direct-mapped cache,
 * whatever the call pattern. */

/* Enter: in_hook is set before anything of the thread is read (a
 * handler's hooks could otherwise move the stack under us), then one
 * cache probe, then push_frame.  rdtsc comes after the lookup, so that it
 * is not counted in the region; it is not ordered against the stores
 * around it (no lfence/rdtscp: that would cost more than the few cycles
 * of skew it removes). */
SI_EXPORT HOT void __selinst_enter(const struct selinst_region *region)
{
	/* Switched off by the throttle (throttle.c), or recorded in the
	 * predecessor graph (flow.c): a load and a branch. */
	__asm__ goto("testl $%c1, %0\n\tjne %l[off]" :: "m"(region->reserved),
		     "i"(SELINST_REGION_THROTTLED | SELINST_REGION_FLOW) :: off);
	struct si_thread *t = si_self;
	/* gate == 0 (started, TSC, not paused) and in_hook == 0, each tested
	 * in place (compare with memory and branch): the compiler would load
	 * them into a register first, the gate with an atomic load. */
	__asm__ goto("cmpl $0, %0\n\tjne %l[cold]" :: "m"(si_hot.gate) :: cold);
	__asm__ goto("cmpl $0, %0\n\tjne %l[cold]" :: "m"(t->in_hook) :: cold);
	t->in_hook = 1;
	barrier();
	struct si_frame *f = t->top;
	struct si_node *n = cached_child(t, f->node, region);
	f++;
	if (unlikely(!n) || unlikely(f >= t->end))
		goto miss;
	push_frame(t, f, n, region, (uintptr_t)__builtin_dwarf_cfa(), si_rdtsc());
	barrier();
	t->in_hook = 0;
	return;
miss:
	enter_miss(t, region, (uintptr_t)__builtin_dwarf_cfa());
	return;
cold:
	if (__atomic_load_n(&si_hot.gate, __ATOMIC_RELAXED) == SI_GATE_TRACE)
		enter_traced(region, (uintptr_t)__builtin_dwarf_cfa());
	else
		enter_cold(region, (uintptr_t)__builtin_dwarf_cfa());
	return;
off:
	if (!(region->reserved & SELINST_REGION_THROTTLED))	/* the flow bit */
		enter_cold(region, (uintptr_t)__builtin_dwarf_cfa());
}

__attribute__((noinline)) static void exit_mono(const struct selinst_region *region)
{
	if (!ready())
		return;
	exit_cold(region, si_now());
}

/* Exit: REGION is on top.  rdtsc comes first, before the bookkeeping;
 * in_hook before any read of the thread's state (as in enter). */
SI_EXPORT HOT void __selinst_exit(const struct selinst_region *region)
{
	__asm__ goto("testl $%c1, %0\n\tjne %l[off]" :: "m"(region->reserved),
		     "i"(SELINST_REGION_THROTTLED) :: off);
	__asm__ goto("testl $%c1, %0\n\tjne %l[mono]" :: "m"(si_hot.gate),
		     "i"(SI_GATE_SLOW | SI_GATE_TRACE) :: mono);
	uint64_t now = si_rdtsc();
	struct si_thread *t = si_self;
	__asm__ goto("cmpl $0, %0\n\tjne %l[nested]" :: "m"(t->in_hook) :: nested);
	t->in_hook = 1;
	barrier();
	struct si_frame *f = t->top;
	if (unlikely(f->region != region))
		return exit_not_top(t, region, now);
	struct si_tally *y = pop_frame_times(t, f, now);
	struct si_node *n = f->node;	/* pop_frame's (no barrier between); the slot
					   is free once in_hook is 0 */
	barrier();
	t->in_hook = 0;
	COUNT_DOWN(y, n);
	return;
nested:
	/* A nested hook, or no thread: nothing; a forked child's first hook
	 * (an exit, when the function that forked returns) makes its
	 * profile (off the fast path). */
	if (unlikely(t == &si_forked))
		exit_cold(region, now);
	return;
mono:
	if (__atomic_load_n(&si_hot.gate, __ATOMIC_RELAXED) == SI_GATE_TRACE)
		exit_traced(region);
	else
		exit_mono(region);
	return;
off:
	si_exit_switched_off(region, 0);
}

/* Where a loop whose frame was not pushed (runtime not started, a hook
 * interrupted by a signal handler, a bad descriptor) stores its count. */
static __thread __attribute__((tls_model("initial-exec"))) uint64_t no_cell;

/* Everything the loop enter fast path below leaves out (as enter_cold). */
__attribute__((noinline)) static uint64_t *
loop_enter_cold(const struct selinst_region *region, uintptr_t sp)
{
	if (unlikely(!si_clock_tsc) && !ready())
		return &no_cell;
	struct si_thread *t = si_thread_get();
	if (unlikely(!t) && !(t = si_thread_init()))
		return &no_cell;
	if (unlikely(!si_guard_take(t)))
		return &no_cell;
	/* The cell is zeroed before the frame is pushed: a siglongjmp right
	 * after the push must not find the count of an earlier loop there. */
	uint32_t d = si_depth(t);
	uint64_t *cell = si_loop_cell(t, d);
	*cell = 0;
	si_enter(t, region, sp);
	if (si_depth(t) == d)
		cell = &no_cell;
	else {
		if (region->reserved & SELINST_REGION_FLOW)
			si_flow_entered(t, d);
		if (si_tracing)
			si_trace_entered(t, d);
	}
	si_guard_release(t);
	return cell;
}

/* The loop enter's fast work on T, whose in_hook the caller set: the
 * child from the caches, the entry's cell zeroed before the frame is
 * pushed (a siglongjmp right after the push must not find the count of
 * an earlier loop there), the frame pushed at *NOW.  The cell, or NULL
 * (nothing done) for the cold path's cases. */
static inline __attribute__((always_inline)) uint64_t *
loop_push(struct si_thread *t, const struct selinst_region *region, uintptr_t sp, uint64_t *now)
{
	struct si_frame *f = t->top;
	struct si_node *n = cached_child(t, f->node, region);
	f++;
	uint32_t d = (uint32_t)(f - t->stack);
	if (unlikely(!n) || unlikely(f >= t->end) || unlikely(d >= SI_CELL_BLOCK * SI_CELL_BLOCKS)
	    || unlikely(!t->cells[d / SI_CELL_BLOCK]))
		return NULL;
	uint64_t *cell = &t->cells[d / SI_CELL_BLOCK][d % SI_CELL_BLOCK];
	*cell = 0;
	*now = si_rdtsc();
	push_frame(t, f, n, region, sp, *now);
	return cell;
}

/* Loop enter while events are recorded (as enter_traced). */
HOT static uint64_t *
loop_enter_traced(const struct selinst_region *region, uintptr_t sp)
{
	struct si_thread *t = si_self;
	if (unlikely(t->in_hook))
		return loop_enter_cold(region, sp);
	t->in_hook = 1;
	barrier();
	uint64_t now;
	uint64_t *cell = loop_push(t, region, sp, &now);
	if (likely(cell != NULL))
		si_trace_put(t, now, t->top->node, SI_TEV_ENTER);
	barrier();
	t->in_hook = 0;
	return cell ? cell : loop_enter_cold(region, sp);
}

/* Loop enter: the function enter's fast path (see above), plus the
 * entry's cell (loop_push). */
SI_EXPORT HOT uint64_t *__selinst_loop_enter(const struct selinst_region *region)
{
	__asm__ goto("testl $%c1, %0\n\tjne %l[off]" :: "m"(region->reserved),
		     "i"(SELINST_REGION_THROTTLED | SELINST_REGION_FLOW) :: off);
	struct si_thread *t = si_self;
	__asm__ goto("cmpl $0, %0\n\tjne %l[cold]" :: "m"(si_hot.gate) :: cold);
	__asm__ goto("cmpl $0, %0\n\tjne %l[cold]" :: "m"(t->in_hook) :: cold);
	t->in_hook = 1;
	barrier();
	uint64_t now;
	uint64_t *cell = loop_push(t, region, (uintptr_t)__builtin_dwarf_cfa(), &now);
	barrier();
	t->in_hook = 0;
	if (likely(cell != NULL))
		return cell;
cold:
	if (__atomic_load_n(&si_hot.gate, __ATOMIC_RELAXED) == SI_GATE_TRACE)
		return loop_enter_traced(region, (uintptr_t)__builtin_dwarf_cfa());
	return loop_enter_cold(region, (uintptr_t)__builtin_dwarf_cfa());
off:
	if (region->reserved & SELINST_REGION_THROTTLED)
		return &no_cell;
	return loop_enter_cold(region, (uintptr_t)__builtin_dwarf_cfa());
}

/* The loop exit of REGION with ITERATIONS at NOW on T (as exit_on). */
static void loop_exit_on(struct si_thread *t, const struct selinst_region *region,
			 uint64_t iterations, uint64_t now)
{
	uint32_t d = si_depth(t);
	if (unlikely(d <= 1))
		return;
	if (likely(t->top->region == region)) {	/* the usual case */
		struct si_frame *f = t->top;
		if (si_tracing)	/* the count si_trace_left reads */
			*si_loop_cell(t, d - 1) = iterations;
		int64_t left = pop_frame(t, f, now);	/* first: see pop_frame */
		if (f->node->loop)
			si_loop_count(f->node->loop, iterations);
		if (unlikely(left < 0))
			si_throttle_check(f->node);
	} else {
		uint32_t i = si_frame_of(t, region);
		if (i >= 1) {
			*si_loop_cell(t, i) = iterations;	/* si_pop_to counts it */
			si_pop_to(t, i, now);
		}
	}
	if (si_tracing)
		si_trace_left(t, d, now);
}

/* Everything the loop exit fast path below leaves out: the monotonic
 * clock, not started, REGION not on top. */
__attribute__((noinline)) static void
loop_exit_cold(const struct selinst_region *region, uint64_t iterations)
{
	if (unlikely(!si_clock_tsc) && !ready())
		return;
	uint64_t now = si_now();
	struct si_thread *t = si_self;		/* si_nothread: in_hook is 1 */
	if (unlikely(t == &si_forked)) {	/* as in exit_cold */
		if (si_fork_exit(region, now, 1, iterations))
			return;
		t = si_self_settled();
	}
	if (unlikely(!si_guard_take(t)))
		return;
	loop_exit_on(t, region, iterations, now);
	si_guard_release(t);
}

void si_fork_replay(struct si_thread *t, const struct selinst_region *region, uint64_t now,
		    int loop, uint64_t iterations)
{
	if (loop)
		loop_exit_on(t, region, iterations, now);
	else
		exit_on(t, region, now);
}

/* The loop exit of a switched-off loop, or of the loop SELINST_ITERATE
 * names: its last iteration is recorded before the frame goes. */
__attribute__((noinline)) static void
loop_exit_flagged(const struct selinst_region *region, uint64_t iterations)
{
	if (region->reserved & SELINST_REGION_THROTTLED) {
		si_exit_switched_off(region, iterations);
		return;
	}
	struct si_thread *t = si_thread_get();
	if (t && si_guard_take(t)) {
		si_iterate_loop_exit(t, region, si_now());
		si_guard_release(t);
	}
	loop_exit_cold(region, iterations);
}

/* Loop exit while events are recorded (as exit_traced). */
HOT static void
loop_exit_traced(const struct selinst_region *region, uint64_t iterations)
{
	uint64_t now = si_rdtsc();
	struct si_thread *t = si_self;
	if (unlikely(t->in_hook)) {	/* no thread, or a nested hook */
		if (unlikely(t == &si_forked))
			loop_exit_cold(region, iterations);
		return;
	}
	t->in_hook = 1;
	barrier();
	struct si_frame *f = t->top;
	if (unlikely(f->region != region)) {
		barrier();
		t->in_hook = 0;
		return loop_exit_cold(region, iterations);
	}
	int64_t left = pop_frame(t, f, now);	/* first: see pop_frame */
	struct si_node *n = f->node;
	if (likely(n->loop != NULL))
		si_loop_count(n->loop, iterations);
	si_trace_put_loop_leave(t, now, n, iterations);
	barrier();
	t->in_hook = 0;
	if (unlikely(left < 0))
		si_throttle_check(n);
}

SI_EXPORT HOT void __selinst_loop_exit(const struct selinst_region *region, uint64_t iterations)
{
	__asm__ goto("testl $%c1, %0\n\tjne %l[off]" :: "m"(region->reserved),
		     "i"(SELINST_REGION_THROTTLED | SELINST_REGION_ITERATE) :: off);
	__asm__ goto("testl $%c1, %0\n\tjne %l[cold]" :: "m"(si_hot.gate),
		     "i"(SI_GATE_SLOW | SI_GATE_TRACE) :: cold);
	uint64_t now = si_rdtsc();
	struct si_thread *t = si_self;
	__asm__ goto("cmpl $0, %0\n\tjne %l[nested]" :: "m"(t->in_hook) :: nested);
	t->in_hook = 1;
	barrier();
	struct si_frame *f = t->top;
	if (unlikely(f->region != region)) {
		barrier();
		t->in_hook = 0;
		goto cold;
	}
	struct si_tally *y = pop_frame_times(t, f, now);	/* first: see pop_frame */
	struct si_node *n = f->node;
	if (likely(n->loop != NULL))
		si_loop_count(n->loop, iterations);
	barrier();
	t->in_hook = 0;
	COUNT_DOWN(y, n);
	return;
nested:
	if (unlikely(t == &si_forked))	/* as in __selinst_exit */
		loop_exit_cold(region, iterations);
	return;
cold:
	if (__atomic_load_n(&si_hot.gate, __ATOMIC_RELAXED) == SI_GATE_TRACE)
		loop_exit_traced(region, iterations);
	else
		loop_exit_cold(region, iterations);
	return;
off:
	loop_exit_flagged(region, iterations);
}

/* After setjmp/sigsetjmp returns: drop the regions entered by hooks whose
 * caller's frame lies below (deeper than) the frame calling us now.  A
 * frame's address is the canonical frame address (CFA) of the hook, i.e.
 * the caller's stack pointer at the call, recorded at enter time. */
SI_EXPORT __attribute__((noinline)) void __selinst_setjmp_return(void)
{
	if (unlikely(!si_clock_tsc) && !ready())
		return;
	uint64_t now = si_now();
	struct si_thread *t = si_thread_get();
	if (unlikely(!t))
		return;
	uintptr_t here = (uintptr_t)__builtin_dwarf_cfa();
	/* We may have been longjmp'd to out of an interrupted hook (a signal
	 * handler that siglongjmp'd): the hook is gone, so is its flag, and
	 * what it left half done is put right. */
	int interrupted = t->in_hook;
	t->in_hook = 1;
	barrier();
	if (unlikely(interrupted))
		si_repair_interrupted(t);
	uint32_t d = si_depth(t);
	uint32_t before = d;
	while (d > 1 && t->stack[d - 1].sp < here)
		d--;
	si_pop_to(t, d, now);
	if (si_tracing)
		si_trace_left(t, before, now);
	barrier();
	t->in_hook = 0;
}
