/* SPDX-License-Identifier: MIT */
/*
 * --format=callgrind: the callgrind profile format (KCachegrind,
 * QCachegrind, callgrind_annotate).  One "function" per region (loops are
 * functions named file:line), the event is nanoseconds: self cost is the
 * region's exclusive time, each call edge carries its calls and inclusive
 * time, merged over threads and processes.  Source files are written with
 * full paths where they can be found, so that KCachegrind and
 * callgrind_annotate --auto=yes open them.
 */
#include "report.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void cg_name(FILE *out, const char *s)
{
	for (; *s; s++)
		putc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
}

/* FILE as a full path: profiles hold source paths as the compiler was
 * given them, relative to a build folder the profile does not record; a
 * relative one is looked up from the current folder, then from the
 * program's.  Unchanged when found in neither. */
static char *full_source_path(const view *v, const char *file)
{
	char buf[PATH_MAX], *full;
	if (!file[0] || file[0] == '/')
		return xstrdup(file[0] ? file : "???");
	if ((full = realpath(file, NULL)))
		return full;
	const char *prog = v->nprocs ? v->procs[0].program : "";
	const char *slash = strrchr(prog, '/');
	if (slash && snprintf(buf, sizeof buf, "%.*s/%s", (int)(slash - prog), prog, file) < (int)sizeof buf &&
	    (full = realpath(buf, NULL)))
		return full;
	return xstrdup(file);
}

void export_callgrind(FILE *out, const view *v, const opts *o)
{
	(void)o;
	char **path = xmalloc((v->nregions + 1) * sizeof *path);
	for (size_t i = 0; i < v->nregions; i++)
		path[i] = full_source_path(v, v->regions[i].file);
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
		cg_name(out, path[ix[a]]);
		fprintf(out, "\nfn=");
		cg_name(out, r->name);
		fprintf(out, "\n%u %llu\n", r->line, (unsigned long long)r->excl);
		for (; k < ne && rank[e[k].from] == a; k++) {
			const region *t = &v->regions[e[k].to];
			fprintf(out, "cfl=");
			cg_name(out, path[e[k].to]);
			fprintf(out, "\ncfn=");
			cg_name(out, t->name);
			fprintf(out, "\ncalls=%llu %u\n%u %llu\n", (unsigned long long)e[k].calls,
				t->line, r->line, (unsigned long long)e[k].incl);
		}
	}
	free(e);
	free(ix);
	free(rank);
	for (size_t i = 0; i < v->nregions; i++)
		free(path[i]);
	free(path);
}
