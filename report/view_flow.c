/* SPDX-License-Identifier: MIT */
/*
 * view_flow.c - the predecessor graph (profiles written with SELINST_FLOW=1):
 * --format=flow draws ompP's control-flow display as Graphviz, and
 * --suggest-phases names the node sequences that repeat.
 *
 * A graph node is a calling-context path (the same path in every thread
 * and process is one node); an edge P -> N says N was entered right after
 * P: P is N's parent (N came first in an activation of P) or its sibling
 * entered just before it in the same activation.  Each edge is labelled
 * with its count per thread, threads of equal counts grouped: "0-3|5" is
 * 5 in each of threads 0 to 3 (threads numbered over all files, in the
 * order read).
 *
 * A sequence repeats where a sibling edge leads back to a node that also
 * begins its parent's activations (the edge from the parent): from that
 * head, following each node's most frequent sibling edge until the head
 * comes round again gives the sequence; its count is the head's entries.
 */
#include "report.h"
#include <stdlib.h>
#include <string.h>

/* A calling-context path and its figures over all threads. */
struct gnode {
	uint64_t key;		/* hash of the path */
	uint32_t parent;	/* gnode index; UINT32_MAX: the root */
	const pregion *r;	/* NULL: the root */
	uint64_t incl;		/* ns, summed over threads */
};
/* An edge's count in one thread. */
struct gedge { uint32_t from, to, thread; uint64_t count; };

struct graph {
	struct gnode *n;
	size_t nn;
	u64map ix;		/* key -> gnode index */
	struct gedge *e;
	size_t ne;
	uint32_t nthreads;
};

static uint64_t path_key(uint64_t parent_key, const pregion *r)
{
	uint64_t h = hash_bytes(r->name, strlen(r->name), parent_key ^ 0x9E3779B97F4A7C15ull);
	if (r->file)
		h = hash_bytes(r->file, strlen(r->file), h);
	h = hash_bytes(&r->line, sizeof r->line, h);
	return hash_bytes(&r->kind, sizeof r->kind, h) | 1;	/* 0: the root */
}

static uint32_t gnode_of(struct graph *g, uint64_t key, uint32_t parent, const pregion *r)
{
	bool fresh;
	uint32_t *slot = u64map_put(&g->ix, key, &fresh);
	if (fresh) {
		g->n = xrealloc(g->n, (g->nn + 1) * sizeof *g->n);
		g->n[g->nn] = (struct gnode){ key, parent, r, 0 };
		*slot = (uint32_t)g->nn++;
	}
	return *slot;
}

/* Thread TH's nodes as gnodes (MAP: node index -> gnode) and its edges. */
static void add_thread(struct graph *g, const profile *p, const pthr *th)
{
	uint32_t *map = xmalloc((th->nnodes + 1) * sizeof *map);
	uint64_t *key = xmalloc((th->nnodes + 1) * sizeof *key);
	for (size_t i = 0; i < th->nnodes; i++) {
		const pnode *n = &th->nodes[i];
		uint64_t pk = n->pidx == UINT32_MAX ? 0 : key[n->pidx];
		uint32_t par = n->pidx == UINT32_MAX ? 0 : map[n->pidx];
		key[i] = path_key(pk, &p->regions[n->region]);
		map[i] = gnode_of(g, key[i], par, &p->regions[n->region]);
		g->n[map[i]].incl += n->incl;
	}
	g->e = xrealloc(g->e, (g->ne + th->nflow + 1) * sizeof *g->e);
	for (size_t k = 0; k < th->nflow; k++) {
		const pflow *f = &th->flow[k];
		g->e[g->ne++] = (struct gedge){ f->pred == UINT32_MAX ? 0 : map[f->pred],
						map[f->node], g->nthreads, f->count };
	}
	g->nthreads++;
	free(map);
	free(key);
}

static int edge_cmp(const void *a, const void *b)
{
	const struct gedge *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* Reads FILES into G; -1 (reported) on bad input. */
static int graph_load(struct graph *g, char **files, int nfiles, profile *ps)
{
	memset(g, 0, sizeof *g);
	u64map_init(&g->ix, 256);
	gnode_of(g, 0, UINT32_MAX, NULL);	/* the root */
	char err[512];
	for (int f = 0; f < nfiles; f++) {
		if (profile_read(files[f], &ps[f], err, sizeof err) < 0) {
			fprintf(stderr, "selinst-report: %s\n", err);
			return -1;
		}
		for (size_t t = 0; t < ps[f].nthreads; t++)
			add_thread(g, &ps[f], &ps[f].threads[t]);
	}
	qsort(g->e, g->ne, sizeof *g->e, edge_cmp);
	return 0;
}

static const char *gname(const struct graph *g, uint32_t i)
{
	return g->n[i].r ? g->n[i].r->name : "(root)";
}

/* "0-3|5; 4|6": the edges E[0..n) (one edge, by count then thread). */
static void edge_label(FILE *out, const struct gedge *e, size_t n)
{
	for (size_t i = 0; i < n;) {
		uint64_t c = e[i].count;
		fputs(i ? "; " : "", out);
		for (size_t first = 1; i < n && e[i].count == c; first = 0) {
			uint32_t lo = e[i].thread, hi = lo;
			while (i + 1 < n && e[i + 1].count == c && e[i + 1].thread == hi + 1)
				hi = e[++i].thread;
			i++;
			fprintf(out, first ? "%u" : ",%u", lo);
			if (hi > lo)
				fprintf(out, "-%u", hi);
		}
		fprintf(out, "|%llu", (unsigned long long)c);
	}
}

static void dot_string(FILE *out, const char *s)
{
	putc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putc('\\', out);
		putc((unsigned char)*s < 0x20 ? ' ' : *s, out);
	}
	putc('"', out);
}

static void write_dot(FILE *out, const struct graph *g)
{
	fputs("digraph selinst_flow {\n  node [shape=box, fontname=\"monospace\"];\n"
	      "  edge [fontname=\"monospace\", fontsize=10];\n", out);
	for (size_t i = 0; i < g->nn; i++) {
		fprintf(out, "  n%zu [label=", i);
		dot_string(out, gname(g, (uint32_t)i));
		fputs(g->n[i].r && g->n[i].r->kind == K_LOOP ? ", style=rounded];\n" : "];\n", out);
	}
	for (size_t i = 0; i < g->ne;) {
		size_t j = i;
		while (j < g->ne && g->e[j].from == g->e[i].from && g->e[j].to == g->e[i].to)
			j++;
		fprintf(out, "  n%u -> n%u [label=\"", g->e[i].from, g->e[i].to);
		edge_label(out, g->e + i, j - i);
		fputs(g->n[g->e[i].to].parent == g->e[i].from ? "\"];\n" : "\", style=dashed];\n", out);
		i = j;
	}
	fputs("}\n", out);
}

/* Sum over threads of edge FROM -> TO. */
static uint64_t edge_total(const struct graph *g, uint32_t from, uint32_t to)
{
	uint64_t s = 0;
	for (size_t i = 0; i < g->ne; i++)
		if (g->e[i].from == from && g->e[i].to == to)
			s += g->e[i].count;
	return s;
}

/* The most frequent sibling edge out of FROM (its target), or UINT32_MAX. */
static uint32_t next_sibling(const struct graph *g, uint32_t from)
{
	uint32_t best = UINT32_MAX;
	uint64_t bc = 0;
	for (size_t i = 0; i < g->ne; i++) {
		const struct gedge *e = &g->e[i];
		if (e->from != from || g->n[e->to].parent != g->n[from].parent)
			continue;
		uint64_t c = edge_total(g, from, e->to);
		if (c > bc) {
			bc = c;
			best = e->to;
		}
	}
	return best;
}

/* One repeating sequence from HEAD, if it comes round; its length in SEQ. */
static size_t cycle_from(const struct graph *g, uint32_t head, uint32_t *seq, size_t max)
{
	size_t n = 0;
	for (uint32_t x = head; n < max; x = next_sibling(g, x)) {
		if (x == UINT32_MAX)
			return 0;
		if (n && x == head)
			return n;
		for (size_t k = 0; k < n; k++)
			if (seq[k] == x)
				return 0;	/* a cycle not through the head */
		seq[n++] = x;
	}
	return 0;
}

static void suggest_one(FILE *out, const struct graph *g, uint32_t head, const uint32_t *seq,
			size_t n)
{
	uint32_t par = g->n[head].parent;
	uint64_t entries = edge_total(g, par, head), back = edge_total(g, seq[n - 1], head);
	uint32_t threads = 0;
	for (size_t i = 0; i < g->ne; i++)
		threads += g->e[i].from == par && g->e[i].to == head;
	fprintf(out, "under %s: ", gname(g, par));
	for (size_t k = 0; k < n; k++)
		fprintf(out, "%s%s", k ? " -> " : "", gname(g, seq[k]));
	fprintf(out, " repeats %llu times (%llu entries of %s, %u thread%s; back edge %s -> %s: %llu)\n",
		(unsigned long long)(entries + back), (unsigned long long)entries, gname(g, par),
		threads, threads == 1 ? "" : "s", gname(g, seq[n - 1]), gname(g, head),
		(unsigned long long)back);
	const pregion *pr = g->n[par].r;
	if (pr && pr->kind == K_LOOP)
		fprintf(out, "  mark it: SELINST_ITERATE=%s:%u (each iteration of %s)\n",
			pr->file ? pr->file : "", pr->line, pr->name);
	else
		fprintf(out, "  mark it: #pragma selinst phase start/end (or selinst_phase_begin/end) "
			"around %s .. %s in %s\n", gname(g, head), gname(g, seq[n - 1]),
			gname(g, par));
}

static void suggest_phases(FILE *out, const struct graph *g)
{
	uint32_t seq[64];
	size_t found = 0;
	for (uint32_t head = 1; head < g->nn; head++) {
		uint32_t par = g->n[head].parent;
		if (!edge_total(g, par, head))
			continue;	/* never first in its parent's activations */
		size_t n = cycle_from(g, head, seq, sizeof seq / sizeof seq[0]);
		if (!n || !edge_total(g, seq[n - 1], head))
			continue;
		suggest_one(out, g, head, seq, n);
		found++;
	}
	if (!found)
		fputs(g->ne ? "no repeating sequence found\n"
			    : "no predecessor graph in the profiles (record one with SELINST_FLOW=1)\n",
		      out);
}

int view_flow(FILE *out, char **files, int nfiles, bool suggest)
{
	profile *ps = xcalloc((size_t)nfiles, sizeof *ps);
	struct graph g;
	int rc = graph_load(&g, files, nfiles, ps);
	if (rc == 0) {
		if (suggest)
			suggest_phases(out, &g);
		else
			write_dot(out, &g);
	}
	free(g.n);
	free(g.e);
	u64map_free(&g.ix);
	for (int f = 0; f < nfiles; f++)
		profile_free(&ps[f]);
	free(ps);
	return rc < 0 ? 2 : 0;
}
