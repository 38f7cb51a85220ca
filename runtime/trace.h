/* SPDX-License-Identifier: MIT */
/*
 * trace.h - the trace records, and what the runtime hands to the OTF2
 * writer library (build/libselinst-otf2.so, runtime/otf2/writer.c), which
 * it dlopen's only when a trace is written.  Not installed.
 *
 * Recorded (si_rec, 8 bytes): bits 0..1 the kind; an enter or leave has
 * the node's id in its thread (bits 2..23; SI_REC_ESC: the region is in
 * the SI_REC_REGION record just before) and the ticks since the chunk's
 * time base (bits 24..63, about 6 minutes at 3 GHz); a special record
 * (SI_REC_SPECIAL) has its sub-kind in bits 2..3 and a 60-bit payload:
 * a new time base (each chunk starts with one), a loop leave's iteration
 * count (right after it), or a region descriptor's address.
 *
 * Handed to the writer (si_tev, 16 bytes), decoded at the write: the
 * timestamp (ticks of the runtime's clock) and one word packing the
 * region descriptor's address (bits 0..47: user space addresses fit),
 * the kind (bits 48..49) and, for a loop's leave, its iteration count
 * (bits 50..63); a count that does not fit there is SI_TEV_BIG and the
 * full count follows in an SI_TEV_COUNT record.
 */
#ifndef SELINST_TRACE_H
#define SELINST_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "selinst.h"

typedef uint64_t si_rec;
enum { SI_REC_SPECIAL = 3 };	/* kinds 0..2 as SI_TEV_ENTER..SI_TEV_LOOP_LEAVE */
enum { SI_REC_BASE = 0, SI_REC_COUNT = 1, SI_REC_REGION = 2 };
#define SI_REC_ID_BITS	22
#define SI_REC_ESC	((1u << SI_REC_ID_BITS) - 1)
#define SI_REC_DT_SHIFT	(2 + SI_REC_ID_BITS)
#define SI_REC_DT_LIMIT	(1ull << (64 - SI_REC_DT_SHIFT))
#define SI_REC_PAYLOAD_MAX ((1ull << 60) - 1)
#define SI_REC_KIND(r)	((unsigned)(r) & 3u)
#define SI_REC_ID(r)	((uint32_t)((r) >> 2) & SI_REC_ESC)
#define SI_REC_DT(r)	((r) >> SI_REC_DT_SHIFT)
#define SI_REC_SUB(r)	((unsigned)((r) >> 2) & 3u)
#define SI_REC_PAYLOAD(r) ((r) >> 4)

static inline si_rec si_rec_event(uint64_t dt, uint32_t id, unsigned kind)
{
	return dt << SI_REC_DT_SHIFT | (uint64_t)id << 2 | kind;
}

static inline si_rec si_rec_special(unsigned sub, uint64_t payload)
{
	return (payload > SI_REC_PAYLOAD_MAX ? SI_REC_PAYLOAD_MAX : payload) << 4
		| (uint64_t)sub << 2 | SI_REC_SPECIAL;
}

struct si_tev {
	uint64_t ts;		/* SI_TEV_COUNT: the preceding leave's count */
	uint64_t w;
};

enum { SI_TEV_ENTER = 0, SI_TEV_LEAVE = 1, SI_TEV_LOOP_LEAVE = 2, SI_TEV_COUNT = 3 };
#define SI_TEV_PTR_BITS	48
#define SI_TEV_PTR_MASK	((1ull << SI_TEV_PTR_BITS) - 1)
#define SI_TEV_KIND(w)	((unsigned)((w) >> SI_TEV_PTR_BITS) & 3u)
#define SI_TEV_SMALL(w)	((w) >> 50)
#define SI_TEV_BIG	((1ull << 14) - 1)	/* count in the next record */
#define SI_TEV_REGION(w) ((const struct selinst_region *)(uintptr_t)((w) & SI_TEV_PTR_MASK))

static inline uint64_t si_tev_word(const struct selinst_region *r, unsigned kind, uint64_t small)
{
	return ((uint64_t)(uintptr_t)r & SI_TEV_PTR_MASK) | (uint64_t)kind << SI_TEV_PTR_BITS
		| small << 50;
}

/* A run of events in recording order. */
struct si_trace_seg {
	const struct si_tev *ev;
	size_t n;
};

/* One thread's events: its segments, oldest first. */
struct si_trace_loc {
	uint32_t index;		/* the thread's index in the profile */
	pid_t tid;
	uint64_t lost;		/* events not recorded */
	size_t nseg;
	struct si_trace_seg *seg;
};

struct si_trace_out {
	const char *dir;	/* the archive's folder (made by the caller) */
	const char *program, *host;
	pid_t pid;
	int rank;		/* -1: not under MPI */
	double ticks_per_second;
	uint64_t t0, t_end;	/* ticks: the runtime's start, now */
	uint64_t epoch_ns;	/* wall-clock time (ns since 1970) at t0 */
	int flight;		/* the ring of SELINST_MODE=flight */
	size_t nloc;
	struct si_trace_loc *loc;
	char err[256];		/* filled on failure */
};

/* The writer library's one entry point: 0, or -1 with OUT->err set. */
typedef int si_otf2_write_fn(struct si_trace_out *out);
#define SI_OTF2_WRITE_SYM "selinst_otf2_write"

#endif
