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

unsigned si_hist_bucket(uint64_t n)
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
	uint32_t d = t->depth;
	if (unlikely(d >= t->cap) && !si_grow_stack(t))
		return;
	struct si_frame *f = &t->stack[d];
	struct si_node *n = &t->paused;
	if (likely(!__atomic_load_n(&si_paused, __ATOMIC_RELAXED))) {
		struct si_node *cur = t->stack[d - 1].node;
		if (unlikely(cur == &t->paused))
			cur = context_below(t, d - 1);	/* parent entered while paused */
		n = cur->mru;
		if (unlikely(!n || n->region != r)) {
			n = si_lookup_slow(t, cur, r);
			if (unlikely(!n))
				return;		/* bad descriptor: ignored */
		}
	}
	n->calls++;
	n->active++;
	f->region = r;
	f->node = n;
	f->child = 0;
	f->sp = sp;
	t->depth = d + 1;
	f->start = si_now();
}

/* Close the top frame at NOW. */
static inline void pop_one(struct si_thread *t, uint64_t now)
{
	uint32_t d = t->depth - 1;
	struct si_frame *f = &t->stack[d];
	struct si_node *n = f->node;
	uint64_t dur = now - f->start;
	n->self += dur - f->child;
	if (likely(--n->active == 0))
		n->incl += dur;
	t->stack[d - 1].child += dur;
	t->depth = d;
}

void si_pop_to(struct si_thread *t, uint32_t depth, uint64_t now)
{
	while (t->depth > depth)
		pop_one(t, now);
}

__attribute__((noinline)) static void
exit_slow(struct si_thread *t, const struct selinst_region *r, uint64_t now)
{
	/* R not on top: close the regions above it (loops left by return or
	 * exception, callees skipped by unwinding).  Not on the stack at all
	 * (dropped by a longjmp resync, or an ignored descriptor): nothing. */
	for (uint32_t i = t->depth - 1; i >= 1; i--) {
		if (t->stack[i].region == r) {
			si_pop_to(t, i, now);
			return;
		}
	}
}

__attribute__((always_inline)) inline void
si_exit(struct si_thread *t, const struct selinst_region *r, uint64_t now)
{
	uint32_t d = t->depth;
	if (likely(d > 1 && t->stack[d - 1].region == r))
		pop_one(t, now);
	else if (d > 1)
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
	struct si_thread *t = si_self;
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
	struct si_thread *t = si_self;
	if (unlikely(!t) || unlikely(t->in_hook))
		return;
	t->in_hook = 1;
	barrier();
	si_exit(t, region, now);
	barrier();
	t->in_hook = 0;
}

/* Fast paths.  The hooks are built without a frame pointer and call
 * nothing on the way (cold cases and the monotonic clock are tail calls),
 * so they need no stack frame of their own. */
#define HOT __attribute__((noinline, optimize("omit-frame-pointer")))

/* Enter: the child is the one cached on the current node.  Reads come
 * before in_hook is set; a signal handler running between them leaves the
 * stack as it found it, and a cached child stays valid for (cur, region),
 * so nothing read can go stale in a way that matters. */
SI_EXPORT HOT void __selinst_enter(const struct selinst_region *region)
{
	uintptr_t sp = (uintptr_t)__builtin_dwarf_cfa();
	if (unlikely(!si_clock_tsc))	/* monotonic clock, or not started */
		return enter_cold(region, sp);
	struct si_thread *t = si_self;
	if (unlikely(!t) || unlikely(t->in_hook))
		return enter_cold(region, sp);
	uint32_t d = t->depth;
	struct si_frame *stk = t->stack;
	struct si_node *n = stk[d - 1].node->mru;
	if (unlikely(d >= t->cap) || unlikely(__atomic_load_n(&si_paused, __ATOMIC_RELAXED)) ||
	    unlikely(!n) || unlikely(n->region != region))
		return enter_cold(region, sp);
	t->in_hook = 1;
	barrier();
	n->calls++;
	n->active++;
	struct si_frame *f = &stk[d];
	f->region = region;
	f->node = n;
	f->child = 0;
	f->sp = sp;
	t->depth = d + 1;
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	f->start = ((uint64_t)hi << 32) | lo;
	barrier();
	t->in_hook = 0;
}

__attribute__((noinline)) static void exit_mono(const struct selinst_region *region)
{
	if (!ready())
		return;
	exit_cold(region, si_now());
}

/* Exit: REGION is on top. */
SI_EXPORT HOT void __selinst_exit(const struct selinst_region *region)
{
	if (unlikely(!si_clock_tsc))
		return exit_mono(region);
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	uint64_t now = ((uint64_t)hi << 32) | lo;
	struct si_thread *t = si_self;
	if (unlikely(!t) || unlikely(t->in_hook))
		return;
	uint32_t d = t->depth - 1;
	struct si_frame *f = &t->stack[d];
	if (unlikely(d == 0) || unlikely(f->region != region))
		return exit_cold(region, now);
	t->in_hook = 1;
	barrier();
	struct si_node *n = f->node;
	uint64_t dur = now - f->start;
	n->self += dur - f->child;
	if (likely(--n->active == 0))
		n->incl += dur;
	f[-1].child += dur;
	t->depth = d;
	barrier();
	t->in_hook = 0;
}

SI_EXPORT __attribute__((noinline)) void __selinst_loop_enter(const struct selinst_region *region)
{
	if (unlikely(!si_clock_tsc) && !ready())
		return;
	struct si_thread *t = si_self;
	if (unlikely(!t) && !(t = si_thread_init()))
		return;
	if (unlikely(t->in_hook))
		return;
	t->in_hook = 1;
	barrier();
	si_enter(t, region, (uintptr_t)__builtin_dwarf_cfa());
	barrier();
	t->in_hook = 0;
}

SI_EXPORT __attribute__((noinline)) void
__selinst_loop_exit(const struct selinst_region *region, uint64_t iterations)
{
	if (unlikely(!si_clock_tsc) && !ready())
		return;
	uint64_t now = si_now();
	struct si_thread *t = si_self;
	if (unlikely(!t) || unlikely(t->in_hook))
		return;
	t->in_hook = 1;
	barrier();
	uint32_t d = t->depth;
	if (likely(d > 1)) {
		uint32_t i = d - 1;
		while (i >= 1 && t->stack[i].region != region)
			i--;
		if (i >= 1) {
			struct si_node *n = t->stack[i].node;
			if (n->loop) {
				n->loop->iterations += iterations;
				n->loop->hist[si_hist_bucket(iterations)]++;
			}
			si_pop_to(t, i, now);
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
	struct si_thread *t = si_self;
	if (unlikely(!t))
		return;
	uintptr_t here = (uintptr_t)__builtin_dwarf_cfa();
	/* We may have been longjmp'd to out of an interrupted hook (a signal
	 * handler that siglongjmp'd): the hook is gone, so is its flag. */
	t->in_hook = 1;
	barrier();
	uint32_t d = t->depth;
	while (d > 1 && t->stack[d - 1].sp < here)
		d--;
	si_pop_to(t, d, now);
	barrier();
	t->in_hook = 0;
}
