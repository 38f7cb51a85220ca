/* SPDX-License-Identifier: MIT */
/* phases.h - what view_phases.c builds and export_phases_svg.c draws. */
#ifndef SELINST_REPORT_PHASES_H
#define SELINST_REPORT_PHASES_H
#include "report.h"

#define MAX_COLS 6		/* regions shown per table */

/* One loop or phase over every thread that iterated it. */
struct member { const profile *p; const pthr *th; const piter *it; };
struct col { const pregion *r; double secs; };
struct phase {
	const pregion *r;	/* the loop's or phase's region */
	bool is_phase;
	struct member *m;
	size_t nm;
	uint64_t n, dropped;	/* iterations: the most any member recorded */
	struct col cols[MAX_COLS];
	size_t ncols;
	double *secs, *imb;	/* per iteration */
	double median, mad;
};

/* Iteration K's seconds and calls in column C, summed over threads. */
void phase_col_figures(const struct phase *x, uint64_t k, const struct col *c, double *secs,
		       uint64_t *calls);
bool phase_flagged(const struct phase *x, uint64_t k, double jitter);
/* "NAME in FUNCTION" for loops, NAME otherwise. */
void phase_region_label(char *buf, size_t n, const pregion *r);
/* --phases --format=svg: a time series and a threads x iterations heatmap
 * per phase, self-contained. */
void phases_svg(FILE *out, const struct phase *ph, size_t n, double jitter);

#endif
