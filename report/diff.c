/* SPDX-License-Identifier: MIT */
/*
 * --diff BASE NEW: per-region change of exclusive time, and the CI gate.
 *
 * Regions are matched by identity (kind, name, file, line).  Rows are
 * sorted by the absolute change in seconds.  With --fail-above PCT the
 * exit status is 1 when any region that holds at least 1% of BASE's total
 * got slower by more than PCT percent, else 0.  Exclusive time is used so
 * that a slowdown is charged to the region where it happened, not to all
 * of its callers.
 */
#include "report.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct drow { const region *b, *n; double delta; } drow;

static int cmp_row(const void *x, const void *y)
{
	const drow *a = x, *b = y;
	if (fabs(a->delta) != fabs(b->delta))
		return fabs(a->delta) > fabs(b->delta) ? -1 : 1;
	const region *ra = a->b ? a->b : a->n, *rb = b->b ? b->b : b->n;
	int c = strcmp(ra->name, rb->name);
	if (c)
		return c;
	if ((c = strcmp(ra->file, rb->file)))
		return c;
	return (int)ra->line - (int)rb->line;
}

/*
 * "Exclusive time: BASE (B s) -> NEW (N s), total +X%".  Like the
 * region names of the views, file names too long for 80 columns are cut
 * with a '+' (whole with --wide): the room left is shared between the two
 * names, a short one leaving the rest to the other.  Names are not cut
 * below 8 columns each.
 */
static void header(FILE *out, const opts *o, const char *bname, double bt,
		   const char *nname, double nt)
{
	char tail[64];
	snprintf(tail, sizeof tail, " (%.3f s), total %+.1f%%", nt,
		 bt > 0 ? 100 * (nt - bt) / bt : 0.0);
	int bl = (int)strlen(bname), nl = (int)strlen(nname);
	int fixed = snprintf(NULL, 0, "Exclusive time:  (%.3f s) -> ", bt) + (int)strlen(tail);
	int room = 80 - fixed, bw = bl, nw = nl;
	if (!o->wide && bl + nl > room && room >= 16) {
		int half = room / 2;
		if (bl <= half)
			nw = room - bl;
		else if (nl <= room - half)
			bw = room - nl;
		else {
			bw = half;
			nw = room - half;
		}
	}
	fputs("Exclusive time: ", out);
	if (bw < bl)
		fprintf(out, "%.*s+", bw - 1, bname);
	else
		fputs(bname, out);
	fprintf(out, " (%.3f s) -> ", bt);
	if (nw < nl)
		fprintf(out, "%.*s+", nw - 1, nname);
	else
		fputs(nname, out);
	fprintf(out, "%s\n\n", tail);
}

int diff_views(FILE *out, const view *base, const view *nw, const opts *o, double fail_above)
{
	size_t cap = base->nregions + nw->nregions + 1, n = 0;
	drow *rows = xmalloc(cap * sizeof *rows);
	for (size_t i = 0; i < base->nregions; i++) {
		const region *b = &base->regions[i];
		long j = view_find_region(nw, b);
		const region *r = j >= 0 ? &nw->regions[j] : NULL;
		rows[n++] = (drow){ b, r, ((r ? (double)r->excl : 0) - (double)b->excl) / 1e9 };
	}
	for (size_t i = 0; i < nw->nregions; i++)
		if (view_find_region(base, &nw->regions[i]) < 0)
			rows[n++] = (drow){ NULL, &nw->regions[i], (double)nw->regions[i].excl / 1e9 };
	qsort(rows, n, sizeof *rows, cmp_row);

	double bt = (double)base->total / 1e9, nt = (double)nw->total / 1e9;
	header(out, o, base->procs[0].path, bt, nw->procs[0].path, nt);
	view_throttled_note(out, base, "base");
	view_throttled_note(out, nw, "new");
	fprintf(out, "%9s %9s %9s %8s %6s %s\n", "base s", "new s", "delta s", "change", "%base",
		"region");
	int shown = 0, failed = 0;
	double limit = (double)base->total * 0.01;
	for (size_t i = 0; i < n; i++) {
		const region *r = rows[i].b ? rows[i].b : rows[i].n;
		if (!region_selected(o, r))
			continue;
		double b = rows[i].b ? (double)rows[i].b->excl : 0;
		double x = rows[i].n ? (double)rows[i].n->excl : 0;
		char change[32];
		if (!rows[i].b)
			snprintf(change, sizeof change, "new");
		else if (!rows[i].n)
			snprintf(change, sizeof change, "gone");
		else if (b > 0) {
			double pc = 100 * (x - b) / b;
			if (snprintf(change, sizeof change, "%+.1f%%", pc) > 8)
				snprintf(change, sizeof change, "%+.0e%%", pc);	/* 8 columns */
		} else
			snprintf(change, sizeof change, "%s", x > 0 ? "+inf" : "0.0%");
		if (!o->top || shown < o->top) {
			shown++;
			char bs[32], xs[32], ds[32], pb[32];
			fmt_fit(bs, sizeof bs, 9, 3, b / 1e9);
			fmt_fit(xs, sizeof xs, 9, 3, x / 1e9);
			/* Signed like %+9.3f, in 9 columns at most. */
			fmt_fit(ds + 1, sizeof ds - 1, 8, 3, (x < b ? b - x : x - b) / 1e9);
			ds[0] = x < b ? '-' : '+';
			fmt_pct(pb, sizeof pb, base->total ? 100 * b / (double)base->total : 0.0);
			int len = fprintf(out, "%9s %9s %9s %8s %6s ", bs, xs, ds, change, pb);
			put_name(out, o, len, r->name);
		}
	}
	if (fail_above >= 0) {
		for (size_t i = 0; i < n; i++) {
			if (!rows[i].b)
				continue;
			double b = (double)rows[i].b->excl;
			double x = rows[i].n ? (double)rows[i].n->excl : 0;
			if (b < limit || b <= 0 || !region_selected(o, rows[i].b))
				continue;
			double pct = 100 * (x - b) / b;
			if (pct > fail_above) {
				if (!failed++)
					fputc('\n', out);
				fprintf(out, "FAIL: %s: %.3f s -> %.3f s (%+.1f%%), more than %g%% slower\n",
					rows[i].b->name, b / 1e9, x / 1e9, pct, fail_above);
			}
		}
		if (!failed)
			fprintf(out, "\nOK: no region with >= 1%% of the base total got more than "
				"%g%% slower\n", fail_above);
	}
	free(rows);
	return failed ? 1 : 0;
}
