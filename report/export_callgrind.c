/*
 * --format=callgrind: the callgrind profile format (KCachegrind,
 * QCachegrind, callgrind_annotate).  One "function" per region (loops are
 * functions named file:line), the event is nanoseconds: self cost is the
 * region's exclusive time, each call edge carries its calls and inclusive
 * time, merged over threads and processes.
 */
#include "report.h"
#include <stdlib.h>

typedef struct cedge { uint32_t from, to; uint64_t calls, incl; } cedge;

static void cg_name(FILE *out, const char *s)
{
	for (; *s; s++)
		putc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
}

static int cmp_edge(const void *x, const void *y, void *arg)
{
	const uint32_t *rank = arg;
	const cedge *a = x, *b = y;
	if (rank[a->from] != rank[b->from])
		return rank[a->from] < rank[b->from] ? -1 : 1;
	return rank[a->to] < rank[b->to] ? -1 : rank[a->to] > rank[b->to];
}

void export_callgrind(FILE *out, const view *v, const opts *o)
{
	(void)o;
	uint32_t *ix = view_sorted_regions(v, true);
	uint32_t *rank = xmalloc((v->nregions + 1) * sizeof *rank);
	for (size_t i = 0; i < v->nregions; i++)
		rank[ix[i]] = (uint32_t)i;
	u64map m;
	u64map_init(&m, 256);
	cedge *e = NULL;
	size_t ne = 0, cap = 0;
	for (size_t i = 1; i < v->nnodes; i++) {
		const cnode *c = &v->nodes[i];
		if (c->parent == 0)
			continue;
		uint32_t from = v->nodes[c->parent].region, to = c->region;
		bool fresh;
		uint32_t *slot = u64map_put(&m, (uint64_t)from << 32 | to, &fresh);
		if (fresh) {
			if (ne == cap) {
				cap = cap ? 2 * cap : 64;
				e = xrealloc(e, cap * sizeof *e);
			}
			e[ne] = (cedge){ from, to, 0, 0 };
			*slot = (uint32_t)ne++;
		}
		e[*slot].calls += c->calls;
		e[*slot].incl += c->incl;
	}
	if (ne > 1)
		qsort_r(e, ne, sizeof *e, cmp_edge, rank);

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
	u64map_free(&m);
}
