/* SPDX-License-Identifier: MIT */
/*
 * --omp: ompP's overhead classes per OpenMP parallel region and thread,
 * from the runtime's regions of kind omp (runtime/omp.c), and the json's
 * "omp" object.
 *
 * Each thread's calling-context tree is walked (the view keeps the trees
 * for this): a wait region (selinst-profile.h's selinst_omp_waits) counts
 * in its class for the innermost parallel region around it; a parallel
 * region's own exclusive time is its fork and join (thread management;
 * in the other threads of the team, the trampoline's few instructions).
 * A region's time is the longest any thread spent in it (the forking
 * thread's, fork to join; with several processes, the longest of all):
 * every share is of that.
 */
#include "report.h"
#include <stdlib.h>
#include <string.h>

/* One (parallel region, thread) row. */
struct orow {
	uint32_t region, thread;	/* view.regions, view.threads indices */
	uint64_t incl, calls, cls[SELINST_OMP_CLASSES];
};
struct ompv {
	struct orow *rows;
	size_t nrows;
};

/* -2: a parallel region, -1: no omp region, else the wait's class. */
static int *region_classes(const view *v)
{
	int *c = xmalloc((v->nregions + 1) * sizeof *c);
	size_t plen = strlen(SELINST_OMP_PARALLEL);
	for (size_t g = 0; g < v->nregions; g++) {
		const region *r = &v->regions[g];
		c[g] = -1;
		if (r->kind != K_OMP)
			continue;
		if (!strncmp(r->name, SELINST_OMP_PARALLEL, plen))
			c[g] = -2;
		for (unsigned w = 0; w < SELINST_OMP_WAITS; w++)
			if (!strcmp(r->name, selinst_omp_waits[w].name))
				c[g] = (int)selinst_omp_waits[w].cls;
	}
	return c;
}

static struct orow *row_of(struct ompv *m, u64map *ix, uint32_t reg, uint32_t thread)
{
	bool fresh;
	uint32_t *slot = u64map_put(ix, (uint64_t)reg << 32 | thread, &fresh);
	if (fresh) {
		m->rows = xrealloc(m->rows, (m->nrows + 1) * sizeof *m->rows);
		*slot = (uint32_t)m->nrows++;
		memset(&m->rows[*slot], 0, sizeof m->rows[0]);
		m->rows[*slot].region = reg;
		m->rows[*slot].thread = thread;
	}
	return &m->rows[*slot];
}

/* The stack of one tree walk, per depth d: the node's inclusive time,
 * its children's so far, its row + 1 if it is a parallel region, and the
 * row + 1 of the innermost parallel region at depth d or above. */
struct frame { uint64_t incl, kids; size_t prow, inner; };

/* Leaves the nodes at depth >= D: a parallel node's exclusive time is
 * its thread management. */
static void close_to(struct ompv *m, struct frame *st, uint32_t *top, uint32_t d)
{
	for (; *top > d; (*top)--) {
		const struct frame *f = &st[*top - 1];
		if (f->prow && f->incl > f->kids)
			m->rows[f->prow - 1].cls[SELINST_OMP_MANAGEMENT] += f->incl - f->kids;
	}
}

/* One thread's tree (preorder with depths). */
static void walk_thread(const view *v, const int *cls, uint32_t ti, struct ompv *m, u64map *ix)
{
	const thrinfo *t = &v->threads[ti];
	struct frame *st = xcalloc(t->ntree + 1, sizeof *st);
	uint32_t top = 0;	/* depth of the last node + 1 */
	for (size_t i = 0; i < t->ntree; i++) {
		const tnode *n = &t->tree[i];
		uint32_t d = n->depth;
		close_to(m, st, &top, d);
		size_t enclosing = d ? st[d - 1].inner : 0;
		if (d)
			st[d - 1].kids += n->incl;
		st[d] = (struct frame){ n->incl, 0, 0, enclosing };
		int c = cls[n->region];
		if (c == -2) {
			struct orow *r = row_of(m, ix, n->region, ti);
			r->incl += n->incl;
			r->calls += n->calls;
			st[d].prow = st[d].inner = (size_t)(r - m->rows) + 1;
		} else if (c >= 0 && enclosing)
			m->rows[enclosing - 1].cls[c] += n->incl;
		top = d + 1;
	}
	close_to(m, st, &top, 0);
	free(st);
}

static int cmp_row(const void *x, const void *y, void *arg)
{
	const struct orow *a = x, *b = y;
	const uint64_t *span = arg;
	if (a->region != b->region && span[a->region] != span[b->region])
		return span[a->region] > span[b->region] ? -1 : 1;
	if (a->region != b->region)
		return a->region < b->region ? -1 : 1;
	return a->thread < b->thread ? -1 : a->thread > b->thread;
}

/* The rows, sorted by region (longest first) then thread; SPAN[g]: region
 * g's time, the longest of any thread's (free both). */
static void ompv_build(const view *v, struct ompv *m, uint64_t **span)
{
	memset(m, 0, sizeof *m);
	int *cls = region_classes(v);
	u64map ix;
	u64map_init(&ix, 64);
	for (uint32_t ti = 0; ti < v->nthreads; ti++)
		if (v->threads[ti].tree)
			walk_thread(v, cls, ti, m, &ix);
	u64map_free(&ix);
	free(cls);
	*span = xcalloc(v->nregions + 1, sizeof **span);
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].incl > (*span)[m->rows[i].region])
			(*span)[m->rows[i].region] = m->rows[i].incl;
	if (m->nrows)
		qsort_r(m->rows, m->nrows, sizeof *m->rows, cmp_row, *span);
}

/* The name a parallel region is shown by: its outlined function's region
 * (the plugin's "main [omp parallel at x.c:9]") when instrumented. */
static const char *parallel_name(const view *v, uint32_t g)
{
	for (size_t n = 1; n < v->nnodes; n++) {
		if (v->nodes[n].region != g)
			continue;
		for (uint32_t c = v->nodes[n].first; c; c = v->nodes[c].next)
			if (v->regions[v->nodes[c].region].kind == K_FUNCTION)
				return v->regions[v->nodes[c].region].name;
	}
	return v->regions[g].name;
}

static double pct(uint64_t x, uint64_t of)
{
	return of ? 100.0 * (double)x / (double)of : 0;
}

static void text_row(FILE *out, const view *v, const struct orow *r, uint64_t span)
{
	const thrinfo *t = &v->threads[r->thread];
	char id[32], s[32];
	if (v->nprocs > 1)
		snprintf(id, sizeof id, "%u.%llu", t->proc, (unsigned long long)t->index);
	else
		snprintf(id, sizeof id, "%llu", (unsigned long long)t->index);
	fmt_secs(s, sizeof s, (double)r->incl / 1e9);
	uint64_t all = 0;
	fprintf(out, "%8s %9s", id, s);
	for (int c = 0; c < SELINST_OMP_CLASSES; c++) {
		fprintf(out, " %9.1f%%", pct(r->cls[c], span));
		all += r->cls[c];
	}
	fprintf(out, " %9.1f%%\n", pct(all, span));
}

void view_omp(FILE *out, const view *v, const opts *o)
{
	struct ompv m;
	uint64_t *span;
	ompv_build(v, &m, &span);
	if (!m.nrows)
		fprintf(out, "no OpenMP parallel regions (a program built with -fopenmp and "
			"the shared libselinst records them)\n");
	else
		fprintf(out, "OpenMP overheads per parallel region and thread (ompP's classes), "
			"as a share of the region's time\n");
	for (size_t i = 0; i < m.nrows; i++) {
		const struct orow *r = &m.rows[i];
		if (!i || r->region != m.rows[i - 1].region) {
			char s[32];
			fmt_secs(s, sizeof s, (double)span[r->region] / 1e9);
			fprintf(out, "\n%s s  ", s);
			put_name(out, o, (int)strlen(s) + 4, parallel_name(v, r->region));
			fprintf(out, "%8s %9s %10s %10s %10s %10s %10s\n", "thread", "time s",
				"imbalance", "sync", "limited", "management", "overhead");
		}
		text_row(out, v, r, span[r->region]);
	}
	free(m.rows);
	free(span);
}

void export_json_omp(FILE *out, const view *v)
{
	struct ompv m;
	uint64_t *span;
	ompv_build(v, &m, &span);
	if (m.nrows) {
		fprintf(out, ",\n  \"omp\": [");
		for (size_t i = 0; i < m.nrows; i++) {
			const struct orow *r = &m.rows[i];
			bool first = !i || r->region != m.rows[i - 1].region;
			if (first) {
				fprintf(out, "%s\n    {\"name\": ", i ? "]}," : "");
				json_str(out, parallel_name(v, r->region));
				fprintf(out, ", \"region\": ");
				json_str(out, v->regions[r->region].name);
				fprintf(out, ", \"seconds\": %.9f, \"threads\": [",
					(double)span[r->region] / 1e9);
			}
			const thrinfo *t = &v->threads[r->thread];
			fprintf(out, "%s\n      {\"process\": %u, \"thread\": %llu, \"seconds\": %.9f",
				first ? "" : ",", t->proc, (unsigned long long)t->index,
				(double)r->incl / 1e9);
			for (int c = 0; c < SELINST_OMP_CLASSES; c++) {
				/* the class's name, '_' for ' ': "limited_parallelism" */
				fprintf(out, ", \"");
				for (const char *k = selinst_omp_class_names[c]; *k; k++)
					fputc(*k == ' ' ? '_' : *k, out);
				fprintf(out, "\": %.6f", pct(r->cls[c], span[r->region]) / 100);
			}
			fprintf(out, "}");
		}
		fprintf(out, "]}\n  ]");
	}
	free(m.rows);
	free(span);
}
