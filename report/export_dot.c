/* SPDX-License-Identifier: MIT */
/*
 * --format=dot: the call graph for Graphviz.  One node per region
 * (functions as boxes, loops as ellipses, manual regions as hexagons, as
 * the loop-profiling paper draws its loop-call graph), one edge per
 * caller -> callee pair with the calls and inclusive time along it.
 * Regions below --prune percent of the total inclusive time are left out.
 */
#include "report.h"
#include <stdlib.h>

static void dot_str(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			putc(*s, out);
	}
}

void export_dot(FILE *out, const view *v, const opts *o)
{
	uint64_t min = (uint64_t)((double)v->total * o->prune / 100.0);
	fprintf(out, "digraph selinst {\n  graph [rankdir=TB, fontname=\"Helvetica\"];\n"
		"  node [fontname=\"Helvetica\", fontsize=10, style=filled, fillcolor=\"#fff3e0\"];\n"
		"  edge [fontname=\"Helvetica\", fontsize=9];\n");
	/* Node names follow the sorted order, so they do not depend on the
	 * order the files were read in. */
	uint32_t *ix = view_sorted_regions(v, true);
	uint32_t *rank = view_region_ranks(v, ix);
	bool *keep = xcalloc(v->nregions + 1, sizeof *keep);
	for (size_t k = 0; k < v->nregions; k++) {
		size_t i = ix[k];
		const region *r = &v->regions[i];
		if (r->incl < min || !region_selected(o, r))
			continue;
		keep[i] = true;
		const char *shape = r->kind == K_LOOP ? "ellipse" : r->kind == K_MANUAL ? "hexagon" : "box";
		fprintf(out, "  r%zu [shape=%s%s, label=\"", k, shape,
			r->kind == K_LOOP ? ", fillcolor=\"#e3f2fd\"" : "");
		dot_str(out, r->name);
		if (r->kind == K_LOOP && r->function) {
			fputs("\\nloop in ", out);
			dot_str(out, r->function);
		}
		char se[32], to[32];
		fmt_time(se, sizeof se, (double)r->excl);
		fmt_time(to, sizeof to, (double)r->incl);
		fprintf(out, "\\n%s self, %s total (%.1f%%)\\n%llu %s\"];\n", se, to,
			v->total ? 100.0 * (double)r->incl / (double)v->total : 0.0,
			(unsigned long long)r->calls, r->kind == K_LOOP ? "entries" : "calls");
	}
	size_t ne;
	vedge *e = view_edges(v, keep, rank, &ne);
	for (size_t k = 0; k < ne; k++) {
		double w = v->total ? 1.0 + 4.0 * (double)e[k].incl / (double)v->total : 1.0;
		char t[32];
		fmt_time(t, sizeof t, (double)e[k].incl);
		fprintf(out, "  r%u -> r%u [label=\"%llu\\n%s\", penwidth=%.2f];\n",
			rank[e[k].from], rank[e[k].to], (unsigned long long)e[k].calls, t, w);
	}
	fprintf(out, "}\n");
	free(e);
	free(ix);
	free(rank);
	free(keep);
}
