/* SPDX-License-Identifier: MIT */
/*
 * map.c - the runtime's one hash table: open addressing, linear probing,
 * two-word keys, one-word values, memory from mmap.
 *
 * Used for each thread's child index ((parent node, region) -> node,
 * thread.c), its manual-name cache (name pointer -> descriptor) and the
 * process's manual names (text hash -> descriptor, control.c), and the
 * writer's region ids (descriptor -> id, output.c).
 *
 * Signal safety, for the per-thread tables read by hooks that a signal
 * handler may run: a slot is in use once its first key word is nonzero,
 * and that word is stored last (after a compiler barrier), so a reader
 * never pairs one key with another's value.  A grown table is filled
 * completely before the one pointer that publishes it is stored, with
 * signals blocked; the old table is unmapped afterwards unless the caller
 * asks to keep it (a handler may still be reading it).
 */
#include "internal.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

#define SI_MAP_FIRST 1024	/* slots of a new table */

static size_t map_bytes(size_t slots)
{
	return sizeof(struct si_map) + slots * sizeof(struct si_mslot);
}

/* Index of the first slot where key (A, B) can be: the table's home. */
static size_t slot_of(const struct si_map *m, uintptr_t a, uintptr_t b)
{
	uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ull ^ ((uint64_t)b * 0xC2B2AE3D27D4EB4Full);
	h ^= h >> 29;
	return (size_t)h & m->mask;
}

struct si_mslot *si_map_find(const struct si_map *m, uintptr_t a, uintptr_t b,
			     si_map_match_fn *match, const void *arg)
{
	if (!m)
		return NULL;
	for (size_t j = slot_of(m, a, b); m->slot[j].a; j = (j + 1) & m->mask) {
		struct si_mslot *s = (struct si_mslot *)&m->slot[j];
		if (s->a == a && s->b == b && (!match || match(s, arg)))
			return s;
	}
	return NULL;
}

/* A free slot for (A, B) in M (one exists: M is at most half full). */
static struct si_mslot *free_slot(struct si_map *m, uintptr_t a, uintptr_t b)
{
	size_t j = slot_of(m, a, b);
	while (m->slot[j].a)
		j = (j + 1) & m->mask;
	return &m->slot[j];
}

static int grow(struct si_map **mp, unsigned flags)
{
	struct si_map *old = *mp;
	size_t slots = old ? (old->mask + 1) * 2 : SI_MAP_FIRST;
	struct si_map *nm = si_mmap(map_bytes(slots));
	if (!nm)
		return -1;
	nm->mask = slots - 1;
	if (old) {
		for (size_t i = 0; i <= old->mask; i++)
			if (old->slot[i].a)
				*free_slot(nm, old->slot[i].a, old->slot[i].b) = old->slot[i];
		nm->used = old->used;
	}
	sigset_t all, saved;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	*mp = nm;
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (old && !(flags & SI_MAP_KEEP_OLD)) {
		int e = errno;
		munmap(old, map_bytes(old->mask + 1));
		errno = e;
	}
	return 0;
}

struct si_mslot *si_map_add(struct si_map **mp, uintptr_t a, uintptr_t b, uintptr_t value,
			    unsigned flags)
{
	struct si_map *m = *mp;
	if ((!m || (m->used + 1) * 2 > m->mask + 1) && grow(mp, flags) < 0)
		return NULL;
	m = *mp;
	struct si_mslot *s = free_slot(m, a, b);
	s->b = b;
	s->value = value;
	barrier();
	s->a = a;	/* last: the slot is in use from here */
	m->used++;
	return s;
}

void si_map_clear(struct si_map *m)
{
	if (!m)
		return;
	memset(m->slot, 0, (m->mask + 1) * sizeof m->slot[0]);
	m->used = 0;
}

void si_map_free(struct si_map *m)
{
	if (m)
		munmap(m, map_bytes(m->mask + 1));
}
