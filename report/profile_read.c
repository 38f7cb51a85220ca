/* SPDX-License-Identifier: MIT */
/*
 * Reads one profile (doc/profile-format.md, version 1) into struct profile
 * and validates it.  Every problem becomes one message "FILE:LINE: what"
 * (or "FILE: what" when no line applies); nothing here exits or aborts, so
 * the fuzzer can drive it directly.
 */
#include "report.h"
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <zlib.h>

bool profile_samples = true;
bool profile_compensate;

typedef struct ctx {
	const char *name;
	char *err;
	size_t errlen;
	jmp_buf jb;
	unsigned nlines;	/* lines in the file (the last one may lack its newline) */
	profile *p;
	u64map ids;
	u64map sampled;		/* hash of a sampled function's name -> its region */
	const ynode *smods;	/* sample_modules (versions 2, 3), or NULL */
	arena dom;		/* the document tree, freed after reading */
} ctx;

__attribute__((noreturn, format(printf, 3, 4)))
static void bad(ctx *c, unsigned line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* Values quoted from the file may hold line breaks: one line only. */
	for (char *m = msg; *m; m++)
		if ((unsigned char)*m < 0x20 || *m == 0x7f)
			*m = '?';
	if (line)
		snprintf(c->err, c->errlen, "%s:%u: %s", c->name, line, msg);
	else
		snprintf(c->err, c->errlen, "%s: %s", c->name, msg);
	longjmp(c->jb, 1);
}

static ynode *need(ctx *c, const ynode *map, const char *key, int type, const char *what)
{
	ynode *v = ymap_get(map, key);
	if (!v)
		bad(c, map->line, "%s has no '%s'", what, key);
	if (type && v->type != type)
		bad(c, v->line, "'%s' of %s must be %s", key, what,
		    type == Y_SCALAR ? "a scalar" : type == Y_SEQ ? "a list" : "a mapping");
	return v;
}

static bool is_null(const ynode *v)
{
	return v->type == Y_SCALAR && v->plain &&
	       (!v->s[0] || !strcmp(v->s, "~") || !strcmp(v->s, "null") ||
		!strcmp(v->s, "Null") || !strcmp(v->s, "NULL"));
}

static uint64_t to_u64(ctx *c, const ynode *v, const char *key)
{
	if (v->type != Y_SCALAR)
		bad(c, v->line, "'%s' must be an integer", key);
	const char *s = v->s;
	uint64_t x = 0;
	if (*s == '+')
		s++;
	if (!*s)
		bad(c, v->line, "'%s' must be a non-negative integer, not '%s'", key, v->s);
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			bad(c, v->line, "'%s' must be a non-negative integer, not '%.40s'", key, v->s);
		if (!u64_push_digit(&x, (unsigned)(*s - '0')))
			bad(c, v->line, "'%s' is too large", key);
	}
	return x;
}

static uint64_t get_u64(ctx *c, const ynode *map, const char *key, const char *what)
{
	return to_u64(c, need(c, map, key, Y_SCALAR, what), key);
}

static const char *get_str(ctx *c, const ynode *map, const char *key, const char *what,
			   bool required)
{
	ynode *v = required ? need(c, map, key, 0, what) : ymap_get(map, key);
	if (!v || (!required && is_null(v)))
		return NULL;
	if (v->type != Y_SCALAR)
		bad(c, v->line, "'%s' of %s must be a string", key, what);
	return arena_strndup(&c->p->mem, v->s, strlen(v->s));
}

static int64_t get_opt_int(ctx *c, const ynode *map, const char *key)
{
	ynode *v = ymap_get(map, key);
	if (!v || is_null(v))
		return -1;
	uint64_t x = to_u64(c, v, key);
	if (x > INT64_MAX)
		bad(c, v->line, "'%s' is too large", key);
	return (int64_t)x;
}

static bool get_bool(ctx *c, const ynode *map, const char *key, bool dflt)
{
	ynode *v = ymap_get(map, key);
	if (!v)
		return dflt;
	if (v->type == Y_SCALAR && (!strcmp(v->s, "true") || !strcmp(v->s, "True")))
		return true;
	if (v->type == Y_SCALAR && (!strcmp(v->s, "false") || !strcmp(v->s, "False")))
		return false;
	bad(c, v->line, "'%s' must be true or false", key);
}

/* throttled: {calls: C, seconds: S} (optional). */
static void read_throttled(ctx *c, const ynode *r, pregion *pr)
{
	ynode *th = ymap_get(r, "throttled");
	if (!th || is_null(th))
		return;
	if (th->type != Y_MAP)
		bad(c, th->line, "'throttled' must be a mapping {calls, seconds}");
	pr->throttled = true;
	pr->thr_calls = get_u64(c, th, "calls", "throttled");
	ynode *sec = need(c, th, "seconds", Y_SCALAR, "throttled");
	char *end;
	pr->thr_seconds = strtod(sec->s, &end);
	if (*end || end == sec->s || !(pr->thr_seconds >= 0))
		bad(c, sec->line, "'seconds' must be a non-negative number");
}

static void read_regions(ctx *c, const ynode *seq)
{
	profile *p = c->p;
	p->nregions = seq->n;
	p->capregions = seq->n ? seq->n : 1;
	p->regions = arena_alloc(&p->mem, (seq->n ? seq->n : 1) * sizeof *p->regions);
	memset(p->regions, 0, (seq->n ? seq->n : 1) * sizeof *p->regions);
	for (ynode *r = seq->first; r; r = r->next) {
		if (r->type != Y_MAP)
			bad(c, r->line, "each region must be a mapping");
		ynode *idn = need(c, r, "id", Y_SCALAR, "region");
		uint64_t id = to_u64(c, idn, "id");
		if (id >= seq->n)
			bad(c, idn->line, "region id %llu out of range (regions are numbered 0..%u)",
			    (unsigned long long)id, seq->n - 1);
		pregion *pr = &p->regions[id];
		if (pr->name)
			bad(c, idn->line, "region id %llu defined twice", (unsigned long long)id);
		pr->name = get_str(c, r, "name", "region", true);
		pr->file = get_str(c, r, "file", "region", true);
		const char *kind = get_str(c, r, "kind", "region", true);
		pr->kind = -1;
		for (int k = 0; k < SELINST_PROFILE_KINDS; k++)
			if (!strcmp(kind, selinst_profile_kind_names[k]))
				pr->kind = k;
		if (pr->kind < 0)
			bad(c, ymap_get(r, "kind")->line,
			    "region kind '%.40s' is not function, loop, manual or mpi", kind);
		uint64_t line = get_u64(c, r, "line", "region");
		if (line > UINT32_MAX)
			bad(c, ymap_get(r, "line")->line, "line %llu too large",
			    (unsigned long long)line);
		pr->line = (uint32_t)line;
		pr->function = get_str(c, r, "function", "region", false);
		const char *counter = get_str(c, r, SELINST_PROFILE_COUNTER, "region", false);
		pr->counter_folded = counter && !strcmp(counter, SELINST_PROFILE_COUNTER_FOLDED);
		pr->loop_lines = get_str(c, r, SELINST_PROFILE_LOOP_LINES, "region", false);
		read_throttled(c, r, pr);
	}
}

static void add_trips(ctx *c, pnode *n, const ynode *tc)
{
	profile *p = c->p;
	if (is_null(tc))
		return;
	if (tc->type != Y_MAP)
		bad(c, tc->line, "trip_counts must be a mapping of bucket: count");
	n->trip_off = (uint32_t)p->ntrips;
	for (ynode *k = tc->first; k && k->next; k = k->next->next) {
		int b = k->type == Y_SCALAR ? trip_bucket_parse(k->s) : -1;
		if (b < 0)
			bad(c, k->line, "'%.40s' is not a trip-count bucket (0..15, 16-31, 32-63, ...)",
			    k->type == Y_SCALAR ? k->s : "?");
		uint64_t cnt = to_u64(c, k->next, "trip count");
		if ((p->ntrips & (p->ntrips + 1)) == 0 || p->ntrips == 0)
			p->trips = xrealloc(p->trips, (p->ntrips + 1) * 2 * sizeof *p->trips);
		p->trips[p->ntrips].bucket = (uint32_t)b;
		p->trips[p->ntrips].count = cnt;
		p->ntrips++;
		n->trip_n++;
	}
}

/* Inclusive time as every view counts it: a node's exclusive time plus
 * its children's inclusive times, so that each instant is counted once,
 * on the path of the node that was running.  The runtime writes exactly
 * that except on folded recursion, where a node's inclusive_ns is its
 * outermost activation: there a child entered from an inner activation
 * (A -> P -> A -> E, E folded under A) overlaps its sibling P in time,
 * and summing such children (tree view) or nodes (flat view) counted an
 * instant twice.  Parents come before children, so one backward pass
 * does it. */
static void sum_inclusive(pthr *th)
{
	uint64_t *kids = xcalloc(th->nnodes + 1, sizeof *kids);
	for (size_t i = th->nnodes; i-- > 0;) {
		pnode *n = &th->nodes[i];
		if (__builtin_add_overflow(n->excl, kids[i], &n->incl))
			n->incl = UINT64_MAX;
		if (n->pidx != UINT32_MAX &&
		    __builtin_add_overflow(kids[n->pidx], n->incl, &kids[n->pidx]))
			kids[n->pidx] = UINT64_MAX;
	}
	free(kids);
}

/* The region of sampled function FN ("~FN", kind sampled), or of FN's
 * uninstrumented loop LOOP ("file:LINE": "~loop file:LINE"), made on
 * first sight; regions grow in the arena (the old array is left there). */
static uint32_t sampled_region(ctx *c, const char *fn, const char *loop)
{
	profile *p = c->p;
	char lname[320];
	if (loop) {
		snprintf(lname, sizeof lname, "loop %s", loop);
		fn = lname;
	}
	uint64_t key = hash_bytes(fn, strlen(fn) + 1, 0x5a);
	if (key == UINT64_MAX)
		key = 0;	/* reserved by u64map */
	for (;; key = key + 1 == UINT64_MAX ? 0 : key + 1) {
		bool fresh;
		uint32_t *slot = u64map_put(&c->sampled, key, &fresh);
		if (!fresh) {
			if (!strcmp(p->regions[*slot].name + 1, fn))
				return *slot;
			continue;
		}
		if (p->nregions == p->capregions) {
			pregion *nr = arena_alloc(&p->mem, 2 * p->capregions * sizeof *nr);
			memcpy(nr, p->regions, p->nregions * sizeof *nr);
			p->regions = nr;
			p->capregions *= 2;
		}
		pregion *r = &p->regions[p->nregions];
		memset(r, 0, sizeof *r);
		size_t len = strlen(fn);
		char *name = arena_alloc(&p->mem, len + 2);
		name[0] = '~';
		memcpy(name + 1, fn, len + 1);
		r->name = name;
		r->file = "";
		const char *colon = loop ? strrchr(loop, ':') : NULL;
		if (colon) {	/* a loop's file and line, as loop regions have */
			char *file = arena_alloc(&p->mem, (size_t)(colon - loop) + 1);
			memcpy(file, loop, (size_t)(colon - loop));
			file[colon - loop] = 0;
			r->file = file;
			r->line = (uint32_t)strtoul(colon + 1, NULL, 10);
		}
		r->kind = K_SAMPLED;
		*slot = (uint32_t)p->nregions;
		return (uint32_t)p->nregions++;
	}
}

/* The function node TH->nodes[I] stands for: samples there are its own
 * code, part of its exclusive time, not a sampled child (NULL: a manual
 * region, whose samples all become children). */
static const char *own_function(const profile *p, const pnode *n)
{
	const pregion *r = &p->regions[n->region];
	return r->kind == K_FUNCTION ? r->name : r->kind == K_LOOP ? r->function : NULL;
}

/* The sum of the counts of a samples list [{function: F, count: N}, ...],
 * each entry checked. */
static uint64_t samples_total(ctx *c, const ynode *seq, const char *what)
{
	if (seq->type != Y_SEQ)
		bad(c, seq->line, "'%s' must be a list", what);
	uint64_t total = 0;
	for (const ynode *e = seq->first; e; e = e->next) {
		if (e->type != Y_MAP)
			bad(c, e->line, "each sample entry must be a mapping {function, count}");
		if (!ymap_get(e, "function") && ymap_get(e, SELINST_PROFILE_SAMPLE_ADDRESSES))
			need(c, e, SELINST_PROFILE_SAMPLE_MODULE, Y_SCALAR, "sample entry");
		else	/* version 3 names it from the module's addresses */
			get_str(c, e, "function", "sample entry", true);
		if (__builtin_add_overflow(total, get_u64(c, e, "count", "sample entry"), &total))
			bad(c, e->line, "sample counts of one node overflow 64 bits");
	}
	return total;
}

/* The ~FN node (~loop LOOP with LOOP) under PIDX among the sampled nodes
 * made from FIRST on, made (time 0, no samples yet) when there is none. */
static uint32_t sampled_parent(ctx *c, pthr *th, uint32_t pidx, size_t first, const char *fn,
			       const char *loop)
{
	uint32_t r = sampled_region(c, fn, loop);
	for (size_t i = first; i < th->nnodes; i++)
		if (th->nodes[i].pidx == pidx && th->nodes[i].region == r)
			return (uint32_t)i;
	pnode *n = &th->nodes[th->nnodes++];
	memset(n, 0, sizeof *n);
	n->pidx = pidx;
	n->region = r;
	return (uint32_t)(th->nnodes - 1);
}

/* An optional string key K of sample entry E; NULL when absent. */
static const char *entry_str(ctx *c, const ynode *e, const char *k)
{
	const ynode *v = ymap_get(e, k);
	if (v && v->type != Y_SCALAR)
		bad(c, v->line, "'%s' of a sample entry must be a string", k);
	return v ? v->s : NULL;
}

/* The function region with loop lines whose code the samples of node I
 * (UINT32_MAX: the root) run in: the node's own function, or for a loop
 * node the function node above it that the loop belongs to; NULL when
 * none (as runtime/sample.c chose it before version 2). */
static const pregion *loop_table_of(const profile *p, const pthr *th, uint32_t i)
{
	const pregion *r = i != UINT32_MAX ? &p->regions[th->nodes[i].region] : NULL;
	const char *want = r && r->kind == K_LOOP ? r->function : NULL;
	while (r && r->kind == K_LOOP) {
		i = th->nodes[i].pidx;
		r = i != UINT32_MAX ? &p->regions[th->nodes[i].region] : NULL;
	}
	if (!r || r->kind != K_FUNCTION || !r->loop_lines || (want && strcmp(want, r->name)))
		return NULL;
	return r;
}

/* Module number MI (a sample entry's key) of sample_modules: its path and
 * build-id (NULL: none) into *PATH and *ID. */
static void sample_module(ctx *c, const ynode *mi, const char **path, const char **id)
{
	uint64_t k = to_u64(c, mi, SELINST_PROFILE_SAMPLE_MODULE);
	const ynode *m = c->smods ? c->smods->first : NULL;
	for (uint64_t j = 0; m && j < k; j++)
		m = m->next;
	if (!m)
		bad(c, mi->line, "module %llu of a sample entry is not in '%s'",
		    (unsigned long long)k, SELINST_PROFILE_SAMPLE_MODULES);
	const ynode *b = ymap_get(m, "build_id");
	*path = ymap_get(m, "path")->s;
	*id = b && !is_null(b) ? b->s : NULL;
}

/* The loop of file address AT of sample entry E (versions 2 and 3), under
 * node PIDX: sample_loops.c looks it up in E's module file; NULL when none. */
static const char *address_loop(ctx *c, const pthr *th, uint32_t pidx, const ynode *e,
				uint64_t at)
{
	const char *path, *id;
	sample_module(c, need(c, e, SELINST_PROFILE_SAMPLE_MODULE, Y_SCALAR, "sample entry"),
		      &path, &id);
	const pregion *f = loop_table_of(c->p, th, pidx);
	char buf[256];
	if (!sample_loop_name(path, id, c->p->path, at, f ? f->file : NULL,
			      f ? f->loop_lines : NULL, buf, sizeof buf))
		return NULL;
	return arena_strndup(&c->p->mem, buf, strlen(buf));
}

/* The function at file address AT of sample entry E's module (version
 * 3): sample_loops.c names it from the module file. */
static const char *address_function(ctx *c, const ynode *e, uint64_t at)
{
	const char *path, *id;
	sample_module(c, ymap_get(e, SELINST_PROFILE_SAMPLE_MODULE), &path, &id);
	return sample_function_name(path, id, c->p->path, at);
}

/* The caller of sample entry E: caller (a name), or caller_at: [MODULE,
 * ADDRESS] (version 3) named from the module file; NULL: none. */
static const char *entry_caller(ctx *c, const ynode *e)
{
	const ynode *at = ymap_get(e, SELINST_PROFILE_SAMPLE_CALLER_AT);
	if (!at)
		return entry_str(c, e, "caller");
	if (at->type != Y_SEQ || at->n != 2)
		bad(c, at->line, "'%s' must be a list [module, address]",
		    SELINST_PROFILE_SAMPLE_CALLER_AT);
	const char *path, *id;
	sample_module(c, at->first, &path, &id);
	return sample_function_name(path, id, c->p->path, to_u64(c, at->last, "address"));
}

/* sample_modules: each {path, build_id}. */
static void read_sample_modules(ctx *c, const ynode *root)
{
	const ynode *l = ymap_get(root, SELINST_PROFILE_SAMPLE_MODULES);
	if (!l || is_null(l))
		return;
	if (l->type != Y_SEQ)
		bad(c, l->line, "'%s' must be a list", SELINST_PROFILE_SAMPLE_MODULES);
	for (const ynode *m = l->first; m; m = m->next) {
		if (m->type != Y_MAP)
			bad(c, m->line, "each sample module must be a mapping {path, build_id}");
		need(c, m, "path", Y_SCALAR, "sample module");
		const ynode *id = ymap_get(m, "build_id");
		if (id && id->type != Y_SCALAR)
			bad(c, id->line, "'build_id' of a sample module must be a string");
	}
	c->smods = l;
}

/* CNT samples of function FN (in LOOP, called by CALLER; NULL: not
 * known) as a sampled child of node PIDX (UINT32_MAX: the thread's root),
 * among the sampled nodes made from FIRST on, whose function is OWN
 * (NULL: none); each gets TIME * count / TOTAL.  Returns the time given
 * out. */
static uint64_t add_one(ctx *c, pthr *th, uint32_t pidx, size_t first, const char *own,
			const char *fn, const char *loop, const char *caller, uint64_t cnt,
			uint64_t time, uint64_t total)
{
	if (!cnt || (own && !loop && !strcmp(fn, own)))
		return 0;
	/* Library code sampled with its caller known: under the caller's
	 * ~node, unless the caller is the node's own code. */
	uint32_t at = pidx;
	if (caller && (!own || strcmp(caller, own)))
		at = sampled_parent(c, th, at, first, caller, NULL);
	/* A loop of another function (an uninstrumented callee's, from the
	 * module's loop table): under that function's ~node. */
	if (loop && (!own || strcmp(fn, own)))
		at = sampled_parent(c, th, at, first, fn, NULL);
	pnode *n = &th->nodes[sampled_parent(c, th, at, first, fn, loop)];
	uint64_t t = (uint64_t)((unsigned __int128)time * cnt / total);
	n->excl += t;
	n->incl = n->excl;
	n->samples += cnt;
	/* The enclosing ~nodes' estimates rest on these samples too. */
	for (uint32_t a = at; a != pidx; a = th->nodes[a].pidx)
		th->nodes[a].samples += cnt;
	return t;
}

/* A sampled address of version 3, named: COUNT samples of function FN in
 * LOOP (NULL: none) called by CALLER (NULL: not known). */
struct named { const char *fn, *loop, *caller; uint64_t cnt; };

static int named_cmp(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int k = strcmp(a->fn, b->fn);
	if (!k)
		k = strcmp(a->caller ? a->caller : "", b->caller ? b->caller : "");
	if (!k)
		k = strcmp(a->loop ? a->loop : "", b->loop ? b->loop : "");
	return k;
}

/* The addresses of entry E, checked, each with its loop into *OUT (*N of
 * them), and with NAMED (version 3) its function and the entry's caller;
 * returns the count they add up to. */
static uint64_t entry_addresses(ctx *c, const pthr *th, uint32_t pidx, const ynode *e,
				uint64_t cnt, bool named, struct named *out, size_t *n)
{
	const ynode *ad = ymap_get(e, SELINST_PROFILE_SAMPLE_ADDRESSES);
	if (ad->type != Y_SEQ || ad->n % 2)
		bad(c, ad->line, "'%s' must be a list of address, count pairs",
		    SELINST_PROFILE_SAMPLE_ADDRESSES);
	const char *caller = named ? entry_caller(c, e) : NULL;
	uint64_t sum = 0;
	for (const ynode *a = ad->first; a; a = a->next->next) {
		uint64_t k = to_u64(c, a->next, "count"), at = to_u64(c, a, "address");
		if (__builtin_add_overflow(sum, k, &sum) || sum > cnt)
			bad(c, ad->line, "the addresses' counts add up to more than 'count'");
		out[(*n)++] = (struct named){ named ? address_function(c, e, at) : NULL,
			address_loop(c, th, pidx, e, at), caller, k };
	}
	return sum;
}

/* Sampled children of node PIDX (UINT32_MAX: the thread's root) from the
 * list SEQ (see add_one); an entry with addresses is split by the loop of
 * each (version 3: by the function and loop of each, the same ones added
 * up).  Returns the time given out (floors: never more than TIME). */
static uint64_t add_sampled(ctx *c, pthr *th, uint32_t pidx, const ynode *seq, const char *own,
			    uint64_t time, uint64_t total)
{
	uint64_t taken = 0;
	size_t first = th->nnodes, nn = 0, room = 0;
	for (const ynode *e = seq->first; e; e = e->next) {
		const ynode *ad = ymap_get(e, SELINST_PROFILE_SAMPLE_ADDRESSES);
		room += ad && ad->type == Y_SEQ ? ad->n / 2 : 0;
	}
	struct named *nm = xmalloc((room ? room : 1) * sizeof *nm);
	for (const ynode *e = seq->first; e; e = e->next) {
		const ynode *fnode = ymap_get(e, "function");
		uint64_t cnt = to_u64(c, ymap_get(e, "count"), "count");
		const char *loop = entry_str(c, e, "loop");
		const ynode *ad = ymap_get(e, SELINST_PROFILE_SAMPLE_ADDRESSES);
		if (!fnode) {	/* version 3: named from the module file */
			uint64_t sum = entry_addresses(c, th, pidx, e, cnt, true, nm, &nn);
			if (sum < cnt)
				bad(c, e->line, "the addresses' counts add up to less than 'count'");
			continue;
		}
		const char *fn = fnode->s, *caller = entry_caller(c, e);
		if (!ad || loop) {
			taken += add_one(c, th, pidx, first, own, fn, loop, caller, cnt, time, total);
			continue;
		}
		/* version 2: the function named, each address's loop here */
		size_t k0 = nn;
		uint64_t sum = entry_addresses(c, th, pidx, e, cnt, false, nm, &nn);
		for (size_t k = k0; k < nn; k++)
			taken += add_one(c, th, pidx, first, own, fn, nm[k].loop, caller, nm[k].cnt,
					 time, total);
		nn = k0;
		taken += add_one(c, th, pidx, first, own, fn, NULL, caller, cnt - sum, time, total);
	}
	qsort(nm, nn, sizeof *nm, named_cmp);
	for (size_t i = 0, j; i < nn; i = j) {
		uint64_t cnt = 0;
		for (j = i; j < nn && !named_cmp(&nm[i], &nm[j]); j++)
			cnt += nm[j].cnt;
		taken += add_one(c, th, pidx, first, own, nm[i].fn, nm[i].loop, nm[i].caller, cnt,
				 time, total);
	}
	free(nm);
	return taken;
}

/* Node I's samples.  Each function other than the node's own becomes a
 * child node of kind sampled whose time is its share of the node's
 * samples times the node's exclusive time (an estimate), taken out of the
 * node's exclusive time; calls 0. */
static void read_samples(ctx *c, pthr *th, uint32_t i, const ynode *seq)
{
	uint64_t total = samples_total(c, seq, "samples' of node");
	if (!profile_samples || !total)
		return;
	const char *own = own_function(c->p, &th->nodes[i]);
	uint64_t excl = th->nodes[i].excl;
	th->nodes[i].excl = excl - add_sampled(c, th, i, seq, own, excl, total);
}

/* The thread's root_samples: CPU time outside every region, which no node
 * measured (all of it in a program without hooks: sampling-only mode).
 * Each function becomes a sampled node at the top of the thread's tree,
 * its time its share of all the thread's samples times the thread's CPU
 * time (or its samples over the rate when the CPU time is unknown). */
static void read_root_samples(ctx *c, const ynode *t, pthr *th, const ynode *seq)
{
	uint64_t total = samples_total(c, seq, "root_samples' of thread");
	if (!profile_samples || !total)
		return;
	ynode *all = ymap_get(t, "samples");
	uint64_t n = all ? to_u64(c, all, "samples") : 0;
	if (n < total)
		n = total;
	if (th->cpu_ns >= 0)
		add_sampled(c, th, UINT32_MAX, seq, NULL, (uint64_t)th->cpu_ns, n);
	else if (c->p->sample_hz)
		add_sampled(c, th, UINT32_MAX, seq, NULL, 1000000000u * total / c->p->sample_hz,
			    total);
}

/* Room for the sampled nodes that the sample entries of list SEQ may
 * make: each its caller's, its function's and its loop's, and with
 * addresses a function and a loop per address (version 3). */
static size_t seq_room(const ynode *seq)
{
	size_t k = 0;
	for (const ynode *e = seq && seq->type == Y_SEQ ? seq->first : NULL; e; e = e->next) {
		const ynode *ad = e->type == Y_MAP ?
			ymap_get(e, SELINST_PROFILE_SAMPLE_ADDRESSES) : NULL;
		k += 3 + (ad && ad->type == Y_SEQ ? ad->n : 0);
	}
	return k;
}

/* Room for the sampled children of the nodes of NODES. */
static size_t count_samples(const ynode *nodes)
{
	size_t k = 0;
	for (const ynode *m = nodes->first; m; m = m->next)
		k += seq_room(m->type == Y_MAP ? ymap_get(m, "samples") : NULL);
	return k;
}

/* A list of NWANT unsigned integers (a flow list in the profile) into OUT. */
static void read_u64_list(ctx *c, const ynode *l, const char *what, size_t nwant,
			  uint64_t *out)
{
	if (l->type != Y_SEQ)
		bad(c, l->line, "%s must be a list", what);
	if (l->n != nwant)
		bad(c, l->line, "%s has %u numbers, expected %zu", what, l->n, nwant);
	size_t i = 0;
	for (const ynode *v = l->first; v; v = v->next)
		out[i++] = to_u64(c, v, what);
}

/* The thread node of profile node id ID (read by read_thread). */
static uint32_t node_index(ctx *c, const ynode *v, const char *what)
{
	uint64_t id = to_u64(c, v, what);
	uint32_t *i = u64map_get(&c->ids, id);
	if (!i)
		bad(c, v->line, "%s: the thread has no node %llu", what, (unsigned long long)id);
	return *i;
}

/* calls: runs [n, calls...] covering the RECORDED iterations. */
static void read_iter_calls(ctx *c, const ynode *seq, piter *it)
{
	if (seq->type != Y_SEQ)
		bad(c, seq->line, "'calls' of iterations must be a list");
	uint64_t done = 0, run[1 + 64];
	for (const ynode *r = seq->first; r; r = r->next) {
		read_u64_list(c, r, "a run of 'calls'", 1 + it->ncol, run);
		if (!run[0] || run[0] > it->recorded - done)
			bad(c, r->line, "runs of 'calls' cover more than the %llu iterations recorded",
			    (unsigned long long)it->recorded);
		for (uint64_t k = 0; k < run[0]; k++, done++)
			memcpy(it->calls + done * it->ncol, run + 1, it->ncol * sizeof *run);
	}
	if (done != it->recorded)
		bad(c, seq->line, "runs of 'calls' cover %llu iterations, not the %llu recorded",
		    (unsigned long long)done, (unsigned long long)it->recorded);
}

/* base64 TEXT into OUT (room for strlen(TEXT) / 4 * 3 bytes): the bytes
 * decoded, or -1 when TEXT is no base64. */
static long base64_decode(const char *text, unsigned char *out)
{
	size_t n = strlen(text), o = 0;
	if (n % 4)
		return -1;
	for (size_t i = 0; i < n; i += 4) {
		uint32_t w = 0;
		int pad = 0;
		for (int k = 0; k < 4; k++) {
			const char *at = text[i + k] ? strchr(selinst_base64_alphabet, text[i + k]) : NULL;
			if (text[i + k] == '=' && i + 4 == n && k >= 2 && (k == 3 || text[i + 3] == '='))
				pad++;
			else if (!at || pad)
				return -1;
			w = w << 6 | (uint32_t)(at ? at - selinst_base64_alphabet : 0);
		}
		out[o++] = (unsigned char)(w >> 16);
		if (pad < 2)
			out[o++] = (unsigned char)(w >> 8);
		if (pad < 1)
			out[o++] = (unsigned char)w;
	}
	return (long)o;
}

/* rows_packed (selinst-profile.h): the rows back, each value to 0.2%. */
static void read_rows_packed(ctx *c, const ynode *pk, piter *it)
{
	if (pk->type != Y_MAP)
		bad(c, pk->line, "'rows_packed' of iterations must be a mapping");
	uint64_t width = 1 + it->ncol, values = get_u64(c, pk, "values", "rows_packed");
	uint64_t bytes = get_u64(c, pk, "bytes", "rows_packed"), scale[1 + 64];
	if (values != it->recorded * width)
		bad(c, pk->line, "'rows_packed' holds %llu values, not the %llu of %llu iterations",
		    (unsigned long long)values, (unsigned long long)(it->recorded * width),
		    (unsigned long long)it->recorded);
	if (bytes < values || bytes > 3 * values)
		bad(c, pk->line, "'rows_packed': %llu bytes cannot hold %llu values",
		    (unsigned long long)bytes, (unsigned long long)values);
	read_u64_list(c, need(c, pk, "scale", Y_SEQ, "rows_packed"), "'scale' of rows_packed",
		      width, scale);
	const ynode *z = need(c, pk, "zlib", Y_SCALAR, "rows_packed");
	unsigned char *zbuf = arena_alloc(&c->dom, strlen(z->s) / 4 * 3 + 1);
	unsigned char *raw = arena_alloc(&c->dom, bytes + 1);
	long zn = base64_decode(z->s, zbuf);
	if (zn < 0)
		bad(c, z->line, "'zlib' of rows_packed is not base64");
	uLongf got = (uLongf)bytes;
	if (uncompress(raw, &got, zbuf, (uLong)zn) != Z_OK || got != bytes)
		bad(c, z->line, "'zlib' of rows_packed does not inflate to its %llu bytes",
		    (unsigned long long)bytes);
	size_t at = 0;
	for (uint64_t k = 0; k < values; k++) {
		uint64_t code = 0;
		for (unsigned sh = 0;; sh += 7) {
			if (at >= bytes || sh > 14)
				bad(c, z->line, "'zlib' of rows_packed: value %llu is cut or too long",
				    (unsigned long long)k + 1);
			code |= (uint64_t)(raw[at] & 0x7f) << sh;
			if (!(raw[at++] & 0x80))
				break;
		}
		double v = code ? (double)scale[k % width] * exp(selinst_iter_exponent(code)) : 0;
		it->rows[k] = v < 1.8e19 ? (uint64_t)(v + 0.5) : UINT64_MAX;
	}
	if (at != bytes)
		bad(c, z->line, "'zlib' of rows_packed holds more than its %llu values",
		    (unsigned long long)values);
}

/* plugin_settings: [{units: N, settings: TEXT}, ...] (optional). */
static void read_settings(ctx *c, const ynode *seq)
{
	profile *p = c->p;
	if (!seq)
		return;
	if (seq->type != Y_SEQ)
		bad(c, seq->line, "'plugin_settings' must be a list");
	p->settings = arena_alloc(&p->mem, (seq->n + 1) * sizeof *p->settings);
	p->settings_units = arena_alloc(&p->mem, (seq->n + 1) * sizeof *p->settings_units);
	for (const ynode *e = seq->first; e; e = e->next) {
		if (e->type != Y_MAP)
			bad(c, e->line, "each entry of 'plugin_settings' must be a mapping");
		p->settings_units[p->nsettings] = get_u64(c, e, "units", "plugin_settings");
		const char *t = get_str(c, e, "settings", "plugin_settings", true);
		char *copy = arena_alloc(&p->mem, strlen(t) + 1);
		p->settings[p->nsettings++] = strcpy(copy, t);
	}
}

static void read_iteration_table(ctx *c, const ynode *m, const pthr *th, piter *it)
{
	profile *p = c->p;
	if (m->type != Y_MAP)
		bad(c, m->line, "each entry of 'iterations' must be a mapping");
	it->node = node_index(c, need(c, m, "node", Y_SCALAR, "iterations"), "node");
	const char *kind = get_str(c, m, "kind", "iterations", true);
	if (strcmp(kind, "loop") && strcmp(kind, "phase"))
		bad(c, ymap_get(m, "kind")->line, "kind of iterations must be loop or phase, not '%s'",
		    kind);
	it->phase = !strcmp(kind, "phase");
	if (!it->phase && p->regions[th->nodes[it->node].region].kind != K_LOOP)
		bad(c, ymap_get(m, "node")->line, "iterations of a loop name a node that is no loop");
	it->recorded = get_u64(c, m, "recorded", "iterations");
	it->dropped = get_u64(c, m, "dropped", "iterations");
	if (it->recorded > 100000000)
		bad(c, ymap_get(m, "recorded")->line, "recorded: %llu iterations is not plausible",
		    (unsigned long long)it->recorded);
	const ynode *cols = need(c, m, "columns", Y_SEQ, "iterations");
	if (cols->n > 64)
		bad(c, cols->line, "more than 64 columns");
	it->ncol = cols->n;
	it->col = arena_alloc(&p->mem, (it->ncol + 1) * sizeof *it->col);
	uint32_t j = 0;
	for (const ynode *v = cols->first; v; v = v->next)
		it->col[j++] = node_index(c, v, "columns");
	it->calls = arena_alloc(&p->mem, (it->recorded * it->ncol + 1) * sizeof *it->calls);
	it->rows = arena_alloc(&p->mem, (it->recorded * (1 + it->ncol) + 1) * sizeof *it->rows);
	read_iter_calls(c, need(c, m, "calls", Y_SEQ, "iterations"), it);
	const ynode *packed = ymap_get(m, "rows_packed");
	if (packed) {
		read_rows_packed(c, packed, it);
		return;
	}
	const ynode *rows = need(c, m, "rows", Y_SEQ, "iterations");
	if (rows->n != it->recorded)
		bad(c, rows->line, "'rows' has %u rows, not the %llu iterations recorded", rows->n,
		    (unsigned long long)it->recorded);
	uint64_t i = 0;
	for (const ynode *r = rows->first; r; r = r->next, i++)
		read_u64_list(c, r, "a row", 1 + it->ncol, it->rows + i * (1 + it->ncol));
}

static void read_iterations(ctx *c, pthr *th, const ynode *seq)
{
	if (seq->type != Y_SEQ)
		bad(c, seq->line, "'iterations' of thread must be a list");
	th->niters = seq->n;
	th->iters = arena_alloc(&c->p->mem, (seq->n + 1) * sizeof *th->iters);
	size_t i = 0;
	for (const ynode *m = seq->first; m; m = m->next)
		read_iteration_table(c, m, th, &th->iters[i++]);
}

/* flow: [[node, pred, count], ...], pred 0 the root. */
static void read_flow(ctx *c, pthr *th, const ynode *seq)
{
	if (seq->type != Y_SEQ)
		bad(c, seq->line, "'flow' of thread must be a list");
	th->flow = arena_alloc(&c->p->mem, (seq->n + 1) * sizeof *th->flow);
	for (const ynode *e = seq->first; e; e = e->next) {
		uint64_t v[3];
		read_u64_list(c, e, "an edge of 'flow'", 3, v);
		pflow *f = &th->flow[th->nflow++];
		uint32_t *i = u64map_get(&c->ids, v[0]), *j = v[1] ? u64map_get(&c->ids, v[1]) : NULL;
		if (!i || (v[1] && !j))
			bad(c, e->line, "an edge of 'flow' names node %llu, which the thread does not have",
			    (unsigned long long)(i ? v[1] : v[0]));
		f->node = *i;
		f->pred = j ? *j : UINT32_MAX;
		f->count = v[2];
	}
}

/* Optional top-level KEY: a non-negative number of nanoseconds (0 when
 * absent). */
static double get_ns(ctx *c, const ynode *root, const char *key)
{
	ynode *v = ymap_get(root, key);
	if (!v || v->type != Y_SCALAR)
		return 0;
	char *rest;
	double d = strtod(v->s, &rest);
	if (*rest || rest == v->s || !(d >= 0) || d > 1e9)
		bad(c, v->line, "'%s' must be a non-negative number of nanoseconds", key);
	return d;
}

/* WANT ns of hook cost out of *EXCL, never below zero; what does not fit
 * is counted short: there the hooks cost less than calibrated. */
/* X in [0, UINT64_MAX]: calls near 2^64 (a profile may say so) times a
 * pair's cost do not fit. */
static uint64_t u64_of(double x)
{
	return x <= 0 ? 0 : x >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)x;
}

static void take_out(profile *p, uint64_t *excl, double want)
{
	uint64_t take = want < (double)*excl ? u64_of(want) : *excl;
	*excl -= take;
	p->compensated_ns = u64_add_sat(p->compensated_ns, take);
	if (want > (double)take)
		p->compensate_short_ns = u64_add_sat(p->compensate_short_ns, u64_of(want - (double)take));
}

/* --compensate: each call of a function or loop node cost one pair of the
 * hooks (the calibrated hook_pair_ns or hook_loop_pair_ns).  The part of
 * a pair between its two clock reads (hook_inside_ns, hook_loop_inside_ns)
 * lies in the node's own exclusive time, the rest in its parent's (the
 * call, the hook's work before its clock read at enter and after it at
 * exit).  Both are taken out, never below zero; inclusive times follow
 * (sum_inclusive).  Manual, MPI and OpenMP regions are left as measured:
 * their hooks are other code, not calibrated.  Before the samples split a
 * node's exclusive time, so its sampled children share the compensated
 * time. */
static void compensate(profile *p, pthr *th)
{
	/* The elapsed times hold the thread's waits on the run queue, the
	 * hooks' share of them too: a thread that ran 1 s and waited 0.5 s
	 * for a CPU paid 1.5 x the calibrated (best-case CPU) cost per pair
	 * in elapsed time, as every other instruction did.  Blocked time
	 * (sleep, I/O) is not on the run queue and is not scaled. */
	double scale = 1;
	if (th->cpu_ns > 0 && th->runq_ns >= 0)
		scale += (double)th->runq_ns / (double)th->cpu_ns;
	for (size_t i = 0; i < th->nnodes; i++) {
		pnode *n = &th->nodes[i];
		int kind = p->regions[n->region].kind;
		if (kind != K_FUNCTION && kind != K_LOOP)
			continue;
		bool loop = kind == K_LOOP;
		double pair = loop ? p->hook_loop_pair_ns : p->hook_pair_ns;
		double in = loop ? p->hook_loop_inside_ns : p->hook_inside_ns;
		if (in > pair)
			in = pair;
		double own = (double)n->calls * in * scale;
		double out = (double)n->calls * (pair - in) * scale;
		take_out(p, &n->excl, own);
		if (n->pidx != UINT32_MAX)	/* else the outside part is in no node's time */
			take_out(p, &th->nodes[n->pidx].excl, out);
	}
}

/* A thread's optional figures: CPU time, run-queue wait (-1: unknown),
 * samples taken and those that fell in the runtime. */
static void read_thread_times(ctx *c, const ynode *t, pthr *th)
{
	ynode *cpu = ymap_get(t, "cpu_ns");	/* may be null */
	th->cpu_ns = cpu && !is_null(cpu) ? (int64_t)(to_u64(c, cpu, "cpu_ns") & INT64_MAX) : -1;
	ynode *rq = ymap_get(t, SELINST_PROFILE_RUNQUEUE);
	th->runq_ns = rq && !is_null(rq) ?
		(int64_t)(to_u64(c, rq, SELINST_PROFILE_RUNQUEUE) & INT64_MAX) : -1;
	ynode *smp = ymap_get(t, "samples"), *srt = ymap_get(t, "samples_in_runtime");
	th->samples = smp && !is_null(smp) ? to_u64(c, smp, "samples") : 0;
	th->samples_in_runtime = srt && !is_null(srt) ? to_u64(c, srt, "samples_in_runtime") : 0;
}

static void read_thread(ctx *c, const ynode *t, pthr *th)
{
	profile *p = c->p;
	if (t->type != Y_MAP)
		bad(c, t->line, "each thread must be a mapping");
	th->index = get_u64(c, t, "index", "thread");
	ynode *tid = ymap_get(t, "tid");
	th->tid = tid ? to_u64(c, tid, "tid") : 0;
	read_thread_times(c, t, th);
	ynode *nodes = need(c, t, "nodes", 0, "thread");
	ynode *rs = ymap_get(t, "root_samples");
	if (rs && is_null(rs))
		rs = NULL;
	if (is_null(nodes) && !rs)
		return;
	if (!is_null(nodes) && nodes->type != Y_SEQ)
		bad(c, nodes->line, "'nodes' of thread must be a list");
	th->nnodes = is_null(nodes) ? 0 : nodes->n;
	size_t room = th->nnodes + (th->nnodes ? count_samples(nodes) : 0) + seq_room(rs);
	th->nodes = arena_alloc(&p->mem, (room ? room : 1) * sizeof *th->nodes);
	c->ids.n = 0;
	memset(c->ids.keys, 0xff, c->ids.cap * sizeof *c->ids.keys);
	uint32_t i = 0;
	for (ynode *m = th->nnodes ? nodes->first : NULL; m; m = m->next, i++) {
		if (m->type != Y_MAP)
			bad(c, m->line, "each node must be a mapping");
		pnode *n = &th->nodes[i];
		memset(n, 0, sizeof *n);
		ynode *idn = need(c, m, "id", Y_SCALAR, "node");
		uint64_t id = to_u64(c, idn, "id");
		if (id == 0 || id == UINT64_MAX)
			bad(c, idn->line, "node id must be positive (0 is the implicit root)");
		uint64_t parent = get_u64(c, m, "parent", "node");
		if (parent == 0) {
			n->pidx = UINT32_MAX;
		} else {
			uint32_t *pi = u64map_get(&c->ids, parent);
			if (!pi)
				bad(c, ymap_get(m, "parent")->line,
				    "parent %llu of node %llu does not come before it",
				    (unsigned long long)parent, (unsigned long long)id);
			n->pidx = *pi;
		}
		bool fresh;
		uint32_t *slot = u64map_put(&c->ids, id, &fresh);
		if (!fresh)
			bad(c, idn->line, "node id %llu used twice in one thread",
			    (unsigned long long)id);
		*slot = i;
		uint64_t r = get_u64(c, m, "region", "node");
		if (r >= p->nregions)
			bad(c, ymap_get(m, "region")->line, "node %llu names region %llu, "
			    "but the profile has %zu regions", (unsigned long long)id,
			    (unsigned long long)r, p->nregions);
		n->region = (uint32_t)r;
		n->calls = get_u64(c, m, "calls", "node");
		n->incl = get_u64(c, m, "inclusive_ns", "node");
		n->excl = get_u64(c, m, "exclusive_ns", "node");
		if (n->excl > n->incl)
			bad(c, ymap_get(m, "exclusive_ns")->line,
			    "exclusive_ns %llu is greater than inclusive_ns %llu",
			    (unsigned long long)n->excl, (unsigned long long)n->incl);
		ynode *bs = ymap_get(m, SELINST_PROFILE_BYTES_SENT);
		if (bs)
			n->sent = to_u64(c, bs, SELINST_PROFILE_BYTES_SENT);
		ynode *br = ymap_get(m, SELINST_PROFILE_BYTES_RECEIVED);
		if (br)
			n->received = to_u64(c, br, SELINST_PROFILE_BYTES_RECEIVED);
		ynode *it = ymap_get(m, "iterations");
		if (it)
			n->iters = to_u64(c, it, "iterations");
		ynode *tc = ymap_get(m, "trip_counts");
		if (tc)
			add_trips(c, n, tc);
	}
	if (p->compensated)
		compensate(p, th);
	i = 0;
	for (ynode *m = th->nnodes ? nodes->first : NULL; m; m = m->next, i++) {
		ynode *sm = ymap_get(m, "samples");
		if (sm && !is_null(sm))
			read_samples(c, th, i, sm);
	}
	if (rs)
		read_root_samples(c, t, th, rs);
	ynode *its = ymap_get(t, "iterations");
	if (its)
		read_iterations(c, th, its);
	ynode *flow = ymap_get(t, "flow");
	if (flow)
		read_flow(c, th, flow);
	sum_inclusive(th);
}

static int parse_doc(ctx *c, const ynode *root)
{
	profile *p = c->p;
	if (root->type != Y_MAP)
		bad(c, root->line, "not a selinst profile (the document is not a mapping)");
	ynode *fmt = ymap_get(root, "format");
	if (!fmt)
		bad(c, root->line, "not a selinst profile (no 'format: %s')", PROFILE_FORMAT);
	if (fmt->type != Y_SCALAR || strcmp(fmt->s, PROFILE_FORMAT))
		bad(c, fmt->line, "not a selinst profile (format is '%.60s', expected '%s')",
		    fmt->type == Y_SCALAR ? fmt->s : "?", PROFILE_FORMAT);
	/* The version first (a newer format may end differently), then the
	 * end marker, before anything a cut could have left out. */
	ynode *ver = ymap_get(root, "version");
	if (ver) {
		if (ver->type != Y_SCALAR)
			bad(c, ver->line, "'version' of profile must be a scalar");
		const char *d = ver->s + strspn(ver->s, "0");
		size_t nd = strspn(d, "0123456789");
		if (!d[nd] && nd > 9)	/* digits only, too many for any version we wrote */
			bad(c, ver->line, "profile format version %.40s%s is newer than this "
			    "selinst-report reads (%d); upgrade selinst", d, nd > 40 ? "..." : "",
			    PROFILE_VERSION);
		uint64_t v = to_u64(c, ver, "version");
		if (v > PROFILE_VERSION)
			bad(c, ver->line, "profile format version %llu is newer than this "
			    "selinst-report reads (%d); upgrade selinst", (unsigned long long)v,
			    PROFILE_VERSION);
		if (v < 1)
			bad(c, ver->line, "profile format version %llu is not supported",
			    (unsigned long long)v);
	}
	ynode *end = ymap_get(root, "end");
	if (!end)
		bad(c, c->nlines, "profile is truncated (no 'end: true' marker; "
		    "the writer did not finish)");
	if (end->type != Y_SCALAR || strcmp(end->s, "true"))
		bad(c, end->line, "'end' must be true");
	need(c, root, "version", Y_SCALAR, "profile");
	p->program = get_str(c, root, "program", "profile", false);
	p->host = get_str(c, root, "host", "profile", false);
	p->start_time = get_str(c, root, "start_time", "profile", false);
	p->rank = get_opt_int(c, root, "rank");
	p->size = get_opt_int(c, root, "size");
	p->pid = get_opt_int(c, root, "pid");
	ynode *w = ymap_get(root, "wall_seconds");
	if (w && w->type == Y_SCALAR) {
		char *rest;
		p->wall_seconds = strtod(w->s, &rest);
		if (*rest || rest == w->s || !(p->wall_seconds >= 0))
			bad(c, w->line, "'wall_seconds' must be a non-negative number");
	}
	p->hook_pair_ns = get_ns(c, root, "hook_pair_ns");
	p->hook_inside_ns = get_ns(c, root, SELINST_PROFILE_HOOK_INSIDE);
	p->hook_loop_pair_ns = get_ns(c, root, SELINST_PROFILE_HOOK_LOOP_PAIR);
	p->hook_loop_inside_ns = get_ns(c, root, SELINST_PROFILE_HOOK_LOOP_INSIDE);
	p->compensated = profile_compensate && p->hook_pair_ns > 0 && p->hook_inside_ns > 0 &&
			 p->hook_loop_pair_ns > 0;
	read_settings(c, ymap_get(root, "plugin_settings"));
	ynode *smp = ymap_get(root, "sampling");
	if (smp && smp->type == Y_MAP && ymap_get(smp, "hz"))
		p->sample_hz = to_u64(c, ymap_get(smp, "hz"), "hz");
	p->complete = get_bool(c, root, "complete", true);
	p->overflow = get_bool(c, root, "overflow", false);
	read_sample_modules(c, root);
	ynode *regs = need(c, root, "regions", 0, "profile");
	if (!is_null(regs)) {
		if (regs->type != Y_SEQ)
			bad(c, regs->line, "'regions' must be a list");
		read_regions(c, regs);
	}
	ynode *ths = need(c, root, "threads", 0, "profile");
	if (is_null(ths))
		return 0;
	if (ths->type != Y_SEQ)
		bad(c, ths->line, "'threads' must be a list");
	p->nthreads = ths->n;
	p->threads = arena_alloc(&p->mem, (ths->n ? ths->n : 1) * sizeof *p->threads);
	memset(p->threads, 0, (ths->n ? ths->n : 1) * sizeof *p->threads);
	size_t i = 0;
	for (ynode *t = ths->first; t; t = t->next, i++)
		read_thread(c, t, &p->threads[i]);
	return 0;
}

/* A NUL byte anywhere, or a control character in the first kilobyte: not
 * text, so no YAML message would make sense.  (libyaml refuses control
 * characters anywhere; later in a file they get its message with a line
 * number, as do bytes that are not UTF-8.) */
static bool looks_binary(const char *buf, size_t len)
{
	if (memchr(buf, 0, len))
		return true;
	for (size_t i = 0; i < len && i < 1024; i++) {
		unsigned char ch = (unsigned char)buf[i];
		if ((ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') || ch == 0x7f)
			return true;
	}
	return false;
}

/* Lines in BUF, counting a last line without its newline. */
static unsigned count_lines(const char *buf, size_t len)
{
	unsigned n = 0;
	for (const char *p = buf, *e = buf + len; p < e; n++) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		p = nl ? nl + 1 : e;
	}
	return n;
}

static int key_cmp(const void *a, const void *b)
{
	const ynode *x = *(const ynode *const *)a, *y = *(const ynode *const *)b;
	int c = strcmp(x->s, y->s);
	return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

/* A key given twice in one mapping is refused at its second line (YAML
 * forbids it; libyaml and the fast parser keep both and the first would
 * win silently).  Keys sorted, so hostile maps cost n log n. */
static void no_duplicate_keys(ctx *c, const ynode *n)
{
	if (n->type == Y_MAP && n->n > 2) {
		size_t nk = 0;
		const ynode **keys = arena_alloc(&c->dom, (n->n / 2) * sizeof *keys);
		for (const ynode *k = n->first; k && k->next; k = k->next->next)
			if (k->type == Y_SCALAR)
				keys[nk++] = k;
		qsort(keys, nk, sizeof *keys, key_cmp);
		for (size_t i = 1; i < nk; i++)
			if (!strcmp(keys[i - 1]->s, keys[i]->s))
				bad(c, keys[i]->line, "duplicate key '%.40s' (first at line %u)",
				    keys[i]->s, keys[i - 1]->line);
	}
	if (n->type != Y_SCALAR)
		for (const ynode *k = n->first; k; k = k->next)
			if (k->type != Y_SCALAR)
				no_duplicate_keys(c, k);
}

int profile_parse(const char *buf, size_t len, const char *name, profile *p,
		  char *err, size_t errlen)
{
	ctx c;
	memset(p, 0, sizeof *p);
	p->path = name;
	p->rank = p->size = p->pid = -1;
	c.name = name;
	c.err = err;
	c.errlen = errlen;
	c.p = p;
	c.ids.keys = NULL;
	c.ids.vals = NULL;
	c.sampled.keys = NULL;
	c.sampled.vals = NULL;
	c.dom.head = NULL;
	if (setjmp(c.jb)) {
		u64map_free(&c.ids);
		u64map_free(&c.sampled);
		arena_free(&c.dom);
		profile_free(p);
		return -1;
	}
	if (len == 0)
		bad(&c, 0, "empty file, not a selinst profile");
	if (looks_binary(buf, len))
		bad(&c, 0, "not a selinst profile (binary data)");
	u64map_init(&c.ids, 1024);
	u64map_init(&c.sampled, 64);
	yerr ye;
	ynode *root = ydom_parse(buf, len, &c.dom, &ye);
	if (!root)
		bad(&c, ye.line, "%s", ye.msg);
	/* The runtime always ends the file with a newline; a file cut short at
	 * a random byte almost never does.  Checked after parsing so a file
	 * that is not YAML at all gets the YAML message. */
	c.nlines = count_lines(buf, len);
	if (buf[len - 1] != '\n')
		bad(&c, c.nlines, "profile is truncated (the file does not end with a newline)");
	no_duplicate_keys(&c, root);
	parse_doc(&c, root);
	u64map_free(&c.ids);
	u64map_free(&c.sampled);
	arena_free(&c.dom);
	return 0;
}

int profile_read(const char *path, profile *p, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len < cap) {
			if (ferror(f)) {
				snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
				fclose(f);
				free(buf);
				return -1;
			}
			break;
		}
		cap *= 2;
		buf = xrealloc(buf, cap);
	}
	fclose(f);
	int rc = profile_parse(buf, len, path, p, err, errlen);
	free(buf);
	return rc;
}

void profile_free(profile *p)
{
	arena_free(&p->mem);
	free(p->trips);
	p->trips = NULL;
}
