/* SPDX-License-Identifier: MIT */
/*
 * --mpi: MPI time per rank and per call path, from libselinst-mpi's
 * regions of kind mpi (mpirec, merge.c), and the rank imbalance of every
 * region; the same figures as the json's "mpi" object.
 *
 * Imbalance is max/mean over the ranks (a rank that never reached a call
 * path counts 0 there).  At an MPI call path the rank with the least
 * time is the one the others waited for (it arrived last); over the run,
 * the slowest rank is the one with the most time outside MPI.
 */
#include "report.h"
#include <stdlib.h>
#include <string.h>

/* Per (call path, process) figures: sites[s].per[p]. */
struct site {
	uint32_t node;
	uint64_t calls, incl, sent, received;
	mpirec *per;		/* nprocs; node = UINT32_MAX where never called */
	uint64_t max, min;
	uint32_t max_proc, min_proc;
};
struct mpiv {
	struct site *sites;
	size_t nsites;
	uint64_t *rank_ns, *rank_calls, *rank_sent, *rank_received;	/* per process */
	uint32_t slowest;	/* process with the most time outside MPI */
};

static int64_t rank_of(const view *v, uint32_t p)
{
	return v->procs[p].rank >= 0 ? v->procs[p].rank : (int64_t)p;
}

static double outside_ns(const view *v, const struct mpiv *m, uint32_t p)
{
	double d = v->procs[p].wall_seconds * 1e9 - (double)m->rank_ns[p];
	return d > 0 ? d : 0;
}

static int cmp_site(const void *x, const void *y)
{
	const struct site *a = x, *b = y;
	if (a->incl != b->incl)
		return a->incl > b->incl ? -1 : 1;
	return a->node < b->node ? -1 : a->node > b->node;
}

/* Max and min over all processes (0 for one that never called). */
static void site_spread(const view *v, struct site *s)
{
	s->max = 0;
	s->min = UINT64_MAX;
	for (uint32_t p = 0; p < v->nprocs; p++) {
		uint64_t x = s->per[p].incl;
		if (x > s->max || p == 0) {
			s->max = x;
			s->max_proc = p;
		}
		if (x < s->min) {
			s->min = x;
			s->min_proc = p;
		}
	}
}

static void mpiv_build(const view *v, struct mpiv *m)
{
	memset(m, 0, sizeof *m);
	size_t np = v->nprocs;
	u64map ix;
	u64map_init(&ix, 64);
	m->sites = xcalloc(v->nmpi + 1, sizeof *m->sites);
	m->rank_ns = xcalloc(np + 1, sizeof *m->rank_ns);
	m->rank_calls = xcalloc(np + 1, sizeof *m->rank_calls);
	m->rank_sent = xcalloc(np + 1, sizeof *m->rank_sent);
	m->rank_received = xcalloc(np + 1, sizeof *m->rank_received);
	for (size_t i = 0; i < v->nmpi; i++) {
		const mpirec *r = &v->mpi[i];
		bool fresh;
		uint32_t *slot = u64map_put(&ix, r->node, &fresh);
		if (fresh) {
			*slot = (uint32_t)m->nsites++;
			struct site *s = &m->sites[*slot];
			s->node = r->node;
			s->per = xcalloc(np + 1, sizeof *s->per);
		}
		struct site *s = &m->sites[*slot];
		s->per[r->proc] = *r;
		s->calls += r->calls;
		s->incl += r->incl;
		s->sent += r->sent;
		s->received += r->received;
		m->rank_ns[r->proc] += r->incl;
		m->rank_calls[r->proc] += r->calls;
		m->rank_sent[r->proc] += r->sent;
		m->rank_received[r->proc] += r->received;
	}
	u64map_free(&ix);
	for (size_t i = 0; i < m->nsites; i++)
		site_spread(v, &m->sites[i]);
	qsort(m->sites, m->nsites, sizeof *m->sites, cmp_site);
	for (uint32_t p = 1; p < np; p++)
		if (outside_ns(v, m, p) > outside_ns(v, m, m->slowest))
			m->slowest = p;
}

static void mpiv_free(struct mpiv *m)
{
	for (size_t i = 0; i < m->nsites; i++)
		free(m->sites[i].per);
	free(m->sites);
	free(m->rank_ns);
	free(m->rank_calls);
	free(m->rank_sent);
	free(m->rank_received);
}

/* Every region's inclusive time over the processes (a process's threads
 * summed): mean, max and the process with the max.  One pass over the
 * threads, process by process (view_finish sorts threads by process),
 * summing into CUR the regions the process touched. */
struct spread { double mean; uint64_t max; uint32_t max_proc; };
static struct spread *region_spreads(const view *v)
{
	size_t nr = v->nregions;
	struct spread *sp = xcalloc(nr + 1, sizeof *sp);
	uint64_t *cur = xcalloc(nr + 1, sizeof *cur);
	uint32_t *touched = xmalloc((nr + 1) * sizeof *touched);
	for (size_t i = 0; i < v->nthreads;) {
		uint32_t p = v->threads[i].proc;
		size_t nt = 0;
		for (; i < v->nthreads && v->threads[i].proc == p; i++) {
			const thrinfo *t = &v->threads[i];
			for (size_t k = 0; k < t->nreg; k++) {
				if (!cur[t->reg[k]] && t->incl[k])
					touched[nt++] = t->reg[k];
				cur[t->reg[k]] += t->incl[k];
			}
		}
		for (size_t k = 0; k < nt; k++) {
			uint32_t g = touched[k];
			sp[g].mean += (double)cur[g];
			if (cur[g] > sp[g].max) {
				sp[g].max = cur[g];
				sp[g].max_proc = p;
			}
			cur[g] = 0;
		}
	}
	for (size_t g = 0; g < nr; g++)
		sp[g].mean = v->nprocs ? sp[g].mean / (double)v->nprocs : 0;
	free(cur);
	free(touched);
	return sp;
}

static double imbalance(double mean, uint64_t max)
{
	return mean > 0 ? (double)max / mean : 0;
}

/* "a > b > MPI_X": the call path of cnode N, the last LEVELS regions
 * (0: all). */
static void path_name(const view *v, uint32_t n, int levels, char *buf, size_t len)
{
	uint32_t chain[64];
	int k = 0;
	for (uint32_t c = n; c && k < 64; c = v->nodes[c].parent)
		chain[k++] = c;
	int from = levels > 0 && k > levels ? levels : k;
	size_t o = 0;
	buf[0] = 0;
	for (int i = from; i-- > 0 && o < len;)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i == from - 1 ? "" : " > ",
				      v->regions[v->nodes[chain[i]].region].name);
}

static void ranks_table(FILE *out, const view *v, const struct mpiv *m)
{
	fprintf(out, "MPI time per rank (wall: the process's run; outside: wall less MPI)\n");
	fprintf(out, "%6s %9s %9s %6s %9s %8s %10s %10s\n", "rank", "wall s", "MPI s", "MPI%",
		"outside", "calls", "sent B", "recv B");
	for (uint32_t p = 0; p < v->nprocs; p++) {
		char w[32], ms[32], pc[32], os[32], c[32], sb[32], rb[32];
		double wall = v->procs[p].wall_seconds;
		fmt_secs(w, sizeof w, wall);
		fmt_secs(ms, sizeof ms, (double)m->rank_ns[p] / 1e9);
		fmt_pct(pc, sizeof pc, wall > 0 ? 100.0 * (double)m->rank_ns[p] / 1e9 / wall : 0);
		fmt_secs(os, sizeof os, outside_ns(v, m, p) / 1e9);
		fmt_count(c, sizeof c, 8, m->rank_calls[p]);
		fmt_count(sb, sizeof sb, 10, m->rank_sent[p]);
		fmt_count(rb, sizeof rb, 10, m->rank_received[p]);
		fprintf(out, "%6lld %9s %9s %6s %9s %8s %10s %10s\n", (long long)rank_of(v, p), w,
			ms, pc, os, c, sb, rb);
	}
	char os[32];
	fmt_secs(os, sizeof os, outside_ns(v, m, m->slowest) / 1e9);
	fprintf(out, "slowest rank: %lld (%s s outside MPI)\n", (long long)rank_of(v, m->slowest),
		os);
}

static void sites_table(FILE *out, const view *v, const opts *o, const struct mpiv *m)
{
	fprintf(out, "\nMPI call paths: time per rank (imbal: max/mean; max@: the rank with the\n"
		"most time there; min@: the least, the one the others waited for;\n"
		"caller > MPI call, --wide: the whole path)\n");
	fprintf(out, "%6s %6s %6s %5s %4s %4s %7s %7s %s\n", "calls", "mean", "max", "imbal",
		"max@", "min@", "sent B", "recv B", "call path");
	size_t n = o->top > 0 && (size_t)o->top < m->nsites ? (size_t)o->top : m->nsites;
	for (size_t i = 0; i < n; i++) {
		const struct site *s = &m->sites[i];
		double mean = (double)s->incl / (double)v->nprocs;
		char c[32], me[32], mx[32], sb[32], rb[32], path[512];
		fmt_count(c, sizeof c, 6, s->calls);
		fmt_time(me, sizeof me, mean);
		fmt_time(mx, sizeof mx, (double)s->max);
		fmt_count(sb, sizeof sb, 7, s->sent);
		fmt_count(rb, sizeof rb, 7, s->received);
		path_name(v, s->node, o->wide ? 0 : 2, path, sizeof path);
		int used = fprintf(out, "%6s %6s %6s %5.2f %4lld %4lld %7s %7s ", c, me, mx,
				   imbalance(mean, s->max), (long long)rank_of(v, s->max_proc),
				   (long long)rank_of(v, s->min_proc), sb, rb);
		put_name(out, o, used, path);
	}
}

static void regions_table(FILE *out, const view *v, const opts *o)
{
	size_t n;
	uint32_t *ix = view_listed_regions(v, o, true, false, o->top_set ? o->top : 10, &n);
	fprintf(out, "\nRegions: inclusive time per rank (slowest: the rank with the max)\n");
	fprintf(out, "%9s %9s %6s %7s %s\n", "mean", "max", "imbal", "slowest", "region");
	struct spread *sp = region_spreads(v);
	for (size_t i = 0; i < n; i++) {
		const region *r = &v->regions[ix[i]];
		struct spread s = sp[ix[i]];
		char me[32], mx[32];
		fmt_time(me, sizeof me, s.mean);
		fmt_time(mx, sizeof mx, (double)s.max);
		int used = fprintf(out, "%9s %9s %6.2f %7lld ", me, mx, imbalance(s.mean, s.max),
				   (long long)rank_of(v, s.max_proc));
		put_name(out, o, used, r->name);
	}
	free(sp);
	free(ix);
}

void view_mpi(FILE *out, const view *v, const opts *o)
{
	struct mpiv m;
	mpiv_build(v, &m);
	fprintf(out, "MPI: %zu process%s, %zu MPI call paths\n", v->nprocs,
		v->nprocs == 1 ? "" : "es", m.nsites);
	if (!v->nmpi)
		fprintf(out, "(no MPI calls recorded: link with -lselinst-mpi, or use "
			"selinst-mpicc)\n");
	if (v->nmpi) {
		fprintf(out, "\n");
		ranks_table(out, v, &m);
		sites_table(out, v, o, &m);
	}
	regions_table(out, v, o);
	mpiv_free(&m);
}

/* ---- the json's "mpi" object ------------------------------------------- */

static void json_ranks(FILE *out, const view *v, const struct mpiv *m)
{
	fprintf(out, "    \"ranks\": [");
	for (uint32_t p = 0; p < v->nprocs; p++)
		fprintf(out, "%s\n      {\"rank\": %lld, \"wall_seconds\": %.9f, "
			"\"mpi_seconds\": %.9f, \"outside_mpi_seconds\": %.9f, \"calls\": %llu, "
			"\"bytes_sent\": %llu, \"bytes_received\": %llu}", p ? "," : "",
			(long long)rank_of(v, p), v->procs[p].wall_seconds,
			(double)m->rank_ns[p] / 1e9, outside_ns(v, m, p) / 1e9,
			(unsigned long long)m->rank_calls[p], (unsigned long long)m->rank_sent[p],
			(unsigned long long)m->rank_received[p]);
	fprintf(out, "\n    ],\n    \"slowest_rank\": %lld,\n", (long long)rank_of(v, m->slowest));
}

static void json_site(FILE *out, const view *v, const struct site *s)
{
	const cnode *c = &v->nodes[s->node];
	fprintf(out, "\n      {\"name\": ");
	json_str(out, v->regions[c->region].name);
	fprintf(out, ", \"caller\": ");
	if (c->parent)
		json_str(out, v->regions[v->nodes[c->parent].region].name);
	else
		fprintf(out, "null");
	fprintf(out, ", \"path\": [");
	uint32_t chain[256];
	int k = 0;
	for (uint32_t n = s->node; n && k < 256; n = v->nodes[n].parent)
		chain[k++] = n;
	for (int i = k; i-- > 0;) {
		json_str(out, v->regions[v->nodes[chain[i]].region].name);
		fprintf(out, "%s", i ? ", " : "");
	}
	double mean = (double)s->incl / (double)v->nprocs;
	fprintf(out, "], \"calls\": %llu, \"seconds\": %.9f, \"bytes_sent\": %llu, "
		"\"bytes_received\": %llu, \"mean_seconds\": %.9f, \"max_seconds\": %.9f, "
		"\"min_seconds\": %.9f, \"imbalance\": %.6f, \"max_rank\": %lld, "
		"\"min_rank\": %lld, \"per_rank\": [", (unsigned long long)s->calls,
		(double)s->incl / 1e9, (unsigned long long)s->sent,
		(unsigned long long)s->received, mean / 1e9, (double)s->max / 1e9,
		(double)s->min / 1e9, imbalance(mean, s->max), (long long)rank_of(v, s->max_proc),
		(long long)rank_of(v, s->min_proc));
	for (uint32_t p = 0; p < v->nprocs; p++) {
		const mpirec *r = &s->per[p];
		fprintf(out, "%s{\"rank\": %lld, \"calls\": %llu, \"seconds\": %.9f, "
			"\"bytes_sent\": %llu, \"bytes_received\": %llu}", p ? ", " : "",
			(long long)rank_of(v, p), (unsigned long long)r->calls,
			(double)r->incl / 1e9, (unsigned long long)r->sent,
			(unsigned long long)r->received);
	}
	fprintf(out, "]}");
}

static void json_regions(FILE *out, const view *v)
{
	fprintf(out, "    \"regions\": [");
	uint32_t *ix = view_sorted_regions(v, true);
	struct spread *sp = region_spreads(v);
	for (size_t i = 0; i < v->nregions; i++) {
		const region *r = &v->regions[ix[i]];
		struct spread s = sp[ix[i]];
		fprintf(out, "%s\n      {\"name\": ", i ? "," : "");
		json_str(out, r->name);
		fprintf(out, ", \"kind\": \"%s\", \"mean_seconds\": %.9f, \"max_seconds\": %.9f, "
			"\"imbalance\": %.6f, \"slowest_rank\": %lld}", kind_name(r->kind),
			s.mean / 1e9, (double)s.max / 1e9, imbalance(s.mean, s.max),
			(long long)rank_of(v, s.max_proc));
	}
	free(sp);
	free(ix);
	fprintf(out, "\n    ]\n");
}

void export_json_mpi(FILE *out, const view *v)
{
	if (!v->nmpi)
		return;
	struct mpiv m;
	mpiv_build(v, &m);
	fprintf(out, ",\n  \"mpi\": {\n");
	json_ranks(out, v, &m);
	fprintf(out, "    \"call_paths\": [");
	for (size_t i = 0; i < m.nsites; i++) {
		fprintf(out, "%s", i ? "," : "");
		json_site(out, v, &m.sites[i]);
	}
	fprintf(out, "\n    ],\n");
	json_regions(out, v);
	fprintf(out, "  }");
	mpiv_free(&m);
}
