/* SPDX-License-Identifier: MIT */
/* --suggest: what each region's hooks cost the run, and a selection file
 * (the plugin's config=FILE) that excludes the costliest functions until
 * the predicted cost fits a budget, as scorep-score -g does for Score-P.
 *
 * Predicted cost of a region = its calls x the cost of one enter/exit
 * pair, as the runtime measured it at start-up (hook_pair_ns; the mean
 * over the files, or FALLBACK_PAIR_NS for profiles without it); its share
 * is that over the run's total (the sum of exclusive times).  A region
 * the runtime throttled is always excluded: its calls were cut short, so
 * its real cost is unknown, and the throttle found it cheap per call.
 * Loops cannot be named in a selection file: they are listed, never
 * dropped, and count against the budget. */
#include "report.h"
#include <stdlib.h>
#include <string.h>

#define FALLBACK_PAIR_NS 20.0	/* a hook pair on the development VM (doc/runtime.md) */

typedef struct srow { uint32_t region; double cost_ns; bool drop; } srow;

static int cmp_cost(const void *a, const void *b)
{
	const srow *x = a, *y = b;
	if (x->cost_ns != y->cost_ns)
		return x->cost_ns < y->cost_ns ? 1 : -1;
	return x->region < y->region ? -1 : x->region > y->region;
}

/* NAME as an fnmatch pattern matching exactly NAME, YAML double-quoted. */
static void put_pattern(FILE *f, const char *name)
{
	fputc('"', f);
	for (const char *p = name; *p; p++) {
		if (*p == '\\')
			fputs("\\\\\\\\", f);	/* fnmatch's \\, each escaped for YAML */
		else if (*p == '*' || *p == '?' || *p == '[')
			fprintf(f, "\\\\%c", *p);	/* fnmatch's \, escaped for YAML */
		else if (*p == '"')
			fputs("\\\"", f);
		else if ((unsigned char)*p < 0x20)
			fprintf(f, "\\x%02x", (unsigned char)*p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* Marks rows to drop, costliest first; returns the predicted cost kept.
 * When the regions no file can exclude (loops, manual) cost more than the
 * budget by themselves, the functions kept get the budget on top of them. */
static double choose(srow *rows, size_t n, const view *v, double budget_ns)
{
	double kept = 0, fixed = 0;
	for (size_t i = 0; i < n; i++) {
		kept += rows[i].cost_ns;
		if (v->regions[rows[i].region].kind != K_FUNCTION)
			fixed += rows[i].cost_ns;
	}
	if (fixed > budget_ns)
		budget_ns += fixed;
	for (size_t i = 0; i < n; i++) {
		const region *r = &v->regions[rows[i].region];
		if (r->kind != K_FUNCTION)
			continue;
		if (r->thr_procs || kept > budget_ns) {
			rows[i].drop = true;
			kept -= rows[i].cost_ns;
		}
	}
	return kept;
}

static int write_selection(const char *path, const srow *rows, size_t n, const view *v,
			   double budget_pct, double pair_ns, double kept_pct, double all_pct)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# selection file written by selinst-report --suggest (plugin: "
		"-fplugin-arg-selinst-config=%s)\n", path);
	fprintf(f, "# hook pair %.2f ns; predicted hook cost %.2f%% of the run, %.2f%% "
		"with these exclusions (budget %g%%)\n", pair_ns, all_pct, kept_pct, budget_pct);
	fprintf(f, "exclude:\n");
	size_t dropped = 0;
	for (size_t i = 0; i < n; i++) {
		const region *r = &v->regions[rows[i].region];
		if (!rows[i].drop)
			continue;
		fprintf(f, "  - function: ");
		put_pattern(f, r->name);
		fprintf(f, "   # %llu calls, %.2f%%%s\n", (unsigned long long)r->calls,
			100.0 * rows[i].cost_ns / (double)v->total, r->thr_procs ? ", throttled" : "");
		dropped++;
	}
	if (!dropped)
		fprintf(f, "  []\n");
	for (size_t i = 0; i < n; i++) {
		const region *r = &v->regions[rows[i].region];
		if (r->kind == K_LOOP && rows[i].cost_ns > 0)
			fprintf(f, "# loop %s (in %s): %.2f%%, cannot be named here (raise "
				"loop-threshold)\n", r->name, r->function ? r->function : "?",
				100.0 * rows[i].cost_ns / (double)v->total);
	}
	return fclose(f) ? -1 : 0;
}

int suggest(FILE *out, const view *v, const opts *o, double budget_pct, const char *sel_path)
{
	double pair_ns = v->pair_ns_files ? v->pair_ns_sum / v->pair_ns_files : FALLBACK_PAIR_NS;
	double total = v->total ? (double)v->total : 1;
	srow *rows = xmalloc((v->nregions + 1) * sizeof *rows);
	double all_ns = 0;
	for (size_t i = 0; i < v->nregions; i++) {
		rows[i] = (srow){ (uint32_t)i, (double)v->regions[i].calls * pair_ns, false };
		all_ns += rows[i].cost_ns;
	}
	qsort(rows, v->nregions, sizeof *rows, cmp_cost);
	double kept_ns = choose(rows, v->nregions, v, budget_pct / 100.0 * total);
	double all_pct = 100.0 * all_ns / total, kept_pct = 100.0 * kept_ns / total;

	char t[32];
	fmt_time(t, sizeof t, (double)v->total);
	fprintf(out, "Suggestion: %zu process%s, %s total, hook pair %.2f ns%s, budget %g%%\n",
		v->nprocs, v->nprocs == 1 ? "" : "es", t, pair_ns,
		v->pair_ns_files ? "" : " (assumed: the profiles do not record hook_pair_ns)",
		budget_pct);
	view_throttled_note(out, v, NULL);
	fprintf(out, "\n%7s %12s %10s %4s %7s region\n", "cost%", "calls", "incl/call", "kind",
		"action");
	int shown = 0;
	for (size_t i = 0; i < v->nregions; i++) {
		const region *r = &v->regions[rows[i].region];
		if (!region_selected(o, r) || (o->top > 0 && shown >= o->top))
			continue;
		char per[32];
		fmt_time(per, sizeof per, r->calls ? (double)r->incl / (double)r->calls : 0);
		fprintf(out, "%6.2f%% %12llu %10s %4s %7s ", 100.0 * rows[i].cost_ns / total,
			(unsigned long long)r->calls, per, r->kind == K_LOOP ? "loop" :
			r->kind == K_MANUAL ? "man" : "func", rows[i].drop ? "exclude" : "keep");
		put_name(out, o, 44, r->name);
		shown++;
	}
	fprintf(out, "\npredicted hook cost: %.2f%% of the run, %.2f%% with the exclusions%s\n",
		all_pct, kept_pct, kept_pct > budget_pct ? " (over the budget: loops or manual "
		"regions are left)" : "");
	int rc = write_selection(sel_path, rows, v->nregions, v, budget_pct, pair_ns, kept_pct,
				 all_pct);
	if (rc == 0)
		fprintf(out, "selection file: %s (-fplugin-arg-selinst-config=%s)\n", sel_path,
			sel_path);
	free(rows);
	return rc;
}
