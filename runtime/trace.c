/* SPDX-License-Identifier: MIT */
/*
 * trace.c - SELINST_MODE=trace and flight: enter/leave events per thread,
 * written as an OTF2 archive next to the profile.
 *
 * Recording: while the gate's SI_GATE_TRACE bit is set the hooks take
 * their out-of-line paths (hooks.c), so profile mode's fast paths are the
 * same instructions as without tracing; those paths append 8-byte records
 * (trace.h: node id, ticks since the chunk's time base) to the thread's
 * own buffer: no lock, no atomic, memory from mmap only (a hook may run
 * in a signal handler).  The buffer is a ring of 64 KiB chunks.  Trace
 * mode grows it to SELINST_TRACE_MB, then the thread itself write()s its
 * oldest chunk to its spill file (unnamed, in SELINST_TRACE_SPILL_DIR or
 * the profile's folder) before it fills it again; when that fails the
 * thread stops recording and counts the events it drops.  Flight mode's
 * ring is SELINST_FLIGHT_MB and writes over its oldest chunk.  Halving
 * the old 16-byte events halved trace mode's main cost: memory touched
 * for the first time (10 to 15 ns per 32 bytes on the project's VM).
 * Buffers outlive their threads (the thread structure is recycled, its
 * buffer is not): a global list, pushed with one compare-and-swap; an
 * ending thread leaves its node ids' regions behind.
 *
 * Writing: after each profile write (exit, selinst_dump, fatal signal),
 * PROFILE.trace/traces.otf2 (PROFILE's ".prof" dropped) by
 * libselinst-otf2.so, dlopen'ed then and only then, like libdw
 * (sample.c): each library mapped from the start widens glibc's atfork
 * window at exit.  The records are decoded then into the writer's
 * events (trace.h).  A failure is reported once; the exit status is the
 * program's.  A dump reads a thread that goes on recording chunk by
 * chunk, each checked once read (collect): one the thread started again
 * meanwhile is read from the spill file, where it went first.
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

/* A ring's chunk: 8,192 records, each chunk decoded from its start. */
#define CHUNK_BYTES (64u << 10)
#define CHUNK_RECS (CHUNK_BYTES / sizeof(si_rec))


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

/* Where threads spill: SELINST_TRACE_SPILL_DIR, or the profile's folder
 * (SELINST_OUTPUT's at the start); absolute: the program may change its
 * working folder before a chunk is spilled. */
static void set_spill_dir(void)
{
	struct si_naming nm;
	char path[PATH_MAX], cwd[PATH_MAX];
	int keep;
	const char *e = getenv("SELINST_TRACE_SPILL_DIR");
	si_output_names(&nm);
	if (e && *e)
		snprintf(path, sizeof path, "%s", e);
	else if (!si_output_pattern() ||
		 si_expand_output(path, sizeof path, si_output_pattern(), &nm, &keep) != 0)
		return;
	else {
		char *slash = strrchr(path, '/');
		if (slash == path)
			path[1] = 0;
		else if (slash)
			*slash = 0;
		else
			strcpy(path, ".");
	}
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
 * default flight ring, 4,096 untouched pointers for the default trace). */
static struct si_tbuf *new_buffer(struct si_thread *t)
{
	int flight = si_trace_mode == SI_MODE_FLIGHT;
	size_t n = (flight ? flight_mb : trace_mb) * ((1u << 20) / CHUNK_BYTES);
	struct si_tbuf *b = si_mmap(sizeof *b + n * sizeof *b->chunks);
	if (!b)
		return NULL;
	b->index = t->index;
	b->tid = t->tid;
	b->owner = t;
	b->fd = -1;
	b->flight = flight;
	b->max_chunks = n;
	b->chunks = (si_rec **)(b + 1);
	struct si_tbuf *head = __atomic_load_n(&buffers, __ATOMIC_RELAXED);
	do
		b->next = head;
	while (!__atomic_compare_exchange_n(&buffers, &head, b, 1, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
	t->trace = b;
	return b;
}

/* A chunk.  After a thread's first, with its pages already there: one
 * system call that faults them in is cheaper than a fault per page on the
 * hot path.  The first is faulted in as it fills: a short thread then
 * holds only the pages it used (30,000 short threads would otherwise keep
 * 2 GB).  errno kept: a hook may run anywhere. */
static si_rec *chunk_mmap(int populate)
{
	int saved = errno;
	void *p = mmap(NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE,
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

/* Chunk I appended to the spill file: 0, or the errno (the file then cut
 * back to its whole chunks). */
static int spill(struct si_tbuf *b, size_t i)
{
	if (b->fd < 0 && (b->fd = spill_open(b)) < 0)
		return errno;
	const char *p = (const char *)b->chunks[i];
	size_t done = 0;
	while (done < CHUNK_BYTES) {
		ssize_t k = write(b->fd, p + done, CHUNK_BYTES - done);
		if (k > 0)
			done += (size_t)k;
		else if (k == 0 || errno != EINTR) {
			int err = k == 0 ? ENOSPC : errno;
			if (done && ftruncate(b->fd, (off_t)(b->spilled * CHUNK_BYTES)) == 0)
				lseek(b->fd, 0, SEEK_END);
			return err;
		}
	}
	__atomic_store_n(&b->spilled, b->spilled + 1, __ATOMIC_RELEASE);
	return 0;
}

/* The time base TS (inside the trace window), and how far the fast way
 * may record after it. */
static void set_base(struct si_tbuf *b, uint64_t ts)
{
	b->base = ts;
	b->span = si_trace_until - ts < SI_REC_DT_LIMIT ? si_trace_until - ts : SI_REC_DT_LIMIT;
}

/* Chunk I made the current one, starting with the time base TS. */
static void start_chunk(struct si_tbuf *b, size_t i, uint64_t ts)
{
	si_rec *c = b->chunks[i];
	c[0] = si_rec_special(SI_REC_BASE, ts);
	set_base(b, ts);
	b->cur = i;
	b->end = c + CHUNK_RECS;
	barrier();
	__atomic_store_n(&b->pos, c + 1, __ATOMIC_RELEASE);
}

/* The next chunk, its time base TS: a new one while the ring grows, else
 * the oldest, spilled first in trace mode.  0: none (events lost from now
 * on).  A dump may be reading the ring (collect): gen turns odd only once
 * the oldest chunk is in the spill file, just before it is written over,
 * so that the dump reads it from the file instead.  The spill's write()
 * stays outside the odd window, as a dump waits for a thread inside it
 * (before, a slow write() made dumps give up on the thread's events). */
static int next_chunk(struct si_tbuf *b, uint64_t ts)
{
	if (b->spill_err)
		return 0;
	if (b->nchunks < b->max_chunks) {
		si_rec *c = chunk_mmap(b->nchunks > 0);
		if (c) {
			size_t i = b->nchunks;
			b->chunks[i] = c;
			__atomic_store_n(&b->nchunks, i + 1, __ATOMIC_RELEASE);
			start_chunk(b, i, ts);
			return 1;
		}
		if (!b->nchunks)
			return 0;
		b->max_chunks = b->nchunks;	/* out of memory: a smaller ring */
	}
	size_t i = (b->cur + 1) % b->nchunks;
	int saved = errno;
	if (!b->flight && (b->spill_err = spill(b, i)) != 0) {
		errno = saved;
		__atomic_store_n(&b->pos, b->end, __ATOMIC_RELEASE);
		return 0;
	}
	errno = saved;
	__atomic_store_n(&b->gen, b->gen + 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_RELEASE);	/* odd before the new records */
	start_chunk(b, i, ts);
	__atomic_store_n(&b->gen, b->gen + 1, __ATOMIC_RELEASE);
	return 1;
}

/* si_trace_put or si_trace_put_loop_leave the slow way: first a new chunk
 * or a new time base, and the region's address when N's id does not fit
 * (one chunk holds them all: a chunk is decoded from its start). */
void si_trace_put_slow(struct si_thread *t, uint64_t ts, const struct si_node *n, unsigned kind,
		       uint64_t count)
{
	if (!si_trace_in_window(ts))
		return;
	struct si_tbuf *b = t->trace;
	if (!b && !(b = new_buffer(t)))
		return;
	int esc = n->id >= SI_REC_ESC;
	ptrdiff_t need = 1 + esc + (kind == SI_TEV_LOOP_LEAVE);
	if (b->end - b->pos < need + 1) {
		/* The slots left are cleared: a reused chunk holds its last
		 * round's records there, and id 0 is read as no event. */
		if (b->pos && b->pos < b->end)
			memset(b->pos, 0, (size_t)(b->end - b->pos) * sizeof *b->pos);
		if (!next_chunk(b, ts)) {
			b->lost++;
			return;
		}
	}
	if (ts - b->base >= b->span) {
		*b->pos++ = si_rec_special(SI_REC_BASE, ts);
		set_base(b, ts);
	}
	si_rec r[3];
	int k = 0;
	if (esc)
		r[k++] = si_rec_special(SI_REC_REGION, (uintptr_t)n->region);
	r[k++] = si_rec_event(ts - b->base, esc ? SI_REC_ESC : n->id, kind);
	if (kind == SI_TEV_LOOP_LEAVE)
		r[k++] = si_rec_special(SI_REC_COUNT, count);
	memcpy(b->pos, r, (size_t)k * sizeof *r);
	barrier();
	b->pos += k;
}

void si_trace_entered(struct si_thread *t, uint32_t depth_before)
{
	struct si_frame *f = t->top;
	if (si_depth(t) > depth_before && f->node != &t->paused && si_trace_in_window(f->start))
		si_trace_put(t, f->start, f->node, SI_TEV_ENTER);
}

void si_trace_left(struct si_thread *t, uint32_t depth_before, uint64_t now)
{
	if (!si_trace_in_window(now))
		return;
	for (uint32_t i = depth_before - 1; i >= si_depth(t) && i > 0; i--) {
		const struct si_frame *f = &t->stack[i];
		if (f->node == &t->paused)
			continue;
		if (!f->node->loop)
			si_trace_put(t, now, f->node, SI_TEV_LEAVE);
		else
			si_trace_put_loop_leave(t, now, f->node, *si_loop_cell(t, i));
	}
}

/* T ends: the regions of its node ids, kept for the write (its structure
 * and nodes are reused by a later thread).  Under the registry lock. */
void si_trace_thread_exit(struct si_thread *t)
{
	struct si_tbuf *b = t->trace;
	if (!b)
		return;
	uint64_t n = t->nnodes;
	const struct selinst_region **r = malloc((n ? n : 1) * sizeof *r);
	for (uint64_t id = 0; r && id < n; id++)
		r[id] = si_node_by_id(t, id)->region;
	b->regions = r;
	b->nregions = r ? n : 0;
	__atomic_store_n(&b->owner, NULL, __ATOMIC_RELEASE);
	t->trace = NULL;
}

/* In a forked child: the parent's events are the parent's (and so are
 * its spill files: their descriptors closed here). */
void si_trace_after_fork(void)
{
	for (struct si_tbuf *b = buffers; b; b = b->next)
		if (b->fd >= 0)
			close(b->fd);
	if (buffers)	/* not written when it need not be: a page copy */
		buffers = NULL;
	/* si_self directly: si_thread_get would make a forked child's
	 * profile, here in the fork handler.  The placeholders' is NULL. */
	struct si_thread *t = si_self;
	if (t->trace)
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

/* Records of one thread turned into the writer's events (trace.h). */
struct decoder {
	const struct si_tbuf *b;
	struct si_thread *owner;	/* B's thread, still running; else B->regions */
	uint64_t base;
	const struct selinst_region *esc;	/* the last SI_REC_REGION */
	int release;			/* the last write: each chunk's pages
					   given back once read */
	struct si_tev *out;
	size_t n, cap, loop;		/* loop: out[loop - 1] awaits its count */
};

static const struct selinst_region *region_of(const struct decoder *d, uint32_t id)
{
	if (id == 0)	/* the root, or the paused node: no region's event */
		return NULL;
	if (id == SI_REC_ESC)
		return d->esc;
	if (!d->owner)
		return id < d->b->nregions ? d->b->regions[id] : NULL;
	if (id >= __atomic_load_n(&d->owner->nnodes, __ATOMIC_ACQUIRE))
		return NULL;
	return si_node_by_id(d->owner, id)->region;
}

/* A loop leave's count: in its event, or in an SI_TEV_COUNT after it. */
static void put_count(struct decoder *d, uint64_t count)
{
	struct si_tev *e = &d->out[d->loop - 1];
	d->loop = 0;
	e->w |= (count < SI_TEV_BIG ? count : SI_TEV_BIG) << 50;
	if (count >= SI_TEV_BIG && d->n < d->cap)
		d->out[d->n++] = (struct si_tev){ count, si_tev_word(NULL, SI_TEV_COUNT, 0) };
}

/* The N records at R, a chunk's (or its part up to the writing point). */
static void decode(struct decoder *d, const si_rec *r, size_t n)
{
	for (size_t i = 0; i < n && d->n < d->cap; i++) {
		si_rec x = r[i];
		if (SI_REC_KIND(x) == SI_REC_SPECIAL) {
			uint64_t p = SI_REC_PAYLOAD(x);
			if (SI_REC_SUB(x) == SI_REC_BASE)
				d->base = p;
			else if (SI_REC_SUB(x) == SI_REC_REGION)
				d->esc = (const struct selinst_region *)(uintptr_t)p;
			else if (SI_REC_SUB(x) == SI_REC_COUNT && d->loop)
				put_count(d, p);
			continue;
		}
		d->loop = 0;
		const struct selinst_region *reg = region_of(d, SI_REC_ID(x));
		if (!reg)
			continue;
		d->out[d->n++] = (struct si_tev){ d->base + SI_REC_DT(x), si_tev_word(reg, SI_REC_KIND(x), 0) };
		if (SI_REC_KIND(x) == SI_TEV_LOOP_LEAVE)
			d->loop = d->n;
	}
}

/* Chunks FROM .. FROM + COUNT - 1 of the spill file, decoded: 0, or -1. */
static int decode_spilled(struct decoder *d, uint64_t from, uint64_t count)
{
	if (!count)
		return 0;
	size_t bytes = count * CHUNK_BYTES;
	void *m = mmap(NULL, bytes, PROT_READ, MAP_SHARED, d->b->fd, (off_t)(from * CHUNK_BYTES));
	if (m == MAP_FAILED)
		return -1;
	for (uint64_t c = 0; c < count; c++)
		decode(d, (const si_rec *)m + c * CHUNK_RECS, CHUNK_RECS);
	munmap(m, bytes);
	return 0;
}

/* The chunks a dump reads from a ring: chunk numbers lo .. lo + count - 1
 * (struct si_tbuf), the last up to last_len records; the spill file
 * holds those before lo. */
struct ring_view {
	uint64_t lo;
	size_t n, count, last_len;
};

/* B's view as read now: 1 when it is the thread's state at one moment
 * (the writing point in the newest chunk); 0 when the thread switched
 * chunks meanwhile: the view then leaves the newest chunk out (the one
 * before it is complete, its free slots cleared before the switch). */
static int read_view(const struct si_tbuf *b, struct ring_view *v)
{
	uint64_t gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
	size_t n = __atomic_load_n(&b->nchunks, __ATOMIC_ACQUIRE);
	const si_rec *pos = __atomic_load_n(&b->pos, __ATOMIC_ACQUIRE);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	int same = __atomic_load_n(&b->gen, __ATOMIC_RELAXED) == gen;
	v->lo = (gen + 1) / 2;
	v->n = n;
	const si_rec *c = b->chunks[(v->lo + n - 1) % n];
	if (!(gen & 1) && same && pos > c && pos <= c + CHUNK_RECS) {
		v->count = n;
		v->last_len = (size_t)(pos - c);
		return 1;
	}
	v->count = n - 1;
	v->last_len = CHUNK_RECS;
	return 0;
}

/* B's view, waiting for a thread that is switching chunks (a few stores,
 * unless it is preempted there), but never for this thread (a dump from
 * a signal handler that interrupted it there) nor much over a second. */
static void ring_view(const struct si_tbuf *b, struct ring_view *v)
{
	const struct si_thread *o = __atomic_load_n(&b->owner, __ATOMIC_ACQUIRE);
	int own = o && o == si_self;
	for (int tries = 0; !read_view(b, v) && !own && tries < 1000; tries++) {
		if (tries < 50)
			sched_yield();
		else
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
}

/* Chunk K of view V decoded into D, its first LEN records: from the
 * ring, or, when the thread started that chunk again while it was read,
 * from the spill file (trace mode: it was spilled first), or not at all
 * (flight mode: written over; the events before it are dropped too, so
 * that a dump has no gap).  0, or -1. */
static int decode_chunk(struct decoder *d, const struct ring_view *v, uint64_t k, size_t len)
{
	const struct si_tbuf *b = d->b;
	si_rec *c = b->chunks[k % v->n];
	size_t n = d->n;
	decode(d, c, len);
	if (d->release)	/* peak memory: the decoded events, not both */
		madvise(c, CHUNK_BYTES, MADV_DONTNEED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	/* Acquire: a reuse seen here orders the spill file's write (and
	 * fd) before what decode_spilled reads. */
	if ((__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) + 1) / 2 <= k)
		return 0;	/* not started again: what was read is chunk K's */
	d->n = b->flight ? 0 : n;
	d->loop = 0;
	return b->flight ? 0 : decode_spilled(d, k, 1);
}

/* B's records of view V, oldest first: the spill file's up to the
 * view's first chunk, then the ring's.  0, or -1. */
static int decode_all(struct decoder *d, const struct ring_view *v)
{
	if (!d->b->flight && decode_spilled(d, 0, v->lo) != 0)
		return -1;
	for (size_t i = 0; i < v->count; i++)
		if (decode_chunk(d, v, v->lo + i, i + 1 == v->count ? v->last_len : CHUNK_RECS) != 0)
			return -1;
	return 0;
}

/* The events of B into L; 0 or -1 (out of memory, spill file unreadable).
 * FINAL: the last write.  A thread still recording (a dump) goes on
 * while its ring is read: what the dump holds is every event up to the
 * view's writing point, in order. */
static int collect(const struct si_tbuf *b, struct si_trace_loc *l, int final)
{
	l->index = b->index;
	l->tid = b->tid;
	l->lost = b->lost;
	l->nseg = 0;
	if (!__atomic_load_n(&b->nchunks, __ATOMIC_ACQUIRE))
		return 0;
	struct decoder d = { .b = b, .owner = __atomic_load_n(&b->owner, __ATOMIC_ACQUIRE) };
	struct ring_view v;
	ring_view(b, &v);
	/* At the last write the exiting thread waits (si_at_exit) and a thread
	 * still running records what nobody will read. */
	d.release = final;
	d.cap = ((b->flight ? 0 : v.lo) + v.count) * CHUNK_RECS;
	l->seg = malloc(sizeof *l->seg);
	d.out = malloc((d.cap ? d.cap : 1) * sizeof *d.out);
	if (!l->seg || !d.out || decode_all(&d, &v) != 0) {
		free(d.out);
		return -1;
	}
	l->seg[0] = (struct si_trace_seg){ d.out, d.n };
	l->nseg = 1;
	return 0;
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
static int collect_all(struct si_trace_out *o, int final)
{
	size_t n = 0;
	for (struct si_tbuf *b = __atomic_load_n(&buffers, __ATOMIC_ACQUIRE); b; b = b->next)
		n++;
	o->loc = calloc(n ? n : 1, sizeof *o->loc);
	if (!o->loc)
		return -1;
	/* Held while the events are decoded: a thread ending meanwhile
	 * (si_trace_thread_exit) hands its nodes over under it, and a new
	 * thread that reuses the structure clears them. */
	int locked = si_registry_lock(2000), rc = 0;
	for (struct si_tbuf *b = __atomic_load_n(&buffers, __ATOMIC_ACQUIRE); b && o->nloc < n && !rc;
	     b = b->next)
		rc = collect(b, &o->loc[o->nloc++], final);
	if (locked)
		si_registry_unlock();
	if (rc)
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

/* Events lost: a spill file that failed (the first thread's error), or
 * no memory for a thread's first chunk. */
static void report_losses(const char *dir, uint64_t lost)
{
	int err = 0;
	for (struct si_tbuf *b = __atomic_load_n(&buffers, __ATOMIC_ACQUIRE); b && !err; b = b->next)
		err = b->spill_err;
	char why[PATH_MAX + 128] = "out of memory";
	if (err)
		snprintf(why, sizeof why, "cannot spill to %s: %s", spill_dir[0] ? spill_dir : "(no folder)",
			 strerror(err));
	if (lost)
		fprintf(stderr, "selinst: trace %s: %llu events lost (%s)\n", dir,
			(unsigned long long)lost, why);
}

/* Write the trace beside the profile at PROFILE (written or not). */
void si_trace_write(const char *profile, int final)
{
	static int reported, writing, final_done;
	if (si_trace_mode == SI_MODE_PROFILE || final_done ||
	    __atomic_exchange_n(&writing, 1, __ATOMIC_ACQUIRE))
		return;	/* one write at a time: a dump racing the exit loses; after
			   the last, the buffers' pages are gone */
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
		if (fn && collect_all(&o, final) != 0)
			snprintf(why, sizeof why, "reading the events back: %s", strerror(errno));
		else if (fn && fn(&o) != 0)
			snprintf(why, sizeof why, "%s", o.err);
	}
#endif
	for (size_t i = 0; i < o.nloc; i++) {
		lost += o.loc[i].lost;
		if (o.loc[i].nseg)
			free((void *)o.loc[i].seg[0].ev);
		free(o.loc[i].seg);
	}
	free(o.loc);
	final_done = final;
	__atomic_store_n(&writing, 0, __ATOMIC_RELEASE);
	if (why[0] && !reported) {
		reported = 1;
		fprintf(stderr, "selinst: cannot write trace %s: %s\n", dir, why);
	} else
		report_losses(dir, lost);
	errno = saved;
}
