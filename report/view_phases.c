/* SPDX-License-Identifier: MIT */
/*
 * view_phases.c - selinst-report --phases: what each iteration of an
 * iterated loop (SELINST_ITERATE) or of a phase (selinst_phase_begin/end)
 * cost, from the profiles' `iterations` tables.
 *
 * One table per loop or phase, its threads (and processes) together:
 * iteration i's time is the longest of its threads' (the others waited
 * for it), its imbalance the longest over the mean; a region's figures
 * are summed over the threads.  An iteration is flagged when its time
 * lies more than K median absolute deviations from the median (--jitter
 * K, default 5): the OS-jitter peaks of the ompP paper.  The MAD is taken
 * as at least 1% of the median, so that a run of identical iterations
 * does not flag a few nanoseconds of noise.
 */
#include "report.h"
#include "phases.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool same_region(const pregion *a, const pregion *b)
{
	return a->kind == b->kind && a->line == b->line && !strcmp(a->name, b->name) &&
	       !strcmp(a->file ? a->file : "", b->file ? b->file : "");
}

static struct phase *find_or_add(struct phase **ph, size_t *n, const pregion *r, bool is_phase)
{
	for (size_t i = 0; i < *n; i++)
		if ((*ph)[i].is_phase == is_phase && same_region((*ph)[i].r, r))
			return &(*ph)[i];
	*ph = xrealloc(*ph, (*n + 1) * sizeof **ph);
	struct phase *x = &(*ph)[(*n)++];
	memset(x, 0, sizeof *x);
	x->r = r;
	x->is_phase = is_phase;
	return x;
}

static void add_members(struct phase **ph, size_t *n, const profile *p)
{
	for (size_t t = 0; t < p->nthreads; t++) {
		const pthr *th = &p->threads[t];
		for (size_t k = 0; k < th->niters; k++) {
			const piter *it = &th->iters[k];
			const pregion *r = &p->regions[th->nodes[it->node].region];
			struct phase *x = find_or_add(ph, n, r, it->phase);
			x->m = xrealloc(x->m, (x->nm + 1) * sizeof *x->m);
			x->m[x->nm++] = (struct member){ p, th, it };
			if (it->recorded > x->n)
				x->n = it->recorded;
			x->dropped += it->dropped;
		}
	}
}

/* X's columns: the members' columns with the most time in all. */
static void pick_columns(struct phase *x)
{
	struct col all[64 * 4];
	size_t na = 0;
	for (size_t i = 0; i < x->nm; i++) {
		const struct member *m = &x->m[i];
		for (uint32_t j = 0; j < m->it->ncol; j++) {
			const pregion *r = &m->p->regions[m->th->nodes[m->it->col[j]].region];
			double s = 0;
			for (uint64_t k = 0; k < m->it->recorded; k++)
				s += (double)m->it->rows[k * (1 + m->it->ncol) + 1 + j] / 1e9;
			size_t a = 0;
			while (a < na && !same_region(all[a].r, r))
				a++;
			if (a == na) {
				if (na == sizeof all / sizeof all[0])
					continue;
				all[na++] = (struct col){ r, 0 };
			}
			all[a].secs += s;
		}
	}
	while (x->ncols < MAX_COLS && na) {
		size_t b = 0;
		for (size_t a = 1; a < na; a++)
			if (all[a].secs > all[b].secs)
				b = a;
		x->cols[x->ncols++] = all[b];
		all[b] = all[--na];
	}
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof *v, dcmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Per-iteration time (longest thread), imbalance, median and MAD. */
static void iteration_times(struct phase *x)
{
	x->secs = xcalloc(x->n + 1, sizeof *x->secs);
	x->imb = xcalloc(x->n + 1, sizeof *x->imb);
	for (uint64_t k = 0; k < x->n; k++) {
		double mx = 0, sum = 0;
		size_t cnt = 0;
		for (size_t i = 0; i < x->nm; i++) {
			const piter *it = x->m[i].it;
			if (k >= it->recorded)
				continue;
			double s = (double)it->rows[k * (1 + it->ncol)] / 1e9;
			mx = s > mx ? s : mx;
			sum += s;
			cnt++;
		}
		x->secs[k] = mx;
		x->imb[k] = cnt && sum > 0 ? mx / (sum / (double)cnt) : 1;
	}
	if (!x->n)
		return;
	double *tmp = xmalloc(x->n * sizeof *tmp);
	memcpy(tmp, x->secs, x->n * sizeof *tmp);
	x->median = median_of(tmp, x->n);
	for (uint64_t k = 0; k < x->n; k++)
		tmp[k] = fabs(x->secs[k] - x->median);
	x->mad = median_of(tmp, x->n);
	if (x->mad < x->median / 100)
		x->mad = x->median / 100;
	free(tmp);
}

bool phase_flagged(const struct phase *x, uint64_t k, double jitter)
{
	return fabs(x->secs[k] - x->median) > jitter * x->mad;
}

void phase_col_figures(const struct phase *x, uint64_t k, const struct col *c, double *secs,
			uint64_t *calls)
{
	*secs = 0;
	*calls = 0;
	for (size_t i = 0; i < x->nm; i++) {
		const struct member *m = &x->m[i];
		if (k >= m->it->recorded)
			continue;
		for (uint32_t j = 0; j < m->it->ncol; j++)
			if (same_region(&m->p->regions[m->th->nodes[m->it->col[j]].region], c->r)) {
				*secs += (double)m->it->rows[k * (1 + m->it->ncol) + 1 + j] / 1e9;
				*calls += m->it->calls[k * m->it->ncol + j];
			}
	}
}

void phase_region_label(char *buf, size_t n, const pregion *r)
{
	if (r->kind == K_LOOP && r->function)
		snprintf(buf, n, "%s in %s", r->name, r->function);
	else
		snprintf(buf, n, "%s", r->name);
}

static void text_table(FILE *out, const struct phase *x, double jitter)
{
	char label[300];
	phase_region_label(label, sizeof label, x->r);
	fprintf(out, "%s %s: %llu iterations, %zu thread%s", x->is_phase ? "phase" : "loop", label,
		(unsigned long long)x->n, x->nm, x->nm == 1 ? "" : "s");
	if (x->dropped)
		fprintf(out, " (%llu more not recorded: SELINST_ITERATE_MAX)",
			(unsigned long long)x->dropped);
	fprintf(out, "\n  median %.3f ms, MAD %.3f ms; flagged: more than %g MADs from the median\n",
		x->median * 1e3, x->mad * 1e3, jitter);
	for (size_t j = 0; j < x->ncols; j++) {
		phase_region_label(label, sizeof label, x->cols[j].r);
		fprintf(out, "  [%c] %s\n", (int)('A' + j), label);
	}
	fprintf(out, "%6s %10s %6s", "iter", "time_ms", "imbal");
	for (size_t j = 0; j < x->ncols; j++)
		fprintf(out, " %8c_ms %7c_n", (int)('A' + j), (int)('A' + j));
	fprintf(out, " %10s\n", "other_ms");
	for (uint64_t k = 0; k < x->n; k++) {
		double rest = x->secs[k] * (double)x->nm;
		fprintf(out, "%6llu %10.3f %6.2f", (unsigned long long)k + 1, x->secs[k] * 1e3,
			x->imb[k]);
		for (size_t j = 0; j < x->ncols; j++) {
			double s;
			uint64_t calls;
			phase_col_figures(x, k, &x->cols[j], &s, &calls);
			rest -= s;
			fprintf(out, " %11.3f %9llu", s * 1e3, (unsigned long long)calls);
		}
		fprintf(out, " %10.3f%s\n", (rest > 0 ? rest : 0) / (double)x->nm * 1e3,
			phase_flagged(x, k, jitter) ? "  <- jitter" : "");
	}
}

static void json_phase(FILE *out, const struct phase *x, double jitter)
{
	fputs("{\"name\":", out);
	json_str(out, x->r->name);
	fprintf(out, ",\"kind\":\"%s\",\"file\":", x->is_phase ? "phase" : "loop");
	json_str(out, x->r->file ? x->r->file : "");
	fprintf(out, ",\"line\":%u,\"threads\":%zu,\"dropped\":%llu,\"median_seconds\":%.9g,"
		"\"mad_seconds\":%.9g,\"jitter_mads\":%g,\"iterations\":[", x->r->line, x->nm,
		(unsigned long long)x->dropped, x->median, x->mad, jitter);
	for (uint64_t k = 0; k < x->n; k++) {
		fprintf(out, "%s{\"iteration\":%llu,\"seconds\":%.9g,\"imbalance\":%.4f,"
			"\"flagged\":%s,\"regions\":[", k ? "," : "", (unsigned long long)k + 1,
			x->secs[k], x->imb[k], phase_flagged(x, k, jitter) ? "true" : "false");
		for (size_t j = 0; j < x->ncols; j++) {
			double s;
			uint64_t calls;
			phase_col_figures(x, k, &x->cols[j], &s, &calls);
			fprintf(out, "%s{\"name\":", j ? "," : "");
			json_str(out, x->cols[j].r->name);
			fprintf(out, ",\"line\":%u,\"seconds\":%.9g,\"calls\":%llu}",
				x->cols[j].r->line, s, (unsigned long long)calls);
		}
		fputs("]}", out);
	}
	fputs("]}", out);
}

/* The phases' tables in FORMAT. */
static void render(FILE *out, const struct phase *ph, size_t n, int format, double jitter)
{
	if (format == PHASES_SVG) {
		phases_svg(out, ph, n, jitter);
		return;
	}
	if (format == PHASES_JSON)
		fprintf(out, "{\"format\":\"selinst-phases\",\"version\":1,\"phases\":[");
	else if (!n)
		fprintf(out, "no iterations recorded (SELINST_ITERATE=FILE:LINE names a loop; "
			"selinst_phase_begin/end mark phases)\n");
	for (size_t i = 0; i < n; i++) {
		if (format == PHASES_JSON) {
			fputs(i ? "," : "", out);
			json_phase(out, &ph[i], jitter);
		} else {
			fputs(i ? "\n" : "", out);
			text_table(out, &ph[i], jitter);
		}
	}
	if (format == PHASES_JSON)
		fputs("]}\n", out);
}

int view_phases(FILE *out, char **files, int nfiles, int format, double jitter)
{
	profile *ps = xcalloc((size_t)nfiles, sizeof *ps);
	struct phase *ph = NULL;
	size_t n = 0;
	char err[512];
	for (int f = 0; f < nfiles; f++) {
		if (profile_read(files[f], &ps[f], err, sizeof err) < 0) {
			fprintf(stderr, "selinst-report: %s\n", err);
			return 2;
		}
		add_members(&ph, &n, &ps[f]);
	}
	for (size_t i = 0; i < n; i++) {
		pick_columns(&ph[i]);
		iteration_times(&ph[i]);
	}
	render(out, ph, n, format, jitter);
	for (size_t i = 0; i < n; i++) {
		free(ph[i].m);
		free(ph[i].secs);
		free(ph[i].imb);
	}
	free(ph);
	for (int f = 0; f < nfiles; f++)
		profile_free(&ps[f]);
	free(ps);
	return 0;
}
