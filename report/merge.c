/* SPDX-License-Identifier: MIT */
/*
 * Merging: threads of one file and files of several ranks become one view.
 *
 * - Regions are identified by (kind, name, file, line) across files.
 * - The calling-context trees of all threads of all files merge into one
 *   tree keyed by (parent, region): counts and times are summed.
 * - Per region: calls, exclusive time and iterations are sums over nodes;
 *   inclusive time sums only nodes with no ancestor of the same region, so
 *   recursion is not counted twice.  Per process min/max are kept (a rank
 *   that never entered a region counts as 0 for its min).
 * - Everything is a sum of integers or a min/max, and every output is
 *   sorted by value and then by name, so the order of the files does not
 *   change the result.  Files are parsed by a few worker threads; merging
 *   into the view happens under one lock.
 */
#include "report.h"
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void view_init(view *v, bool keep_trees)
{
	memset(v, 0, sizeof *v);
	v->keep_trees = keep_trees;
	u64map_init(&v->regmap, 1024);
	u64map_init(&v->cctmap, 1 << 14);
	v->capnodes = 1024;
	v->nodes = xmalloc(v->capnodes * sizeof *v->nodes);
	memset(&v->nodes[0], 0, sizeof v->nodes[0]);
	v->nodes[0].region = UINT32_MAX;
	v->nnodes = 1;
}

static uint64_t region_key(const char *name, const char *file, uint32_t line, int kind)
{
	uint64_t h = hash_bytes(name, strlen(name) + 1, (uint64_t)kind * 31 + line);
	h = hash_bytes(file, strlen(file) + 1, h);
	return h == UINT64_MAX ? 0 : h;
}

static uint32_t intern_region(view *v, const pregion *pr)
{
	uint64_t key = region_key(pr->name, pr->file, pr->line, pr->kind);
	/* Linear probing on the key space for the (rare) hash collisions. */
	for (;;) {
		bool fresh;
		uint32_t *slot = u64map_put(&v->regmap, key, &fresh);
		if (!fresh) {
			region *r = &v->regions[*slot];
			if (r->kind == pr->kind && r->line == pr->line &&
			    !strcmp(r->name, pr->name) && !strcmp(r->file, pr->file))
				return *slot;
			key = key + 1 == UINT64_MAX ? 0 : key + 1;
			continue;
		}
		if (v->nregions == v->capregions) {
			v->capregions = v->capregions ? 2 * v->capregions : 256;
			v->regions = xrealloc(v->regions, v->capregions * sizeof *v->regions);
		}
		region *r = &v->regions[v->nregions];
		memset(r, 0, sizeof *r);
		r->name = xstrdup(pr->name);
		r->file = xstrdup(pr->file);
		r->function = pr->function ? xstrdup(pr->function) : NULL;
		r->kind = pr->kind;
		r->line = pr->line;
		*slot = (uint32_t)v->nregions;
		return (uint32_t)v->nregions++;
	}
}

/* The first process that throttled R gives its calls and time. */
static void note_throttled(region *r, const pregion *pr)
{
	if (!pr->throttled)
		return;
	if (!r->thr_procs++) {
		r->thr_calls = pr->thr_calls;
		r->thr_seconds = pr->thr_seconds;
	}
}

static uint32_t cct_child(view *v, uint32_t parent, uint32_t reg)
{
	bool fresh;
	uint32_t *slot = u64map_put(&v->cctmap, (uint64_t)parent << 32 | reg, &fresh);
	if (!fresh)
		return *slot;
	if (v->nnodes == v->capnodes) {
		v->capnodes *= 2;
		v->nodes = xrealloc(v->nodes, v->capnodes * sizeof *v->nodes);
	}
	uint32_t i = (uint32_t)v->nnodes++;
	cnode *c = &v->nodes[i];
	memset(c, 0, sizeof *c);
	c->region = reg;
	c->parent = parent;
	c->next = v->nodes[parent].first;
	v->nodes[parent].first = i;
	*slot = i;
	return i;
}

/* DST += X, remembering in *OVF the first sum that overflows 64 bits. */
static inline void add64(uint64_t *dst, uint64_t x, const char **ovf, const char *what)
{
	if (__builtin_add_overflow(*dst, x, dst) && !*ovf)
		*ovf = what;
}

const char *program_base(const char *program)
{
	const char *s = program ? strrchr(program, '/') : NULL;
	return s ? s + 1 : program ? program : "";
}

/* The bit of P's program in V's program list (added when new). */
static uint32_t program_bit(view *v, const char *program)
{
	const char *b = program_base(program);
	size_t i = 0;
	while (i < v->nprograms && strcmp(v->programs[i], b))
		i++;
	if (i == v->nprograms) {
		v->programs = xrealloc(v->programs, (v->nprograms + 1) * sizeof *v->programs);
		v->programs[v->nprograms++] = xstrdup(b);
	}
	return 1u << (i < 31 ? i : 31);
}

void node_programs(const view *v, uint32_t n, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < v->nprograms && i < 32 && o < len; i++)
		if (v->nodes[n].programs & (1u << i))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "",
					      i == 31 ? "(more)" : v->programs[i]);
}

/* Per-profile scratch of view_add, indexed by the profile's own region
 * ids (lr); g = gmap[lr] is the view's region. */
struct merge_scratch {
	const char *ovf;	/* what overflowed; the view is then unusable */
	uint32_t *gmap;
	uint64_t *texcl, *tincl;	/* this thread */
	uint64_t *pexcl, *pincl;	/* this process */
	uint32_t *occ;		/* open activations, while marking recursion */
	bool *pseen, *tseen;
	uint32_t *touched;	/* regions this thread entered */
	size_t ntouched;
};

static void scratch_init(struct merge_scratch *s, size_t nr)
{
	s->ovf = NULL;
	s->gmap = xmalloc((nr + 1) * sizeof *s->gmap);
	s->texcl = xcalloc(nr + 1, sizeof *s->texcl);
	s->tincl = xcalloc(nr + 1, sizeof *s->tincl);
	s->pexcl = xcalloc(nr + 1, sizeof *s->pexcl);
	s->pincl = xcalloc(nr + 1, sizeof *s->pincl);
	s->occ = xcalloc(nr + 1, sizeof *s->occ);
	s->pseen = xcalloc(nr + 1, sizeof *s->pseen);
	s->tseen = xcalloc(nr + 1, sizeof *s->tseen);
	s->touched = xmalloc((nr + 1) * sizeof *s->touched);
	s->ntouched = 0;
}

static void scratch_free(struct merge_scratch *s)
{
	free(s->gmap);
	free(s->texcl);
	free(s->tincl);
	free(s->pexcl);
	free(s->pincl);
	free(s->occ);
	free(s->pseen);
	free(s->tseen);
	free(s->touched);
}

/* P's plugin settings into V's distinct ones.  Processes of one program
 * count the same units again: the note names settings, not programs. */
static void add_settings(view *v, const profile *p)
{
	for (size_t i = 0; i < p->nsettings; i++) {
		size_t j = 0;
		while (j < v->nsettings && strcmp(v->settings[j], p->settings[i]))
			j++;
		if (j == v->nsettings) {
			v->settings = xrealloc(v->settings, (j + 1) * sizeof *v->settings);
			v->settings_units = xrealloc(v->settings_units, (j + 1) * sizeof *v->settings_units);
			v->settings[j] = xstrdup(p->settings[i]);
			v->settings_units[j] = 0;
			v->nsettings++;
		}
		if (p->settings_units[i] > v->settings_units[j])
			v->settings_units[j] = p->settings_units[i];
	}
}

/* V's record of the process P (its index). */
static uint32_t add_process(view *v, const profile *p)
{
	uint32_t proc = (uint32_t)v->nprocs++;
	v->procs = xrealloc(v->procs, v->nprocs * sizeof *v->procs);
	procinfo *pi = &v->procs[proc];
	pi->path = xstrdup(p->path);
	pi->program = xstrdup(p->program ? p->program : "");
	pi->host = xstrdup(p->host ? p->host : "");
	pi->rank = p->rank;
	pi->pid = p->pid;
	pi->wall_seconds = p->wall_seconds;
	if (!p->complete)
		v->incomplete = true;
	if (p->overflow)
		v->overflow = true;
	add_settings(v, p);
	if (p->hook_pair_ns > 0) {
		v->pair_ns_sum += p->hook_pair_ns;
		v->pair_ns_files++;
	}
	if (p->compensated) {
		v->compensated_ns = u64_add_sat(v->compensated_ns, p->compensated_ns);
		v->compensate_short_ns = u64_add_sat(v->compensate_short_ns, p->compensate_short_ns);
		v->compensated_files++;
	} else if (profile_compensate) {
		v->uncompensated_files++;
	}
	return proc;
}

/* Which nodes of TH have an ancestor of their own region (recursion: their
 * inclusive time is already in that ancestor's)?  One depth-first pass
 * over child lists, counting open regions in OCC. */
static bool *mark_recursive(const pthr *th, uint32_t *occ)
{
	size_t nn = th->nnodes;
	bool *rec = xcalloc(nn + 1, sizeof *rec);
	uint32_t *kid = xmalloc((nn + 1) * sizeof *kid), *sib = xmalloc((nn + 1) * sizeof *sib);
	uint32_t *stk = xmalloc((nn + 1) * sizeof *stk);
	uint32_t roots = UINT32_MAX;
	for (size_t i = 0; i < nn; i++)
		kid[i] = UINT32_MAX;
	for (size_t i = nn; i-- > 0;) {
		uint32_t parent = th->nodes[i].pidx;
		uint32_t *head = parent == UINT32_MAX ? &roots : &kid[parent];
		sib[i] = *head;
		*head = (uint32_t)i;
	}
	size_t sp = 0;
	for (uint32_t r0 = roots; r0 != UINT32_MAX; r0 = sib[r0]) {
		/* stk holds open nodes; kid[] is consumed as the cursor */
		stk[sp++] = r0;
		rec[r0] = occ[th->nodes[r0].region]++ > 0;
		while (sp) {
			uint32_t top = stk[sp - 1], c = kid[top];
			if (c != UINT32_MAX) {
				kid[top] = sib[c];
				rec[c] = occ[th->nodes[c].region]++ > 0;
				stk[sp++] = c;
			} else {
				occ[th->nodes[top].region]--;
				sp--;
			}
		}
	}
	free(kid);
	free(sib);
	free(stk);
	return rec;
}

/* MPI node N (merged into cnode M) of a thread of process PROC: into the
 * record of (M, PROC), the last one when the process's previous thread
 * added it, else a new one (records of one process are adjacent); its
 * bytes into its region. */
static void add_mpi(view *v, uint32_t m, uint32_t proc, const pnode *n,
		    struct merge_scratch *s)
{
	mpirec *rec = NULL;
	for (size_t k = v->nmpi; k-- > 0 && v->mpi[k].proc == proc;)
		if (v->mpi[k].node == m) {
			rec = &v->mpi[k];
			break;
		}
	if (!rec) {
		if (v->nmpi == v->capmpi) {
			v->capmpi = v->capmpi ? v->capmpi * 2 : 64;
			v->mpi = xrealloc(v->mpi, v->capmpi * sizeof *v->mpi);
		}
		rec = &v->mpi[v->nmpi++];
		*rec = (mpirec){ .node = m, .proc = proc };
	}
	add64(&rec->calls, n->calls, &s->ovf, "calls");
	add64(&rec->incl, n->incl, &s->ovf, "inclusive_ns");
	add64(&rec->sent, n->sent, &s->ovf, SELINST_PROFILE_BYTES_SENT);
	add64(&rec->received, n->received, &s->ovf, SELINST_PROFILE_BYTES_RECEIVED);
	region *r = &v->regions[v->nodes[m].region];
	add64(&r->sent, n->sent, &s->ovf, SELINST_PROFILE_BYTES_SENT);
	add64(&r->received, n->received, &s->ovf, SELINST_PROFILE_BYTES_RECEIVED);
}

/* Node I of thread TH into the view's tree and regions, and into the
 * thread's sums in S.  MIDX maps TH's nodes to the view's. */
static void merge_node(view *v, const profile *p, const pthr *th, size_t i, thrinfo *t,
		       uint32_t pbit, const bool *rec, uint32_t *midx, uint32_t *depth,
		       struct merge_scratch *s)
{
	const pnode *n = &th->nodes[i];
	uint32_t lr = n->region, g = s->gmap[lr];
	uint32_t mp = n->pidx == UINT32_MAX ? 0 : midx[n->pidx];
	uint32_t m = cct_child(v, mp, g);
	midx[i] = m;
	cnode *c = &v->nodes[m];
	if (mp == 0)
		c->programs |= pbit;
	add64(&c->calls, n->calls, &s->ovf, "calls");
	add64(&c->incl, n->incl, &s->ovf, "inclusive_ns");
	add64(&c->excl, n->excl, &s->ovf, "exclusive_ns");
	add64(&c->iters, n->iters, &s->ovf, "iterations");
	region *r = &v->regions[g];
	if (r->kind == K_SAMPLED) {
		add64(&c->samples, n->samples, &s->ovf, "samples");
		add64(&r->samples, n->samples, &s->ovf, "samples");
		v->sampled = true;
	}
	if (r->kind == K_MPI)
		add_mpi(v, m, t->proc, n, s);
	add64(&r->calls, n->calls, &s->ovf, "calls");
	if (r->kind != K_SAMPLED) {	/* a hook pair's node (--suggest) */
		r->nodes++;
		/* Saturating: a thread's total over regions is only a
		 * prediction's input, never a reason to refuse the profile. */
		t->calls = u64_add_sat(t->calls, n->calls);
	}
	add64(&r->excl, n->excl, &s->ovf, "exclusive_ns");
	add64(&r->iters, n->iters, &s->ovf, "iterations");
	for (uint32_t k = 0; k < n->trip_n; k++) {
		const trip *tr = &p->trips[n->trip_off + k];
		add64(&r->trips[tr->bucket], tr->count, &s->ovf, "trip counts");
	}
	if (!s->tseen[lr]) {
		s->tseen[lr] = true;
		s->touched[s->ntouched++] = lr;
	}
	if (!rec[i])
		add64(&s->tincl[lr], n->incl, &s->ovf, "inclusive_ns");
	add64(&s->texcl[lr], n->excl, &s->ovf, "exclusive_ns");
	add64(&t->total, n->excl, &s->ovf, "exclusive_ns");
	if (depth) {	/* the thread's tree is kept */
		depth[i] = n->pidx == UINT32_MAX ? 0 : depth[n->pidx] + 1;
		t->tree[t->ntree++] = (tnode){ g, depth[i], n->calls, n->incl };
	}
}

/* The thread's per-region sums into T and into the process's sums. */
static void close_thread(view *v, thrinfo *t, struct merge_scratch *s)
{
	t->reg = xmalloc((s->ntouched + 1) * sizeof *t->reg);
	t->excl = xmalloc((s->ntouched + 1) * sizeof *t->excl);
	t->incl = xmalloc((s->ntouched + 1) * sizeof *t->incl);
	for (size_t k = 0; k < s->ntouched; k++) {
		uint32_t lr = s->touched[k], g = s->gmap[lr];
		region *r = &v->regions[g];
		r->nthreads++;
		add64(&r->incl, s->tincl[lr], &s->ovf, "inclusive_ns");
		t->reg[k] = g;
		t->excl[k] = s->texcl[lr];
		t->incl[k] = s->tincl[lr];
		add64(&s->pexcl[lr], s->texcl[lr], &s->ovf, "exclusive_ns");
		add64(&s->pincl[lr], s->tincl[lr], &s->ovf, "inclusive_ns");
		s->pseen[lr] = true;
		s->texcl[lr] = s->tincl[lr] = 0;
		s->tseen[lr] = false;
	}
	t->nreg = s->ntouched;
	s->ntouched = 0;
	add64(&v->total, t->total, &s->ovf, "exclusive_ns");
}

/* Has P regions of kind omp (OpenMP waits and parallel regions)? */
static bool has_omp(const profile *p)
{
	for (size_t r = 0; r < p->nregions; r++)
		if (p->regions[r].kind == K_OMP)
			return true;
	return false;
}

static void merge_thread(view *v, const profile *p, const pthr *th, uint32_t proc,
			 uint32_t pbit, struct merge_scratch *s)
{
	v->threads = xrealloc(v->threads, (v->nthreads + 1) * sizeof *v->threads);
	thrinfo *t = &v->threads[v->nthreads++];
	memset(t, 0, sizeof *t);
	t->proc = proc;
	t->index = th->index;
	t->tid = th->tid;
	t->cpu_ns = th->cpu_ns;
	t->samples = th->samples;
	t->samples_in_runtime = th->samples_in_runtime;
	t->pair_ns = p->hook_pair_ns;
	size_t nn = th->nnodes;
	uint32_t *midx = xmalloc((nn + 1) * sizeof *midx);
	bool keep = v->keep_trees || (v->omp_trees && has_omp(p));
	uint32_t *depth = keep ? xmalloc((nn + 1) * sizeof *depth) : NULL;
	if (keep)
		t->tree = xmalloc((nn + 1) * sizeof *t->tree);
	bool *rec = mark_recursive(th, s->occ);
	for (size_t i = 0; i < nn; i++)
		merge_node(v, p, th, i, t, pbit, rec, midx, depth, s);
	free(rec);
	close_thread(v, t, s);
	free(midx);
	free(depth);
}

/* The process's per-region sums into the regions' min and max over
 * processes. */
static void close_process(view *v, size_t nr, const struct merge_scratch *s)
{
	for (size_t lr = 0; lr < nr; lr++) {
		if (!s->pseen[lr])
			continue;
		region *r = &v->regions[s->gmap[lr]];
		if (r->nprocs == 0 || s->pexcl[lr] < r->pmin_excl)
			r->pmin_excl = s->pexcl[lr];
		if (r->nprocs == 0 || s->pincl[lr] < r->pmin_incl)
			r->pmin_incl = s->pincl[lr];
		if (s->pexcl[lr] > r->pmax_excl)
			r->pmax_excl = s->pexcl[lr];
		if (s->pincl[lr] > r->pmax_incl)
			r->pmax_incl = s->pincl[lr];
		r->nprocs++;
	}
}

int view_add(view *v, const profile *p, char *err, size_t errlen)
{
	uint32_t proc = add_process(v, p);
	uint32_t pbit = program_bit(v, p->program);
	size_t nr = p->nregions;
	struct merge_scratch s;
	scratch_init(&s, nr);
	for (size_t i = 0; i < nr; i++) {
		s.gmap[i] = intern_region(v, &p->regions[i]);
		note_throttled(&v->regions[s.gmap[i]], &p->regions[i]);
		v->regions[s.gmap[i]].counted_procs += !p->regions[i].counter_folded;
	}
	for (size_t ti = 0; ti < p->nthreads; ti++)
		merge_thread(v, p, &p->threads[ti], proc, pbit, &s);
	close_process(v, nr, &s);
	const char *ovf = s.ovf;
	scratch_free(&s);
	if (ovf) {
		snprintf(err, errlen, "%s: %s values too large: their sum overflows 64 bits "
			 "when merged", p->path, ovf);
		return -1;
	}
	return 0;
}

static int cmp_proc(const procinfo *a, const procinfo *b)
{
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	int c = strcmp(a->host, b->host);
	if (c)
		return c;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return strcmp(a->path, b->path);
}

static int cmp_thr(const void *x, const void *y, void *arg)
{
	const view *v = arg;
	const thrinfo *a = x, *b = y;
	int c = cmp_proc(&v->procs[a->proc], &v->procs[b->proc]);
	if (c)
		return c;
	if (a->index != b->index)
		return a->index < b->index ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static int cmp_procidx(const void *x, const void *y, void *arg)
{
	const view *v = arg;
	return cmp_proc(&v->procs[*(const uint32_t *)x], &v->procs[*(const uint32_t *)y]);
}

/* Program names in name order, whatever order the files loaded in; the
 * top-level nodes' bits follow. */
static void sort_programs(view *v)
{
	size_t n = v->nprograms < 31 ? v->nprograms : 31;
	uint32_t newbit[32] = { 0 };
	for (size_t i = 0; i < n; i++) {
		size_t rank = 0;
		for (size_t j = 0; j < n; j++)
			rank += strcmp(v->programs[j], v->programs[i]) < 0;
		newbit[i] = 1u << rank;
	}
	for (uint32_t c = v->nodes[0].first; c; c = v->nodes[c].next) {
		uint32_t old = v->nodes[c].programs, nw = old & (1u << 31);
		for (size_t i = 0; i < n; i++)
			if (old & (1u << i))
				nw |= newbit[i];
		v->nodes[c].programs = nw;
	}
	char *tmp[32];
	for (size_t i = 0; i < n; i++)
		tmp[__builtin_ctz(newbit[i])] = v->programs[i];
	memcpy(v->programs, tmp, n * sizeof *tmp);
}

void view_finish(view *v)
{
	sort_programs(v);
	for (size_t i = 0; i < v->nregions; i++) {
		region *r = &v->regions[i];
		if (r->nprocs < v->nprocs)
			r->pmin_excl = r->pmin_incl = 0;
	}
	/* Threads sorted by (rank, host, pid, path, index); procs likewise. */
	if (v->nthreads > 1)
		qsort_r(v->threads, v->nthreads, sizeof *v->threads, cmp_thr, v);
	uint32_t *perm = xmalloc((v->nprocs + 1) * sizeof *perm);
	uint32_t *inv = xmalloc((v->nprocs + 1) * sizeof *inv);
	for (size_t i = 0; i < v->nprocs; i++)
		perm[i] = (uint32_t)i;
	if (v->nprocs > 1)
		qsort_r(perm, v->nprocs, sizeof *perm, cmp_procidx, v);
	procinfo *np = xmalloc((v->nprocs + 1) * sizeof *np);
	for (size_t i = 0; i < v->nprocs; i++) {
		np[i] = v->procs[perm[i]];
		inv[perm[i]] = (uint32_t)i;
	}
	for (size_t i = 0; i < v->nthreads; i++)
		v->threads[i].proc = inv[v->threads[i].proc];
	for (size_t i = 0; i < v->nmpi; i++)
		v->mpi[i].proc = inv[v->mpi[i].proc];
	free(v->procs);
	v->procs = np;
	free(perm);
	free(inv);
}

static int cmp_region(const region *a, const region *b)
{
	int c = strcmp(a->name, b->name);
	if (c)
		return c;
	if ((c = strcmp(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->kind - b->kind;
}

/* Larger time first, then by identity. */
static int cmp_by_time(const region *a, const region *b, uint64_t ta, uint64_t tb)
{
	if (ta != tb)
		return ta > tb ? -1 : 1;
	return cmp_region(a, b);
}

static int cmp_by_excl(const void *x, const void *y, void *arg)
{
	const view *v = arg;
	const region *a = &v->regions[*(const uint32_t *)x], *b = &v->regions[*(const uint32_t *)y];
	return cmp_by_time(a, b, a->excl, b->excl);
}

static int cmp_by_incl(const void *x, const void *y, void *arg)
{
	const view *v = arg;
	const region *a = &v->regions[*(const uint32_t *)x], *b = &v->regions[*(const uint32_t *)y];
	return cmp_by_time(a, b, a->incl, b->incl);
}

uint32_t *view_sorted_regions(const view *v, bool by_incl)
{
	uint32_t *ix = xmalloc((v->nregions + 1) * sizeof *ix);
	for (size_t i = 0; i < v->nregions; i++)
		ix[i] = (uint32_t)i;
	if (v->nregions > 1)
		qsort_r(ix, v->nregions, sizeof *ix, by_incl ? cmp_by_incl : cmp_by_excl, (void *)v);
	return ix;
}

uint32_t *view_listed_regions(const view *v, const opts *o, bool by_incl, bool loops_only,
			      int top, size_t *n)
{
	uint32_t *ix = view_sorted_regions(v, by_incl);
	size_t k = 0;
	for (size_t i = 0; i < v->nregions && (top <= 0 || k < (size_t)top); i++) {
		const region *r = &v->regions[ix[i]];
		if ((!loops_only || r->kind == K_LOOP) && region_selected(o, r))
			ix[k++] = ix[i];
	}
	*n = k;
	return ix;
}

uint32_t *view_region_ranks(const view *v, const uint32_t *ix)
{
	uint32_t *rank = xmalloc((v->nregions + 1) * sizeof *rank);
	for (size_t i = 0; i < v->nregions; i++)
		rank[ix[i]] = (uint32_t)i;
	return rank;
}

static int cmp_edge(const void *x, const void *y, void *arg)
{
	const uint32_t *rank = arg;
	const vedge *a = x, *b = y;
	if (rank[a->from] != rank[b->from])
		return rank[a->from] < rank[b->from] ? -1 : 1;
	return rank[a->to] < rank[b->to] ? -1 : rank[a->to] > rank[b->to];
}

vedge *view_edges(const view *v, const bool *keep, const uint32_t *rank, size_t *n)
{
	u64map m;
	u64map_init(&m, 256);
	vedge *e = NULL;
	size_t ne = 0, cap = 0;
	for (size_t i = 1; i < v->nnodes; i++) {
		const cnode *c = &v->nodes[i];
		if (c->parent == 0)
			continue;
		uint32_t from = v->nodes[c->parent].region, to = c->region;
		if (keep && (!keep[from] || !keep[to]))
			continue;
		bool fresh;
		uint32_t *slot = u64map_put(&m, (uint64_t)from << 32 | to, &fresh);
		if (fresh) {
			if (ne == cap) {
				cap = cap ? 2 * cap : 64;
				e = xrealloc(e, cap * sizeof *e);
			}
			e[ne] = (vedge){ from, to, 0, 0 };
			*slot = (uint32_t)ne++;
		}
		e[*slot].calls += c->calls;
		e[*slot].incl += c->incl;
	}
	u64map_free(&m);
	if (ne > 1)
		qsort_r(e, ne, sizeof *e, cmp_edge, (void *)rank);
	*n = ne;
	return e;
}

static int cmp_child(const void *x, const void *y, void *arg)
{
	const view *v = arg;
	const cnode *a = &v->nodes[*(const uint32_t *)x], *b = &v->nodes[*(const uint32_t *)y];
	if (a->incl != b->incl)
		return a->incl > b->incl ? -1 : 1;
	return cmp_region(&v->regions[a->region], &v->regions[b->region]);
}

uint32_t *view_children(const view *v, uint32_t n, size_t *count)
{
	size_t k = 0;
	for (uint32_t c = v->nodes[n].first; c; c = v->nodes[c].next)
		k++;
	uint32_t *ix = xmalloc((k + 1) * sizeof *ix);
	k = 0;
	for (uint32_t c = v->nodes[n].first; c; c = v->nodes[c].next)
		ix[k++] = c;
	if (k > 1)
		qsort_r(ix, k, sizeof *ix, cmp_child, (void *)v);
	*count = k;
	return ix;
}

bool region_selected(const opts *o, const region *r)
{
	return !o->regex || regexec((const regex_t *)o->regex, r->name, 0, NULL, 0) == 0;
}

/* ---- parallel loading ---------------------------------------------------- */

typedef struct loader {
	view *v;
	char **files;
	int nfiles, next;
	char **errs;
	bool failed;
	pthread_mutex_t lock;
} loader;

static void *load_worker(void *arg)
{
	loader *L = arg;
	for (;;) {
		pthread_mutex_lock(&L->lock);
		int i = L->failed ? L->nfiles : L->next++;
		pthread_mutex_unlock(&L->lock);
		if (i >= L->nfiles)
			return NULL;
		profile p;
		char err[512];
		if (profile_read(L->files[i], &p, err, sizeof err) < 0) {
			pthread_mutex_lock(&L->lock);
			L->errs[i] = xstrdup(err);
			L->failed = true;
			pthread_mutex_unlock(&L->lock);
			continue;
		}
		pthread_mutex_lock(&L->lock);
		if (!L->failed && view_add(L->v, &p, err, sizeof err) < 0) {
			L->errs[i] = xstrdup(err);
			L->failed = true;
		}
		pthread_mutex_unlock(&L->lock);
		profile_free(&p);
	}
}

int view_load(view *v, char **files, int nfiles)
{
	loader L = { .v = v, .files = files, .nfiles = nfiles };
	L.errs = xcalloc((size_t)nfiles + 1, sizeof *L.errs);
	pthread_mutex_init(&L.lock, NULL);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nw = ncpu < 1 ? 1 : ncpu > 8 ? 8 : (int)ncpu;
	if (nw > nfiles)
		nw = nfiles;
	pthread_t tids[8];
	int started = 0;
	for (int i = 1; i < nw; i++)
		if (pthread_create(&tids[started], NULL, load_worker, &L) == 0)
			started++;
	load_worker(&L);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	pthread_mutex_destroy(&L.lock);
	int rc = 0;
	for (int i = 0; i < nfiles; i++)
		if (L.errs[i]) {
			if (!rc)
				fprintf(stderr, "selinst-report: %s\n", L.errs[i]);
			rc = -1;
			free(L.errs[i]);
		}
	free(L.errs);
	if (rc == 0)
		view_finish(v);
	return rc;
}

/* Iterative preorder walk of the merged tree (no recursion, so a deep
 * profile cannot overflow the C stack).  Children in view_children order.
 * VISIT gets the node, its depth (1 = top level) and the path from the
 * top (path[0..depth-1]); it returns false to skip the node's subtree. */
void view_walk(const view *v, bool (*visit)(const view *, uint32_t, int, const uint32_t *, void *),
	       void *arg)
{
	typedef struct { uint32_t *kids; size_t n, i; } frame;
	size_t cap = 64, sp = 0;
	frame *st = xmalloc(cap * sizeof *st);
	uint32_t *path = xmalloc(cap * sizeof *path);
	st[0].kids = view_children(v, 0, &st[0].n);
	st[0].i = 0;
	sp = 1;
	while (sp) {
		frame *f = &st[sp - 1];
		if (f->i == f->n) {
			free(f->kids);
			sp--;
			continue;
		}
		uint32_t c = f->kids[f->i++];
		path[sp - 1] = c;
		if (!visit(v, c, (int)sp, path, arg) || !v->nodes[c].first)
			continue;
		if (sp == cap) {
			cap *= 2;
			st = xrealloc(st, cap * sizeof *st);
			path = xrealloc(path, cap * sizeof *path);
		}
		st[sp].kids = view_children(v, c, &st[sp].n);
		st[sp].i = 0;
		sp++;
	}
	free(st);
	free(path);
}

void view_free(view *v)
{
	for (size_t i = 0; i < v->nregions; i++) {
		free((char *)v->regions[i].name);
		free((char *)v->regions[i].file);
		free((char *)v->regions[i].function);
	}
	for (size_t i = 0; i < v->nsettings; i++)
		free(v->settings[i]);
	free(v->settings);
	free(v->settings_units);
	for (size_t i = 0; i < v->nprocs; i++) {
		free((char *)v->procs[i].path);
		free((char *)v->procs[i].program);
		free((char *)v->procs[i].host);
	}
	for (size_t i = 0; i < v->nthreads; i++) {
		free(v->threads[i].reg);
		free(v->threads[i].excl);
		free(v->threads[i].incl);
		free(v->threads[i].tree);
	}
	for (size_t i = 0; i < v->nprograms; i++)
		free(v->programs[i]);
	free(v->programs);
	free(v->regions);
	free(v->procs);
	free(v->threads);
	free(v->mpi);
	free(v->nodes);
	u64map_free(&v->regmap);
	u64map_free(&v->cctmap);
	memset(v, 0, sizeof *v);
}

long view_find_region(const view *v, const region *q)
{
	uint64_t key = region_key(q->name, q->file, q->line, q->kind);
	for (;;) {
		uint32_t *slot = u64map_get(&v->regmap, key);
		if (!slot)
			return -1;
		const region *r = &v->regions[*slot];
		if (r->kind == q->kind && r->line == q->line && !strcmp(r->name, q->name) &&
		    !strcmp(r->file, q->file))
			return *slot;
		key = key + 1 == UINT64_MAX ? 0 : key + 1;
	}
}
