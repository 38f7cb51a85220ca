/* SPDX-License-Identifier: MIT */
/*
 * trace.c - SELINST_MODE=trace and flight: enter/leave events per thread,
 * written as an OTF2 archive next to the profile.
 *
 * Recording: while the gate's SI_GATE_TRACE bit is set the hooks take
 * their out-of-line paths (hooks.c), so profile mode's fast paths are the
 * same instructions as without tracing; those paths append 16-byte events
 * (trace.h) to the thread's own buffer: no lock, no atomic, memory from
 * mmap only (a hook may run in a signal handler).  Trace mode fills one
 * hot chunk of HOT_BYTES; when it is full the thread itself write()s it
 * to its spill file (unnamed, O_TMPFILE, in the profile's folder) and
 * fills it again: memory stays one chunk a thread, in cache and TLB, and
 * no fresh page is touched on the hot path (fresh memory, first touched
 * there, cost 10 to 30 ns a pair).  SELINST_TRACE_MB caps the events a
 * thread records (spilled and in memory); past it they are counted lost.
 * When the spill file cannot be opened or written (disk full, read-only
 * folder, no descriptors left) the thread keeps its further events in
 * memory, 1 MiB chunks up to the same cap, and the failure is reported
 * with the trace.  Flight mode overwrites the oldest events of one ring
 * of SELINST_FLIGHT_MB per thread.  Buffers outlive their threads (the
 * thread structure is recycled, its buffer is not): a global list,
 * pushed with one compare-and-swap.
 *
 * Writing: after each profile write (exit, selinst_dump, fatal signal),
 * PROFILE.trace/traces.otf2 (PROFILE's ".prof" dropped) by
 * libselinst-otf2.so, dlopen'ed then and only then, like libdw
 * (sample.c): each library mapped from the start widens glibc's atfork
 * window at exit.  A failure is reported once; the exit status is the
 * program's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

#define CHUNK_BYTES (1u << 20)	/* kept in memory: the spill file failed */
#define CHUNK_EVENTS (CHUNK_BYTES / sizeof(struct si_tev))
/* The hot chunk: small enough to stay in a core's L2 cache with the
 * program's data, big enough that its write() is a few ns a pair. */
#ifndef HOT_BYTES
#define HOT_BYTES (256u << 10)
#endif
#define HOT_EVENTS (HOT_BYTES / sizeof(struct si_tev))


int si_trace_mode;			/* SI_MODE_* */
uint64_t si_trace_from, si_trace_until = UINT64_MAX;	/* the window, ticks */
static uint64_t trace_mb = 256, flight_mb = 4;
static struct si_tbuf *buffers;
static char spill_dir[PATH_MAX];	/* the profile's folder; "": none */

/* ---- settings -------------------------------------------------------- */

static int bad_setting(const char *name, const char *val, const char *why)
{
	fprintf(stderr, "selinst: %s=%s %s; using profile mode\n", name, val, why);
	si_trace_mode = SI_MODE_PROFILE;
	return -1;
}

static int read_mb(const char *name, uint64_t *mb)
{
	const char *e = getenv(name);
	if (e && *e && si_parse_decimal(e, 1, 1u << 20, mb) != 0)
		return bad_setting(name, e, "is not a size in MiB (1..1048576)");
	return 0;
}

/* Seconds (a decimal, fractions allowed) into ticks after the start;
 * *TICKS unchanged when unset. */
static int read_seconds(const char *name, uint64_t *ticks)
{
	const char *e = getenv(name);
	if (!e || !*e)
		return 0;
	char *end;
	errno = 0;
	double s = strtod(e, &end);
	if (*end || errno || !isfinite(s) || s < 0 || e[0] == '-' || e[0] == '+' || s > 1e9)
		return bad_setting(name, e, "is not a number of seconds");
	*ticks = (uint64_t)(s * si_ticks_per_second());
	return 0;
}

/* The profile's folder (SELINST_OUTPUT's at the start), absolute: the
 * program may change its working folder before a chunk is spilled. */
static void set_spill_dir(void)
{
	struct si_naming nm;
	char path[PATH_MAX], cwd[PATH_MAX];
	int keep;
	si_output_names(&nm);
	if (si_expand_output(path, sizeof path, getenv("SELINST_OUTPUT"), &nm, &keep) != 0)
		return;
	char *slash = strrchr(path, '/');
	if (slash == path)
		path[1] = 0;
	else if (slash)
		*slash = 0;
	else
		strcpy(path, ".");
	if (path[0] == '/')
		snprintf(spill_dir, sizeof spill_dir, "%s", path);
	else if (getcwd(cwd, sizeof cwd) &&
		 (size_t)snprintf(spill_dir, sizeof spill_dir, "%s/%s", cwd, path) >= sizeof spill_dir)
		spill_dir[0] = 0;
}

void si_trace_init(void)
{
	const char *m = getenv("SELINST_MODE");
	if (!m || !*m || !strcmp(m, "profile"))
		return;
	if (!strcmp(m, "trace"))
		si_trace_mode = SI_MODE_TRACE;
	else if (!strcmp(m, "flight"))
		si_trace_mode = SI_MODE_FLIGHT;
	else {
		bad_setting("SELINST_MODE", m, "is not profile, trace or flight");
		return;
	}
	uint64_t after = 0, span = UINT64_MAX;
	if (read_mb("SELINST_TRACE_MB", &trace_mb) || read_mb("SELINST_FLIGHT_MB", &flight_mb) ||
	    read_seconds("SELINST_TRACE_AFTER", &after) || read_seconds("SELINST_TRACE_FOR", &span))
		return;
	si_trace_from = si_start_ticks + after;
	if (span != UINT64_MAX)
		si_trace_until = si_trace_from + span;
	set_spill_dir();
	selinst_trace_on();
}

SI_EXPORT void selinst_trace_on(void)
{
	if (si_trace_mode != SI_MODE_PROFILE)
		__atomic_or_fetch(&si_hot.gate, SI_GATE_TRACE, __ATOMIC_RELAXED);
}

SI_EXPORT void selinst_trace_off(void)
{
	__atomic_and_fetch(&si_hot.gate, ~SI_GATE_TRACE, __ATOMIC_RELAXED);
}

/* ---- recording ------------------------------------------------------- */

/* The buffer of T, its chunk table in the same pages (one page for the
 * default 256 chunks: a short thread costs few). */
static struct si_tbuf *new_buffer(struct si_thread *t)
{
	int flight = si_trace_mode == SI_MODE_FLIGHT;
	struct si_tbuf *b = si_mmap(sizeof *b + (flight ? 0 : trace_mb * sizeof *b->chunks));
	if (!b)
		return NULL;
	b->index = t->index;
	b->tid = t->tid;
	b->fd = -1;
	if (flight) {
		b->ring_events = flight_mb * CHUNK_EVENTS;
		b->ring = si_mmap(b->ring_events * sizeof(struct si_tev));
		if (!b->ring)
			return NULL;
		b->pos = b->ring;
		b->end = b->ring + b->ring_events;
	} else {
		b->max_chunks = trace_mb;
		b->chunks = (struct si_tev **)(b + 1);
	}
	struct si_tbuf *head = __atomic_load_n(&buffers, __ATOMIC_RELAXED);
	do
		b->next = head;
	while (!__atomic_compare_exchange_n(&buffers, &head, b, 1, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
	t->trace = b;
	return b;
}

/* A chunk of BYTES, its pages faulted in now when POPULATE (one system
 * call instead of a fault per page on the hot path).  errno kept: a hook
 * may run anywhere. */
static struct si_tev *chunk_mmap(size_t bytes, int populate)
{
	int saved = errno;
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0), -1, 0);
	errno = saved;
	return p == MAP_FAILED ? NULL : p;
}

/* The thread's spill file: unnamed where the file system allows it, so
 * that nothing is left behind by a killed process. */
static int spill_open(const struct si_tbuf *b)
{
	if (!spill_dir[0]) {
		errno = ENOENT;
		return -1;
	}
	int fd = open(spill_dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		char p[PATH_MAX + 64];
		snprintf(p, sizeof p, "%s/.selinst-spill.%d.%d", spill_dir, (int)getpid(), (int)b->tid);
		fd = open(p, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
		if (fd >= 0)
			unlink(p);
	}
	return fd;
}

/* The full hot chunk appended to the spill file and emptied: 0, or the
 * errno; the whole events a short write got out count as spilled.  gen
 * is odd meanwhile (collect). */
static int spill(struct si_tbuf *b)
{
	if (b->fd < 0 && (b->fd = spill_open(b)) < 0)
		return errno;
	struct si_tev *hot = b->chunks[0];
	const char *p = (const char *)(hot + b->hot_from);
	size_t left = (HOT_EVENTS - b->hot_from) * sizeof *hot, done = 0;
	int err = 0;
	__atomic_store_n(&b->gen, b->gen + 1, __ATOMIC_RELEASE);
	while (left > 0 && !err) {
#ifdef SPILL_DISCARD
		ssize_t k = (ssize_t)left;
#else
		ssize_t k = write(b->fd, p + done, left);
#endif
		if (k > 0) {
			done += (size_t)k;
			left -= (size_t)k;
		} else if (k == 0 || errno != EINTR)
			err = k == 0 ? ENOSPC : errno;
	}
	if (!err) {
		b->pos = hot;
		b->end = hot + HOT_EVENTS;
		b->hot_from = 0;
	} else
		b->hot_from += done / sizeof *hot;
	b->spilled += done / sizeof *hot;
	__atomic_store_n(&b->gen, b->gen + 1, __ATOMIC_RELEASE);
	return err;
}

/* Room for events in trace mode when the chunk is full: the hot chunk
 * spilled and reused, or another chunk in memory; 0 when the thread has
 * recorded SELINST_TRACE_MB. */
static int next_chunk(struct si_tbuf *b)
{
	uint64_t cap = b->max_chunks * CHUNK_EVENTS;
	if (b->nchunks == 0) {	/* faulted in as it fills: a short thread holds few pages */
		if (!(b->chunks[0] = chunk_mmap(HOT_BYTES, 0)))
			return 0;
		b->nchunks = 1;
		b->pos = b->chunks[0];
		b->end = b->pos + HOT_EVENTS;
		return 1;
	}
	if (b->nchunks == 1 && !b->spill_err) {
		if (b->spilled + 2 * HOT_EVENTS > cap)
			return 0;
		int saved = errno, err = spill(b);
		errno = saved;
		if (!err)
			return 1;
		b->spill_err = err;
	}
	uint64_t held = b->spilled + (HOT_EVENTS - b->hot_from) + (b->nchunks - 1) * CHUNK_EVENTS;
	if (held + CHUNK_EVENTS > cap || b->nchunks >= b->max_chunks ||
	    !(b->chunks[b->nchunks] = chunk_mmap(CHUNK_BYTES, 1)))
		return 0;
	b->pos = b->chunks[b->nchunks++];
	b->end = b->pos + CHUNK_EVENTS;
	return 1;
}

/* si_trace_put when the chunk is full (or there is no buffer yet). */
void si_trace_put_slow(struct si_thread *t, uint64_t ts, uint64_t w)
{
	struct si_tbuf *b = t->trace;
	if (!b && !(b = new_buffer(t)))
		return;
	if (b->pos == b->end) {
		if (b->ring) {
			b->pos = b->ring;
			b->wrapped = 1;
		} else if (!next_chunk(b)) {
			b->lost++;
			return;
		}
	}
	b->pos->ts = ts;
	b->pos->w = w;
	barrier();
	b->pos++;
}

void si_trace_entered(struct si_thread *t, uint32_t depth_before)
{
	struct si_frame *f = t->top;
	if (si_depth(t) > depth_before && f->node != &t->paused && si_trace_in_window(f->start))
		si_trace_put(t, f->start, si_tev_word(f->region, SI_TEV_ENTER, 0));
}

void si_trace_left(struct si_thread *t, uint32_t depth_before, uint64_t now)
{
	if (!si_trace_in_window(now))
		return;
	for (uint32_t i = depth_before - 1; i >= si_depth(t) && i > 0; i--) {
		const struct si_frame *f = &t->stack[i];
		if (f->node == &t->paused)
			continue;
		if (!f->node->loop) {
			si_trace_put(t, now, si_tev_word(f->region, SI_TEV_LEAVE, 0));
			continue;
		}
		si_trace_put_loop_leave(t, now, f->region, *si_loop_cell(t, i));
	}
}

/* In a forked child: the parent's events are the parent's (and so are
 * its spill files: their descriptors closed here). */
void si_trace_after_fork(void)
{
	for (struct si_tbuf *b = buffers; b; b = b->next)
		if (b->fd >= 0)
			close(b->fd);
	buffers = NULL;
	struct si_thread *t = si_thread_get();
	if (t)
		t->trace = NULL;
}

/* ---- writing --------------------------------------------------------- */

/* PROFILE with ".prof" replaced by ".trace" (or ".trace" added). */
static int trace_dir(char *out, size_t n, const char *profile)
{
	size_t len = strlen(profile);
	if (len > 5 && !strcmp(profile + len - 5, ".prof"))
		len -= 5;
	int k = snprintf(out, n, "%.*s.trace", (int)len, profile);
	return k < 0 || (size_t)k >= n ? -1 : 0;
}

#ifndef SI_STATIC	/* the static library writes no trace: no dlopen there */
/* DIR made, or there already as a folder we may write in. */
static int make_dir(const char *dir)
{
	struct stat st;
	if (mkdir(dir, 0777) == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	if (stat(dir, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return access(dir, W_OK | X_OK);
}

/* The spilled events of B (its first SPILLED) mapped into L's first
 * segment; 0 or -1. */
static int map_spilled(const struct si_tbuf *b, uint64_t spilled, struct si_trace_loc *l)
{
	if (!spilled)
		return 0;
	l->map_bytes = spilled * sizeof(struct si_tev);
	l->map = mmap(NULL, l->map_bytes, PROT_READ, MAP_SHARED, b->fd, 0);
	if (l->map == MAP_FAILED) {
		l->map = NULL;
		return -1;
	}
	l->seg[l->nseg++] = (struct si_trace_seg){ l->map, spilled };
	return 0;
}

/* Trace mode's events of B into L: the spill file, then a copy of the
 * hot chunk (the thread, still running at a selinst_dump, may spill and
 * refill it meanwhile: taken again then, as a sequence lock; a dump from
 * a signal handler that interrupted the spill takes what is there), then
 * the chunks kept in memory.  0 or -1. */
static int collect_chunks(const struct si_tbuf *b, struct si_trace_loc *l)
{
	const struct si_tev *hot = b->chunks[0];
	for (int tries = 0;; tries++) {
		uint32_t gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
		if ((gen & 1) && tries < 1000) {
			sched_yield();
			continue;
		}
		uint64_t spilled = b->spilled;
		size_t from = b->hot_from;
		const struct si_tev *pos = __atomic_load_n(&b->pos, __ATOMIC_ACQUIRE);
		size_t n = b->nchunks == 1 && pos >= hot && pos <= hot + HOT_EVENTS ?
			(size_t)(pos - hot) : HOT_EVENTS;
		free(l->copy);
		if (!(l->copy = malloc(n > from ? (n - from) * sizeof *hot : 1)))
			return -1;
		memcpy(l->copy, hot + from, n > from ? (n - from) * sizeof *hot : 0);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&b->gen, __ATOMIC_RELAXED) != gen && tries < 1000)
			continue;
		if (map_spilled(b, spilled, l) != 0)
			return -1;
		l->seg[l->nseg++] = (struct si_trace_seg){ l->copy, n > from ? n - from : 0 };
		for (size_t i = 1; i < b->nchunks; i++) {
			struct si_tev *c = b->chunks[i];
			n = pos >= c && pos <= c + CHUNK_EVENTS ? (size_t)(pos - c) : CHUNK_EVENTS;
			l->seg[l->nseg++] = (struct si_trace_seg){ c, n };
		}
		return 0;
	}
}

/* The segments of B, oldest first, into L; 0 or -1 (out of memory). */
static int collect(const struct si_tbuf *b, struct si_trace_loc *l)
{
	struct si_tev *pos = __atomic_load_n(&b->pos, __ATOMIC_ACQUIRE);
	l->index = b->index;
	l->tid = b->tid;
	l->lost = b->lost;
	l->nseg = 0;
	l->seg = malloc((b->ring ? 2 : b->nchunks + 2) * sizeof *l->seg);
	if (!l->seg)
		return -1;
	if (b->ring) {
		if (b->wrapped)
			l->seg[l->nseg++] = (struct si_trace_seg){ pos, (size_t)(b->end - pos) };
		l->seg[l->nseg++] = (struct si_trace_seg){ b->ring, (size_t)(pos - b->ring) };
		return 0;
	}
	return b->nchunks ? collect_chunks(b, l) : 0;
}

/* An earlier archive in DIR: OTF2 does not write over one. */
static void remove_old(const char *dir)
{
	char p[PATH_MAX + 32];
	snprintf(p, sizeof p, "%s/traces.otf2", dir);
	unlink(p);
	snprintf(p, sizeof p, "%s/traces.def", dir);
	unlink(p);
	snprintf(p, sizeof p, "%s/traces", dir);
	DIR *d = opendir(p);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		char f[PATH_MAX * 2];
		if (e->d_name[0] != '.') {
			snprintf(f, sizeof f, "%s/%s", p, e->d_name);
			unlink(f);
		}
	}
	closedir(d);
	rmdir(p);
}

static si_otf2_write_fn *load_writer(char *why, size_t n)
{
	static si_otf2_write_fn *fn;
	if (fn)
		return fn;
	/* Next to this library (the build folder, or LIBDIR once installed). */
	char path[PATH_MAX];
	Dl_info info;
	void *h = NULL;
	if (dladdr((void *)si_trace_init, &info) && info.dli_fname) {
		const char *slash = strrchr(info.dli_fname, '/');
		int len = slash ? (int)(slash - info.dli_fname) : 1;
		snprintf(path, sizeof path, "%.*s/libselinst-otf2.so", len,
			 slash ? info.dli_fname : ".");
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	if (!h)
		h = dlopen("libselinst-otf2.so", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, n, "%s", dlerror());
		return NULL;
	}
	*(void **)&fn = dlsym(h, SI_OTF2_WRITE_SYM);
	if (!fn)
		snprintf(why, n, "libselinst-otf2.so has no %s", SI_OTF2_WRITE_SYM);
	return fn;
}

static int loc_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct si_trace_loc *)a)->index, y = ((const struct si_trace_loc *)b)->index;
	return (x > y) - (x < y);
}

/* Every thread's events, threads in their profile order. */
static int collect_all(struct si_trace_out *o)
{
	size_t n = 0;
	for (struct si_tbuf *b = __atomic_load_n(&buffers, __ATOMIC_ACQUIRE); b; b = b->next)
		n++;
	o->loc = calloc(n ? n : 1, sizeof *o->loc);
	if (!o->loc)
		return -1;
	for (struct si_tbuf *b = __atomic_load_n(&buffers, __ATOMIC_ACQUIRE); b && o->nloc < n;
	     b = b->next)
		if (collect(b, &o->loc[o->nloc++]) != 0)
			return -1;
	qsort(o->loc, o->nloc, sizeof *o->loc, loc_cmp);
	return 0;
}

static void fill_header(struct si_trace_out *o, const char *dir)
{
	struct si_naming nm;
	si_output_names(&nm);
	o->dir = dir;
	o->program = nm.program;
	o->host = nm.host;
	o->pid = nm.pid;
	o->rank = nm.rank[0] ? atoi(nm.rank) : -1;
	o->ticks_per_second = si_ticks_per_second();
	o->t0 = si_start_ticks;
	o->t_end = si_now();
	o->flight = si_trace_mode == SI_MODE_FLIGHT;
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	double since = (double)(o->t_end - o->t0) / o->ticks_per_second * 1e9;
	o->epoch_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec - (uint64_t)since;
}

#endif

/* Events lost, and a spill file that failed (the first thread's error):
 * one line. */
static void report_losses(const char *dir, uint64_t lost)
{
	static int spill_reported;
	int err = 0;
	for (struct si_tbuf *b = __atomic_load_n(&buffers, __ATOMIC_ACQUIRE); b && !err; b = b->next)
		err = b->spill_err;
	char spill[PATH_MAX + 128] = "";
	if (err)
		snprintf(spill, sizeof spill, "spilling to %s: %s; ", spill_dir[0] ? spill_dir : "(none)",
			 strerror(err));
	if (lost)
		fprintf(stderr, "selinst: trace %s: %llu events lost (%sSELINST_TRACE_MB=%llu per thread reached)\n",
			dir, (unsigned long long)lost, spill, (unsigned long long)trace_mb);
	else if (err && !spill_reported)
		fprintf(stderr, "selinst: trace %s: %sevents kept in memory\n", dir, spill);
	spill_reported |= err != 0;
}

/* Write the trace beside the profile at PROFILE (written or not). */
void si_trace_write(const char *profile)
{
	static int reported, writing;
	if (si_trace_mode == SI_MODE_PROFILE || __atomic_exchange_n(&writing, 1, __ATOMIC_ACQUIRE))
		return;	/* one write at a time: a dump racing the exit loses */
	int saved = errno;
	char dir[PATH_MAX], why[512] = "";
	struct si_trace_out o;
	memset(&o, 0, sizeof o);
	uint64_t lost = 0;
	if (trace_dir(dir, sizeof dir, profile) != 0)
		snprintf(why, sizeof why, "path too long");
#ifdef SI_STATIC
	else
		snprintf(why, sizeof why, "a trace is written by libselinst.so only");
#else
	else if (make_dir(dir) != 0)
		snprintf(why, sizeof why, "%s", strerror(errno));
	else {
		remove_old(dir);
		fill_header(&o, dir);
		si_otf2_write_fn *fn = load_writer(why, sizeof why);
		if (fn && collect_all(&o) != 0)
			snprintf(why, sizeof why, "reading the events back: %s", strerror(errno));
		else if (fn && fn(&o) != 0)
			snprintf(why, sizeof why, "%s", o.err);
	}
#endif
	for (size_t i = 0; i < o.nloc; i++) {
		lost += o.loc[i].lost;
		free(o.loc[i].seg);
		free(o.loc[i].copy);
		if (o.loc[i].map)
			munmap(o.loc[i].map, o.loc[i].map_bytes);
	}
	free(o.loc);
	__atomic_store_n(&writing, 0, __ATOMIC_RELEASE);
	if (why[0] && !reported) {
		reported = 1;
		fprintf(stderr, "selinst: cannot write trace %s: %s\n", dir, why);
	} else
		report_losses(dir, lost);
	errno = saved;
}
