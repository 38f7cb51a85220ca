/* SPDX-License-Identifier: MIT */
/*
 * snapshot.c - copies a thread's profile for the writer.
 *
 * The writer never works on live trees: it first copies every thread
 * (struct si_snap), then reads the clock once, then formats the copies.
 * A thread that keeps running while the profile is written therefore
 * cannot grow a table under the writer, and every time in the profile is
 * measured up to about the same instant (the copies take microseconds to
 * milliseconds, where formatting can take seconds).
 *
 * The copy of a running thread is made without stopping it: the node
 * count is published with a release store after each node is complete, so
 * nodes below the count read here are whole; nodes are copied children
 * first (higher ids first: a child is created after its parent), then the
 * open frames, each checked to point to a node of the copy.  What the
 * thread does meanwhile may be seen partly; the writer clamps the few
 * nanoseconds that can make a child look longer than its parent.
 * These reads race with the owning thread by design (a profiler reads
 * counters as they run); they are word-sized, and ThreadSanitizer is told
 * to leave this file's reads alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

#define NO_TSAN __attribute__((no_sanitize_thread, noinline))

void si_snap_free(struct si_snap *s)
{
	if (s->nodes)
		for (uint64_t i = 0; i < s->nn; i++)
			si_wfree(s->nodes[i].loop);
	si_wfree(s->nodes);
	si_wfree(s->frames);
	si_wfree(s->flow);
	s->nodes = NULL;
	s->frames = NULL;
	s->flow = NULL;
}

NO_TSAN static int copy_nodes(struct si_thread *t, struct si_snap *s)
{
	s->nodes = si_wcalloc(s->nn, sizeof *s->nodes);
	if (!s->nodes)
		return -1;
	s->nodes[0].region = &si_root_region;
	struct si_node *ov = t->overflow;
	s->overflow_calls = ov && SI_NODE_ID(ov) < s->nn ? ov->calls : 0;
	for (uint64_t id = s->nn; id-- > 1;) {
		struct si_node *n = si_node_by_id(t, id);
		struct si_snode *c = &s->nodes[id];
		struct si_node *par = n->parent;
		c->region = n->region;
		c->parent = par ? SI_NODE_ID(par) : 0;
		if (c->parent >= id)	/* cannot happen: parents come first */
			c->parent = 0;
		c->calls = n->calls;
		c->incl = n->incl;
		c->self = n->self;
		c->recursive = !!(n->id & SI_NODE_RECURSIVE);
		struct si_loop *l = n->loop;
		if (l) {
			c->loop = si_walloc(sizeof *c->loop);
			if (!c->loop)
				return -1;
			/* Word by word, relaxed: another thread's live counts.  A
			 * plain loop became a call of memmove, which a program
			 * built with -fsanitize=thread intercepts and reports
			 * as a race with that thread. */
			for (unsigned b = 0; b < SI_HIST_BUCKETS; b++)
				c->loop->hist[b] = __atomic_load_n(&l->hist[b], __ATOMIC_RELAXED);
			c->loop->iterations = l->iterations;
			c->loop->sent = l->sent;
			c->loop->received = l->received;
		}
	}
	return 0;
}

/* The iteration cell of frame I, without allocating one. */
NO_TSAN static uint64_t read_cell(struct si_thread *t, uint32_t i)
{
	if (i >= SI_CELL_BLOCK * SI_CELL_BLOCKS)
		return t->spare_cell;
	uint64_t *block = __atomic_load_n(&t->cells[i / SI_CELL_BLOCK], __ATOMIC_ACQUIRE);
	return block ? block[i % SI_CELL_BLOCK] : 0;
}

/* The open frames, up to the first one that does not name a node of the
 * copy (pushed after the node count was read). */
NO_TSAN static int copy_frames(struct si_thread *t, struct si_snap *s)
{
	/* Base before top: growth moves both, the old block stays mapped. */
	struct si_frame *stack = __atomic_load_n(&t->stack, __ATOMIC_ACQUIRE);
	uint32_t cap = __atomic_load_n(&t->cap, __ATOMIC_ACQUIRE);
	struct si_frame *top = __atomic_load_n(&t->top, __ATOMIC_ACQUIRE);
	uint32_t depth = top >= stack && top < stack + cap ? (uint32_t)(top - stack) + 1 : 1;
	s->depth = 1;
	if (depth <= 1)
		return 0;
	s->frames = si_wcalloc(depth, sizeof *s->frames);
	if (!s->frames)
		return -1;
	for (uint32_t i = 1; i < depth; i++) {
		struct si_node *n = stack[i].node;
		struct si_sframe *f = &s->frames[i];
		if (n == &t->paused) {
			f->node = SI_SNAP_PAUSED;
		} else {
			uint64_t id = n ? SI_NODE_ID(n) : 0;
			if (id == 0 || id >= s->nn || si_node_by_id(t, id) != n)
				break;
			f->node = id;
			if (n->loop)
				f->cell = read_cell(t, i);
		}
		f->start = stack[i].start;
		s->depth = i + 1;
	}
	return 0;
}

/* /proc/self/task/TID/schedstat: "CPU-ns runqueue-ns timeslices".  The
 * time a thread waited, runnable, while another ran lies in the elapsed
 * times of whatever regions it was in, the hooks' included, so
 * selinst-report --compensate scales the hooks' calibrated cost by
 * (cpu + runqueue) / cpu (doc/report.md).  open/read: at thread exit no
 * stdio stream should be made. */
int si_runq_ns(pid_t tid, uint64_t *ns)
{
	char path[64], buf[128];
	snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", (int)tid);
	int saved = errno, fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
	if (fd >= 0)
		close(fd);
	errno = saved;
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *end;
	strtoull(buf, &end, 10);
	if (end == buf || *end != ' ')
		return -1;
	char *p = end;
	*ns = strtoull(p, &end, 10);
	return end == p ? -1 : 0;
}

/* The CPU time of thread T: read when it exited, or now from its CPU
 * clock, named by its kernel thread id the way glibc's
 * pthread_getcpuclockid names it (Linux: (~tid << 3) | CPUCLOCK_PERTHREAD
 * | CPUCLOCK_SCHED).  Unknown for a thread gone before the runtime saw it
 * end, or a child after fork. */
static void snap_cpu_time(const struct si_thread *t, struct si_snap *s)
{
	if (s->finished) {
		s->cpu_ns = t->cpu_ns;
		s->cpu_known = t->cpu_known;
		s->runq_ns = t->runq_ns;
		s->runq_known = t->runq_known;
		return;
	}
	struct timespec ts;
	clockid_t id = (clockid_t)((~(unsigned)t->tid << 3) | 6);
	if (t->tid > 0 && clock_gettime(id, &ts) == 0) {
		s->cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		s->cpu_known = 1;
		/* As at thread exit: a young thread's wait would scale its
		 * hooks' cost by its wait over a few microseconds of CPU. */
		s->runq_known = s->cpu_ns >= SI_RUNQ_MIN_CPU_NS
			&& si_runq_ns(t->tid, &s->runq_ns) == 0;
	}
}

int si_snap_take(struct si_thread *t, struct si_snap *s)
{
	memset(s, 0, sizeof *s);
	s->index = t->index;
	s->tid = t->tid;
	s->finished = __atomic_load_n(&t->finished, __ATOMIC_ACQUIRE);
	s->end_ticks = s->finished ? t->end_ticks : 0;	/* written before finished */
	snap_cpu_time(t, s);
	s->samples = t->samples;
	s->series = __atomic_load_n(&t->series, __ATOMIC_ACQUIRE);	/* never freed */
	s->nn = __atomic_load_n(&t->nnodes, __ATOMIC_ACQUIRE);
	if (copy_nodes(t, s) < 0 || (!s->finished && copy_frames(t, s) < 0) ||
	    si_flow_copy(t, &s->flow, &s->nflow) < 0) {
		si_snap_free(s);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}
