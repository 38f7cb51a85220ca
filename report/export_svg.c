/* SPDX-License-Identifier: MIT */
/*
 * --format=svg: a self-contained interactive flame graph (no external
 * files or scripts).  Frames are call paths of the merged tree, width =
 * inclusive time; loops are blue, functions warm colours, manual regions
 * green.  Hovering a frame shows its name, time, share and calls (also as
 * a native tooltip); clicking zooms to it; clicking "all" resets.  Frames
 * narrower than 0.1 pixel are left out.
 */
#include "report.h"
#include <stdlib.h>
#include <string.h>

#define W 1200.0
#define FH 16
#define PAD 10.0

typedef struct frame { uint32_t node; int depth; uint64_t x, w; } frame;
typedef struct sctx {
	frame *f;
	size_t n, cap;
	uint64_t *next;		/* next free x per depth */
	size_t ncap;
	uint64_t min;
	int maxd;
} sctx;

static bool collect(const view *v, uint32_t n, int depth, const uint32_t *path, void *arg)
{
	(void)path;
	sctx *s = arg;
	const cnode *c = &v->nodes[n];
	if ((size_t)depth + 2 > s->ncap) {
		s->ncap = 2 * ((size_t)depth + 2);
		s->next = xrealloc(s->next, s->ncap * sizeof *s->next);
	}
	uint64_t x = s->next[depth];
	s->next[depth] += c->incl;
	s->next[depth + 1] = x;
	if (c->incl < s->min || c->incl == 0)
		return false;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->f = xrealloc(s->f, s->cap * sizeof *s->f);
	}
	s->f[s->n++] = (frame){ n, depth, x, c->incl };
	if (depth > s->maxd)
		s->maxd = depth;
	return true;
}

static void colour(const region *r, char *buf, size_t n)
{
	uint64_t h = hash_bytes(r->name, strlen(r->name), 0);
	int a = (int)(h % 55), b = (int)((h >> 8) % 55);
	if (r->kind == K_LOOP)
		snprintf(buf, n, "rgb(%d,%d,%d)", 80 + a, 140 + b, 230);
	else if (r->kind == K_MANUAL)
		snprintf(buf, n, "rgb(%d,%d,%d)", 90 + a, 200, 90 + b);
	else
		snprintf(buf, n, "rgb(%d,%d,%d)", 230, 100 + 2 * a, 40 + b);
}

static const char script[] =
"<script type=\"text/ecmascript\"><![CDATA[\n"
"(function () {\n"
"  var svg = document.documentElement, W = +svg.getAttribute('width'), PAD = 10;\n"
"  var frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
"  var det = document.getElementById('details');\n"
"  function num(g, k) { return +g.getAttribute('data-' + k); }\n"
"  function fit(g, w) {\n"
"    var t = g.querySelector('text'), n = g.getAttribute('data-n');\n"
"    var c = Math.floor((w - 6) / 7);\n"
"    t.textContent = c < 3 ? '' : (n.length <= c ? n : n.slice(0, c - 2) + '..');\n"
"  }\n"
"  function zoom(z) {\n"
"    var x0 = num(z, 'x'), w0 = num(z, 'w'), d0 = num(z, 'd'), s = (W - 2 * PAD) / w0;\n"
"    frames.forEach(function (g) {\n"
"      var x = num(g, 'x'), w = num(g, 'w'), d = num(g, 'd'), nx, nw;\n"
"      var r = g.querySelector('rect'), t = g.querySelector('text');\n"
"      if (d < d0 && x <= x0 && x + w >= x0 + w0) { nx = PAD; nw = W - 2 * PAD; g.style.opacity = 0.6; }\n"
"      else if (d >= d0 && x >= x0 && x + w <= x0 + w0) { nx = PAD + (x - x0) * s; nw = w * s; g.style.opacity = 1; }\n"
"      else { g.style.display = 'none'; return; }\n"
"      if (nw < 0.1) { g.style.display = 'none'; return; }\n"
"      g.style.display = '';\n"
"      r.setAttribute('x', nx); r.setAttribute('width', nw);\n"
"      t.setAttribute('x', nx + 3); fit(g, nw);\n"
"    });\n"
"    det.textContent = 'zoomed: ' + z.getAttribute('data-n') + ' (click all to reset)';\n"
"  }\n"
"  frames.forEach(function (g) {\n"
"    g.addEventListener('click', function () { zoom(g); });\n"
"    g.addEventListener('mouseover', function () { det.textContent = g.getAttribute('data-info'); });\n"
"    g.addEventListener('mouseout', function () { det.textContent = ' '; });\n"
"  });\n"
"  if (frames.length) zoom(frames[0]);\n"
"  det.textContent = ' ';\n"
"  svg.setAttribute('data-ready', String(frames.length));\n"
"})();\n"
"]]></script>\n";

static void emit(FILE *out, const view *v, int maxd, int depth, uint64_t x, uint64_t w,
		 const char *name, const char *info, const char *fill)
{
	double scale = v->total ? (W - 2 * PAD) / (double)v->total : 0;
	double y = 50 + (double)(maxd - depth) * FH;
	fprintf(out, "<g class=\"f\" data-x=\"%llu\" data-w=\"%llu\" data-d=\"%d\" data-n=\"",
		(unsigned long long)x, (unsigned long long)w, depth);
	xml_text(out, name);
	fprintf(out, "\" data-info=\"");
	xml_text(out, info);
	fprintf(out, "\"><title>");
	xml_text(out, info);
	fprintf(out, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" rx=\"2\" "
		"fill=\"%s\"/><text x=\"%.2f\" y=\"%.1f\">", PAD + (double)x * scale, y,
		(double)w * scale, FH - 1, fill, PAD + (double)x * scale + 3, y + 11.5);
	xml_text(out, name);	/* the script shortens it to fit */
	fprintf(out, "</text></g>\n");
}

void export_svg(FILE *out, const view *v, const opts *o)
{
	(void)o;
	sctx s = { 0 };
	s.ncap = 64;
	s.next = xcalloc(s.ncap, sizeof *s.next);
	s.next[1] = 0;
	s.min = (uint64_t)((double)v->total / (W - 2 * PAD) * 0.1);
	view_walk(v, collect, &s);
	int maxd = s.maxd;
	double height = 50 + (double)(maxd + 1) * FH + 10;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" data-ready=\"0\">\n", W, height, W, height);
	fprintf(out, "<style>text { font-family: monospace; font-size: 11px; fill: #000; "
		"pointer-events: none; } g.f:hover rect { stroke: #000; stroke-width: 0.5; } "
		"g.f { cursor: pointer; }</style>\n");
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\"/>\n",
		W, height);
	fprintf(out, "<text x=\"%.0f\" y=\"20\" text-anchor=\"middle\" style=\"font-size:15px\">"
		"selinst flame graph: %zu process%s, %zu thread%s, %.3f s</text>\n", W / 2,
		v->nprocs, v->nprocs == 1 ? "" : "es", v->nthreads, v->nthreads == 1 ? "" : "s",
		(double)v->total / 1e9);
	fprintf(out, "<text id=\"details\" x=\"%.0f\" y=\"40\"> </text>\n", PAD);
	char info[600], fill[64];
	snprintf(info, sizeof info, "all: %.6f s (100%%)", (double)v->total / 1e9);
	emit(out, v, maxd, 0, 0, v->total, "all", info, "rgb(200,200,200)");
	for (size_t i = 0; i < s.n; i++) {
		const cnode *c = &v->nodes[s.f[i].node];
		const region *r = &v->regions[c->region];
		char t[32];
		fmt_time(t, sizeof t, (double)c->incl);
		snprintf(info, sizeof info, "%.400s (%s): %s inclusive (%.2f%%), %.6f s exclusive, "
			 "%llu %s", r->name, kind_name(r->kind), t,
			 v->total ? 100.0 * (double)c->incl / (double)v->total : 0.0,
			 (double)c->excl / 1e9, (unsigned long long)c->calls,
			 r->kind == K_LOOP ? "entries" : "calls");
		colour(r, fill, sizeof fill);
		emit(out, v, maxd, s.f[i].depth, s.f[i].x, s.f[i].w, r->name, info, fill);
	}
	fputs(script, out);
	fputs("</svg>\n", out);
	free(s.f);
	free(s.next);
}
