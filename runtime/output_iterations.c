/* SPDX-License-Identifier: MIT */
/*
 * output_iterations.c - a thread's per-iteration records (iterate.c) as
 * the profile's `iterations` list, compactly:
 *
 *   iterations:
 *     - node: 3            output node of the loop or phase
 *       kind: loop         or phase
 *       recorded: 50       iterations written (dropped: beyond the cap)
 *       dropped: 0
 *       columns: [4, 7]    the regions inside that took the most
 *                          exclusive time over all iterations (at most
 *                          SI_ITER_COLUMNS, each at least 0.5%)
 *       calls: [[16, 1, 2], [1, 1, 3]]   runs: [iterations alike, calls
 *                          of each column in each of them]
 *       rows: [[812345, 500000, 200000], ...]   per iteration: wall ns,
 *                          then exclusive ns of each column (one flow
 *                          list on one line: no indentation per row)
 *
 * The rest of an iteration's wall time (the loop's own code, regions not
 * in a column) is wall minus the columns; readers show it as "other".
 * Also the thread's predecessor graph (flow.c), when recorded:
 *
 *   flow: [[5, 3, 24], ...]   [node, its predecessor (0: the root), count]
 *
 * doc/profile-format.md has the format.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "emit.h"
#include "output_iterations.h"
#include "selinst-profile.h"

#define SI_ITER_COLUMNS 6

/* SELINST_ITERATE=auto's choice for this write (si_iterate_choose). */
static const struct selinst_region *auto_choice;

/* The records of S as the writer sees them: up to `recorded`. */
struct walk {
	const struct si_chunk *c;
	size_t at;
	uint64_t left;
};

static const uint64_t *next_record(struct walk *wk)
{
	if (!wk->left)
		return NULL;
	while (wk->c && wk->at >= __atomic_load_n(&wk->c->used, __ATOMIC_ACQUIRE)) {
		wk->c = __atomic_load_n(&wk->c->next, __ATOMIC_ACQUIRE);
		wk->at = 0;
	}
	if (!wk->c)
		return NULL;
	const uint64_t *r = wk->c->w + wk->at;
	wk->at += 2 + 3 * r[1];
	wk->left--;
	return r;
}

static void walk_start(struct walk *wk, const struct si_series *s)
{
	wk->left = __atomic_load_n(&s->recorded, __ATOMIC_ACQUIRE);
	wk->c = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
	wk->at = 0;
}

/* The wall ticks of SE's recorded iterations. */
static uint64_t series_ticks(const struct si_series *se)
{
	uint64_t sum = 0;
	struct walk wk;
	walk_start(&wk, se);
	for (const uint64_t *r; (r = next_record(&wk));)
		sum += r[0];
	return sum;
}

/* Output node of source node ID, 0 when the copy does not have it. */
static uint64_t out_id(const struct si_snap *s, const uint64_t *omap, uint64_t id)
{
	return id < s->nn ? omap[id] : 0;
}

/* The columns: output nodes by exclusive ticks over all iterations. */
static size_t pick_columns(const struct si_snap *s, const struct si_series *se,
			   const uint64_t *omap, uint64_t nout, uint64_t *col)
{
	uint64_t *tot = si_wcalloc(nout, sizeof *tot);
	if (!tot)
		return 0;
	uint64_t wall = 0;
	struct walk wk;
	walk_start(&wk, se);
	for (const uint64_t *r; (r = next_record(&wk));) {
		wall += r[0];
		for (uint64_t k = 0; k < r[1]; k++) {
			uint64_t o = out_id(s, omap, r[2 + 3 * k]);
			if (o && o < nout)
				tot[o] += r[4 + 3 * k];
		}
	}
	size_t n = 0;
	while (n < SI_ITER_COLUMNS) {
		uint64_t best = 0;
		for (uint64_t o = 1; o < nout; o++)
			if (tot[o] > tot[best])
				best = o;
		if (!best || tot[best] * 200 < wall)	/* under 0.5% */
			break;
		col[n++] = best;
		tot[best] = 0;
	}
	si_wfree(tot);
	return n;
}

/* One iteration's calls and exclusive ticks per column. */
static void per_column(const struct si_snap *s, const uint64_t *omap, const uint64_t *r,
		       const uint64_t *col, size_t ncol, uint64_t *calls, uint64_t *excl)
{
	memset(calls, 0, ncol * sizeof *calls);
	memset(excl, 0, ncol * sizeof *excl);
	for (uint64_t k = 0; k < r[1]; k++) {
		uint64_t o = out_id(s, omap, r[2 + 3 * k]);
		for (size_t j = 0; j < ncol; j++)
			if (col[j] == o) {
				calls[j] += r[3 + 3 * k];
				excl[j] += r[4 + 3 * k];
			}
	}
}

static void emit_calls_run(struct em *m, uint64_t run, const uint64_t *calls, size_t ncol)
{
	flow_seq_start(m);
	uint_scalar(m, run);
	for (size_t j = 0; j < ncol; j++)
		uint_scalar(m, calls[j]);
	seq_end(m);
}

/* calls: runs of iterations whose column calls are alike. */
static void emit_calls(struct em *m, const struct si_snap *s, const struct si_series *se,
		       const uint64_t *omap, const uint64_t *col, size_t ncol)
{
	uint64_t cur[SI_ITER_COLUMNS], prev[SI_ITER_COLUMNS], excl[SI_ITER_COLUMNS], run = 0;
	plain(m, "calls");
	flow_seq_start(m);
	struct walk wk;
	walk_start(&wk, se);
	for (const uint64_t *r; (r = next_record(&wk));) {
		per_column(s, omap, r, col, ncol, cur, excl);
		if (run && memcmp(cur, prev, ncol * sizeof *cur) != 0) {
			emit_calls_run(m, run, prev, ncol);
			run = 0;
		}
		memcpy(prev, cur, ncol * sizeof *cur);
		run++;
	}
	if (run)
		emit_calls_run(m, run, prev, ncol);
	seq_end(m);
}

/* The series' values in ns, row by row: wall, then each column's
 * exclusive time; NULL when out of memory. */
static uint64_t *row_values(const struct si_snap *s, const struct si_series *se,
			    const uint64_t *omap, const uint64_t *col, size_t ncol, double npt,
			    size_t *nrows)
{
	uint64_t calls[SI_ITER_COLUMNS], excl[SI_ITER_COLUMNS];
	size_t width = 1 + ncol, n = __atomic_load_n(&se->recorded, __ATOMIC_ACQUIRE), i = 0;
	uint64_t *v = si_walloc((n ? n : 1) * width * sizeof *v);
	if (!v)
		return NULL;
	struct walk wk;
	walk_start(&wk, se);
	for (const uint64_t *r; i < n && (r = next_record(&wk)); i++) {
		per_column(s, omap, r, col, ncol, calls, excl);
		v[i * width] = (uint64_t)((double)r[0] * npt + 0.5);
		for (size_t j = 0; j < ncol; j++)
			v[i * width + 1 + j] = (uint64_t)((double)excl[j] * npt + 0.5);
	}
	*nrows = i;
	return v;
}

/* rows_packed: {values, bytes, scale, zlib} (selinst-profile.h); 0, or -1
 * when it cannot be packed (the caller writes text rows). */
static int emit_rows_packed(struct em *m, const uint64_t *v, size_t n, size_t width)
{
	uint64_t scale[1 + SI_ITER_COLUMNS];
	size_t raw;
	char *text = NULL;
	if (si_pack_rows(v, n, width, scale, &raw, &text) != 0)
		return -1;
	plain(m, "rows_packed");
	map_start(m, 0);
	kint(m, "values", n * width);
	kint(m, "bytes", raw);
	plain(m, "scale");
	flow_seq_start(m);
	for (size_t j = 0; j < width; j++)
		uint_scalar(m, scale[j]);
	seq_end(m);
	kraw(m, "zlib", text);
	map_end(m);
	si_wfree(text);
	return 0;
}

/* The rows as text, or packed beyond SELINST_ITER_PACK_MIN iterations
 * (unless SELINST_ITERATE_EXACT=1). */
static void emit_rows(struct em *m, const struct si_snap *s, const struct si_series *se,
		      const uint64_t *omap, const uint64_t *col, size_t ncol, double npt)
{
	size_t n, width = 1 + ncol;
	uint64_t *v = row_values(s, se, omap, col, ncol, npt, &n);
	if (!v) {
		m->ok = 0;
		return;
	}
	if (n <= SELINST_ITER_PACK_MIN || si_iterate_exact() || emit_rows_packed(m, v, n, width)) {
		plain(m, "rows");
		flow_seq_start(m);
		for (size_t i = 0; i < n && m->ok; i++) {
			flow_seq_start(m);
			for (size_t j = 0; j < width; j++)
				uint_scalar(m, v[i * width + j]);
			seq_end(m);
		}
		seq_end(m);
	}
	si_wfree(v);
}

/* Whether the profile keeps SE: phases, the named loop, auto's choice. */
static int kept(const struct si_series *se)
{
	const char *file;
	uint32_t line;
	int found, iterable;
	if (se->ignored)
		return 0;
	if (se->region->kind != SELINST_KIND_LOOP)
		return 1;
	return si_iterate_status(&file, &line, &found, &iterable) != 2 || se->region == auto_choice;
}

/* The rule of SELINST_ITERATE=auto: of the outermost loops that can be
 * iterated, the one whose recorded iterations (4 or more, in one thread)
 * took the most time, summed over the threads. */
void si_iterate_choose(const struct si_snap *const *snaps, size_t n)
{
	auto_choice = NULL;
	uint64_t best = 0;
	for (size_t i = 0; i < n; i++)
		for (const struct si_series *se = snaps[i]->series; se; se = se->next) {
			if (se->ignored || se->region->kind != SELINST_KIND_LOOP ||
			    __atomic_load_n(&se->recorded, __ATOMIC_ACQUIRE) < 4)
				continue;
			uint64_t sum = 0;
			for (size_t j = 0; j < n; j++)
				for (const struct si_series *o = snaps[j]->series; o; o = o->next)
					if (o->region == se->region && !o->ignored)
						sum += series_ticks(o);
			if (sum > best) {
				best = sum;
				auto_choice = se->region;
			}
		}
}

void si_emit_iterations(struct em *m, const struct si_snap *s, const uint64_t *omap,
			uint64_t nout, double npt)
{
	/* In the order they began (the thread's list is newest first). */
	size_t n = 0;
	for (const struct si_series *se = s->series; se; se = se->next)
		n += kept(se);
	const struct si_series **order = n ? si_walloc(n * sizeof *order) : NULL;
	if (!order) {
		m->ok = n == 0;
		return;
	}
	size_t k = n;
	for (const struct si_series *se = s->series; se; se = se->next)
		if (kept(se))
			order[--k] = se;
	plain(m, "iterations");
	seq_start(m);
	for (k = 0; k < n && m->ok; k++) {
		const struct si_series *se = order[k];
		/* Each series' rows, codes and zlib state are given back before
		 * the next one's (walloc.c): 64 threads of 100,000 iterations
		 * took the write's peak from 260 MB (malloc, which reused) to
		 * 409 MB. */
		struct si_wspot spot;
		si_wmark(&spot);
		uint64_t col[SI_ITER_COLUMNS];
		size_t ncol = pick_columns(s, se, omap, nout, col);
		map_start(m, 0);
		kint(m, "node", out_id(s, omap, se->node_id));
		kraw(m, "kind", se->region->kind == SELINST_KIND_LOOP ? "loop" : "phase");
		kint(m, "recorded", __atomic_load_n(&se->recorded, __ATOMIC_ACQUIRE));
		kint(m, "dropped", se->dropped);
		plain(m, "columns");
		flow_seq_start(m);
		for (size_t j = 0; j < ncol; j++)
			uint_scalar(m, col[j]);
		seq_end(m);
		emit_calls(m, s, se, omap, col, ncol);
		emit_rows(m, s, se, omap, col, ncol, npt);
		map_end(m);
		si_wrelease(&spot);
	}
	seq_end(m);
	si_wfree(order);
}

/* iterate: {loop: "FILE:LINE", found: B, iterable: B} when SELINST_ITERATE
 * was given; the final write also says on stderr what went wrong. */
void si_emit_iterate_setting(struct em *m, int final)
{
	const char *file;
	uint32_t line;
	int found, iterable;
	int how = si_iterate_status(&file, &line, &found, &iterable);
	if (!how)
		return;
	char spec[300];
	plain(m, "iterate");
	map_start(m, 1);
	if (how == 2) {
		kraw(m, "loop", "auto");
		plain(m, "chosen");
		if (auto_choice) {
			snprintf(spec, sizeof spec, "%s:%u", auto_choice->file, auto_choice->line);
			quoted(m, spec);
		} else {
			plain(m, "~");
		}
		map_end(m);
		return;
	}
	snprintf(spec, sizeof spec, "%s:%u", file, line);
	kstr(m, "loop", spec);
	kraw(m, "found", found ? "true" : "false");
	kraw(m, "iterable", iterable ? "true" : "false");
	map_end(m);
	if (!final)
		return;
	if (!found)
		fprintf(stderr, "selinst: SELINST_ITERATE=%s: no loop region at that file and "
			"line ran (is the loop instrumented? see the decision file)\n", spec);
	else if (!iterable)
		fprintf(stderr, "selinst: SELINST_ITERATE=%s: the loop holds no call, so its "
			"iterations are not marked; no iterations recorded\n", spec);
}

void si_emit_flow(struct em *m, const struct si_snap *s, const uint64_t *omap)
{
	if (!s->nflow)
		return;
	plain(m, "flow");
	flow_seq_start(m);
	for (size_t i = 0; i < s->nflow; i++) {
		const struct si_flow_edge *e = &s->flow[i];
		if (e->node >= s->nn || e->pred >= s->nn)
			continue;	/* a node newer than the copy */
		flow_seq_start(m);
		uint_scalar(m, omap[e->node]);
		uint_scalar(m, omap[e->pred]);
		uint_scalar(m, e->count);
		seq_end(m);
	}
	seq_end(m);
}
