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
 * updated.
 */
#include "internal.h"

extern char **environ;

static unsigned hist_bucket(uint64_t n)
{
	if (n < 16)
		return (unsigned)n;
	unsigned k = 63u - (unsigned)__builtin_clzll(n);	/* 2^k <= n */
	return 16 + (k - 4);
}

/* The calling context of a frame entered while paused: the nearest
 * counted frame below it (the root at worst). */
__attribute__((noinline)) static struct si_node *context_below(struct si_thread *t, uint32_t i)
{
	while (i > 0 && t->stack[i].node == &t->paused)
		i--;
	return i > 0 ? t->stack[i].node : &t->root;
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
		n = cur->mru;
		if (unlikely(n->region != r)) {
			n = si_lookup_slow(t, cur, r);
			if (unlikely(!n))
				return;		/* bad descriptor: ignored */
		}
	}
	n->calls++;
	n->active++;
	f->region = r;
	f->node = n;
	f->sp = sp;
	t->top = f;
	f->start = si_now();
}

/* Close frame F, the top one, at NOW.  Self time: F's duration goes to
 * its node and comes off the node of the frame below (see si_frame). */
static inline void pop_frame(struct si_thread *t, struct si_frame *f, uint64_t now)
{
	struct si_node *n = f->node;
	uint64_t dur = now - f->start;
	__asm__("" : "+r"(dur));	/* one register: GCC would also compute start - now */
	n->self += dur;
	f[-1].node->self -= dur;
	if (likely(--n->active == 0))
		n->incl += dur;
	t->top = f - 1;
}

void si_loop_count(struct si_loop *l, uint64_t n)
{
	l->iterations += n;
	l->hist[hist_bucket(n)]++;
}

/* Close the frames above DEPTH at NOW.  A loop frame gets its count from
 * its cell: what the loop's exit hook put there, or, for a loop left
 * without one (longjmp, thread end), what the loop stored before its
 * last call. */
void si_pop_to(struct si_thread *t, uint32_t depth, uint64_t now)
{
	while (si_depth(t) > depth) {
		struct si_frame *f = t->top;
		if (f->node->loop)
			si_loop_count(f->node->loop, *si_loop_cell(t, (uint32_t)(f - t->stack)));
		pop_frame(t, f, now);
	}
}

__attribute__((noinline)) static void
exit_slow(struct si_thread *t, const struct selinst_region *r, uint64_t now)
{
	/* R not on top: close the regions above it (loops left by return or
	 * exception, callees skipped by unwinding).  Not on the stack at all
	 * (dropped by a longjmp resync, or an ignored descriptor): nothing. */
	for (uint32_t i = si_depth(t) - 1; i >= 1; i--) {
		if (t->stack[i].region == r) {
			si_pop_to(t, i, now);
			return;
		}
	}
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

__attribute__((noinline)) static void
enter_cold(const struct selinst_region *region, uintptr_t sp)
{
	if (!ready())
		return;
	struct si_thread *t = si_thread_get();
	if (unlikely(!t) && !(t = si_thread_init()))
		return;
	if (unlikely(t->in_hook))
		return;
	t->in_hook = 1;
	barrier();
	si_enter(t, region, sp);
	barrier();
	t->in_hook = 0;
}

__attribute__((noinline)) static void
exit_cold(const struct selinst_region *region, uint64_t now)
{
	if (!ready())
		return;
	struct si_thread *t = si_self;		/* si_nothread: in_hook is 1 */
	if (unlikely(t->in_hook))
		return;
	t->in_hook = 1;
	barrier();
	si_exit(t, region, now);
	barrier();
	t->in_hook = 0;
}

/* Fast paths.  The hooks are built without a frame pointer and call
 * nothing on the way (cold cases and the monotonic clock are tail calls),
 * so they need no stack frame of their own.  Each reads one global word
 * (si_hot.gate: started, TSC clock, not paused), one TLS pointer (never
 * NULL: &si_nothread, whose in_hook is 1, before the thread's first hook)
 * and its own thread's memory.  The root frame's region is
 * si_root_region and a fresh node's child cache is si_no_child, so "the
 * region on top is ours" and "the cached child is ours" are one compare
 * each, with no depth or NULL test. */
#define HOT __attribute__((noinline, optimize("omit-frame-pointer", "no-tree-slp-vectorize")))

/* Enter: the child is the one cached on the current node.  Reads come
 * before in_hook is set; a signal handler running between them leaves the
 * stack as it found it, and a cached child stays valid for (cur, region),
 * so nothing read can go stale in a way that matters.  rdtsc comes last,
 * after the bookkeeping, so that it is not counted in the region; it is
 * not ordered against the stores before it (no lfence/rdtscp: that would
 * cost more than the few cycles of skew it removes). */
SI_EXPORT HOT void __selinst_enter(const struct selinst_region *region)
{
	struct si_thread *t = si_self;
	/* gate == 0 (started, TSC, not paused) and in_hook == 0, each tested
	 * in place (compare with memory and branch): the compiler would load
	 * them into a register first, the gate with an atomic load. */
	__asm__ goto("cmpl $0, %0\n\tjne %l[cold]" :: "m"(si_hot.gate) :: cold);
	__asm__ goto("cmpl $0, %0\n\tjne %l[cold]" :: "m"(t->in_hook) :: cold);
	struct si_frame *f = t->top;
	struct si_node *n = f->node->mru;
	f++;
	if (unlikely(n->region != region) || unlikely(f >= t->end))
		goto cold;
	t->in_hook = 1;
	barrier();
	n->calls++;
	n->active++;
	f->region = region;
	f->node = n;
	f->sp = (uintptr_t)__builtin_dwarf_cfa();
	t->top = f;
	f->start = si_rdtsc();
	barrier();
	t->in_hook = 0;
	return;
cold:
	enter_cold(region, (uintptr_t)__builtin_dwarf_cfa());
}

__attribute__((noinline)) static void exit_mono(const struct selinst_region *region)
{
	if (!ready())
		return;
	exit_cold(region, si_now());
}

/* Exit: REGION is on top.  rdtsc comes first, before the bookkeeping. */
SI_EXPORT HOT void __selinst_exit(const struct selinst_region *region)
{
	__asm__ goto("testl $%c1, %0\n\tjne %l[mono]" :: "m"(si_hot.gate), "i"(SI_GATE_SLOW) :: mono);
	uint64_t now = si_rdtsc();
	struct si_thread *t = si_self;
	__asm__ goto("cmpl $0, %0\n\tjne %l[nested]" :: "m"(t->in_hook) :: nested);
	struct si_frame *f = t->top;
	if (unlikely(f->region != region))
		return exit_cold(region, now);
	t->in_hook = 1;
	barrier();
	pop_frame(t, f, now);
	barrier();
	t->in_hook = 0;
nested:
	return;
mono:
	exit_mono(region);
}

/* Where a loop whose frame was not pushed (runtime not started, a hook
 * interrupted by a signal handler, a bad descriptor) stores its count. */
static __thread __attribute__((tls_model("initial-exec"))) uint64_t no_cell;

SI_EXPORT __attribute__((noinline)) uint64_t *__selinst_loop_enter(const struct selinst_region *region)
{
	if (unlikely(!si_clock_tsc) && !ready())
		return &no_cell;
	struct si_thread *t = si_thread_get();
	if (unlikely(!t) && !(t = si_thread_init()))
		return &no_cell;
	if (unlikely(t->in_hook))
		return &no_cell;
	t->in_hook = 1;
	barrier();
	uint64_t *cell = &no_cell;
	uint32_t d = si_depth(t);
	si_enter(t, region, (uintptr_t)__builtin_dwarf_cfa());
	if (si_depth(t) > d) {
		cell = si_loop_cell(t, d);
		*cell = 0;
	}
	barrier();
	t->in_hook = 0;
	return cell;
}

SI_EXPORT __attribute__((noinline)) void
__selinst_loop_exit(const struct selinst_region *region, uint64_t iterations)
{
	if (unlikely(!si_clock_tsc) && !ready())
		return;
	uint64_t now = si_now();
	struct si_thread *t = si_self;		/* si_nothread: in_hook is 1 */
	if (unlikely(t->in_hook))
		return;
	t->in_hook = 1;
	barrier();
	uint32_t d = si_depth(t);
	if (likely(d > 1)) {
		if (likely(t->top->region == region)) {	/* the usual case */
			if (t->top->node->loop)
				si_loop_count(t->top->node->loop, iterations);
			pop_frame(t, t->top, now);
		} else {
			uint32_t i = d - 1;
			while (i >= 1 && t->stack[i].region != region)
				i--;
			if (i >= 1) {
				*si_loop_cell(t, i) = iterations;	/* si_pop_to counts it */
				si_pop_to(t, i, now);
			}
		}
	}
	barrier();
	t->in_hook = 0;
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
	 * handler that siglongjmp'd): the hook is gone, so is its flag. */
	t->in_hook = 1;
	barrier();
	uint32_t d = si_depth(t);
	while (d > 1 && t->stack[d - 1].sp < here)
		d--;
	si_pop_to(t, d, now);
	barrier();
	t->in_hook = 0;
}
