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
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "internal.h"

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

static size_t mhash(const char *p, size_t mask)
{
	return (size_t)(((uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull) >> 24) & mask;
}

/* ---- the process's manual names: text -> descriptor -------------------- */
/* One descriptor per distinct text, made on first sight and never freed
 * (names are few; a program naming a region after each of a million
 * values would want a loop region instead).  Taken under names_lock from
 * a thread's cache miss only; memory from mmap (async-signal-safe, like
 * the hooks; a signal handler's own manual region is dropped while its
 * thread is in here, see in_hook). */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static struct selinst_region **names;
static size_t names_cap, names_used;
static char *names_arena, *names_arena_end;

static size_t text_hash(const char *s, size_t mask)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (size_t)(h ^ (h >> 29)) & mask;
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

static int names_grow(void)
{
	size_t ncap = names_cap ? names_cap * 2 : 256;
	struct selinst_region **nt = si_mmap(ncap * sizeof *nt);
	if (!nt)
		return -1;
	for (size_t i = 0; i < names_cap; i++) {
		if (!names[i])
			continue;
		size_t j = text_hash(names[i]->name, ncap - 1);
		while (nt[j])
			j = (j + 1) & (ncap - 1);
		nt[j] = names[i];
	}
	if (names)
		munmap(names, names_cap * sizeof *names);	/* read under the lock only */
	names = nt;
	names_cap = ncap;
	return 0;
}

static const struct selinst_region *name_desc_locked(const char *name)
{
	if ((names_used + 1) * 2 > names_cap && names_grow() < 0)
		return NULL;
	size_t j = text_hash(name, names_cap - 1);
	for (; names[j]; j = (j + 1) & (names_cap - 1))
		if (!strcmp(names[j]->name, name))
			return names[j];
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
	names[j] = d;
	names_used++;
	return d;
}

static const struct selinst_region *name_desc(const char *name)
{
	pthread_mutex_lock(&names_lock);
	const struct selinst_region *d = name_desc_locked(name);
	pthread_mutex_unlock(&names_lock);
	return d;
}

/* In a forked child: another thread may have held the lock at the fork. */
void si_control_after_fork(void)
{
	pthread_mutex_init(&names_lock, NULL);
}

/* ---- a thread's cache: name pointer -> descriptor ----------------------- */

static int manual_grow(struct si_thread *t)
{
	size_t ncap = t->manual_cap ? t->manual_cap * 2 : 64;
	struct si_manual *nm = si_mmap(ncap * sizeof *nm);
	if (!nm)
		return -1;
	for (size_t i = 0; i < t->manual_cap; i++) {
		if (!t->manual[i].name)
			continue;
		size_t j = mhash(t->manual[i].name, ncap - 1);
		while (nm[j].name)
			j = (j + 1) & (ncap - 1);
		nm[j] = t->manual[i];
	}
	t->manual = nm;	/* old table left mapped (signal safety) */
	t->manual_cap = ncap;
	return 0;
}

/* The descriptor of NAME's text.  A pointer seen before with the same
 * text is a cache hit; a reused buffer holding another text finds that
 * text's descriptor (one per text: two names, two regions, however often
 * the buffer changes) and the cache entry follows it. */
static const struct selinst_region *manual_desc(struct si_thread *t, const char *name)
{
	if (!name)
		return NULL;
	if (t->manual) {
		size_t j = mhash(name, t->manual_cap - 1);
		for (; t->manual[j].name; j = (j + 1) & (t->manual_cap - 1))
			if (t->manual[j].name == name && !strcmp(t->manual[j].desc->name, name))
				return t->manual[j].desc;
	}
	if ((t->manual_used + 1) * 2 > t->manual_cap && manual_grow(t) < 0)
		return NULL;
	const struct selinst_region *d = name_desc(name);
	if (!d)
		return NULL;
	size_t j = mhash(name, t->manual_cap - 1);
	while (t->manual[j].name && t->manual[j].name != name)
		j = (j + 1) & (t->manual_cap - 1);
	if (!t->manual[j].name)
		t->manual_used++;
	t->manual[j].name = name;
	t->manual[j].desc = (struct selinst_region *)d;
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
	if (d)
		si_enter(t, d, (uintptr_t)__builtin_dwarf_cfa());
	si_guard_release(t);
}

SI_EXPORT void selinst_region_end(const char *name)
{
	uint64_t now = si_now();
	struct si_thread *t = si_thread_get();
	if (!t || !si_guard_take(t))
		return;
	const struct selinst_region *d = manual_desc(t, name);
	if (d)
		si_exit(t, d, now);
	si_guard_release(t);
}
