/* SPDX-License-Identifier: MIT */
/*
 * --format=chrome: Chrome trace-event JSON (chrome://tracing, Perfetto,
 * speedscope) with one track per thread of each process.  A profile holds
 * aggregates, not a timeline, so each thread's calling-context tree is
 * laid out as a flame chart: a node starts where its previous sibling
 * ended and lasts its inclusive time ("X" complete events, microseconds).
 * args name the region (file, line) and nothing per node: speedscope
 * tells frames apart by name and args, so a per-node count there would
 * split one function into as many frames as it has call paths.
 */
#include "report.h"
#include <stdlib.h>

void export_chrome(FILE *out, const view *v, const opts *o)
{
	(void)o;
	fprintf(out, "{\"displayTimeUnit\": \"ms\", \"otherData\": {\"creator\": "
		"\"selinst-report\", \"note\": \"aggregated profile laid out per thread; "
		"durations are inclusive times\"},\n \"traceEvents\": [");
	bool first = true;
	for (size_t p = 0; p < v->nprocs; p++) {
		const procinfo *pi = &v->procs[p];
		char name[64];
		if (pi->rank >= 0)
			snprintf(name, sizeof name, "rank %lld", (long long)pi->rank);
		else
			snprintf(name, sizeof name, "process %zu", p);
		fprintf(out, "%s\n  {\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %zu, "
			"\"args\": {\"name\": \"%s pid %lld ", first ? "" : ",", p, name,
			(long long)pi->pid);
		first = false;
		/* program name without the quotes of json_str */
		for (const char *s = pi->program; *s; s++)
			if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20)
				fputc('_', out);
			else
				fputc(*s, out);
		fprintf(out, "\"}}");
		fprintf(out, ",\n  {\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %zu, "
			"\"args\": {\"sort_index\": %zu}}", p, p);
	}
	size_t dcap = 64;
	double *cursor = xmalloc(dcap * sizeof *cursor);
	for (size_t i = 0; i < v->nthreads; i++) {
		const thrinfo *t = &v->threads[i];
		fprintf(out, "%s\n  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, "
			"\"tid\": %llu, \"args\": {\"name\": \"thread %llu (tid %llu)\"}}",
			first ? "" : ",", t->proc, (unsigned long long)t->index,
			(unsigned long long)t->index, (unsigned long long)t->tid);
		first = false;
		cursor[0] = 0;
		for (size_t k = 0; k < t->ntree; k++) {
			const tnode *n = &t->tree[k];
			const region *r = &v->regions[n->region];
			if (n->depth + 2 > dcap) {
				dcap = 2 * (n->depth + 2);
				cursor = xrealloc(cursor, dcap * sizeof *cursor);
			}
			double ts = cursor[n->depth], dur = (double)n->incl / 1e3;
			cursor[n->depth] = ts + dur;
			cursor[n->depth + 1] = ts;
			fprintf(out, ",\n  {\"name\": ");
			json_str(out, r->name);
			fprintf(out, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, "
				"\"pid\": %u, \"tid\": %llu, \"args\": {\"file\": ",
				kind_name(r->kind), ts, dur, t->proc, (unsigned long long)t->index);
			json_str(out, r->file);
			fprintf(out, ", \"line\": %u}}", r->line);
		}
	}
	free(cursor);
	fprintf(out, "\n ]\n}\n");
}
