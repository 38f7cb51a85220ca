/* SPDX-License-Identifier: MIT */
/*
 * dlclose.c - keep the regions of a library that dlclose unloads.
 *
 * Region descriptors live in the object that holds the code, and nodes
 * point to them; once dlclose unmaps an instrumented library, the writer
 * would read freed memory.  dlclose is defined here, in the shared
 * library only (like exec.c): before libc's dlclose runs, every node
 * (of live threads and of ended ones) whose descriptor lies in the closed
 * object or in an object loaded after it (what the close may unload with
 * it) is pointed at a copy of the descriptor, strings included, made once
 * per descriptor and never freed; the object's destructors, which run
 * inside libc's dlclose, are caught by __cxa_finalize (below).  The writer merges regions by (kind,
 * name, file, line), so a library loaded again, wherever it lands, maps
 * to the same regions as before.  Hooks of a thread that runs the library
 * again find no node for the new descriptor and make one; the writer
 * merges it with the kept one.  If the library stays loaded (another
 * handle holds it), only that extra node per context is the cost.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct range { uintptr_t lo, hi; };
struct ranges {
	uintptr_t base;		/* load address of the closed object, or */
	const char *name;
	uintptr_t inside;	/* an address in the one object wanted */
	int found;		/* reached the wanted object in load order */
	struct range *r;
	size_t n, cap;
};

static int contains(const struct dl_phdr_info *info, uintptr_t a)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && a >= lo && a < lo + ph->p_memsz)
			return 1;
	}
	return 0;
}

/* Segments of the closed object and of every object after it, or of the
 * object holding rs->inside. */
static int collect(struct dl_phdr_info *info, size_t size, void *data)
{
	struct ranges *rs = data;
	(void)size;
	if (rs->inside ? contains(info, rs->inside) :
	    !rs->found && info->dlpi_addr == rs->base && info->dlpi_name &&
	    !strcmp(info->dlpi_name, rs->name))
		rs->found = 1;
	else if (!rs->found || rs->inside)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		if (rs->n == rs->cap) {
			size_t ncap = rs->cap ? rs->cap * 2 : 16;
			struct range *nr = realloc(rs->r, ncap * sizeof *nr);
			if (!nr)
				return 1;
			rs->r = nr;
			rs->cap = ncap;
		}
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		rs->r[rs->n++] = (struct range){ lo, lo + ph->p_memsz };
	}
	return 0;
}

static int in_ranges(const struct ranges *rs, const void *p)
{
	uintptr_t a = (uintptr_t)p;
	for (size_t i = 0; i < rs->n; i++)
		if (a >= rs->r[i].lo && a < rs->r[i].hi)
			return 1;
	return 0;
}

/* Descriptor -> its copy, for one dlclose (map.c: key (descriptor, 0)). */
struct copies { struct si_map *m; };

static struct selinst_region *copy_desc(const struct selinst_region *r)
{
	size_t ln = strlen(r->name ? r->name : "") + 1, lf = strlen(r->file ? r->file : "") + 1;
	size_t lfn = r->function ? strlen(r->function) + 1 : 0;
	struct selinst_region *c = malloc(sizeof *c + ln + lf + lfn);
	if (!c)
		return NULL;
	char *p = (char *)(c + 1);
	*c = *r;
	c->name = memcpy(p, r->name ? r->name : "", ln);
	c->file = memcpy(p + ln, r->file ? r->file : "", lf);
	c->function = r->function ? memcpy(p + ln + lf, r->function, lfn) : NULL;
	return c;
}

/* The copy of R (made on first request), or R when out of memory. */
static const struct selinst_region *kept(struct copies *cs, const struct selinst_region *r)
{
	struct si_mslot *s = si_map_find(cs->m, (uintptr_t)r, 0, NULL, NULL);
	if (s)
		return (const struct selinst_region *)s->value;
	struct selinst_region *c = copy_desc(r);
	if (!c || !si_map_add(&cs->m, (uintptr_t)r, 0, (uintptr_t)c, 0))
		return r;	/* (a copy without a slot: made again next time) */
	si_throttle_moved(r, c);
	return c;
}

/* Point every node whose descriptor is in RS at a copy.  Under the
 * registry lock; a live thread's new nodes past the count read here are
 * its own (it does not run the library being closed). */
static void keep_all(const struct ranges *rs, struct copies *cs)
{
	for (struct si_thread *t = si_registry_head(); t; t = t->next) {
		uint64_t nn = __atomic_load_n(&t->nnodes, __ATOMIC_ACQUIRE);
		for (uint64_t id = 1; id < nn; id++) {
			struct si_node *n = si_node_by_id(t, id);
			const struct selinst_region *r = n->region;
			if (in_ranges(rs, r))
				__atomic_store_n(&n->region, kept(cs, r), __ATOMIC_RELAXED);
		}
	}
	for (struct si_snap *s = si_exited_head(); s; s = s->next)
		for (uint64_t id = 1; id < s->nn; id++)
			if (in_ranges(rs, s->nodes[id].region))
				s->nodes[id].region = kept(cs, s->nodes[id].region);
}

static int keeping(void)
{
	return __atomic_load_n(&si_started, __ATOMIC_ACQUIRE) && !si_final_written &&
	       si_output_is_ours();
}

static void keep_ranges(struct ranges *rs)
{
	dl_iterate_phdr(collect, rs);
	struct copies cs = { NULL };
	if (rs->n) {
		int locked = si_registry_lock(-1);
		/* A forked child's pending profile is made of the parent's
		 * frames, whose descriptors may be in the library going. */
		si_fork_settle_any();
		keep_all(rs, &cs);
		if (locked)
			si_registry_unlock();
	}
	si_map_free(cs.m);
	free(rs->r);
}

/* dl_iterate_phdr reports the program first: is the address in it? */
struct probe { uintptr_t a; int in; };
static int first_contains(struct dl_phdr_info *info, size_t size, void *data)
{
	struct probe *p = data;
	(void)size;
	p->in = contains(info, p->a);
	return 1;	/* stop after the first */
}

static int in_program(uintptr_t a)
{
	struct probe p = { a, 0 };
	dl_iterate_phdr(first_contains, &p);
	return p.in;
}

typedef int dlclose_fn(void *);
typedef void cxa_finalize_fn(void *);

SI_EXPORT int dlclose(void *handle)
{
	/* Trace and flight mode: recorded events name the library's
	 * descriptors until the trace is written, so it stays loaded (its
	 * destructors run at exit); a close that succeeds. */
	if (si_trace_mode != SI_MODE_PROFILE)
		return 0;
	int saved = errno;
	struct link_map *lm = NULL;
	if (keeping() && dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm) {
		struct ranges rs = { lm->l_addr, lm->l_name ? lm->l_name : "", 0, 0, NULL, 0, 0 };
		keep_ranges(&rs);
	}
	errno = saved;
	dlclose_fn *real = (dlclose_fn *)dlsym(RTLD_NEXT, "dlclose");
	return real ? real(handle) : -1;
}

/* An object's finalizer code (crtbegin's, run after its C++ static
 * destructors and its destructor functions) calls __cxa_finalize with its
 * own DSO handle as the last thing before the object is unmapped.  Those
 * destructors may have run instrumented code after dlclose kept the
 * regions: keep the object's regions again here.  The program itself
 * (whose finalizer runs at exit, before libselinst.so writes the profile)
 * is never unmapped: nothing to keep, and no copying at exit. */
SI_EXPORT void __cxa_finalize(void *dso)
{
	cxa_finalize_fn *real = (cxa_finalize_fn *)dlsym(RTLD_NEXT, "__cxa_finalize");
	if (real)
		real(dso);
	int saved = errno;
	if (dso && keeping() && !in_program((uintptr_t)dso)) {
		struct ranges rs = { 0, NULL, (uintptr_t)dso, 0, NULL, 0, 0 };
		keep_ranges(&rs);
	}
	errno = saved;
}
