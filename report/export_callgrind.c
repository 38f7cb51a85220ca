/*
 * --format=callgrind: the callgrind profile format (KCachegrind,
 * QCachegrind, callgrind_annotate).  One "function" per region (loops are
 * functions named file:line), the event is nanoseconds: self cost is the
 * region's exclusive time, each call edge carries its calls and inclusive
 * time, merged over threads and processes.
 */
#include "report.h"
#include <stdlib.h>

static void cg_name(FILE *out, const char *s)
{
	for (; *s; s++)
		putc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
}

void export_callgrind(FILE *out, const view *v, const opts *o)
{
	(void)o;
	uint32_t *ix = view_sorted_regions(v, true);
	uint32_t *rank = view_region_ranks(v, ix);
	size_t ne;
	vedge *e = view_edges(v, NULL, rank, &ne);

	fprintf(out, "# callgrind format\nversion: 1\ncreator: selinst-report\n");
	fprintf(out, "cmd: ");
	cg_name(out, v->nprocs ? v->procs[0].program : "");
	fprintf(out, "\npart: 1\npositions: line\nevents: ns\nsummary: %llu\n",
		(unsigned long long)v->total);
	size_t k = 0;
	for (size_t a = 0; a < v->nregions; a++) {
		const region *r = &v->regions[ix[a]];
		fprintf(out, "\nfl=");
		cg_name(out, r->file[0] ? r->file : "???");
		fprintf(out, "\nfn=");
		cg_name(out, r->name);
		fprintf(out, "\n%u %llu\n", r->line, (unsigned long long)r->excl);
		for (; k < ne && rank[e[k].from] == a; k++) {
			const region *t = &v->regions[e[k].to];
			fprintf(out, "cfl=");
			cg_name(out, t->file[0] ? t->file : "???");
			fprintf(out, "\ncfn=");
			cg_name(out, t->name);
			fprintf(out, "\ncalls=%llu %u\n%u %llu\n", (unsigned long long)e[k].calls,
				t->line, r->line, (unsigned long long)e[k].incl);
		}
	}
	free(e);
	free(ix);
	free(rank);
}
