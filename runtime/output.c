/*
 * output.c - writes the profile (format: doc/profile-format.md) with the
 * libyaml emitter, and decides its file name.
 *
 * The file is written under a temporary name in the same directory and
 * renamed into place, so a reader sees a whole profile or none; its last
 * line is always `end: true`, so a copy cut short anywhere is refused.
 * Regions open when the profile is written are counted up to that moment
 * without being closed (a snapshot changes nothing).  Descriptors with the same
 * (kind, name, file, line) are merged into one region here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>
#include "internal.h"

int si_forked_child;
volatile int si_final_written;

static char prog_path[PATH_MAX];
static char prog_name[256];
static char command[4096];
static char host[256];
static char rank[32], size[32];
static char start_time[64];
static pid_t pid;
static uint64_t start_mono;
static unsigned dump_counter;

static void set_start(void)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(start_time, sizeof start_time, "%Y-%m-%dT%H:%M:%SZ", &tm);
	start_mono = si_clock_mono_ns();
	pid = getpid();
}

int si_parse_decimal(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *p = s;
	uint64_t x = 0;
	int big = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		x = x * 10 + (uint64_t)(*p - '0');
		if (x > max) {
			big = 1;
			x = max;	/* no wrap-around however long */
		}
	}
	if (p == s || *p)
		return -1;
	if (big || x < min)
		return 1;
	*out = x;
	return 0;
}

/* The first of NAMES whose value is a decimal integer in MIN..INT_MAX,
 * written to OUT without leading zeros; OUT is "" when there is none.  A
 * variable that is set but invalid (empty, a sign, blanks, anything not a
 * digit, out of range) is ignored with a warning and the next one tried. */
static void env_first(char *out, size_t n, const char *const *names, uint64_t min)
{
	out[0] = 0;
	for (; *names; names++) {
		const char *v = getenv(*names);
		uint64_t x;
		if (!v)
			continue;
		int bad = si_parse_decimal(v, min, INT_MAX, &x);
		if (bad < 0)
			fprintf(stderr, "selinst: ignoring %s='%s': not a non-negative decimal integer\n",
				*names, v);
		else if (bad)
			fprintf(stderr, "selinst: ignoring %s=%s: out of range (%llu..%d)\n",
				*names, v, (unsigned long long)min, INT_MAX);
		else {
			snprintf(out, n, "%llu", (unsigned long long)x);
			return;
		}
	}
}

void si_output_init(void)
{
	ssize_t k = readlink("/proc/self/exe", prog_path, sizeof prog_path - 1);
	prog_path[k > 0 ? k : 0] = 0;
	snprintf(prog_name, sizeof prog_name, "%s",
		 program_invocation_short_name && *program_invocation_short_name ?
		 program_invocation_short_name : "a.out");
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t m = read(fd, command, sizeof command - 1);
		close(fd);
		if (m < 0)
			m = 0;
		command[m] = 0;
		while (m > 0 && command[m - 1] == 0)
			m--;
		for (ssize_t i = 0; i < m; i++)
			if (command[i] == 0)
				command[i] = ' ';
	}
	if (gethostname(host, sizeof host - 1) != 0)
		strcpy(host, "unknown");
	static const char *const rank_vars[] = {
		"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", NULL };
	static const char *const size_vars[] = {
		"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", NULL };
	env_first(rank, sizeof rank, rank_vars, 0);
	env_first(size, sizeof size, size_vars, 1);
	set_start();
}

void si_output_after_fork(void)
{
	set_start();
}

/* The output path: SELINST_OUTPUT with %p %r %h %e %% expanded, or
 * <program>[.<rank>].prof; a forked child adds its pid where the pattern
 * does not already contain it.  *KEEP_EARLIER is set for the default name:
 * a profile already there is moved aside, not replaced (place_profile). */
static int output_path(char *out, size_t n, int *keep_earlier)
{
	const char *pat = getenv("SELINST_OUTPUT");
	char pidbuf[32];
	snprintf(pidbuf, sizeof pidbuf, "%d", (int)pid);
	size_t o = 0;
	int has_pid = 0;
	*keep_earlier = !(pat && *pat);
#define PUT(s) do { \
		const char *s_ = (s); \
		size_t l_ = strlen(s_); \
		if (o + l_ >= n) \
			return -1; \
		memcpy(out + o, s_, l_); \
		o += l_; \
	} while (0)
	if (pat && *pat) {
		for (const char *p = pat; *p; p++) {
			if (*p == '%' && p[1]) {
				p++;
				if (*p == 'p') { PUT(pidbuf); has_pid = 1; }
				else if (*p == 'r') PUT(rank[0] ? rank : "0");
				else if (*p == 'h') PUT(host);
				else if (*p == 'e') PUT(prog_name);
				else if (*p == '%') PUT("%");
				else { char c[3] = { '%', *p, 0 }; PUT(c); }
			} else {
				char c[2] = { *p, 0 };
				PUT(c);
			}
		}
		if (si_forked_child && !has_pid) {
			PUT(".");
			PUT(pidbuf);
		}
	} else {
		PUT(prog_name);
		if (rank[0]) { PUT("."); PUT(rank); }
		if (si_forked_child) { PUT("."); PUT(pidbuf); }
		PUT(".prof");
	}
#undef PUT
	out[o] = 0;
	return 0;
}

/* The pid in the head of the profile at PATH; 0 when it cannot be read. */
static long profile_pid(const char *path)
{
	char buf[1024];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t k = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[k > 0 ? k : 0] = 0;
	const char *p = strstr(buf, "\npid: ");
	return p ? strtol(p + 6, NULL, 10) : 0;
}

/* Renames FROM to TO unless TO exists (then -1, errno EEXIST).  Where the
 * file system has no RENAME_NOREPLACE, a hard link does the same. */
static int rename_noreplace(const char *from, const char *to)
{
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
		return -1;
	if (link(from, to) != 0)
		return -1;
	unlink(from);
	return 0;
}

/* Moves the profile at PATH (<stem>.prof) to <stem>.<its pid>.prof, or
 * <stem>.<pid>-N.prof when that is taken; never over another file. */
static int move_aside(const char *path)
{
	char aside[PATH_MAX];
	long opid = profile_pid(path);
	int stem = (int)strlen(path) - (int)strlen(".prof");
	for (int k = 1; k < 1000; k++) {
		if (k == 1)
			snprintf(aside, sizeof aside, "%.*s.%ld.prof", stem, path, opid);
		else
			snprintf(aside, sizeof aside, "%.*s.%ld-%d.prof", stem, path, opid, k);
		if (rename_noreplace(path, aside) == 0 || errno != EEXIST)
			return 0;	/* moved, or gone: either way PATH may be free */
	}
	return -1;
}

/* Puts the finished profile TMP at PATH.  With KEEP_EARLIER (the default
 * name) a profile another process left there is kept under its own pid's
 * name first, so runs in sequence, in pipelines and in parallel all leave
 * their profile and PATH holds the one finished last.  This process's own
 * earlier snapshot is replaced. */
static int place_profile(const char *tmp, const char *path, int keep_earlier)
{
	static pid_t placed_by;
	if (!keep_earlier)
		return rename(tmp, path);
	for (int tries = 0; tries < 100; tries++) {
		if (rename_noreplace(tmp, path) == 0)
			break;
		if (errno != EEXIST)
			return -1;
		if (placed_by == getpid() && profile_pid(path) == (long)placed_by)
			return rename(tmp, path);
		if (move_aside(path) != 0)
			return rename(tmp, path);
	}
	if (access(tmp, F_OK) == 0 && rename(tmp, path) != 0)
		return -1;
	placed_by = getpid();
	return 0;
}

/* ---- region table: descriptor address -> merged id -------------------- */

struct rslot { const struct selinst_region *r; uint32_t id; };
struct rtab { struct rslot *s; size_t mask, used; };

static size_t rhash(const void *p, size_t mask)
{
	uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 20) & mask;
}

static int rtab_add(struct rtab *t, const struct selinst_region *r)
{
	if ((t->used + 1) * 2 > t->mask + 1) {
		size_t ncap = (t->mask + 1) * 2;
		struct rslot *ns = calloc(ncap, sizeof *ns);
		if (!ns)
			return -1;
		for (size_t i = 0; i <= t->mask; i++) {
			if (!t->s[i].r)
				continue;
			size_t j = rhash(t->s[i].r, ncap - 1);
			while (ns[j].r)
				j = (j + 1) & (ncap - 1);
			ns[j] = t->s[i];
		}
		free(t->s);
		t->s = ns;
		t->mask = ncap - 1;
	}
	size_t j = rhash(r, t->mask);
	for (; t->s[j].r; j = (j + 1) & t->mask)
		if (t->s[j].r == r)
			return 0;
	t->s[j].r = r;
	t->used++;
	return 0;
}

static struct rslot *rtab_get(struct rtab *t, const struct selinst_region *r)
{
	size_t j = rhash(r, t->mask);
	for (; t->s[j].r; j = (j + 1) & t->mask)
		if (t->s[j].r == r)
			return &t->s[j];
	return NULL;
}

static int strcmp0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int region_cmp(const void *pa, const void *pb)
{
	const struct selinst_region *a = *(const struct selinst_region *const *)pa;
	const struct selinst_region *b = *(const struct selinst_region *const *)pb;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	int c = strcmp0(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	c = strcmp0(a->name, b->name);
	if (c)
		return c;
	return strcmp0(a->function, b->function);
}

static int same_region(const struct selinst_region *a, const struct selinst_region *b)
{
	return a->kind == b->kind && a->line == b->line && !strcmp0(a->name, b->name) &&
	       !strcmp0(a->file, b->file);
}

/* ---- emitter helpers ---------------------------------------------------- */

struct em { yaml_emitter_t e; int ok; };

static void ev(struct em *m, yaml_event_t *e)
{
	if (m->ok && !yaml_emitter_emit(&m->e, e))
		m->ok = 0;
}

static void scal(struct em *m, const char *s, yaml_scalar_style_t style)
{
	yaml_event_t e;
	if (!m->ok)
		return;
	if (!yaml_scalar_event_initialize(&e, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
					  1, 1, style)) {
		m->ok = 0;
		return;
	}
	ev(m, &e);
}

/* Length of the valid UTF-8 sequence at S, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 :
		   (s[0] & 0xF8) == 0xF0 ? 4 : 0;
	if (n == 2 && s[0] < 0xC2)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

static void plain(struct em *m, const char *s) { scal(m, s, YAML_PLAIN_SCALAR_STYLE); }

/* A string value, double-quoted; bytes that are not UTF-8 (libyaml would
 * refuse the whole document) become '?'. */
static void quoted(struct em *m, const char *s)
{
	if (!s)
		s = "";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;
	while (u[i] && (n = utf8_len(u + i)))
		i += n;
	if (!u[i]) {
		scal(m, s, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
		return;
	}
	char *c = strdup(s);
	if (!c) {
		m->ok = 0;
		return;
	}
	for (i = 0; c[i];) {
		n = utf8_len((unsigned char *)c + i);
		if (!n) {
			c[i] = '?';
			n = 1;
		}
		i += n;
	}
	scal(m, c, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	free(c);
}
static void kstr(struct em *m, const char *k, const char *v) { plain(m, k); quoted(m, v); }
static void kraw(struct em *m, const char *k, const char *v) { plain(m, k); plain(m, v); }
static void kint(struct em *m, const char *k, uint64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "%llu", (unsigned long long)v);
	kraw(m, k, b);
}

static void map_start(struct em *m, int flow)
{
	yaml_event_t e;
	yaml_mapping_start_event_initialize(&e, NULL, NULL, 1,
		flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	ev(m, &e);
}
static void map_end(struct em *m) { yaml_event_t e; yaml_mapping_end_event_initialize(&e); ev(m, &e); }
static void seq_start(struct em *m)
{
	yaml_event_t e;
	yaml_sequence_start_event_initialize(&e, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	ev(m, &e);
}
static void seq_end(struct em *m) { yaml_event_t e; yaml_sequence_end_event_initialize(&e); ev(m, &e); }

static void bucket_name(unsigned b, char *out, size_t n)
{
	if (b < 16)
		snprintf(out, n, "%u", b);
	else {
		unsigned k = b - 16 + 4;
		unsigned long long lo = 1ull << k, hi = k == 63 ? ~0ull : (1ull << (k + 1)) - 1;
		snprintf(out, n, "%llu-%llu", lo, hi);
	}
}

/* ---- the writer --------------------------------------------------------- */

static uint64_t to_ns(uint64_t ticks, double ns_per_tick)
{
	return (uint64_t)((double)ticks * ns_per_tick + 0.5);
}

struct onode {
	uint64_t parent, calls, incl, excl;
	uint32_t region;
	int own;
	struct si_loop *loop;
};

/* The CPU time of thread T: read when it exited, or now from its CPU
 * clock, named by its kernel thread id the way glibc's
 * pthread_getcpuclockid names it (Linux: (~tid << 3) | CPUCLOCK_PERTHREAD
 * | CPUCLOCK_SCHED).  -1 when it cannot be read (a thread gone before the
 * runtime saw it end, a child after fork). */
static int thread_cpu_ns(const struct si_thread *t, int finished, uint64_t *out)
{
	if (finished) {
		*out = t->cpu_ns;
		return t->cpu_known ? 0 : -1;
	}
	struct timespec ts;
	clockid_t id = (clockid_t)((~(unsigned)t->tid << 3) | 6);
	if (t->tid <= 0 || clock_gettime(id, &ts) != 0)
		return -1;
	*out = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return 0;
}

static int emit_thread(struct em *m, struct si_thread *t, struct rtab *rt,
		       uint64_t now, double npt)
{
	uint64_t nn = t->nnodes;
	uint64_t *xincl = calloc(nn, sizeof *xincl), *xself = calloc(nn, sizeof *xself);
	uint64_t *incl_ns = calloc(nn, sizeof *incl_ns), *kids_ns = calloc(nn, sizeof *kids_ns);
	unsigned char *outer = NULL;
	/* Another thread's stack is read as it runs: take its base before its
	 * top (growth moves both; the old block stays mapped) and keep the
	 * depth within the block. */
	struct si_frame *stack = __atomic_load_n(&t->stack, __ATOMIC_ACQUIRE);
	uint32_t cap = __atomic_load_n(&t->cap, __ATOMIC_ACQUIRE);
	struct si_frame *top = __atomic_load_n(&t->top, __ATOMIC_ACQUIRE);
	uint32_t depth = top >= stack && top < stack + cap ? (uint32_t)(top - stack) + 1 : 1;
	int finished = __atomic_load_n(&t->finished, __ATOMIC_ACQUIRE);
	if (depth > 1)
		outer = calloc(depth, 1);
	if (!xincl || !xself || !incl_ns || !kids_ns || (depth > 1 && !outer)) {
		free(xincl); free(xself); free(incl_ns); free(kids_ns); free(outer);
		m->ok = 0;
		errno = ENOMEM;
		return -1;
	}
	/* Open regions: count them up to END without closing them. */
	uint64_t end = finished ? t->end_ticks : now;
	unsigned char *seen = calloc(nn / 8 + 1, 1);
	if (!seen) {
		free(xincl); free(xself); free(incl_ns); free(kids_ns); free(outer);
		m->ok = 0;
		errno = ENOMEM;
		return -1;
	}
	/* A node's outermost open activation is its lowest frame. */
	for (uint32_t i = 1; i < depth; i++) {
		struct si_node *n = stack[i].node;
		if (n == &t->paused)
			continue;
		uint32_t id = SI_NODE_ID(n);
		if (!(seen[id / 8] & (1u << (id % 8)))) {
			outer[i] = 1;
			seen[id / 8] |= (unsigned char)(1u << (id % 8));
		}
	}
	free(seen);
	uint64_t above = 0;
	for (uint32_t i = depth; i-- > 1;) {
		struct si_frame *f = &stack[i];
		uint64_t dur = end - f->start;
		if ((int64_t)dur < 0)
			dur = 0;
		/* Self of an open frame: its time so far less the open frame
		 * above (closed children are already off its node's self). */
		uint64_t child = above;
		above = dur;
		if (f->node == &t->paused)
			continue;
		uint32_t id = SI_NODE_ID(f->node);
		xself[id] += dur - child;	/* modulo 2^64, like node->self */
		if (outer[i])
			xincl[id] += dur;
	}
	/* Inclusive ns of every node, children's sums for exclusive. */
	for (uint64_t id = 1; id < nn; id++) {
		struct si_node *n = si_node_by_id(t, id);
		incl_ns[id] = to_ns(n->incl + xincl[id], npt);
		kids_ns[SI_NODE_ID(n->parent)] += incl_ns[id];
	}
	/* Output nodes: source nodes whose parents map to one output node and
	 * whose regions merged into one (COMDAT copies) become one node. */
	struct onode *on = calloc(nn, sizeof *on);
	uint64_t *omap = calloc(nn, sizeof *omap);	/* source id -> output id */
	size_t hcap = 1024;
	while (hcap < nn * 2)
		hcap *= 2;
	uint64_t *oh = calloc(hcap, sizeof *oh);	/* output ids, 0 = empty */
	uint64_t no = 1;
	if (!on || !omap || !oh) {
		free(on); free(omap); free(oh);
		free(xincl); free(xself); free(incl_ns); free(kids_ns); free(outer);
		m->ok = 0;
		errno = ENOMEM;
		return -1;
	}
	for (uint64_t id = 1; id < nn; id++) {
		struct si_node *n = si_node_by_id(t, id);
		uint64_t ex;
		if (n->id & SI_NODE_RECURSIVE) {
			int64_t self = (int64_t)(n->self + xself[id]);
			ex = to_ns(self > 0 ? (uint64_t)self : 0, npt);
			if (ex > incl_ns[id])
				ex = incl_ns[id];
		} else
			ex = incl_ns[id] > kids_ns[id] ? incl_ns[id] - kids_ns[id] : 0;
		uint64_t par = omap[SI_NODE_ID(n->parent)];
		uint32_t reg = rtab_get(rt, n->region)->id;
		size_t j = (size_t)((par * 0x9E3779B97F4A7C15ull) ^ (reg * 0xC2B2AE3D27D4EB4Full)) & (hcap - 1);
		uint64_t o = 0;
		for (; oh[j]; j = (j + 1) & (hcap - 1)) {
			if (on[oh[j]].parent == par && on[oh[j]].region == reg) {
				o = oh[j];
				break;
			}
		}
		if (!o) {
			o = no++;
			oh[j] = o;
			on[o].parent = par;
			on[o].region = reg;
			on[o].loop = n->loop;
		} else if (n->loop) {
			if (!on[o].loop) {
				on[o].loop = n->loop;
			} else {
				if (!on[o].own) {
					struct si_loop *c = malloc(sizeof *c);
					if (c) {
						*c = *on[o].loop;
						on[o].loop = c;
						on[o].own = 1;
					}
				}
				if (on[o].own) {
					on[o].loop->iterations += n->loop->iterations;
					for (unsigned b = 0; b < SI_HIST_BUCKETS; b++)
						on[o].loop->hist[b] += n->loop->hist[b];
				}
			}
		}
		on[o].calls += n->calls;
		on[o].incl += incl_ns[id];
		on[o].excl += ex;
		omap[id] = o;
	}
	/* Open loops: this entry's body starts so far, from its cell (stored
	 * before each call in the loop), as one more entry of the histogram. */
	for (uint32_t i = 1; i < depth; i++) {
		struct si_node *n = stack[i].node;
		if (n == &t->paused || !n->loop)
			continue;
		struct onode *x = &on[omap[SI_NODE_ID(n)]];
		if (!x->own) {
			struct si_loop *c = malloc(sizeof *c);
			if (!c)
				continue;
			*c = *x->loop;
			x->loop = c;
			x->own = 1;
		}
		si_loop_count(x->loop, *si_loop_cell(t, i));
	}
	map_start(m, 0);
	kint(m, "index", t->index);
	kint(m, "tid", (uint64_t)t->tid);
	uint64_t cpu;
	if (thread_cpu_ns(t, finished, &cpu) == 0)
		kint(m, "cpu_ns", cpu);
	else
		kraw(m, "cpu_ns", "~");
	kraw(m, "finished", finished ? "true" : "false");
	plain(m, "nodes");
	seq_start(m);
	char buf[64];
	for (uint64_t o = 1; o < no && m->ok; o++) {
		map_start(m, 1);
		kint(m, "id", o);
		kint(m, "parent", on[o].parent);
		kint(m, "region", on[o].region);
		kint(m, "calls", on[o].calls);
		kint(m, "inclusive_ns", on[o].incl);
		kint(m, "exclusive_ns", on[o].excl);
		if (on[o].loop) {
			struct si_loop *l = on[o].loop;
			kint(m, "iterations", l->iterations);
			plain(m, "trip_counts");
			map_start(m, 1);
			for (unsigned b = 0; b < SI_HIST_BUCKETS; b++) {
				if (!l->hist[b])
					continue;
				bucket_name(b, buf, sizeof buf);
				quoted(m, buf);
				snprintf(buf, sizeof buf, "%llu", (unsigned long long)l->hist[b]);
				plain(m, buf);
			}
			map_end(m);
		}
		map_end(m);
	}
	seq_end(m);
	kint(m, "overflow_calls", t->overflow ? t->overflow->calls : 0);
	map_end(m);
	for (uint64_t o = 1; o < no; o++)
		if (on[o].own)
			free(on[o].loop);
	free(on); free(omap); free(oh);
	free(xincl); free(xself); free(incl_ns); free(kids_ns); free(outer);
	return m->ok ? 0 : -1;
}

/* throttle: {calls: N, ns: T}, or off (SELINST_THROTTLE). */
static void emit_throttle_setting(struct em *m)
{
	plain(m, "throttle");
	if (si_hot.throttle_calls == UINT64_MAX) {
		quoted(m, "off");	/* plain off is false in YAML 1.1 */
		return;
	}
	map_start(m, 1);
	kint(m, "calls", si_hot.throttle_calls);
	kint(m, "ns", si_throttle_ns);
	map_end(m);
}

/* throttled: {calls: C, seconds: S} when the region whose descriptors
 * start at D[0] (the N left, same region first) was switched off. */
static void emit_throttled(struct em *m, const struct selinst_region *const *d, size_t n,
			   double npt)
{
	for (size_t j = 0; j < n && (j == 0 || same_region(d[0], d[j])); j++) {
		const struct si_throttle_event *e = si_throttle_event_of(d[j]);
		if (!e)
			continue;
		char buf[64];
		plain(m, "throttled");
		map_start(m, 1);
		kint(m, "calls", e->calls);
		snprintf(buf, sizeof buf, "%.9f", (double)e->ticks * npt / 1e9);
		kraw(m, "seconds", buf);
		map_end(m);
		return;
	}
}

static int emit_profile(FILE *f, int final, int signo)
{
	uint64_t now = si_now();
	double tps = si_ticks_per_second();
	double npt = 1e9 / tps;
	uint64_t mono = si_clock_mono_ns();
	struct em m;
	memset(&m, 0, sizeof m);
	m.ok = yaml_emitter_initialize(&m.e);
	if (!m.ok) {
		errno = ENOMEM;
		return -1;
	}
	yaml_emitter_set_output_file(&m.e, f);
	yaml_emitter_set_width(&m.e, -1);
	yaml_emitter_set_unicode(&m.e, 1);

	/* Regions referenced by any node, merged by identity. */
	struct rtab rt = { calloc(1024, sizeof(struct rslot)), 1023, 0 };
	const struct selinst_region **uniq = NULL;
	int rc = -1;
	if (!rt.s)
		goto out;
	for (struct si_thread *t = si_registry_head(); t; t = t->next)
		for (uint64_t id = 1; id < t->nnodes; id++)
			if (rtab_add(&rt, si_node_by_id(t, id)->region) < 0)
				goto out;
	uniq = malloc((rt.used + 1) * sizeof *uniq);
	if (!uniq)
		goto out;
	size_t nu = 0;
	for (size_t i = 0; i <= rt.mask; i++)
		if (rt.s[i].r)
			uniq[nu++] = rt.s[i].r;
	qsort(uniq, nu, sizeof *uniq, region_cmp);
	uint32_t nid = 0;
	for (size_t i = 0; i < nu; i++) {
		if (i > 0 && !same_region(uniq[i - 1], uniq[i]))
			nid++;
		rtab_get(&rt, uniq[i])->id = nid;
	}

	yaml_event_t e;
	yaml_stream_start_event_initialize(&e, YAML_UTF8_ENCODING);
	ev(&m, &e);
	yaml_document_start_event_initialize(&e, NULL, NULL, NULL, 1);
	ev(&m, &e);
	map_start(&m, 0);
	kraw(&m, "format", "selinst-profile");
	kint(&m, "version", 1);
	kstr(&m, "program", prog_path[0] ? prog_path : prog_name);
	kstr(&m, "command", command);
	kint(&m, "pid", (uint64_t)pid);
	if (rank[0]) kraw(&m, "rank", rank); else kraw(&m, "rank", "~");
	if (size[0]) kraw(&m, "size", size); else kraw(&m, "size", "~");
	kstr(&m, "host", host);
	kstr(&m, "start_time", start_time);
	char buf[64];
	snprintf(buf, sizeof buf, "%.9f", (double)(mono - start_mono) / 1e9);
	kraw(&m, "wall_seconds", buf);
	plain(&m, "clock");
	map_start(&m, 0);
	kraw(&m, "source", si_clock_name());
	snprintf(buf, sizeof buf, "%.6f", si_clock_is_tsc() ? npt : si_clock_resolution_ns());
	kraw(&m, "resolution_ns", buf);
	kint(&m, "ticks_per_second", (uint64_t)(tps + 0.5));
	map_end(&m);
	kraw(&m, "complete", final ? "true" : "false");
	kraw(&m, "overflow", __atomic_load_n(&si_overflowed, __ATOMIC_RELAXED) ? "true" : "false");
	if (signo)
		kint(&m, "signal", (uint64_t)signo);
	emit_throttle_setting(&m);
	if (si_hook_pair_ns > 0) {
		snprintf(buf, sizeof buf, "%.2f", si_hook_pair_ns);
		kraw(&m, "hook_pair_ns", buf);
	}
	plain(&m, "regions");
	seq_start(&m);
	for (size_t i = 0; i < nu; i++) {
		if (i > 0 && same_region(uniq[i - 1], uniq[i]))
			continue;
		const struct selinst_region *r = uniq[i];
		map_start(&m, 0);
		kint(&m, "id", rtab_get(&rt, r)->id);
		kstr(&m, "name", r->name);
		kraw(&m, "kind", r->kind == SELINST_KIND_LOOP ? "loop" :
			 r->kind == SELINST_KIND_MANUAL ? "manual" : "function");
		kstr(&m, "file", r->file);
		kint(&m, "line", r->line);
		if (r->kind == SELINST_KIND_LOOP && r->function)
			kstr(&m, "function", r->function);
		emit_throttled(&m, uniq + i, nu - i, npt);
		map_end(&m);
	}
	seq_end(&m);
	plain(&m, "threads");
	seq_start(&m);
	for (struct si_thread *t = si_registry_head(); t && m.ok; t = t->next)
		if (emit_thread(&m, t, &rt, now, npt) < 0)
			break;
	seq_end(&m);
	/* The end marker, always the last line: a reader refuses a profile
	 * without it, so a copy cut at a line break is not taken as whole. */
	kraw(&m, "end", "true");
	map_end(&m);
	yaml_document_end_event_initialize(&e, 1);
	ev(&m, &e);
	yaml_stream_end_event_initialize(&e);
	ev(&m, &e);
	if (m.ok && !yaml_emitter_flush(&m.e))
		m.ok = 0;
	rc = m.ok ? 0 : -1;
	if (rc < 0 && !errno)
		errno = EIO;
out:
	if (rc < 0 && !errno)
		errno = ENOMEM;
	yaml_emitter_delete(&m.e);
	free(rt.s);
	free(uniq);
	return rc;
}

/* Write the profile to PATH (NULL: the normal path).  Errors go to stderr
 * with the path and the reason; returns 0 or -1 with errno set. */
int si_write_profile(const char *path, int final, int from_signal, int signo)
{
	char pbuf[PATH_MAX], tmp[PATH_MAX + 64];
	int saved = errno, keep_earlier = 0;
	if (!path) {
		if (output_path(pbuf, sizeof pbuf, &keep_earlier) < 0) {
			fprintf(stderr, "selinst: cannot write profile: SELINST_OUTPUT too long\n");
			errno = ENAMETOOLONG;
			return -1;
		}
		path = pbuf;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp.%d.%u", path, (int)getpid(),
		 __atomic_fetch_add(&dump_counter, 1, __ATOMIC_RELAXED));
	/* Not a regular file (a FIFO, /dev/stdout, a terminal): write into it
	 * directly; renaming over it would replace the special file. */
	struct stat st;
	int direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
	int locked = !from_signal;
	if (locked)
		si_registry_lock();
	int fd = direct ? open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY) :
			  open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	int rc = -1, err = 0;
	if (fd < 0) {
		err = errno;
		goto done;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		if (!direct)
			unlink(tmp);
		goto done;
	}
	errno = 0;
	rc = emit_profile(f, final, signo);
	err = errno;
	if (fclose(f) != 0 && rc == 0) {
		rc = -1;
		err = errno;
	}
	if (!direct && rc == 0 && place_profile(tmp, path, keep_earlier) != 0) {
		rc = -1;
		err = errno;
	}
	if (!direct && rc != 0)
		unlink(tmp);
done:
	if (locked)
		si_registry_unlock();
	if (rc != 0) {
		fprintf(stderr, "selinst: cannot write profile %s: %s (SELINST_OUTPUT=PATH sets where)\n",
			path, strerror(err ? err : EIO));
		errno = err ? err : EIO;
		return -1;
	}
	errno = saved;
	return 0;
}
