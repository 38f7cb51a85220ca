/* SPDX-License-Identifier: MIT */
/*
 * --format=folded: one line per call path, frames joined by ';', a space,
 * then the path's exclusive nanoseconds summed over threads and processes
 * (flamegraph.pl, inferno, speedscope read it).  Loops are frames named
 * file:line, e.g. "main;loops.c:16;loops.c:18;leaf 500000".  Paths with
 * no exclusive time are left out; ';' or line breaks in names become '_'.
 */
#include "report.h"

static void put_frame(FILE *out, const char *s)
{
	for (; *s; s++)
		putc(*s == ';' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

static bool visit(const view *v, uint32_t n, int depth, const uint32_t *path, void *arg)
{
	FILE *out = arg;
	if (!v->nodes[n].excl)
		return true;
	for (int i = 0; i < depth; i++) {
		if (i)
			putc(';', out);
		put_frame(out, v->regions[v->nodes[path[i]].region].name);
	}
	fprintf(out, " %llu\n", (unsigned long long)v->nodes[n].excl);
	return true;
}

void export_folded(FILE *out, const view *v, const opts *o)
{
	(void)o;
	view_walk(v, visit, out);
}
