/* SPDX-License-Identifier: MIT */
/*
 * control.c - the user-facing control API: pause/resume, dump, manual
 * regions (selinst_region_begin/end).
 *
 * Manual regions get one descriptor per distinct text in the process,
 * made the first time the text is seen (the text is copied, so the name
 * need not outlive the call), and each thread caches it by the NAME
 * pointer, checked against the text: a string literal costs a pointer
 * compare and a strcmp, a reused buffer finds its current text's
 * descriptor, so the same text is always the same region and memory stays
 * constant however often a buffer is refilled.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "internal.h"
#include "output_iterations.h"

SI_EXPORT void selinst_pause(void)
{
	__atomic_add_fetch(&si_hot.gate, SI_GATE_PAUSE, __ATOMIC_RELAXED);
}

SI_EXPORT void selinst_resume(void)
{
	int v = __atomic_load_n(&si_hot.gate, __ATOMIC_RELAXED);
	while (v >= SI_GATE_PAUSE &&
	       !__atomic_compare_exchange_n(&si_hot.gate, &v, v - SI_GATE_PAUSE, 0,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

SI_EXPORT int selinst_dump(const char *path)
{
	si_global_init();
	return si_write_profile(path, 0, 0, 0);
}

/* ---- the process's manual names: text -> descriptor -------------------- */
/* One descriptor per distinct text, made on first sight and never freed
 * (names are few; a program naming a region after each of a million
 * values would want a loop region instead).  Taken under names_lock from
 * a thread's cache miss only; memory from mmap (async-signal-safe, like
 * the hooks; a signal handler's own manual region is dropped while its
 * thread is in here, see in_hook). */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static struct si_map *names;	/* (text hash, 0) -> descriptor */
static char *names_arena, *names_arena_end;

/* FNV-1a of the text; never 0 (a map key's first word is nonzero). */
static uintptr_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (uintptr_t)(h | 1);
}

/* The slot's descriptor names the text ARG. */
static int same_text(const struct si_mslot *s, const void *arg)
{
	return !strcmp(((const struct selinst_region *)s->value)->name, arg);
}

static void *names_alloc(size_t need)
{
	need = (need + 15) & ~(size_t)15;
	if (names_arena_end - names_arena < (ptrdiff_t)need) {
		size_t sz = need > (64u << 10) ? need : (64u << 10);
		char *b = si_mmap(sz);
		if (!b)
			return NULL;
		names_arena = b;
		names_arena_end = b + sz;
	}
	void *p = names_arena;
	names_arena += need;
	return p;
}

static const struct selinst_region *name_desc_locked(const char *name)
{
	uintptr_t h = text_hash(name);
	struct si_mslot *s = si_map_find(names, h, 0, same_text, name);
	if (s)
		return (const struct selinst_region *)s->value;
	size_t len = strlen(name);
	struct selinst_region *d = names_alloc(sizeof *d + len + 1);
	if (!d)
		return NULL;
	char *copy = (char *)(d + 1);
	memcpy(copy, name, len + 1);
	d->abi_version = SELINST_ABI_VERSION;
	d->kind = SELINST_KIND_MANUAL;
	d->name = copy;
	d->file = "";
	/* Read under the lock only: the old table can go when it grows. */
	if (!si_map_add(&names, h, 0, (uintptr_t)d, 0))
		return NULL;
	return d;
}

static const struct selinst_region *name_desc(const char *name)
{
	pthread_mutex_lock(&names_lock);
	const struct selinst_region *d = name_desc_locked(name);
	pthread_mutex_unlock(&names_lock);
	return d;
}

/* In a forked child: another thread may have held the lock at the fork.
 * An assignment, not pthread_mutex_init (a parent that never called that
 * would bind it lazily in every child: _dl_fixup, a few us), and only
 * where the lock is not as initialised (a normal mutex returns to that
 * when unlocked): the write costs the child a page copy. */
void si_control_after_fork(void)
{
	static const pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
	const unsigned char *a = (const unsigned char *)&names_lock;
	const unsigned char *b = (const unsigned char *)&unlocked;
	for (size_t i = 0; i < sizeof names_lock; i++)
		if (a[i] != b[i]) {
			names_lock = unlocked;
			return;
		}
}

/* ---- a thread's cache: name pointer -> descriptor ----------------------- */

/* The descriptor of NAME's text.  A pointer seen before with the same
 * text is a cache hit; a reused buffer holding another text finds that
 * text's descriptor (one per text: two names, two regions, however often
 * the buffer changes) and the cache entry follows it. */
static const struct selinst_region *manual_desc(struct si_thread *t, const char *name)
{
	if (!name)
		return NULL;
	struct si_mslot *s = si_map_find(t->manual, (uintptr_t)name, 0, NULL, NULL);
	if (s && same_text(s, name))
		return (const struct selinst_region *)s->value;
	const struct selinst_region *d = name_desc(name);
	if (!d)
		return NULL;
	if (s)		/* the buffer now holds another text */
		s->value = (uintptr_t)d;
	else if (!si_map_add(&t->manual, (uintptr_t)name, 0, (uintptr_t)d, SI_MAP_KEEP_OLD))
		return NULL;	/* old table left mapped: signal safety */
	return d;
}

SI_EXPORT void selinst_region_begin(const char *name)
{
	struct si_thread *t = si_thread_get();
	if (!t && !(t = si_thread_init()))
		return;
	if (!si_guard_take(t))
		return;
	const struct selinst_region *d = manual_desc(t, name);
	uint32_t depth = si_depth(t);
	if (d)
		si_enter(t, d, (uintptr_t)__builtin_dwarf_cfa());
	if (d && si_tracing)
		si_trace_entered(t, depth);
	si_guard_release(t);
}

SI_EXPORT void selinst_region_end(const char *name)
{
	uint64_t now = si_now();
	struct si_thread *t = si_thread_get();
	if (!t || !si_guard_take(t))
		return;
	const struct selinst_region *d = manual_desc(t, name);
	uint32_t depth = si_depth(t);
	if (d)
		si_exit(t, d, now);
	if (d && si_tracing)
		si_trace_left(t, depth, now);
	si_guard_release(t);
}

/* Phases: a manual region whose each activation is one iteration of the
 * phase (iterate.c records what it cost). */
SI_EXPORT void selinst_phase_begin(const char *name)
{
	si_pack_init();	/* phases record series: zlib packs them at the write */
	struct si_thread *t = si_thread_get();
	if (!t && !(t = si_thread_init()))
		return;
	if (!si_guard_take(t))
		return;
	const struct selinst_region *d = manual_desc(t, name);
	if (d) {
		uint32_t depth = si_depth(t);
		si_enter(t, d, (uintptr_t)__builtin_dwarf_cfa());
		if (si_depth(t) > depth && t->top->region == d)
			si_iterate_phase_begun(t, si_now());
	}
	si_guard_release(t);
}

/* An end that is not the innermost open region's (unbalanced, nested
 * wrongly, or begun in another thread) is reported once and ignored: the
 * regions of the thread stay as they are. */
SI_EXPORT void selinst_phase_end(const char *name)
{
	uint64_t now = si_now();
	struct si_thread *t = si_thread_get();
	static int warned;
	if (t && !si_guard_take(t))
		return;
	const struct selinst_region *d = t ? manual_desc(t, name) : NULL;
	if (d && t->top->region == d) {
		si_iterate_phase_ending(t, now);
		si_exit(t, d, now);
	} else if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED)) {
		fprintf(stderr, "selinst: selinst_phase_end(\"%s\"): the phase is not the "
			"innermost open region of this thread (no begin, begun in another "
			"thread, or another region still open); ignored (reported once)\n",
			name ? name : "(null)");
	}
	if (t)
		si_guard_release(t);
}
/* libselinst-mpi's bytes, added to the node of REGION's open activation
 * when it is the innermost one (the layer calls this between its enter
 * and exit hooks; a paused or dropped activation has no node to add to). */
SI_EXPORT void __selinst_mpi_bytes(const struct selinst_region *region, uint64_t sent,
				   uint64_t received)
{
	struct si_thread *t = si_thread_get();
	if (!t || !si_guard_take(t))
		return;
	struct si_node *n = t->top->node;
	if (si_depth(t) > 1 && t->top->region == region && n != &t->paused && n->loop) {
		n->loop->sent += sent;
		n->loop->received += received;
	}
	si_guard_release(t);
}
