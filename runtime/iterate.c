/* SPDX-License-Identifier: MIT */
/*
 * iterate.c - per-iteration profiles: what each iteration of one loop
 * region (SELINST_ITERATE=FILE:LINE) or of a phase (selinst_phase_begin/
 * end) cost, region by region.
 *
 * A series belongs to one (thread, node): the iterated loop's or the
 * phase's calling-context node.  An iteration is recorded when it ends as
 *
 *     wall ticks, n, then n x (node id, calls added, self ticks added)
 *
 * for the nodes that changed during it, found by comparing every node
 * created after the series' own node (its subtree is among them: ids are
 * creation order) with the values seen at the iteration's start (`last`).
 * Nodes that did not change cost nothing in the record; the nodes open at
 * a boundary are the series' node and its ancestors, none of which is
 * compared, so each self figure compared is complete.  Between two
 * iterations of a loop (one body start to the next) nothing else runs; a
 * phase, or the next entry of the loop, takes a fresh `last` first.
 *
 * Records go into mmap'd chunks, published with release stores, so the
 * writer can read a running thread's series (it reads the records up to
 * the count it loads).  Everything here runs inside a hook or a control
 * call, with the thread's guard held: no malloc, no locks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "internal.h"
#include "output_iterations.h"

#define CHUNK_WORDS (1u << 17)		/* 1 MiB of records */

static char iterate_file[256];		/* SELINST_ITERATE=FILE:LINE */
static uint32_t iterate_line;
static int iterate_on;			/* ITERATE_NAMED or ITERATE_AUTO */
#define ITERATE_NAMED 1
#define ITERATE_AUTO 2
static uint64_t iterate_max = 100000;	/* SELINST_ITERATE_MAX */
static int iterate_found, iterate_iterable;
static int iterate_exact;		/* SELINST_ITERATE_EXACT=1 */

/* "FILE:LINE" into the settings; 0, or -1 when malformed. */
static int parse_spec(const char *v)
{
	const char *colon = strrchr(v, ':');
	uint64_t line;
	if (!colon || colon == v || (size_t)(colon - v) >= sizeof iterate_file ||
	    si_parse_decimal(colon + 1, 1, UINT32_MAX, &line) != 0)
		return -1;
	memcpy(iterate_file, v, (size_t)(colon - v));
	iterate_file[colon - v] = 0;
	iterate_line = (uint32_t)line;
	return 0;
}

void si_iterate_init(void)
{
	const char *v = getenv("SELINST_ITERATE");
	if (v && *v) {
		if (!strcmp(v, "auto"))
			iterate_on = ITERATE_AUTO;
		else if (parse_spec(v) == 0)
			iterate_on = ITERATE_NAMED;
		else
			fprintf(stderr, "selinst: SELINST_ITERATE=%s: expected FILE:LINE "
				"(a loop region's file and line) or auto; no iterations recorded\n", v);
	}
	if (iterate_on)
		si_pack_init();	/* not at the write: it may run in a handler */
	v = getenv("SELINST_ITERATE_EXACT");
	if (v && *v && strcmp(v, "0") && strcmp(v, "1"))
		fprintf(stderr, "selinst: SELINST_ITERATE_EXACT=%s: expected 0 or 1; using 0\n", v);
	iterate_exact = v && !strcmp(v, "1");
	v = getenv("SELINST_ITERATE_MAX");
	if (v && *v && si_parse_decimal(v, 1, UINT32_MAX, &iterate_max) != 0) {
		fprintf(stderr, "selinst: SELINST_ITERATE_MAX=%s: expected a number from 1 "
			"to %u; using 100000\n", v, UINT32_MAX);
		iterate_max = 100000;
	}
}

int si_iterate_exact(void)
{
	return iterate_exact;
}

/* Does the region's FILE name ITERATE_FILE: the same path, or one ending
 * in "/" ITERATE_FILE (cg.c names src/cg.c)? */
static int file_matches(const char *file)
{
	if (!file)
		return 0;
	size_t n = strlen(file), m = strlen(iterate_file);
	return n >= m && !strcmp(file + n - m, iterate_file) &&
	       (n == m || file[n - m - 1] == '/');
}

/* SELINST_ITERATE=auto marks every loop that can be iterated; series_of
 * keeps only the outermost ones' records. */
void si_iterate_region_seen(const struct selinst_region *r)
{
	if (likely(!iterate_on) || r->kind != SELINST_KIND_LOOP)
		return;
	if (iterate_on == ITERATE_NAMED && (r->line != iterate_line || !file_matches(r->file)))
		return;
	__atomic_store_n(&iterate_found, 1, __ATOMIC_RELAXED);
	uint32_t want = SELINST_REGION_WRITABLE | SELINST_REGION_ITERABLE;
	if ((r->reserved & want) != want)
		return;		/* a loop without calls: no body-start hook */
	__atomic_store_n(&iterate_iterable, 1, __ATOMIC_RELAXED);
	__atomic_fetch_or((uint32_t *)&r->reserved, SELINST_REGION_ITERATE, __ATOMIC_RELAXED);
}

/* ---- the series ---------------------------------------------------------- */

static struct si_chunk *new_chunk(size_t words)
{
	if (words < CHUNK_WORDS)
		words = CHUNK_WORDS;
	struct si_chunk *c = si_mmap(sizeof *c + words * sizeof(uint64_t));
	if (c)
		c->cap = words;
	return c;
}

static struct si_series *series_of(struct si_thread *t, struct si_node *n)
{
	struct si_series *s;
	for (s = t->series; s; s = s->next)
		if (s->node_id == SI_NODE_ID(n))
			return s;
	s = si_mmap(sizeof *s);
	if (!s)
		return NULL;
	s->node_id = SI_NODE_ID(n);
	s->region = n->region;
	if (iterate_on == ITERATE_AUTO && n->region->kind == SELINST_KIND_LOOP)
		for (const struct si_node *p = n->parent; p && p != &t->root; p = p->parent)
			if (p->region && p->region->kind == SELINST_KIND_LOOP)
				s->ignored = 1;	/* inside another loop: not a candidate */
	s->next = t->series;
	__atomic_store_n(&t->series, s, __ATOMIC_RELEASE);
	return s;
}

/* LAST big enough for the nodes up to T's newest; 0, or -1 (no memory). */
static int grow_last(struct si_thread *t, struct si_series *s)
{
	uint64_t need = t->nnodes - s->node_id;
	if (need <= s->last_cap)
		return 0;
	size_t cap = s->last_cap ? s->last_cap : 64;
	while (cap < need)
		cap *= 2;
	uint64_t *nl = si_mmap(cap * 2 * sizeof *nl);
	if (!nl)
		return -1;
	if (s->last) {
		memcpy(nl, s->last, s->last_cap * 2 * sizeof *nl);
		munmap(s->last, s->last_cap * 2 * sizeof *nl);	/* only this thread reads it */
	}
	s->last = nl;
	s->last_cap = cap;
	return 0;
}

/* The values the next iteration's changes are measured from. */
static void take_baseline(struct si_thread *t, struct si_series *s)
{
	for (uint64_t id = s->node_id + 1; id < t->nnodes; id++) {
		const struct si_node *n = si_node_by_id(t, id);
		s->last[2 * (id - s->node_id)] = n->calls;
		s->last[2 * (id - s->node_id) + 1] = n->self;
	}
	s->seen = t->nnodes;
}

/* Room for WORDS more words of records: the chunk to write in, or NULL. */
static struct si_chunk *room(struct si_series *s, size_t words)
{
	struct si_chunk *c = s->tail;
	if (c && c->used + words <= c->cap)
		return c;
	struct si_chunk *nc = new_chunk(words);
	if (!nc)
		return NULL;
	if (c)
		__atomic_store_n(&c->next, nc, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&s->head, nc, __ATOMIC_RELEASE);
	s->tail = nc;
	return nc;
}

/* Count the nodes that changed since LAST (updating it); with OUT, write
 * their (id, calls, self) triples there too. */
static uint64_t changes(struct si_thread *t, struct si_series *s, uint64_t *out)
{
	uint64_t k = 0;
	for (uint64_t id = s->node_id + 1; id < t->nnodes; id++) {
		const struct si_node *n = si_node_by_id(t, id);
		uint64_t *l = &s->last[2 * (id - s->node_id)];
		if (id >= s->seen)
			l[0] = l[1] = 0;	/* created during this iteration */
		if (n->calls == l[0] && n->self == l[1])
			continue;
		if (out) {
			out[3 * k] = id;
			out[3 * k + 1] = n->calls - l[0];
			out[3 * k + 2] = n->self - l[1];
			l[0] = n->calls;
			l[1] = n->self;
		}
		k++;
	}
	if (out)
		s->seen = t->nnodes;
	return k;
}

/* End S's open iteration at NOW: one record. */
static void close_iteration(struct si_thread *t, struct si_series *s, uint64_t now)
{
	s->open = 0;
	if (grow_last(t, s) < 0 || s->recorded >= iterate_max) {
		s->dropped++;
		return;
	}
	uint64_t k = changes(t, s, NULL);
	struct si_chunk *c = room(s, 2 + 3 * k);
	if (!c) {
		s->dropped++;
		take_baseline(t, s);
		return;
	}
	uint64_t *w = c->w + c->used;
	w[0] = now - s->start;
	w[1] = k;
	changes(t, s, w + 2);
	__atomic_store_n(&c->used, c->used + 2 + 3 * k, __ATOMIC_RELEASE);
	__atomic_store_n(&s->recorded, s->recorded + 1, __ATOMIC_RELEASE);
}

/* Start an iteration of S at NOW; FRESH: take a new baseline first (the
 * loop's next entry, a phase: other code may have run since). */
static void open_iteration(struct si_thread *t, struct si_series *s, uint64_t now, int fresh)
{
	if (fresh || s->seen == 0) {
		if (grow_last(t, s) < 0)
			return;
		take_baseline(t, s);
	}
	s->open = 1;
	s->start = now;
}

/* ---- hooks and control calls ----------------------------------------------- */

SI_EXPORT void __selinst_loop_iteration(const struct selinst_region *region, uint64_t iteration)
{
	uint64_t now = si_now();
	struct si_thread *t = si_thread_get();
	if (!t || !si_guard_take(t))
		return;
	if (t->top->region == region && t->top->node != &t->paused) {
		struct si_series *s = series_of(t, t->top->node);
		if (s && !s->ignored) {
			if (s->open)
				close_iteration(t, s, now);
			open_iteration(t, s, now, iteration <= 1);
		}
	}
	si_guard_release(t);
}

/* The loop exit hook of an iterated loop: its last iteration ends. */
void si_iterate_loop_exit(struct si_thread *t, const struct selinst_region *r, uint64_t now)
{
	if (t->top->region != r)
		return;
	for (struct si_series *s = t->series; s; s = s->next)
		if (s->node_id == SI_NODE_ID(t->top->node) && s->open)
			close_iteration(t, s, now);
}

void si_iterate_phase_begun(struct si_thread *t, uint64_t now)
{
	if (t->top->node == &t->paused || t->top == t->stack)
		return;
	struct si_series *s = series_of(t, t->top->node);
	if (s)
		open_iteration(t, s, now, 1);
}

void si_iterate_phase_ending(struct si_thread *t, uint64_t now)
{
	for (struct si_series *s = t->series; s; s = s->next)
		if (s->node_id == SI_NODE_ID(t->top->node) && s->open)
			close_iteration(t, s, now);
}

/* ---- for the writer ----------------------------------------------------------- */

/* Returns 0 (SELINST_ITERATE not set), 1 (FILE:LINE) or 2 (auto). */
int si_iterate_status(const char **file, uint32_t *line, int *found, int *iterable)
{
	*file = iterate_file;
	*line = iterate_line;
	*found = __atomic_load_n(&iterate_found, __ATOMIC_RELAXED);
	*iterable = __atomic_load_n(&iterate_iterable, __ATOMIC_RELAXED);
	return iterate_on;
}
