/* SPDX-License-Identifier: MIT */
/*
 * output.c - writes the profile (format: doc/profile-format.md) with the
 * emitter of emit.c (libyaml's layout), and decides its file name.
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
#include <dirent.h>
#include <sys/syscall.h>
#include <signal.h>
#include "internal.h"
#include "emit.h"
#include "output_iterations.h"
#include "units.h"

int si_forked_child;
volatile int si_final_written;

static char prog_path[PATH_MAX];
static char prog_name[256];
static char command[4096];
static char host[256];
static char rank[32], size[32];
static char start_time[64];
static time_t start_wall;	/* start_time's, formatted only when written */
static int start_time_due;
static pid_t pid;
static uint64_t start_mono;
static unsigned dump_counter;

/* STARTED's time as start_time's text.  At start-up as always: the first
 * gmtime_r reads the time zone with malloc, which the write must not call
 * (it may run in a signal handler that interrupted malloc); later calls,
 * a forked child's at its first write, find it read. */
static void format_start(time_t started)
{
	struct tm tm;
	gmtime_r(&started, &tm);
	strftime(start_time, sizeof start_time, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* start_wall, start_mono and pid, now. */
static void set_start(void)
{
	start_wall = time(NULL);
	start_time_due = 1;
	start_mono = si_clock_mono_ns();
	pid = getpid();
}

/* A forked child's start, the fork's tick (si_now), kept by the fork
 * handler, which reads no clock but the TSC: the vDSO's clock and time
 * fault their pages in (a few us each, in every child, most of which
 * never write).  Its start_mono and start_wall are worked out from it
 * when the child first writes (fork_start_settle). */
static uint64_t fork_start_ticks;
static int fork_start_due;

/* NOW and MONO: the write's clocks; NPT: ns per tick. */
static void fork_start_settle(uint64_t now, uint64_t mono, double npt)
{
	if (!fork_start_due)
		return;
	uint64_t since = (uint64_t)((double)(now - fork_start_ticks) * npt);
	struct timespec real;
	clock_gettime(CLOCK_REALTIME, &real);
	uint64_t real_ns = (uint64_t)real.tv_sec * 1000000000u + (uint64_t)real.tv_nsec;
	start_mono = mono - since;
	start_wall = (time_t)((real_ns - since) / 1000000000u);
	start_time_due = 1;
	fork_start_due = 0;
}

static const char *start_time_text(void)
{
	if (start_time_due) {
		format_start(start_wall);
		start_time_due = 0;
	}
	return start_time;
}

int si_parse_decimal(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *p = s;
	uint64_t x = 0;
	int big = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		/* Past MAX (or past 2^64-1) it stays big however long. */
		if (big || __builtin_mul_overflow(x, 10, &x)
		    || __builtin_add_overflow(x, (uint64_t)(*p - '0'), &x) || x > max)
			big = 1;
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

/* SELINST_OUTPUT as it was at start-up.  The writes do not read the
 * environment: at exit it may be gone (gnulib's configure check of
 * unsetenv points environ at an array in main's frame and returns: the
 * exit-time write's getenv crashed on it, and configure took unsetenv for
 * broken) or changed (a program that clears its environment). */
static char output_pattern[PATH_MAX];
static int output_pattern_long;	/* longer than any path: no profile */

const char *si_output_pattern(void)
{
	return output_pattern_long ? NULL : output_pattern;
}

void si_output_init(void)
{
	const char *o = getenv("SELINST_OUTPUT");
	output_pattern_long = o && strlen(o) >= sizeof output_pattern;
	snprintf(output_pattern, sizeof output_pattern, "%s", o && !output_pattern_long ? o : "");
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
	start_time_text();
}

void si_output_after_fork(uint64_t ticks)
{
	pid = getpid();
	fork_start_ticks = ticks;
	fork_start_due = 1;
	if (!si_forked_child)	/* each write here costs the child a page copy */
		si_forked_child = 1;
	if (si_final_written)
		si_final_written = 0;
}

/* The output path for pattern PAT (SELINST_OUTPUT, NULL or "" when
 * unset) with %p %r %h %e %% expanded (an unknown %x is kept), or
 * <program>[.<rank>].prof; a forked child (FORKED) adds its pid where the
 * pattern does not already contain it.  *KEEP_EARLIER is set for the
 * default name: a profile already there is moved aside, not replaced
 * (place_profile).  -1 when it does not fit in N bytes. */
int si_expand_output(char *out, size_t n, const char *pat, const struct si_naming *nm,
		     int *keep_earlier)
{
	char pidbuf[32];
	snprintf(pidbuf, sizeof pidbuf, "%d", (int)nm->pid);
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
				else if (*p == 'r') PUT(nm->rank[0] ? nm->rank : "0");
				else if (*p == 'h') PUT(nm->host);
				else if (*p == 'e') PUT(nm->program);
				else if (*p == '%') PUT("%");
				else { char c[3] = { '%', *p, 0 }; PUT(c); }
			} else {
				char c[2] = { *p, 0 };
				PUT(c);
			}
		}
		if (nm->forked && !has_pid) {
			PUT(".");
			PUT(pidbuf);
		}
	} else {
		PUT(nm->program);
		if (nm->rank[0]) { PUT("."); PUT(nm->rank); }
		if (nm->forked) { PUT("."); PUT(pidbuf); }
		PUT(".prof");
	}
#undef PUT
	out[o] = 0;
	return 0;
}

void si_output_names(struct si_naming *nm)
{
	*nm = (struct si_naming){ pid, rank, host, prog_name, si_forked_child };
}

static int output_path(char *out, size_t n, int *keep_earlier)
{
	struct si_naming nm;
	si_output_names(&nm);
	const char *pat = si_output_pattern();
	return pat ? si_expand_output(out, n, pat, &nm, keep_earlier) : -1;
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
 * <stem>.<pid>-N.prof when that is taken; never over another file.  The
 * file is first taken under a name of this process's own, so that the pid
 * read is the pid of the file that is moved: processes finishing together
 * may each replace PATH between another's read and its rename. */
static int move_aside(const char *path)
{
	char *held = si_walloc(PATH_MAX), *aside = si_walloc(PATH_MAX);	/* the write's */
	if (!held || !aside)
		return -1;
	snprintf(held, PATH_MAX, "%s.aside.%ld", path, (long)getpid());
	if (rename(path, held) != 0)
		return 0;	/* gone: another process moved it; PATH may be free */
	long opid = profile_pid(held);
	int stem = (int)strlen(path) - (int)strlen(".prof");
	for (int k = 1; k < 1000; k++) {
		if (k == 1)
			snprintf(aside, PATH_MAX, "%.*s.%ld.prof", stem, path, opid);
		else
			snprintf(aside, PATH_MAX, "%.*s.%ld-%d.prof", stem, path, opid, k);
		if (rename_noreplace(held, aside) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	rename_noreplace(held, path);	/* back where it was, if still free */
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

/* A map (map.c) of (descriptor, 0) -> id, the id set once all are known. */
struct rtab { struct si_map *m; };

static int rtab_add(struct rtab *t, const struct selinst_region *r)
{
	if (si_map_find(t->m, (uintptr_t)r, 0, NULL, NULL))
		return 0;
	return si_map_add(&t->m, (uintptr_t)r, 0, 0, 0) ? 0 : -1;
}

static struct si_mslot *rtab_get(struct rtab *t, const struct selinst_region *r)
{
	return si_map_find(t->m, (uintptr_t)r, 0, NULL, NULL);
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

/* ---- the writer --------------------------------------------------------- */

static uint64_t to_ns(uint64_t ticks, double ns_per_tick)
{
	return (uint64_t)((double)ticks * ns_per_tick + 0.5);
}

struct onode {
	uint64_t parent, calls, incl, excl;
	uint32_t region;
	int own;
	int mpi;		/* an mpi region: its loop block holds bytes */
	struct si_loop *loop;
};

/* One thread's working arrays, indexed by node id (output ids for on). */
struct tw {
	uint64_t *xincl, *xself, *incl_ns, *kids_ns;
	unsigned char *outer;
	struct onode *on;
	uint64_t *omap, *oh;	/* source id -> output id; hash of output ids */
	size_t hcap;
	uint64_t no;		/* output nodes so far, root included */
};

static void tw_free(struct tw *w)
{
	if (w->on)
		for (uint64_t o = 1; o < w->no; o++)
			if (w->on[o].own)
				si_wfree(w->on[o].loop);
	si_wfree(w->xincl); si_wfree(w->xself); si_wfree(w->incl_ns); si_wfree(w->kids_ns);
	si_wfree(w->outer); si_wfree(w->on); si_wfree(w->omap); si_wfree(w->oh);
}

static int tw_alloc(struct tw *w, uint64_t nn, uint32_t depth)
{
	memset(w, 0, sizeof *w);
	w->hcap = 1024;
	while (w->hcap < nn * 2)
		w->hcap *= 2;
	w->no = 1;
	w->xincl = si_wcalloc(nn, sizeof *w->xincl);
	w->xself = si_wcalloc(nn, sizeof *w->xself);
	w->incl_ns = si_wcalloc(nn, sizeof *w->incl_ns);
	w->kids_ns = si_wcalloc(nn, sizeof *w->kids_ns);
	w->outer = si_wcalloc(depth, 1);
	w->on = si_wcalloc(nn, sizeof *w->on);
	w->omap = si_wcalloc(nn, sizeof *w->omap);
	w->oh = si_wcalloc(w->hcap, sizeof *w->oh);
	if (w->xincl && w->xself && w->incl_ns && w->kids_ns && w->outer && w->on &&
	    w->omap && w->oh)
		return 0;
	tw_free(w);
	errno = ENOMEM;
	return -1;
}

/* Open regions: counted up to END without being closed.  A node's
 * outermost open activation (its lowest frame) gives its inclusive time;
 * each open frame's own time so far, less the open frame above it
 * (closed children are already off its node's self), its self time. */
static int open_times(const struct si_snap *s, uint64_t end, struct tw *w)
{
	unsigned char *seen = si_wcalloc(s->nn / 8 + 1, 1);
	if (!seen) {
		errno = ENOMEM;
		return -1;
	}
	for (uint32_t i = 1; i < s->depth; i++) {
		uint64_t id = s->frames[i].node;
		if (id == SI_SNAP_PAUSED || (seen[id / 8] & (1u << (id % 8))))
			continue;
		w->outer[i] = 1;
		seen[id / 8] |= (unsigned char)(1u << (id % 8));
	}
	si_wfree(seen);
	uint64_t above = 0;
	for (uint32_t i = s->depth; i-- > 1;) {
		const struct si_sframe *f = &s->frames[i];
		uint64_t dur = end - f->start;
		if ((int64_t)dur < 0)
			dur = 0;
		uint64_t child = above;
		above = dur;
		if (f->node == SI_SNAP_PAUSED)
			continue;
		w->xself[f->node] += dur - child;	/* modulo 2^64, like node->self */
		if (w->outer[i])
			w->xincl[f->node] += dur;
	}
	return 0;
}

/* Inclusive ns of every node, and its children's sum.  A copy of a
 * running thread may see a child's activation closed after its parent's
 * was read; clamping keeps what must hold: a child within its parent, the
 * thread's top-level regions (one after the other) within the run. */
static void node_times(const struct si_snap *s, double npt, uint64_t wall_ns, struct tw *w)
{
	uint64_t top_used = 0;
	for (uint64_t id = 1; id < s->nn; id++) {
		const struct si_snode *n = &s->nodes[id];
		uint64_t v = to_ns(n->incl + w->xincl[id], npt);
		uint64_t cap = n->parent ? w->incl_ns[n->parent] : wall_ns - top_used;
		if (v > cap)
			v = cap;
		if (!n->parent)
			top_used += v;
		w->incl_ns[id] = v;
		w->kids_ns[n->parent] += v;
	}
}

static uint64_t excl_ns(const struct si_snap *s, uint64_t id, double npt, const struct tw *w)
{
	const struct si_snode *n = &s->nodes[id];
	if (n->recursive) {
		int64_t self = (int64_t)(n->self + w->xself[id]);
		uint64_t ex = to_ns(self > 0 ? (uint64_t)self : 0, npt);
		return ex > w->incl_ns[id] ? w->incl_ns[id] : ex;
	}
	return w->incl_ns[id] > w->kids_ns[id] ? w->incl_ns[id] - w->kids_ns[id] : 0;
}

/* Give output node X its own copy of its loop counts (to add to). */
static int own_loop(struct onode *x)
{
	if (x->own)
		return 0;
	struct si_loop *c = si_walloc(sizeof *c);
	if (!c)
		return -1;
	*c = *x->loop;
	x->loop = c;
	x->own = 1;
	return 0;
}

/* Output nodes: source nodes whose parents map to one output node and
 * whose regions merged into one (COMDAT copies, a library's regions kept
 * at dlclose and its regions after a new dlopen) become one node. */
static void merge_nodes(const struct si_snap *s, struct rtab *rt, double npt, struct tw *w)
{
	for (uint64_t id = 1; id < s->nn; id++) {
		const struct si_snode *n = &s->nodes[id];
		uint64_t par = w->omap[n->parent];
		uint32_t reg = (uint32_t)rtab_get(rt, n->region)->value;
		size_t j = (size_t)((par * 0x9E3779B97F4A7C15ull) ^ (reg * 0xC2B2AE3D27D4EB4Full)) &
			   (w->hcap - 1);
		uint64_t o = 0;
		for (; w->oh[j]; j = (j + 1) & (w->hcap - 1)) {
			if (w->on[w->oh[j]].parent == par && w->on[w->oh[j]].region == reg) {
				o = w->oh[j];
				break;
			}
		}
		struct onode *x = &w->on[o ? o : w->no];
		if (!o) {
			o = w->no++;
			w->oh[j] = o;
			x->parent = par;
			x->region = reg;
			x->mpi = n->region->kind == SELINST_KIND_MPI;
			x->loop = n->loop;
		} else if (n->loop) {
			if (!x->loop)
				x->loop = n->loop;
			else if (own_loop(x) == 0) {
				x->loop->sent += n->loop->sent;
				x->loop->received += n->loop->received;
				x->loop->iterations += n->loop->iterations;
				for (unsigned b = 0; b < SI_HIST_BUCKETS; b++)
					x->loop->hist[b] += n->loop->hist[b];
			}
		}
		x->calls += n->calls;
		x->incl += w->incl_ns[id];
		x->excl += excl_ns(s, id, npt, w);
		w->omap[id] = o;
	}
	/* Open loops: this entry's body starts so far, from its cell (stored
	 * before each call in the loop), as one more entry of the histogram. */
	for (uint32_t i = 1; i < s->depth; i++) {
		uint64_t id = s->frames[i].node;
		if (id == SI_SNAP_PAUSED || !s->nodes[id].loop)
			continue;
		struct onode *x = &w->on[w->omap[id]];
		if (own_loop(x) == 0)
			si_loop_count(x->loop, s->frames[i].cell);
	}
}

/* The keys of REF (see selinst-profile.h): function, or module and the
 * addresses of rows E..X with their counts; for a caller, caller or
 * caller_at. */
static void emit_ref(struct em *m, const struct si_pcref *ref, int caller,
		     const struct si_sample_row *e, const struct si_sample_row *x)
{
	char buf[32];
	if (ref->name) {
		kstr(m, caller ? "caller" : "function", ref->name);
		return;
	}
	if (ref->module < 0)
		return;
	if (caller) {
		plain(m, SELINST_PROFILE_SAMPLE_CALLER_AT);
		seq_start(m);
		plain(m, u64_decimal(buf, (uint64_t)ref->module));
		plain(m, u64_decimal(buf, ref->address));
		seq_end(m);
		return;
	}
	kint(m, SELINST_PROFILE_SAMPLE_MODULE, (uint64_t)ref->module);
	plain(m, SELINST_PROFILE_SAMPLE_ADDRESSES);
	seq_start(m);
	for (const struct si_sample_row *y = e; y < x; y++) {
		plain(m, u64_decimal(buf, y->pc.address));
		plain(m, u64_decimal(buf, y->count));
	}
	seq_end(m);
}

/* samples: [{module: M, addresses: [ADDR, COUNT, ...], count: N}, ...] of
 * output node O, from the rows at *R (sorted by node, entry, address; *R
 * moves past them); see selinst-profile.h. */
static void emit_samples(struct em *m, const char *key, uint64_t o,
			 const struct si_sample_row **r, const struct si_sample_row *end)
{
	while (*r < end && (*r)->node < o)
		(*r)++;
	if (*r >= end || (*r)->node != o)
		return;
	plain(m, key);
	seq_start(m);
	while (*r < end && (*r)->node == o) {
		const struct si_sample_row *e = *r, *x;
		uint64_t count = 0;
		for (x = e; x < end && si_sample_same_entry(e, x); x++)
			count += x->count;
		map_start(m, 1);
		emit_ref(m, &e->pc, 0, e, x);
		emit_ref(m, &e->caller, 1, e, x);
		kint(m, "count", count);
		map_end(m);
		*r = x;
	}
	seq_end(m);
}

static void emit_nodes(struct em *m, const struct tw *w, const struct si_sample_row *rows,
		       size_t nrows)
{
	char buf[64];
	const struct si_sample_row *r = rows, *rend = rows + nrows;
	for (uint64_t o = 1; o < w->no && m->ok; o++) {
		const struct onode *x = &w->on[o];
		map_start(m, 1);
		kint(m, "id", o);
		kint(m, "parent", x->parent);
		kint(m, "region", x->region);
		kint(m, "calls", x->calls);
		kint(m, "inclusive_ns", x->incl);
		kint(m, "exclusive_ns", x->excl);
		if (x->loop && x->mpi) {	/* absent: 0 */
			if (x->loop->sent)
				kint(m, SELINST_PROFILE_BYTES_SENT, x->loop->sent);
			if (x->loop->received)
				kint(m, SELINST_PROFILE_BYTES_RECEIVED, x->loop->received);
		} else if (x->loop) {
			kint(m, "iterations", x->loop->iterations);
			plain(m, "trip_counts");
			map_start(m, 1);
			for (unsigned b = 0; b < SI_HIST_BUCKETS; b++) {
				if (!x->loop->hist[b])
					continue;
				selinst_trip_bucket_name(b, buf, sizeof buf);
				quoted(m, buf);
				plain(m, u64_decimal(buf, x->loop->hist[b]));
			}
			map_end(m);
		}
		emit_samples(m, "samples", o, &r, rend);
		map_end(m);
	}
}

static int emit_thread(struct em *m, const struct si_snap *s, struct rtab *rt,
		       uint64_t now, double npt, uint64_t wall_ns)
{
	struct tw w;
	if (tw_alloc(&w, s->nn, s->depth) < 0 ||
	    open_times(s, s->finished ? s->end_ticks : now, &w) < 0) {
		tw_free(&w);
		m->ok = 0;
		return -1;
	}
	node_times(s, npt, wall_ns, &w);
	merge_nodes(s, rt, npt, &w);
	size_t nrows = 0;
	struct si_sample_row *rows = si_sample_rows(s, w.omap, &nrows);
	const struct si_sample_row *r0 = rows;
	map_start(m, 0);
	kint(m, "index", s->index);
	kint(m, "tid", (uint64_t)s->tid);
	if (s->cpu_known)
		kint(m, "cpu_ns", s->cpu_ns);
	else
		kraw(m, "cpu_ns", "~");
	if (s->cpu_known && s->runq_known)
		kint(m, SELINST_PROFILE_RUNQUEUE, s->runq_ns);
	kraw(m, "finished", s->finished ? "true" : "false");
	plain(m, "nodes");
	seq_start(m);
	emit_nodes(m, &w, rows, nrows);
	seq_end(m);
	kint(m, "overflow_calls", s->overflow_calls);
	si_emit_iterations(m, s, w.omap, w.no, npt);
	si_emit_flow(m, s, w.omap);
	if (s->samples) {
		/* Samples outside every region (the root's), then the counts. */
		emit_samples(m, "root_samples", 0, &r0, rows + nrows);
		kint(m, "samples", __atomic_load_n(&s->samples->total, __ATOMIC_RELAXED));
		kint(m, "samples_in_runtime",
		     __atomic_load_n(&s->samples->in_runtime, __ATOMIC_RELAXED));
		kint(m, "samples_dropped", __atomic_load_n(&s->samples->dropped, __ATOMIC_RELAXED));
	}
	map_end(m);
	si_wfree(rows);
	tw_free(&w);
	return m->ok ? 0 : -1;
}

/* throttle: {calls: N, ns: T}, or off (SELINST_THROTTLE): the rule with
 * the most calls; a second rule, with fewer, as early: {calls, ns}. */
static void emit_throttle_setting(struct em *m)
{
	const struct si_throttle_rule *r;
	unsigned n = si_throttle_rules(&r);
	plain(m, "throttle");
	if (!n) {
		quoted(m, "off");	/* plain off is false in YAML 1.1 */
		return;
	}
	map_start(m, 1);
	kint(m, "calls", r[n - 1].calls);
	kint(m, "ns", r[n - 1].ns);
	if (n > 1) {
		plain(m, "early");
		map_start(m, 1);
		kint(m, "calls", r[0].calls);
		kint(m, "ns", r[0].ns);
		map_end(m);
	}
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

/* Every thread's profile: copies of the live ones (LIVE, to free), the
 * kept copies of those that ended; ALL in thread order. */
struct snaps {
	struct si_snap *live;
	size_t nlive;
	struct si_snap **all;
	size_t nall;
};

static int snap_index_cmp(const void *a, const void *b)
{
	uint32_t x = (*(struct si_snap *const *)a)->index, y = (*(struct si_snap *const *)b)->index;
	return x < y ? -1 : x > y;
}

static void snaps_free(struct snaps *ss)
{
	for (size_t i = 0; i < ss->nlive; i++)
		si_snap_free(&ss->live[i]);
	si_wfree(ss->live);
	si_wfree(ss->all);
}

static int snaps_take(struct snaps *ss)
{
	size_t nl = 0, ne = 0;
	memset(ss, 0, sizeof *ss);
	for (struct si_thread *t = si_registry_head(); t; t = t->next)
		nl++;
	for (struct si_snap *s = si_exited_head(); s; s = s->next)
		ne++;
	ss->live = si_wcalloc(nl + 1, sizeof *ss->live);
	ss->all = si_wcalloc(nl + ne + 1, sizeof *ss->all);
	if (!ss->live || !ss->all) {
		snaps_free(ss);
		errno = ENOMEM;
		return -1;
	}
	for (struct si_thread *t = si_registry_head(); t && ss->nlive < nl; t = t->next) {
		if (si_snap_take(t, &ss->live[ss->nlive]) < 0) {
			snaps_free(ss);
			return -1;
		}
		ss->all[ss->nall++] = &ss->live[ss->nlive++];
	}
	for (struct si_snap *s = si_exited_head(); s && ss->nall < nl + ne; s = s->next)
		ss->all[ss->nall++] = s;
	si_wsort(ss->all, ss->nall, sizeof *ss->all, snap_index_cmp);
	return 0;
}

/* Regions referenced by any node, merged by identity: fills RT, returns
 * the descriptors sorted (UNIQ, *NU), or NULL. */
static const struct selinst_region **region_table(const struct snaps *ss, struct rtab *rt,
						  size_t *nu)
{
	for (size_t i = 0; i < ss->nall; i++)
		for (uint64_t id = 1; id < ss->all[i]->nn; id++)
			if (rtab_add(rt, ss->all[i]->nodes[id].region) < 0)
				return NULL;
	size_t used = rt->m ? rt->m->used : 0;
	const struct selinst_region **uniq = si_walloc((used + 1) * sizeof *uniq);
	if (!uniq)
		return NULL;
	*nu = 0;
	for (size_t i = 0; rt->m && i <= rt->m->mask; i++)
		if (rt->m->slot[i].a)
			uniq[(*nu)++] = (const struct selinst_region *)rt->m->slot[i].a;
	si_wsort(uniq, *nu, sizeof *uniq, region_cmp);
	uint32_t nid = 0;
	for (size_t i = 0; i < *nu; i++) {
		if (i > 0 && !same_region(uniq[i - 1], uniq[i]))
			nid++;
		rtab_get(rt, uniq[i])->value = nid;
	}
	return uniq;
}

static void emit_header(struct em *m, int final, int signo, double npt, double tps,
			uint64_t wall_ns)
{
	char buf[64];
	map_start(m, 0);
	kraw(m, "format", SELINST_PROFILE_FORMAT);
	kint(m, "version", SELINST_PROFILE_VERSION);
	kstr(m, "program", prog_path[0] ? prog_path : prog_name);
	kstr(m, "command", command);
	kint(m, "pid", (uint64_t)pid);
	if (rank[0]) kraw(m, "rank", rank); else kraw(m, "rank", "~");
	if (size[0]) kraw(m, "size", size); else kraw(m, "size", "~");
	kstr(m, "host", host);
	kstr(m, "start_time", start_time_text());
	snprintf(buf, sizeof buf, "%.9f", (double)wall_ns / 1e9);
	kraw(m, "wall_seconds", buf);
	plain(m, "clock");
	map_start(m, 0);
	kraw(m, "source", si_clock_name());
	snprintf(buf, sizeof buf, "%.6f", si_clock_is_tsc() ? npt : si_clock_resolution_ns());
	kraw(m, "resolution_ns", buf);
	kint(m, "ticks_per_second", (uint64_t)(tps + 0.5));
	map_end(m);
	kraw(m, "complete", final ? "true" : "false");
	kraw(m, "overflow", __atomic_load_n(&si_overflowed, __ATOMIC_RELAXED) ? "true" : "false");
	if (signo)
		kint(m, "signal", (uint64_t)signo);
	emit_throttle_setting(m);
	si_emit_unit_settings(m, final);
	si_emit_iterate_setting(m, final);
	if (si_hook_pair_ns > 0) {
		snprintf(buf, sizeof buf, "%.2f", si_hook_pair_ns);
		kraw(m, "hook_pair_ns", buf);
		snprintf(buf, sizeof buf, "%.2f", si_hook_inside_ticks * npt);
		kraw(m, SELINST_PROFILE_HOOK_INSIDE, buf);
	}
	if (si_hook_loop_pair_ns > 0) {
		snprintf(buf, sizeof buf, "%.2f", si_hook_loop_pair_ns);
		kraw(m, SELINST_PROFILE_HOOK_LOOP_PAIR, buf);
		snprintf(buf, sizeof buf, "%.2f", si_hook_loop_inside_ticks * npt);
		kraw(m, SELINST_PROFILE_HOOK_LOOP_INSIDE, buf);
	}
	if (si_sample_hz()) {
		plain(m, "sampling");
		map_start(m, 1);
		kint(m, "hz", (uint64_t)si_sample_hz());
		kint(m, "signal", (uint64_t)si_sample_signal());
		kraw(m, "clock", "thread_cpu");
		if (si_sample_handler_lost())
			kraw(m, "handler_replaced", "true");
		map_end(m);
	}
}

/* Whether every copy of region R[0] (R[0..N-1] sorted, copies adjacent)
 * has its loop counter folded away (the plugin's check). */
static int counter_folded(const struct selinst_region *const *r, size_t n)
{
	for (size_t i = 0; i < n && (i == 0 || same_region(r[0], r[i])); i++)
		if (!(r[i]->reserved & SELINST_REGION_COUNTER_FOLDED))
			return 0;
	return 1;
}

static void emit_regions(struct em *m, const struct selinst_region **uniq, size_t nu,
			 struct rtab *rt, double npt)
{
	plain(m, "regions");
	seq_start(m);
	for (size_t i = 0; i < nu; i++) {
		if (i > 0 && same_region(uniq[i - 1], uniq[i]))
			continue;
		const struct selinst_region *r = uniq[i];
		map_start(m, 0);
		kint(m, "id", rtab_get(rt, r)->value);
		kstr(m, "name", r->name);
		kraw(m, "kind", selinst_profile_kind_name(r->kind));
		kstr(m, "file", r->file);
		kint(m, "line", r->line);
		if (r->kind == SELINST_KIND_LOOP && r->function)
			kstr(m, "function", r->function);
		if (r->kind == SELINST_KIND_LOOP && counter_folded(uniq + i, nu - i))
			kraw(m, SELINST_PROFILE_COUNTER, SELINST_PROFILE_COUNTER_FOLDED);
		if (r->kind == SELINST_KIND_FUNCTION && (r->reserved & SELINST_REGION_LOOP_TABLE) &&
		    r->function)
			kstr(m, SELINST_PROFILE_LOOP_LINES, r->function);
		emit_throttled(m, uniq + i, nu - i, npt);
		map_end(m);
	}
	seq_end(m);
}

/* The modules the samples' addresses are in (known once every thread's
 * rows are made): [{path, build_id}], by index. */
static void emit_sample_modules(struct em *m)
{
	size_t n = si_sample_modules();
	if (!n)
		return;
	plain(m, SELINST_PROFILE_SAMPLE_MODULES);
	seq_start(m);
	for (size_t i = 0; i < n; i++) {
		char id[2 * 64 + 1];
		char *path = si_sample_module(i, id, sizeof id);
		map_start(m, 1);
		kstr(m, "path", path ? path : "");
		si_wfree(path);
		if (id[0])
			kstr(m, "build_id", id);
		else
			kraw(m, "build_id", "~");
		map_end(m);
	}
	seq_end(m);
}

/* Where the emitter's bytes go: the file, written by this process only
 * (a child forked by a signal handler in the middle of a write shares the
 * descriptor, and must not add the parent's buffered half to it). */
struct sink { int fd; pid_t pid; int err; };

static int sink_write(void *data, unsigned char *buf, size_t len)
{
	struct sink *k = data;
	if (getpid() != k->pid) {
		k->err = ECANCELED;
		return 0;
	}
	while (len) {
		ssize_t w = write(k->fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			k->err = w < 0 ? errno : EIO;
			return 0;
		}
		buf += w;
		len -= (size_t)w;
	}
	return 1;
}

/* The document: copies of every thread first, then the clock, once, then
 * the text (see snapshot.c). */
static int emit_profile(struct sink *k, int final, int signo)
{
	struct snaps ss;
	if (snaps_take(&ss) < 0)
		return -1;
	struct si_sample_wstate sw;
	si_sample_write_begin(&sw);
	uint64_t now = si_now(), mono = si_clock_mono_ns();
	double tps = si_ticks_per_second(), npt = 1e9 / tps;
	fork_start_settle(now, mono, npt);
	uint64_t wall_ns = mono - start_mono;
	/* On the heap: its buffer would not fit a signal stack. */
	struct em *m = si_walloc(sizeof *m);
	struct rtab rt = { NULL };
	const struct selinst_region **uniq = NULL;
	size_t nu = 0;
	int ok = 0;
	if (!m || !(uniq = region_table(&ss, &rt, &nu))) {
		errno = ENOMEM;
		goto out;
	}
	em_init(m, sink_write, k);
	si_iterate_choose((const struct si_snap *const *)ss.all, ss.nall);
	emit_header(m, final, signo, npt, tps, wall_ns);
	emit_regions(m, uniq, nu, &rt, npt);
	plain(m, "threads");
	seq_start(m);
	for (size_t i = 0; i < ss.nall && m->ok; i++)
		emit_thread(m, ss.all[i], &rt, now, npt, wall_ns);
	seq_end(m);
	emit_sample_modules(m);
	/* The end marker, always the last line: a reader refuses a profile
	 * without it, so a copy cut at a line break is not taken as whole. */
	kraw(m, "end", "true");
	map_end(m);
	ok = em_flush(m);
	if (!ok)
		errno = k->err ? k->err : errno ? errno : EIO;
out:
	si_wfree(m);
	si_map_free(rt.m);
	si_wfree(uniq);
	snaps_free(&ss);
	si_sample_write_end(&sw);
	return ok ? 0 : -1;
}

/* ---- the file ----------------------------------------------------------- */

int si_output_is_ours(void)
{
	return getpid() == pid;
}

/* PATH with symbolic links at its last component followed, into OUT: a
 * link at the output path is written through (its target replaced), not
 * replaced by a regular file.  -1 with errno set. */
static int follow_links(const char *path, char *out, size_t n)
{
	if (strlen(path) >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(out, path);
	char *link = si_walloc(PATH_MAX);	/* the write's */
	if (!link) {
		errno = ENOMEM;
		return -1;
	}
	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode))
			return 0;
		ssize_t k = readlink(out, link, PATH_MAX - 1);
		if (k < 0)
			return 0;
		link[k] = 0;
		char *slash = strrchr(out, '/');
		size_t dirlen = link[0] == '/' || !slash ? 0 : (size_t)(slash - out) + 1;
		if (dirlen + (size_t)k >= n) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(out + dirlen, link, (size_t)k + 1);
	}
	errno = ELOOP;
	return -1;
}

/* Temporary files are "<name>.tmp.<host>.<pid>.<n>" beside the profile:
 * what they are and whose.  <name> is cut so that the whole fits NAME_MAX
 * whatever the pid and counter (a valid 255-byte profile name works).
 * Writes "<dir>/<cut name>.tmp.<host>." to OUT; its length, 0 if too long. */
static size_t temp_prefix(char *out, size_t n, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t baselen = strlen(path + dirlen);
	size_t tail = strlen(".tmp.") + strlen(host) + 1 + 10 + 1 + 10;
	size_t keep = NAME_MAX > tail + 1 ? NAME_MAX - tail : 1;
	if (baselen > keep)
		baselen = keep;
	int k = snprintf(out, n, "%.*s%.*s.tmp.%s.", (int)dirlen, path, (int)baselen,
			 path + dirlen, host);
	return k < 0 || (size_t)k >= n ? 0 : (size_t)k;
}

/* Temporary files of PATH left by processes of this host that died while
 * writing (SIGKILL, power loss): removed at the next final write.  The
 * folder is read with getdents64, not opendir: its 32 KiB buffer would
 * come from the exiting thread's malloc (see walloc.c). */
static void remove_stale_temps(const char *path)
{
	char *prefix = si_walloc(PATH_MAX);	/* the write's */
	size_t pl = prefix ? temp_prefix(prefix, PATH_MAX, path) : 0;
	if (!pl)
		return;
	char *slash = strrchr(prefix, '/');
	const char *base = slash ? slash + 1 : prefix;
	if (slash)
		*slash = 0;
	int dfd = open(slash ? (prefix[0] ? prefix : "/") : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	size_t bl = strlen(base);
	char buf[2048] __attribute__((aligned(8)));	/* small: the exiting thread's stack */
	for (long got; (got = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0;) {
		for (long off = 0; off < got;) {
			struct dirent64 *e = (struct dirent64 *)(buf + off);
			off += e->d_reclen;
			int p, end = 0;
			unsigned c;
			if (strncmp(e->d_name, base, bl) ||
			    sscanf(e->d_name + bl, "%d.%u%n", &p, &c, &end) != 2 ||
			    e->d_name[bl + end] || p <= 0 || p == pid)
				continue;
			if (kill(p, 0) != 0 && errno == ESRCH)
				unlinkat(dfd, e->d_name, 0);
		}
	}
	close(dfd);
}

/* Open the temporary file (or PATH itself when it is not a regular file:
 * a FIFO, /dev/stdout, a terminal; renaming over it would replace it). */
static int open_output(const char *path, char *tmp, size_t n, int *direct)
{
	struct stat st;
	*direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
	if (*direct)
		return open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	size_t pl = temp_prefix(tmp, n, path);
	if (!pl || (size_t)snprintf(tmp + pl, n - pl, "%d.%u", (int)getpid(),
				    __atomic_fetch_add(&dump_counter, 1, __ATOMIC_RELAXED)) >= n - pl) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
}

/* The profile's text takes its memory from walloc.c, sampling's rows and
 * module names and zlib's state for packed series too; a trace's files
 * (trace.c, libselinst-otf2.so) still come from malloc. */
int si_write_needs_malloc(void)
{
	return si_trace_mode != SI_MODE_PROFILE;
}

/* The file's part of si_write_profile, inside its arena: the profile at
 * PATH, through a temporary file; 0, or -1 with *ERR set.  -2 in a child
 * forked by a handler during the write. */
static int write_file(const char *path, int final, int from_signal, int signo,
		      int keep_earlier, int *err)
{
	char *target = si_walloc(PATH_MAX), *tmp = si_walloc(PATH_MAX + 64);
	int direct = 0, rc = -1;
	int fd = !target || !tmp ? (errno = ENOMEM, -1) :
		 follow_links(path, target, PATH_MAX) < 0 ? -1 :
		 open_output(target, tmp, PATH_MAX + 64, &direct);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	struct sink k = { fd, getpid(), 0 };
	errno = 0;
	rc = emit_profile(&k, final, signo);
	*err = errno;
	if (getpid() != k.pid) {
		/* A signal handler forked during the write and this is the
		 * child: the file and the lock are the parent's. */
		close(fd);
		return -2;
	}
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		*err = errno;
	}
	if (!direct && rc == 0 && place_profile(tmp, target, keep_earlier) != 0) {
		rc = -1;
		*err = errno;
	}
	if (!direct && rc != 0)
		unlink(tmp);
	if (!direct && rc == 0 && final && !from_signal)
		remove_stale_temps(target);
	return rc;
}

/* Write the profile to PATH (NULL: the normal path).  Errors go to stderr
 * with the path and the reason; returns 0 or -1 with errno set.  errno is
 * kept otherwise.  Every buffer, the paths' included, is the write's
 * (walloc.c): not the stack of whichever thread calls exit(), which may
 * be small.  Not a cancellation point: a cancelled write would leave the
 * lock taken and the arena current. */
int si_write_profile(const char *path, int final, int from_signal, int signo)
{
	int saved = errno, rc = -1, err = 0, keep_earlier = 0, cancel;
	if (!si_output_is_ours())
		return 0;	/* a vfork child: the parent's memory, not ours */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
	struct si_sample_quiet quiet = { 0, 0, { { 0 } } };
	if (final)	/* a dump's time is the program's, sampled as before */
		si_sample_quiet(&quiet);
	struct si_warena arena;
	si_wbegin(&arena);
	char *pbuf = si_walloc(PATH_MAX);
	if (!path && (!pbuf || output_path(pbuf, PATH_MAX, &keep_earlier) < 0)) {
		fprintf(stderr, "selinst: cannot write profile: %s\n",
			pbuf ? "SELINST_OUTPUT too long" : "out of memory");
		si_wend(&arena);
		si_sample_loud(&quiet);
		pthread_setcancelstate(cancel, NULL);
		errno = pbuf ? ENAMETOOLONG : ENOMEM;
		return -1;
	}
	if (!path)
		path = pbuf;
	int locked = si_registry_lock(from_signal ? 2000 : -1);
	si_fork_settle_any();	/* a forked child that ran no hook: its thread */
	rc = write_file(path, final, from_signal, signo, keep_earlier, &err);
	if (rc == -2) {
		si_wend(&arena);
		si_sample_loud(&quiet);
		pthread_setcancelstate(cancel, NULL);
		errno = ECANCELED;
		return -1;
	}
	if (locked)
		si_registry_unlock();
	if (rc != 0) {
		/* Not strerror: with a translated locale it allocates. */
		const char *why = strerrordesc_np(err ? err : EIO);
		fprintf(stderr, "selinst: cannot write profile %s: %s (SELINST_OUTPUT=PATH sets where)\n",
			path, why ? why : "error");
	}
	si_trace_write(path, final);	/* reports its own failure */
	si_wend(&arena);
	si_sample_loud(&quiet);
	pthread_setcancelstate(cancel, NULL);
	if (rc != 0) {
		errno = err ? err : EIO;
		return -1;
	}
	errno = saved;
	return 0;
}
