/* SPDX-License-Identifier: MIT */
/*
 * export_phases_svg.c - selinst-report --phases --format=svg: per loop or
 * phase, a time series (x: iteration, y: milliseconds; the iteration's
 * time in black, each top region's time per thread in colour, flagged
 * iterations circled in red) and a heatmap of threads x iterations (each
 * cell the thread's time in that iteration, white to red against the
 * longest).  Self-contained: no script or file is needed to see it; a
 * small script only counts what was drawn (data-ready, for the tests) and
 * every point of interest has a <title> tooltip.
 */
#include "phases.h"
#include <string.h>

#define W 960.0			/* drawing width */
#define PLOT_X 70.0		/* left margin: the y axis's labels */
#define PLOT_W (W - PLOT_X - 20)
#define PLOT_H 220.0
#define CELL_H 14.0		/* one heatmap row */

static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
};

static double xpos(const struct phase *x, uint64_t k)
{
	return PLOT_X + (x->n > 1 ? PLOT_W * (double)k / (double)(x->n - 1) : PLOT_W / 2);
}

static double ypos(double secs, double top, double ymax)
{
	return top + PLOT_H - (ymax > 0 ? PLOT_H * secs / ymax : 0);
}

/* The y axis: 0, half and the top, in ms; the x axis: first and last. */
static void axes(FILE *out, const struct phase *x, double top, double ymax)
{
	fprintf(out, "<path d=\"M%.1f %.1fV%.1fH%.1f\" stroke=\"#000\" fill=\"none\"/>\n", PLOT_X,
		top, top + PLOT_H, PLOT_X + PLOT_W);
	for (int i = 0; i <= 2; i++)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.3g ms</text>\n",
			PLOT_X - 4, ypos(ymax * i / 2, top, ymax) + 4, ymax * i / 2 * 1e3);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">1</text>\n", PLOT_X, top + PLOT_H + 14);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">iteration %llu</text>\n",
		PLOT_X + PLOT_W, top + PLOT_H + 14, (unsigned long long)x->n);
}

/* Column J's time per thread (mean), or the iteration's time (J < 0). */
static double series_value(const struct phase *x, uint64_t k, int j)
{
	if (j < 0)
		return x->secs[k];
	double s;
	uint64_t calls;
	phase_col_figures(x, k, &x->cols[j], &s, &calls);
	return s / (double)x->nm;
}

static void polyline(FILE *out, const struct phase *x, int j, double top, double ymax)
{
	fprintf(out, "<polyline class=\"series\" fill=\"none\" stroke-width=\"1.2\" stroke=\"%s\" "
		"points=\"", j < 0 ? "#000" : palette[j]);
	for (uint64_t k = 0; k < x->n; k++)
		fprintf(out, "%s%.1f,%.1f", k ? " " : "", xpos(x, k),
			ypos(series_value(x, k, j), top, ymax));
	fputs("\"/>\n", out);
}

static void legend(FILE *out, const struct phase *x, double y)
{
	char label[300];
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\"><tspan fill=\"#000\">&#9632;</tspan> iteration "
		"(longest thread)</text>\n", PLOT_X, y);
	for (size_t j = 0; j < x->ncols; j++) {
		phase_region_label(label, sizeof label, x->cols[j].r);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\"><tspan fill=\"%s\">&#9632;</tspan> ",
			PLOT_X, y + 14.0 * (double)(j + 1), palette[j]);
		xml_text(out, label);
		fputs(" (per thread)</text>\n", out);
	}
}

/* The time series; returns the height used. */
static double time_series(FILE *out, const struct phase *x, double top, double jitter)
{
	double ymax = 0;
	for (uint64_t k = 0; k < x->n; k++)
		ymax = x->secs[k] > ymax ? x->secs[k] : ymax;
	axes(out, x, top, ymax);
	for (int j = (int)x->ncols - 1; j >= -1; j--)
		polyline(out, x, j, top, ymax);
	for (uint64_t k = 0; k < x->n; k++)
		if (phase_flagged(x, k, jitter))
			fprintf(out, "<circle class=\"flag\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"none\" "
				"stroke=\"#d00\" stroke-width=\"1.5\"><title>iteration %llu: %.3f ms "
				"(median %.3f ms)</title></circle>\n", xpos(x, k),
				ypos(x->secs[k], top, ymax), (unsigned long long)k + 1,
				x->secs[k] * 1e3, x->median * 1e3);
	legend(out, x, top + PLOT_H + 32);
	return PLOT_H + 32 + 14.0 * (double)(x->ncols + 1) + 10;
}

/* Threads x iterations; returns the height used. */
static double heatmap(FILE *out, const struct phase *x, double top)
{
	double longest = 0, cw = PLOT_W / (double)(x->n ? x->n : 1);
	for (uint64_t k = 0; k < x->n; k++)
		longest = x->secs[k] > longest ? x->secs[k] : longest;
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">threads x iterations (white: 0, red: %.3f ms)"
		"</text>\n", PLOT_X, top + 10, longest * 1e3);
	top += 16;
	for (size_t i = 0; i < x->nm; i++) {
		const piter *it = x->m[i].it;
		double y = top + CELL_H * (double)i;
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">thread %llu</text>\n",
			PLOT_X - 4, y + CELL_H - 3, (unsigned long long)x->m[i].th->index);
		for (uint64_t k = 0; k < it->recorded; k++) {
			double s = (double)it->rows[k * (1 + it->ncol)] / 1e9;
			int shade = longest > 0 ? (int)(255 * (1 - s / longest)) : 255;
			fprintf(out, "<rect class=\"cell\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
				"height=\"%.1f\" fill=\"rgb(255,%d,%d)\"><title>thread %llu, "
				"iteration %llu: %.3f ms</title></rect>\n", PLOT_X + cw * (double)k, y,
				cw, CELL_H - 1, shade, shade, (unsigned long long)x->m[i].th->index,
				(unsigned long long)k + 1, s * 1e3);
		}
	}
	return 16 + CELL_H * (double)x->nm + 20;
}

static const char script[] =
"<script>//<![CDATA[\n"
"  var svg = document.documentElement;\n"
"  svg.setAttribute('data-ready', String(svg.querySelectorAll('polyline.series').length)"
" + ' ' + String(svg.querySelectorAll('rect.cell').length)"
" + ' ' + String(svg.querySelectorAll('circle.flag').length));\n"
"//]]></script>\n";

void phases_svg(FILE *out, const struct phase *ph, size_t n, double jitter)
{
	double height = 30;
	for (size_t i = 0; i < n; i++)
		height += 30 + PLOT_H + 32 + 14.0 * (double)(ph[i].ncols + 1) + 10 + 16 +
			  CELL_H * (double)ph[i].nm + 20;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" data-ready=\"0\">\n", W, height, W, height);
	fprintf(out, "<style>text { font-family: monospace; font-size: 11px; }</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n", W, height);
	double y = 20;
	if (!n)
		fprintf(out, "<text x=\"10\" y=\"20\">no iterations recorded</text>\n");
	for (size_t i = 0; i < n; i++) {
		const struct phase *x = &ph[i];
		char label[300];
		phase_region_label(label, sizeof label, x->r);
		fprintf(out, "<text x=\"10\" y=\"%.1f\" style=\"font-size:14px\">%s ", y + 4,
			x->is_phase ? "phase" : "loop");
		xml_text(out, label);
		fprintf(out, ": %llu iterations, %zu thread%s, median %.3f ms</text>\n",
			(unsigned long long)x->n, x->nm, x->nm == 1 ? "" : "s", x->median * 1e3);
		y += 30;
		y += time_series(out, x, y, jitter);
		y += heatmap(out, x, y);
	}
	fputs(script, out);
	fputs("</svg>\n", out);
}
