/* SPDX-License-Identifier: MIT */
/*
 * selinst-profile.h - the profile format's facts, defined once.
 *
 * The runtime's writer (runtime/output.c, runtime/hooks.c), the report's
 * reader (report/) and the plugin's feedback reader include this header;
 * the tests' generator (testsuite/report-data/gen-profile.py) reads its
 * #defines.  The format itself is described in doc/profile-format.md.
 *
 * Plain C, header-only, no dependencies: usable from C11 and from the
 * plugin's C++.
 */
#ifndef SELINST_PROFILE_H
#define SELINST_PROFILE_H

#include <stdint.h>
#include <stdio.h>

/* The first two keys of every profile. */
#define SELINST_PROFILE_FORMAT  "selinst-profile"
/* 2: sampled loops named by selinst-report (sample_modules, below);
 * 3: sampled functions too (no names made in the sampled process) */
#define SELINST_PROFILE_VERSION 3

/* selinst-report --format=json: the merged view, which the plugin's
 * profile= reads too. */
#define SELINST_REPORT_JSON_FORMAT  "selinst-report"
#define SELINST_REPORT_JSON_VERSION 1

/* Region kinds as the profile spells them, indexed by
 * enum selinst_region_kind (selinst.h): function 0, loop 1, manual 2,
 * mpi 3, omp 4. */
#define SELINST_PROFILE_KINDS 5
static const char *const selinst_profile_kind_names[SELINST_PROFILE_KINDS] = {
	"function", "loop", "manual", "mpi", "omp"
};

/* OpenMP regions (kind omp, runtime/omp.c): the waits recorded in libgomp
 * and ompP's overhead class of each, which selinst-report --omp sums per
 * parallel region and thread.  A parallel region is the omp region named
 * SELINST_OMP_PARALLEL followed by its outlined function ("omp parallel
 * main._omp_fn.0"); in the thread that forked it, its exclusive time is
 * the fork and join (thread management). */
#define SELINST_OMP_PARALLEL "omp parallel "
/* A host teams construct's region: SELINST_OMP_TEAMS and its outlined
 * function, around its teams (run one after the other); no class. */
#define SELINST_OMP_TEAMS "omp teams "
enum selinst_omp_class {
	SELINST_OMP_IMBALANCE, SELINST_OMP_SYNCHRONIZATION,
	SELINST_OMP_LIMITED, SELINST_OMP_MANAGEMENT, SELINST_OMP_CLASSES
};
static const char *const selinst_omp_class_names[SELINST_OMP_CLASSES] = {
	"imbalance", "synchronization", "limited parallelism", "thread management"
};
enum selinst_omp_wait {
	SELINST_OMP_END_BARRIER, SELINST_OMP_LOOP_END, SELINST_OMP_SECTIONS_END,
	SELINST_OMP_SINGLE_BARRIER, SELINST_OMP_BARRIER, SELINST_OMP_CRITICAL,
	SELINST_OMP_LOCK, SELINST_OMP_ATOMIC, SELINST_OMP_TASKWAIT, SELINST_OMP_WAITS
};
static const struct { const char *name; enum selinst_omp_class cls; }
selinst_omp_waits[SELINST_OMP_WAITS] = {
	/* the implicit barrier at the end of a parallel region */
	{ "omp implicit barrier (parallel end)", SELINST_OMP_IMBALANCE },
	/* GOMP_loop_end: a dynamic, guided or runtime loop's end */
	{ "omp implicit barrier (loop end)", SELINST_OMP_IMBALANCE },
	{ "omp implicit barrier (sections end)", SELINST_OMP_LIMITED },
	/* the first GOMP_barrier after GOMP_single_start in a thread */
	{ "omp implicit barrier (single end)", SELINST_OMP_LIMITED },
	/* GOMP_barrier: an explicit barrier, or a static loop's end */
	{ "omp barrier", SELINST_OMP_SYNCHRONIZATION },
	{ "omp critical (entry)", SELINST_OMP_SYNCHRONIZATION },
	{ "omp lock (set)", SELINST_OMP_SYNCHRONIZATION },
	{ "omp atomic (entry)", SELINST_OMP_SYNCHRONIZATION },
	{ "omp taskwait", SELINST_OMP_SYNCHRONIZATION },
};

/* Top-level keys of the hooks' calibrated cost besides hook_pair_ns (one
 * function enter/exit pair, ns): the part of that pair that lies between
 * its two clock reads, so in the region's own time; a loop's pair and its
 * part (selinst-report --compensate). */
#define SELINST_PROFILE_HOOK_INSIDE      "hook_inside_ns"
#define SELINST_PROFILE_HOOK_LOOP_PAIR   "hook_loop_pair_ns"
#define SELINST_PROFILE_HOOK_LOOP_INSIDE "hook_loop_inside_ns"

/* Region key (optional, loop regions): "counter: folded" when the plugin
 * found that GCC kept no iteration counter of the loop's own in the
 * compiled code (SELINST_REGION_COUNTER_FOLDED in every copy of its
 * descriptor), so that counting cost its iterations nothing.  Absent: the
 * counter was kept, or a plugin or runtime that did not check (older
 * profiles); selinst-predict.h charges those SELINST_PREDICT_ITER_*.  The
 * merged JSON (selinst-report --format=json) carries it as
 * "counter": "folded" when every process's entry does. */
#define SELINST_PROFILE_COUNTER        "counter"
#define SELINST_PROFILE_COUNTER_FOLDED "folded"

/* Thread key (optional): the thread's time on the kernel's run queue,
 * runnable but waiting for a CPU (schedstat run_delay), integer ns, read
 * with cpu_ns.  Elapsed times include it; selinst-report --compensate
 * scales the hooks' calibrated cost by (cpu_ns + runqueue_ns) / cpu_ns. */
#define SELINST_PROFILE_RUNQUEUE "runqueue_ns"

/* Sampled code (version 3).  A sample entry is either FUNCTION: NAME,
 * named in the process ("0x..." outside every mapped module), or, for
 * code in a module (the vDSO: SELINST_PROFILE_VDSO), the module's index
 * MODULE in the
 * top-level list SAMPLE_MODULES ({path, build_id}: the GNU build-id in
 * hex, or ~) and ADDRESSES: [ADDR, COUNT, ...], the sampled PCs' file
 * addresses there with their counts (which add up to the entry's
 * count).  A sample in another module's code whose caller was found has
 * CALLER_AT: [MODULE, ADDR], the call instruction's last byte (or
 * CALLER: NAME, named in the process).  selinst-report names each
 * address from that file: the innermost inlined function there (DWARF),
 * else its symbol table's function, else "[file's base name]"; a file
 * gone or of another build-id gives SELINST_PROFILE_UNNAMED's name.  In
 * a module with a loop table (SELINST_LOOP_SECTION) it names the
 * address's loop from its line, matched against the node's function's
 * LOOP_LINES ("LINE-LAST ...", a function region's field: its loops
 * without hooks) or the module's table.
 * Version 2 named functions in the process (FUNCTION, CALLER: NAME in
 * every entry) and gave ADDRESSES only in modules with loop tables, for
 * the loops; version 1 wrote each entry's loop as loop: "file.c:LINE".
 * The report reads all three. */
#define SELINST_PROFILE_SAMPLE_MODULES   "sample_modules"
#define SELINST_PROFILE_SAMPLE_MODULE    "module"
#define SELINST_PROFILE_SAMPLE_ADDRESSES "addresses"
#define SELINST_PROFILE_SAMPLE_CALLER_AT "caller_at"
/* The path sample_modules gives the vDSO, which has no file: the report
 * reads its own when the build-ids agree (the same kernel). */
#define SELINST_PROFILE_VDSO "[vdso]"
/* The name of a sampled address whose module file cannot be read, or is
 * not the one sampled: "BASE+0xADDR" (BASE the file's base name). */
#define SELINST_PROFILE_UNNAMED "%s+0x%llx"
#define SELINST_PROFILE_LOOP_LINES       "loop_lines"

/* Node keys of an mpi region's bytes (libselinst-mpi: count times the
 * datatype's size of the buffers a call sends and receives). */
#define SELINST_PROFILE_BYTES_SENT     "bytes_sent"
#define SELINST_PROFILE_BYTES_RECEIVED "bytes_received"

/* The name of KIND, "function" for a value out of range (the writer
 * never emits one). */
static inline const char *selinst_profile_kind_name(unsigned kind)
{
	return kind < SELINST_PROFILE_KINDS ? selinst_profile_kind_names[kind]
					    : selinst_profile_kind_names[0];
}

/* Trip-count histogram of a loop region: a trip count t below
 * SELINST_TRIP_EXACT has a bucket of its own; above, bucket
 * SELINST_TRIP_EXACT + k holds [2^(k+4), 2^(k+5) - 1], up to 2^63 and more
 * in the last.  (SELINST_TRIP_EXACT is 2^4: the first power-of-two bucket
 * starts where the exact ones end.) */
#define SELINST_TRIP_EXACT     16
#define SELINST_TRIP_EXACT_LOG 4
#define SELINST_TRIP_BUCKETS   (SELINST_TRIP_EXACT + 64 - SELINST_TRIP_EXACT_LOG)

static inline unsigned selinst_trip_bucket(uint64_t t)
{
	if (t < SELINST_TRIP_EXACT)
		return (unsigned)t;
	unsigned k = 63u - (unsigned)__builtin_clzll(t);	/* 2^k <= t */
	return SELINST_TRIP_EXACT + (k - SELINST_TRIP_EXACT_LOG);
}

/* The smallest and largest trip count of bucket B (< SELINST_TRIP_BUCKETS). */
static inline void selinst_trip_bucket_bounds(unsigned b, uint64_t *lo, uint64_t *hi)
{
	if (b < SELINST_TRIP_EXACT) {
		*lo = *hi = b;
		return;
	}
	unsigned k = b - SELINST_TRIP_EXACT + SELINST_TRIP_EXACT_LOG;
	*lo = (uint64_t)1 << k;
	*hi = k == 63 ? UINT64_MAX : (*lo << 1) - 1;
}

/* A bucket's key in the profile: "7" for an exact one, "16-31" for a
 * range. */
static inline void selinst_trip_bucket_name(unsigned b, char *buf, size_t n)
{
	uint64_t lo, hi;
	selinst_trip_bucket_bounds(b, &lo, &hi);
	if (lo == hi)
		snprintf(buf, n, "%llu", (unsigned long long)lo);
	else
		snprintf(buf, n, "%llu-%llu", (unsigned long long)lo,
			 (unsigned long long)hi);
}

/* Packed iteration rows (`rows_packed`, issue 15): a long series of
 * iterations keeps each value to SELINST_ITER_PACK_STEP steps per factor
 * e (a relative error of at most 0.2%), so 10,000 iterations cost about
 * 0.5-2 bytes each instead of 10-40.  Value V of column J (ns; column 0
 * the wall time) is the code 0 when V is 0, else
 * 1 + zigzag(round(SELINST_ITER_PACK_STEP * ln(V / scale[J]))); the codes,
 * row by row, as LEB128 varints, compressed by zlib (compress2), in base64
 * (RFC 4648).  The writer keeps the exact text `rows` up to
 * SELINST_ITER_PACK_MIN iterations, and always with
 * SELINST_ITERATE_EXACT=1. */
#define SELINST_ITER_PACK_STEP 256
#define SELINST_ITER_PACK_MIN  100
static const char selinst_base64_alphabet[65] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The code of V against SCALE, with ln(V / SCALE) given as LOGRATIO
 * (callers compute it with log(): this header needs no libm). */
static inline uint64_t selinst_iter_code(double logratio)
{
	double x = logratio * SELINST_ITER_PACK_STEP;
	int64_t q = (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
	return 1 + (q >= 0 ? (uint64_t)q << 1 : ((uint64_t)(-(q + 1)) << 1) + 1);
}

/* The exponent q of a nonzero CODE: V = scale * e^(q / STEP). */
static inline double selinst_iter_exponent(uint64_t code)
{
	uint64_t z = code - 1;
	double q = z & 1 ? -(double)(z >> 1) - 1 : (double)(z >> 1);
	return q / SELINST_ITER_PACK_STEP;
}

#endif
