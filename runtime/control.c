/*
 * control.c - the user-facing control API: pause/resume, dump, manual
 * regions (selinst_region_begin/end).
 *
 * Manual regions get a descriptor made on the fly the first time a thread
 * sees a NAME pointer, cached per thread by that pointer (and checked
 * against the text, so a reused buffer is not mistaken for the old name;
 * the text is copied, so the name need not outlive the call); the writer merges
 * descriptors with equal (kind, name, file, line), so the same name from
 * two threads or two string copies is one region.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
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
	if ((t->manual_used + 1) * 2 > t->manual_cap) {
		size_t ncap = t->manual_cap ? t->manual_cap * 2 : 64;
		struct si_manual *nm = si_mmap(ncap * sizeof *nm);
		if (!nm)
			return NULL;
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
	}
	size_t len = strlen(name);
	struct selinst_region *d = si_arena_alloc(t, sizeof *d + len + 1);
	if (!d)
		return NULL;
	char *copy = (char *)(d + 1);
	memcpy(copy, name, len + 1);
	d->abi_version = SELINST_ABI_VERSION;
	d->kind = SELINST_KIND_MANUAL;
	d->name = copy;
	d->file = "";
	size_t j = mhash(name, t->manual_cap - 1);
	while (t->manual[j].name && t->manual[j].name != name)
		j = (j + 1) & (t->manual_cap - 1);
	if (t->manual[j].name)	/* same pointer, new text: replace */
		t->manual_used--;
	t->manual[j].name = name;
	t->manual[j].desc = d;
	t->manual_used++;
	return d;
}

SI_EXPORT void selinst_region_begin(const char *name)
{
	struct si_thread *t = si_thread_get();
	if (!t && !(t = si_thread_init()))
		return;
	if (t->in_hook)
		return;
	t->in_hook = 1;
	barrier();
	const struct selinst_region *d = manual_desc(t, name);
	if (d)
		si_enter(t, d, (uintptr_t)__builtin_dwarf_cfa());
	barrier();
	t->in_hook = 0;
}

SI_EXPORT void selinst_region_end(const char *name)
{
	uint64_t now = si_now();
	struct si_thread *t = si_thread_get();
	if (!t || t->in_hook)
		return;
	t->in_hook = 1;
	barrier();
	const struct selinst_region *d = manual_desc(t, name);
	if (d)
		si_exit(t, d, now);
	barrier();
	t->in_hook = 0;
}
