/* SPDX-License-Identifier: MIT */
/*
 * flow.c - the predecessor graph (SELINST_FLOW=1; off by default): per
 * thread and calling-context node, which node came just before each
 * entry of it, with counts, as the ompP paper records them: the parent
 * for the first region entered in an activation, else the sibling entered
 * last in the same activation.  A loop body calling A, B, C gives the
 * edges loop -> A (once an entry), A -> B, B -> C and C -> A (once an
 * iteration after the first): the repetition selinst-report
 * --suggest-phases names, and --format=flow draws.
 *
 * Off the hot path: with SELINST_FLOW set, the runtime sets the bit
 * SELINST_REGION_FLOW in each region's (writable) descriptor when a
 * thread first makes a node for it, and the hooks' first test (the
 * throttle's, the same one instruction with a wider mask) sends those
 * regions' entries here.  Without SELINST_FLOW no bit is set and the
 * hooks are as before.  Edges go into the thread's hash table (map.c),
 * keyed by (node id + 1, predecessor id + 1); the last child entered at
 * each stack depth, with the start time of the activation it was entered
 * in (which tells a later activation at that depth from the same one),
 * is kept in an mmap'ed array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* The writer reads a running thread's counts as they change (word-sized,
 * as snapshot.c reads nodes): ThreadSanitizer is told to leave it. */
#define NO_TSAN_FLOW __attribute__((no_sanitize_thread, noinline))

static int flow_on;

void si_flow_init(void)
{
	const char *v = getenv("SELINST_FLOW");
	if (!v || !*v || !strcmp(v, "0"))
		return;
	if (!strcmp(v, "1"))
		flow_on = 1;
	else
		fprintf(stderr, "selinst: SELINST_FLOW=%s: expected 1 (record the predecessor "
			"graph) or 0; not recorded\n", v);
}

int si_flow_enabled(void)
{
	return flow_on;
}

void si_flow_region_seen(const struct selinst_region *r)
{
	if (likely(!flow_on))
		return;
	/* Set from any thread: an atomic load, or ThreadSanitizer reports. */
	uint32_t bits = __atomic_load_n((const uint32_t *)&r->reserved, __ATOMIC_RELAXED);
	if ((bits & SELINST_REGION_WRITABLE) && !(bits & SELINST_REGION_FLOW))
		__atomic_fetch_or((uint32_t *)&r->reserved, SELINST_REGION_FLOW, __ATOMIC_RELAXED);
}

/* One more entry of N after PRED. */
static void count_edge(struct si_thread *t, const struct si_node *n, const struct si_node *pred)
{
	uintptr_t a = SI_NODE_ID(n) + 1, b = SI_NODE_ID(pred) + 1;
	struct si_mslot *s = si_map_find(t->flow, a, b, NULL, NULL);
	if (s)
		__atomic_store_n(&s->value, s->value + 1, __ATOMIC_RELAXED);
	else
		si_map_add(&t->flow, a, b, 1, SI_MAP_KEEP_OLD);
}

/* T has just pushed a frame at index D (its region entered with the
 * flow bit); the frame below is the activation it was entered from. */
void si_flow_entered(struct si_thread *t, uint32_t d)
{
	if (d + 1 >= SI_FLOW_DEPTH || t->stack[d].node == &t->paused)
		return;
	if (!t->flow_last && !(t->flow_last = si_mmap(SI_FLOW_DEPTH * sizeof *t->flow_last)))
		return;
	struct si_flow_last *l = &t->flow_last[d];
	const struct si_node *n = t->stack[d].node, *pred = l->node;
	if (!pred || l->activation != t->stack[d - 1].start)
		pred = t->stack[d - 1].node;	/* first child of this activation */
	if (pred == &t->paused)
		return;
	count_edge(t, n, pred);
	l->node = n;
	l->activation = t->stack[d - 1].start;
}

/* A copy of T's edges for the writer (S->flow, malloc'd; none when T has
 * none).  0, or -1 when out of memory. */
NO_TSAN_FLOW int si_flow_copy(const struct si_thread *t, struct si_flow_edge **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	const struct si_map *m = __atomic_load_n(&t->flow, __ATOMIC_ACQUIRE);
	if (!m)
		return 0;
	size_t cap = m->mask + 1, k = 0;
	struct si_flow_edge *e = si_walloc(cap * sizeof *e);
	if (!e)
		return -1;
	for (size_t i = 0; i < cap; i++) {
		uintptr_t a = __atomic_load_n(&m->slot[i].a, __ATOMIC_ACQUIRE);
		if (a)
			e[k++] = (struct si_flow_edge){ a - 1, m->slot[i].b - 1, m->slot[i].value };
	}
	*out = e;
	*n = k;
	return 0;
}
