/* SPDX-License-Identifier: MIT */
/*
 * Text views for a terminal: flat profile (default), --tree, --threads,
 * --loops.  Columns are aligned and every line fits in 80 columns unless
 * --wide is given (long region names are then printed whole).
 */
#include "report.h"
#include <stdlib.h>
#include <string.h>

#define COLS 80

static double secs(uint64_t ns) { return (double)ns / 1e9; }

/* How many of N listed regions a table shows: TOP, or all when TOP is 0. */
static size_t top_of(size_t n, int top) { return top > 0 && (size_t)top < n ? (size_t)top : n; }

/* NS as a percentage of the total, in at most 6 columns (an odd profile
 * can have an inclusive time above the total). */
static const char *pct(char buf[32], const view *v, uint64_t ns)
{
	fmt_pct(buf, 32, v->total ? 100.0 * (double)ns / (double)v->total : 0.0);
	return buf;
}

static const char *kind_short(int kind)
{
	return kind == K_LOOP ? "loop" : kind == K_MANUAL ? "man" : kind == K_SAMPLED ? "smp" :
	       kind == K_MPI ? "mpi" : kind == K_OMP ? "omp" : "func";
}

/* The calls column of a sampled function: its samples ("37 smp"). */
static void calls_col(char *buf, size_t n, int kind, uint64_t calls, uint64_t samples)
{
	if (kind != K_SAMPLED) {
		fmt_count(buf, n, 11, calls);
		return;
	}
	char c[24];
	fmt_count(c, sizeof c, 7, samples);
	snprintf(buf, n, "%s smp", c);
}

/* Regions switched off by SELINST_THROTTLE: their later calls and time
 * are not in the profile (their time is their callers'), so every view
 * names them, in the header. */
void view_throttled_note(FILE *out, const view *v, const char *which)
{
	size_t n = 0;
	for (size_t i = 0; i < v->nregions; i++) {
		const region *r = &v->regions[i];
		if (!r->thr_procs)
			continue;
		if (!n++)
			fprintf(out, "note: throttled%s%s (switched off by SELINST_THROTTLE; "
				"later calls not counted, their time is their callers'):\n",
				which ? " in " : "", which ? which : "");
		fprintf(out, "  %s %s at %llu calls, %.3f s", kind_short(r->kind), r->name,
			(unsigned long long)r->thr_calls, r->thr_seconds);
		if (v->nprocs > 1)
			fprintf(out, " (in %u of %zu processes)", r->thr_procs, v->nprocs);
		fputc('\n', out);
	}
}

/* --compensate: how much hook cost came out, and which files had no
 * calibration to do it with (left as measured). */
void view_compensated_note(FILE *out, const view *v)
{
	char t[32];
	fmt_time(t, sizeof t, (double)v->compensated_ns);
	if (v->compensated_files)
		fprintf(out, "note: hook cost compensated (--compensate): %s taken out, the calls "
			"of functions\n  and loops times the calibrated pair cost (hook_pair_ns, "
			"hook_loop_pair_ns),\n  scaled by the threads' run-queue waits (runqueue_ns); "
			"times are estimates\n  of the run without hooks\n", t);
	/* Calibrated cost that found no time left in its node: the hooks cost
	 * less there than back to back (they overlap the region's own work,
	 * bench/README.md), so the other nodes' estimates are low too, by up
	 * to as much.  Said from 1% of what is left. */
	if (v->compensated_files && (double)v->compensate_short_ns * 100 > (double)v->total) {
		fmt_time(t, sizeof t, (double)v->compensate_short_ns);
		fprintf(out, "note: %s more of the calibrated hook cost found no time left in its "
			"node (%.0f%% of the\n  compensated total): the hooks cost less here than "
			"calibrated; the estimates\n  of small, often-called regions are unreliable\n",
			t, 100.0 * (double)v->compensate_short_ns / (double)(v->total ? v->total : 1));
	}
	if (v->uncompensated_files)
		fprintf(out, "note: %u file%s without the hooks' calibration left as measured "
			"(not compensated)\n", v->uncompensated_files,
			v->uncompensated_files == 1 ? "" : "s");
}

/* One region holding more than half of the exclusive time, with no
 * sampled detail under it: the time of its loops and callees that are no
 * region (not chosen, or switched off by the throttle) is in it, and the
 * profile cannot say where inside it goes (a run with sampling off).  Say
 * so, and what splits it. */
static void dominant_note(FILE *out, const view *v)
{
	const region *top = NULL;
	uint32_t top_ix = 0;
	for (size_t i = 0; i < v->nregions; i++)
		if (!top || v->regions[i].excl > top->excl)
			top = &v->regions[i], top_ix = (uint32_t)i;
	/* A sampled function's time is its own; an MPI call's or OpenMP
	 * wait's is waiting. */
	if (!top || top->kind == K_SAMPLED || top->kind == K_MPI || top->kind == K_OMP
	    || top->excl * 2 <= v->total)
		return;
	for (size_t n = 1; n < v->nnodes; n++) {
		const cnode *c = &v->nodes[n];
		if (v->regions[c->region].kind == K_SAMPLED && c->parent
		    && v->nodes[c->parent].region == top_ix)
			return;
	}
	fprintf(out, "note: %s holds %.0f%% of the exclusive time,\n"
		"  with that of its loops and callees that are no region (not chosen, or\n"
		"  switched off); sampling (on unless SELINST_SAMPLE=off) splits it by\n"
		"  function and loop\n", top->name,
		100.0 * (double)top->excl / (double)v->total);
}

static void header(FILE *out, const view *v, const char *what)
{
	char t[32];
	if (v->total >= 1000000000ull) {
		fmt_secs(t, sizeof t - 2, secs(v->total));
		strcat(t, " s");
	} else
		fmt_time(t, sizeof t, (double)v->total);
	fprintf(out, "%s: %zu process%s, %zu thread%s, %s total\n", what, v->nprocs,
		v->nprocs == 1 ? "" : "es", v->nthreads, v->nthreads == 1 ? "" : "s", t);
	if (v->incomplete)
		fprintf(out, "note: includes a snapshot taken while the program ran (complete: false)\n");
	if (v->overflow)
		fprintf(out, "note: a thread hit the node limit; see the [overflow] region\n");
	view_throttled_note(out, v, NULL);
	dominant_note(out, v);
	if (v->nsettings > 1) {
		fprintf(out, "note: units compiled with different plugin settings; their regions were "
			"chosen by\n  different rules:\n");
		for (size_t i = 0; i < v->nsettings; i++)
			fprintf(out, "  %llu unit%s: %s\n", (unsigned long long)v->settings_units[i],
				v->settings_units[i] == 1 ? "" : "s", v->settings[i]);
	}
	if (v->compensated_files || v->uncompensated_files)
		view_compensated_note(out, v);
	if (v->sampled)
		fprintf(out, "note: ~name, kind smp: a function seen by SELINST_SAMPLE's samples in its\n"
			"  parent; its times are estimates (the parent's exclusive time split by\n"
			"  sample counts, 'N smp' in the calls column; outside every region, the\n"
			"  thread's CPU time split by sample counts)\n");
	if (v->nprograms > 1) {
		fprintf(out, "note: %zu programs merged:", v->nprograms);
		for (size_t i = 0; i < v->nprograms; i++)
			fprintf(out, "%s %s", i ? "," : "", v->programs[i]);
		fprintf(out, " (--tree names each top-level frame's)\n");
	}
}

/* The flat view's time unit: seconds, or ms / us for a run whose total is
 * below a second / a millisecond, so that short runs do not read 0.000. */
static const char *flat_unit(const view *v, double *per_ns)
{
	if (v->total >= 1000000000ull) {
		*per_ns = 1e-9;
		return "s";
	}
	if (v->total >= 1000000ull) {
		*per_ns = 1e-6;
		return "ms";
	}
	*per_ns = 1e-3;
	return "us";
}

void view_flat(FILE *out, const view *v, const opts *o)
{
	double per_ns;
	const char *unit = flat_unit(v, &per_ns);
	char eh[16], ih[16];
	header(out, v, "Flat profile");
	snprintf(eh, sizeof eh, "excl %s", unit);
	snprintf(ih, sizeof ih, "incl %s", unit);
	fprintf(out, "\n%9s %9s %6s %11s %9s %-4s %s\n", eh, ih, "%total",
		"calls", "incl/call", "kind", "region");
	size_t n;
	uint32_t *ix = view_listed_regions(v, o, false, false, 0, &n);
	for (size_t i = 0; i < top_of(n, o->top); i++) {
		const region *r = &v->regions[ix[i]];
		char e[32], in[32], pc[32], pb[32], cb[32];
		fmt_secs(e, sizeof e, (double)r->excl * per_ns);
		fmt_secs(in, sizeof in, (double)r->incl * per_ns);
		if (r->calls)
			fmt_time(pc, sizeof pc, (double)r->incl / (double)r->calls);
		else
			snprintf(pc, sizeof pc, "-");
		calls_col(cb, sizeof cb, r->kind, r->calls, r->samples);
		fprintf(out, "%9s %9s %6s %11s %9s %-4s ", e, in, pct(pb, v, r->excl), cb, pc,
			kind_short(r->kind));
		put_name(out, o, 9 + 1 + 9 + 1 + 6 + 1 + 11 + 1 + 9 + 1 + 4 + 1, r->name);
	}
	if (v->nprocs > 1 && n) {
		fprintf(out, "\nPer process (%zu): exclusive seconds, min / mean / max over processes\n",
			v->nprocs);
		fprintf(out, "%9s %9s %9s %8s %5s %s\n", "min", "mean", "max", "max/mean",
			"procs", "region");
		for (size_t i = 0; i < top_of(n, o->top); i++) {
			const region *r = &v->regions[ix[i]];
			double mean = (double)r->excl / (double)v->nprocs;
			char a[32], b[32], c[32], mm[32], np[32];
			fmt_secs(a, sizeof a, secs(r->pmin_excl));
			fmt_secs(b, sizeof b, mean / 1e9);
			fmt_secs(c, sizeof c, secs(r->pmax_excl));
			fmt_fit(mm, sizeof mm, 8, 2, mean > 0 ? (double)r->pmax_excl / mean : 0.0);
			fmt_count(np, sizeof np, 5, r->nprocs);
			fprintf(out, "%9s %9s %9s %8s %5s ", a, b, c, mm, np);
			put_name(out, o, 9 + 1 + 9 + 1 + 9 + 1 + 8 + 1 + 5 + 1, r->name);
		}
	}
	free(ix);
}

/* ---- --tree ---------------------------------------------------------------- */

typedef struct tree_ctx { FILE *out; const opts *o; uint64_t min_ns; size_t pruned; } tree_ctx;

static bool tree_visit(const view *v, uint32_t n, int depth, const uint32_t *path, void *arg)
{
	(void)path;
	tree_ctx *t = arg;
	const cnode *c = &v->nodes[n];
	const region *r = &v->regions[c->region];
	if (c->incl < t->min_ns) {
		t->pruned++;
		return false;
	}
	char in[32], e[32], buf[400], pb[32], cb[32];
	fmt_secs(in, sizeof in, secs(c->incl));
	fmt_secs(e, sizeof e, secs(c->excl));
	int ind = 2 * (depth - 1);
	if (ind > 40)
		ind = 40;
	if (r->kind == K_LOOP)
		snprintf(buf, sizeof buf, "%*s[loop %s] %llu it", ind, "", r->name,
			 (unsigned long long)c->iters);
	else
		snprintf(buf, sizeof buf, "%*s%s", ind, "", r->name);
	if (depth == 1 && v->nprograms > 1) {
		char progs[256];
		size_t l = strlen(buf);
		node_programs(v, n, progs, sizeof progs);
		snprintf(buf + l, sizeof buf - l, "  [program %s]", progs);
	}
	calls_col(cb, sizeof cb, r->kind, c->calls, c->samples);
	fprintf(t->out, "%9s %6s %9s %11s ", in, pct(pb, v, c->incl), e, cb);
	put_name(t->out, t->o, 9 + 1 + 6 + 1 + 9 + 1 + 11 + 1, buf);
	return true;
}

void view_tree(FILE *out, const view *v, const opts *o)
{
	header(out, v, "Calling-context tree");
	fprintf(out, "pruned below %g%% of total; loops shown as [loop file:line]\n\n", o->prune);
	fprintf(out, "%9s %6s %9s %11s %s\n", "incl s", "%total", "excl s", "calls", "region");
	tree_ctx t = { out, o, (uint64_t)((double)v->total * o->prune / 100.0), 0 };
	view_walk(v, tree_visit, &t);
	if (t.pruned)
		fprintf(out, "(%zu subtree%s below %g%% not shown; --prune 0 shows all)\n",
			t.pruned, t.pruned == 1 ? "" : "s", o->prune);
}

/* ---- --threads --------------------------------------------------------------- */

static void thread_name(const view *v, const thrinfo *t, char *buf, size_t n)
{
	const procinfo *p = &v->procs[t->proc];
	if (v->nprocs == 1)
		snprintf(buf, n, "t%llu", (unsigned long long)t->index);
	else if (p->rank >= 0)
		snprintf(buf, n, "r%lld.t%llu", (long long)p->rank, (unsigned long long)t->index);
	else
		snprintf(buf, n, "p%u.t%llu", t->proc, (unsigned long long)t->index);
}

static uint64_t thread_region(const thrinfo *t, uint32_t g, bool *found)
{
	for (size_t k = 0; k < t->nreg; k++)
		if (t->reg[k] == g) {
			*found = true;
			return t->excl[k];
		}
	*found = false;
	return 0;
}

void view_threads(FILE *out, const view *v, const opts *o)
{
	header(out, v, "Threads");
	fprintf(out, "(elapsed time in regions per thread, running or waiting; cpu s: the\n"
		" thread's CPU time, all of it, '-' where not recorded)\n");
	fprintf(out, "\n%-12s %10s %9s %6s %9s\n", "thread", "tid", "excl s", "%total", "cpu s");
	for (size_t i = 0; i < v->nthreads; i++) {
		const thrinfo *t = &v->threads[i];
		char nm[64], s[32], pb[32], tid[32], cpu[32] = "-";
		thread_name(v, t, nm, sizeof nm);
		fmt_secs(s, sizeof s, secs(t->total));
		fmt_count(tid, sizeof tid, 10, t->tid);
		if (t->cpu_ns >= 0)
			fmt_secs(cpu, sizeof cpu, secs((uint64_t)t->cpu_ns));
		fprintf(out, "%-12s %10s %9s %6s %9s\n", nm, tid, s, pct(pb, v, t->total), cpu);
	}
	size_t n;
	uint32_t *ix = view_listed_regions(v, o, false, false, o->top_set ? o->top : 10, &n);
	fprintf(out, "\nTop regions: exclusive seconds per thread (over the threads that entered them)\n");
	fprintf(out, "%7s %9s %9s %9s %9s %s\n", "threads", "min", "mean", "max", "max/mean",
		"region");
	for (size_t i = 0; i < n; i++) {
		const region *r = &v->regions[ix[i]];
		uint64_t mn = UINT64_MAX, mx = 0, sum = 0;
		uint32_t cnt = 0;
		for (size_t k = 0; k < v->nthreads; k++) {
			bool f;
			uint64_t x = thread_region(&v->threads[k], ix[i], &f);
			if (!f)
				continue;
			cnt++;
			sum += x;
			mn = x < mn ? x : mn;
			mx = x > mx ? x : mx;
		}
		if (!cnt)
			mn = 0;
		double mean = cnt ? (double)sum / cnt : 0;
		char a[32], b[32], c[32], mm[32], nt[32];
		fmt_secs(a, sizeof a, secs(mn));
		fmt_secs(b, sizeof b, mean / 1e9);
		fmt_secs(c, sizeof c, secs(mx));
		fmt_fit(mm, sizeof mm, 9, 2, mean > 0 ? (double)mx / mean : 0.0);
		fmt_count(nt, sizeof nt, 7, cnt);
		fprintf(out, "%7s %9s %9s %9s %9s ", nt, a, b, c, mm);
		put_name(out, o, 7 + 1 + 9 + 1 + 9 + 1 + 9 + 1 + 9 + 1, r->name);
	}
	if (v->nthreads > 1 && v->nthreads <= 6) {
		fprintf(out, "\nExclusive seconds by thread\n");
		for (size_t k = 0; k < v->nthreads; k++) {
			char nm[64];
			thread_name(v, &v->threads[k], nm, sizeof nm);
			fprintf(out, "%9.9s ", nm);
		}
		fprintf(out, "region\n");
		for (size_t i = 0; i < n; i++) {
			const region *r = &v->regions[ix[i]];
			for (size_t k = 0; k < v->nthreads; k++) {
				bool f;
				uint64_t x = thread_region(&v->threads[k], ix[i], &f);
				char s[32];
				if (f)
					fmt_secs(s, sizeof s, secs(x));
				else
					snprintf(s, sizeof s, "-");
				fprintf(out, "%9s ", s);
			}
			put_name(out, o, 10 * (int)v->nthreads, r->name);
		}
	}
	free(ix);
}

/* ---- --loops ----------------------------------------------------------------- */

void view_loops(FILE *out, const view *v, const opts *o)
{
	header(out, v, "Loops");
	fprintf(out, "sorted by total time; self excludes instrumented callees and inner loops\n\n");
	fprintf(out, "%9s %6s %9s %10s %12s %8s %s\n", "total", "%total", "self", "entries",
		"iterations", "it/entry", "loop");
	fprintf(out, "%10s %s\n", "", "in function; trip counts (iterations per entry: entries)");
	size_t n;
	uint32_t *ix = view_listed_regions(v, o, true, true, o->top, &n);
	for (size_t i = 0; i < n; i++) {
		const region *r = &v->regions[ix[i]];
		char in[32], e[32], buf[400], pb[32], en[32], it[32], ipe[32];
		fmt_time(in, sizeof in, (double)r->incl);
		fmt_time(e, sizeof e, (double)r->excl);
		snprintf(buf, sizeof buf, "%s", r->name);
		fmt_count(en, sizeof en, 10, r->calls);
		fmt_count(it, sizeof it, 12, r->iters);
		fmt_fit(ipe, sizeof ipe, 8, 1, r->calls ? (double)r->iters / (double)r->calls : 0.0);
		fprintf(out, "%9s %6s %9s %10s %12s %8s ", in, pct(pb, v, r->incl), e, en, it, ipe);
		put_name(out, o, 9 + 1 + 6 + 1 + 9 + 1 + 10 + 1 + 12 + 1 + 8 + 1, buf);
		/* Trip-count histogram, wrapped at 80 columns. */
		int col = fprintf(out, "%10s in %s; trips:", "", r->function ? r->function : "?");
		bool any = false;
		for (int b = 0; b < NTRIP; b++) {
			if (!r->trips[b])
				continue;
			char nm[48], item[96];
			trip_bucket_name(b, nm, sizeof nm);
			int len = snprintf(item, sizeof item, " %s:%llu", nm,
					   (unsigned long long)r->trips[b]);
			if (col + len > COLS) {
				fprintf(out, "\n%10s", "");
				col = 10;
			}
			fputs(item, out);
			col += len;
			any = true;
		}
		if (!any)
			fputs(" (none recorded)", out);
		putc('\n', out);
	}
	if (!n)
		fprintf(out, "(no loop regions in the profile)\n");
	free(ix);
}
