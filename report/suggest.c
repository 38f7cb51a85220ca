/* SPDX-License-Identifier: MIT */
/* --suggest: what each region's hooks cost the run, and a selection file
 * (the plugin's config=FILE) that excludes the costliest functions until
 * the predicted cost fits a budget, as scorep-score -g does for Score-P.
 *
 * The prediction is the plugin's feedback's (plugin/feedback.cc), with
 * the rules and constants of include/selinst-predict.h, so that one
 * profile gives the same figure per region and for the whole run
 * (predicted_all) in both; the plugin's figure of what is kept also
 * merges a kept region's nodes under dropped callers, which this does
 * not.  A region costs its calls x the hook pair (the mean
 * of the files' hook_pair_ns, or SELINST_PREDICT_FALLBACK_PAIR_NS), a
 * function's calls x the out-of-line term, a loop's iterations x the
 * counter's, its call-tree nodes and regions-table entries x the write
 * at exit; every process
 * pays the start-up.  The share is over the run without the measured
 * hooks: per thread its CPU time (cpu_ns, at most its exclusive time;
 * else that), less its pairs (in situ from SELINST_SAMPLE's samples in
 * the hooks when there are enough, else its calls x its file's pair) and
 * the other terms, at least a tenth of the run.  A region the runtime
 * throttled is always excluded: its calls were cut short, so its real
 * cost is unknown, and the throttle found it cheap per call.  Loops
 * cannot be named in a selection file: they are listed, never dropped,
 * and count against the budget, as manual regions and the start-up do. */
#include "report.h"
#include "../include/selinst-predict.h"
#include <stdlib.h>
#include <string.h>

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
static double choose(srow *rows, size_t n, const view *v, double budget_ns, double start_ns)
{
	double kept = start_ns, fixed = start_ns;
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
			   double budget_pct, double pair_ns, double kept_pct, double all_pct,
			   double base_ns)
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
			100.0 * rows[i].cost_ns / base_ns, r->thr_procs ? ", throttled" : "");
		dropped++;
	}
	if (!dropped)
		fprintf(f, "  []\n");
	for (size_t i = 0; i < n; i++) {
		const region *r = &v->regions[rows[i].region];
		if (r->kind == K_LOOP && rows[i].cost_ns > 0)
			fprintf(f, "# loop %s (in %s): %.2f%%, cannot be named here (raise "
				"loop-threshold)\n", r->name, r->function ? r->function : "?",
				100.0 * rows[i].cost_ns / base_ns);
	}
	return fclose(f) ? -1 : 0;
}

/* Region R's predicted cost besides its hook pairs. */
static double extra_ns(const region *r)
{
	if (r->kind == K_SAMPLED)
		return 0;
	int kind = r->kind == K_FUNCTION ? SELINST_PREDICT_FUNCTION
		: r->kind == K_LOOP ? SELINST_PREDICT_LOOP : SELINST_PREDICT_OTHER;
	double name_bytes = strlen(r->name) + (r->file ? strlen(r->file) : 0)
		+ (r->function ? strlen(r->function) : 0);
	double iters = selinst_predict_counted((double)r->iters,
					       r->kind == K_LOOP && !r->counted_procs);
	return selinst_predict_extra_ns(kind, (double)r->calls, iters, (double)r->nodes,
					(double)r->nprocs, name_bytes);
}

/* The run without its hooks (the shares' base), and in *PAIR_RUN the mean
 * pair in the run (in situ where measured), as the plugin has them;
 * *FLOOR: that is a tenth of the run (the hooks 90% of it or more). */
static double run_without_hooks(const view *v, double *pair_run, bool *in_situ, bool *floor)
{
	double run = 0, hooks = 0, pairs_cal = 0;
	*in_situ = false;
	for (size_t i = 0; i < v->nthreads; i++) {
		const thrinfo *t = &v->threads[i];
		double time = selinst_predict_thread_time((double)t->cpu_ns, (double)t->total);
		double pair = t->pair_ns > 0 ? t->pair_ns : SELINST_PREDICT_FALLBACK_PAIR_NS;
		double calls = (double)t->calls;
		run += time;
		pairs_cal += calls * pair;
		*in_situ |= selinst_predict_in_situ((double)t->samples,
						     (double)t->samples_in_runtime);
		hooks += selinst_predict_thread_pairs_ns(calls, pair, time, (double)t->samples,
							 (double)t->samples_in_runtime);
	}
	double pair = v->pair_ns_files ? v->pair_ns_sum / v->pair_ns_files
		: SELINST_PREDICT_FALLBACK_PAIR_NS;
	*pair_run = pairs_cal > 0 ? pair * hooks / pairs_cal : pair;
	for (size_t i = 0; i < v->nregions; i++)
		hooks += extra_ns(&v->regions[i]);
	*floor = selinst_predict_at_floor(run, hooks);
	return selinst_predict_run_without_hooks(run, hooks);
}

int suggest(FILE *out, const view *v, const opts *o, double budget_pct, const char *sel_path)
{
	double pair_ns = v->pair_ns_files ? v->pair_ns_sum / v->pair_ns_files
		: SELINST_PREDICT_FALLBACK_PAIR_NS;
	double pair_run;
	bool in_situ, floor;
	double total = run_without_hooks(v, &pair_run, &in_situ, &floor);
	srow *rows = xmalloc((v->nregions + 1) * sizeof *rows);
	double start_ns = (double)v->nprocs * SELINST_PREDICT_PROCESS_NS, all_ns = start_ns;
	for (size_t i = 0; i < v->nregions; i++) {
		const region *r = &v->regions[i];
		double cost = r->kind == K_SAMPLED ? 0 : (double)r->calls * pair_ns + extra_ns(r);
		rows[i] = (srow){ (uint32_t)i, cost, false };
		all_ns += cost;
	}
	qsort(rows, v->nregions, sizeof *rows, cmp_cost);
	double kept_ns = choose(rows, v->nregions, v, budget_pct / 100.0 * total, start_ns);
	double all_pct = 100.0 * all_ns / total, kept_pct = 100.0 * kept_ns / total;

	char t[32];
	fmt_time(t, sizeof t, (double)v->total);
	fprintf(out, "Suggestion: %zu process%s, %s total, hook pair %.2f ns%s, budget %g%%\n",
		v->nprocs, v->nprocs == 1 ? "" : "es", t, pair_ns,
		v->pair_ns_files ? "" : " (assumed: the profiles do not record hook_pair_ns)",
		budget_pct);
	fmt_time(t, sizeof t, total);
	fprintf(out, "shares of the run without its hooks: %s (a pair cost %.2f ns in the run%s%s)\n",
		t, pair_run, in_situ ? ", measured in situ" : "",
		floor ? "; a floor, a tenth of the run: the hooks were 90% of it or more, so "
		"its length without them is not measured" : "");
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
				 all_pct, total);
	if (rc == 0)
		fprintf(out, "selection file: %s (-fplugin-arg-selinst-config=%s)\n", sel_path,
			sel_path);
	free(rows);
	return rc;
}
