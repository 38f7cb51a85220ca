/* SPDX-License-Identifier: MIT */
/*
 * selinst-predict.h - what the hooks of a region are predicted to cost the
 * next run, from a profile: the constants that the plugin's feedback
 * (-fplugin-arg-selinst-profile=, plugin/feedback.cc) and
 * `selinst-report --suggest` (report/suggest.c) share, so that both give
 * one prediction for one profile.  Each was measured; bench/README.md
 * ("Profile feedback") gives the commands and figures.
 *
 * A region's predicted cost, in time:
 *   calls x hook_pair_ns (the profile's calibrated pair)
 *   + a function region's calls x SELINST_PREDICT_OUT_OF_LINE_NS
 *   + a loop region's iterations x SELINST_PREDICT_ITER_NS, unless the
 *     profile says its counter was folded away (selinst_predict_counted)
 *   + the profile's write at exit of its call-tree nodes (per thread and
 *     process) and of its entries in the regions table (one per process
 *     that ran it): selinst_predict_write_insns
 * and every process pays SELINST_PREDICT_PROCESS_NS whatever is kept.  Its
 * share is that over the run without the measured hooks: the threads' CPU
 * time less what the run's own hooks cost (SELINST_PREDICT_INSIDE_SHARE).
 * The same cost in instructions (what callgrind counts) uses the _INSNS
 * constants; the run's instructions are not in a profile, so those are
 * absolute counts.  The rules are the static inline functions at the end,
 * for both.
 */
#ifndef SELINST_PREDICT_H
#define SELINST_PREDICT_H

/* A hook pair when the profile records none (hook_pair_ns). */
#define SELINST_PREDICT_FALLBACK_PAIR_NS 20.0
/* One function enter/exit pair in instructions: bench/out-of-line.sh,
 * callgrind, the hooked function called 1 and 2 million times: 78 more
 * than plain's inlined copy (inline=on; inline=off 9 more, see below). */
#define SELINST_PREDICT_PAIR_INSNS 78.0
/* What a call of a function region costs besides its pair: the
 * inlining GCC no longer does.  Measured without hooks as the same small
 * function inlined and noinline: 0.55 ns and 3 instructions a call; with
 * the hooks in the loop, bench/out-of-line.sh measures 9 instructions
 * more with inline=off, and nothing more in time or instructions with
 * inline=on, where GCC inlines the hooked body.  In real code GCC often
 * does not (the hooks' two calls make the body too large): Lua's
 * feedback build from threshold 0 kept luaV_lessthan, l_str2int and
 * classend out of line, 9 million instructions (1.9% of the run) more
 * than plain, and measured +2.23% for 1.00% predicted with this term at
 * 0 (+0.57% with it).  So the term stays in both modes. */
#define SELINST_PREDICT_OUT_OF_LINE_NS 0.55
#define SELINST_PREDICT_OUT_OF_LINE_INSNS 9.0
/* A loop region's iteration counter: an add, but it keeps GCC from
 * unrolling or vectorizing a tight loop: zstd's ZSTD_seqToCodes loop 3.0
 * instructions an iteration more than plain, HIST_count_parallel_wksp's
 * 4.1, interp's VM loop 2; 0.5 ns at the 5.7 instructions a nanosecond
 * of plain zstd. */
#define SELINST_PREDICT_ITER_NS 0.5
#define SELINST_PREDICT_ITER_INSNS 3.0
/* ... but only where the compiled loop keeps a counter of its own.  GCC
 * often keeps none: the count is the loop's induction variable, or a value
 * computed once at the exit from the trip count (bench/loop-counter.sh:
 * 0, 0, 0 and 2.0 instructions an iteration on its four shapes; cg's
 * makea loops ran 139,041 instructions fewer than plain).  The plugin
 * checks each loop after GCC's optimizations (plugin/loopcounter.cc) and
 * the profile says "counter: folded" (selinst-profile.h) for those; they
 * cost their iterations nothing.  A profile without the key (a kept
 * counter, or an older plugin) is charged as above. */
/* What every process that runs a region pays whatever is kept: loading
 * libselinst.so, its start-up (selinst_ctor: clock and hook-pair
 * calibration, 112,000 instructions), the exit handlers and the part of
 * the profile's write that does not depend on the regions (the header,
 * 68,000).  Callgrind, a program with one region called once against
 * its plain build: 255,662 instructions more, 243,000 of them these
 * (bench/write-cost.sh).  Its time: 25 us (the instructions at the
 * write's 5.2 a nanosecond would be 47 us; the start-up's calibration
 * runs at more). */
#define SELINST_PREDICT_PROCESS_NS 25000.0
#define SELINST_PREDICT_PROCESS_INSNS 243000.0
/* The profile's write at exit (runtime/output.c), per region: callgrind
 * over programs of 3 to 8,257 call-tree nodes and 3 to 514 regions
 * (bench/write-cost.sh) fits, within 5%: a function's node 2,600
 * instructions (its line, about 90 bytes, 29 instructions a byte), a
 * loop's node 5,000 (its trip-count histogram), and a region's entry in
 * the regions table, written once by each process that ran it, 2,700
 * plus 29 a byte of its name, file and (loops) function.  Before, 5,200
 * a node for all: lz4's regions, each at one node, cost about 5,700 a
 * node with its entry; zstd's and yaml-cpp's long names more.  In time
 * at 5.2 instructions a nanosecond (the write's formatting). */
#define SELINST_PREDICT_NODE_INSNS 2600.0
#define SELINST_PREDICT_LOOP_NODE_INSNS 5000.0
#define SELINST_PREDICT_ENTRY_INSNS 2700.0
#define SELINST_PREDICT_ENTRY_BYTE_INSNS 29.0
#define SELINST_PREDICT_WRITE_INSNS_PER_NS 5.2
/* In situ: a profile taken with SELINST_SAMPLE counts, per thread, the
 * samples that found a hook running (samples_in_runtime): this share of
 * a pair's time (the hook's entry tests, call and return are outside its
 * in_hook window).  A thread's hooks then cost its CPU time x
 * samples_in_runtime / samples / this share, measured in the run itself.
 * The share: bench/out-of-line.sh, a hooked call in a tight loop at 5000
 * Hz: 4,370 of 9,645 samples (8.76 ns a pair of 18.4 ns over plain: 0.476)
 * and, another time, 4,525 of 9,698 (9.07 of 18.47 ns: 0.491).
 * zstd's threshold-0 run (bench/feedback-real.sh): 3,200 of its worker's
 * 7,240 samples in the hooks, 1.449 s of CPU, 65.7 million pairs: 20.5 ns
 * a pair in situ where 19.1 ns were calibrated (its many call sites and
 * nodes miss in caches that the calibration's one region keeps warm). */
#define SELINST_PREDICT_INSIDE_SHARE 0.48
/* Fewer samples in the hooks than this: the calibrated pair instead (the
 * share's error is then above 10%, and the hooks are a small part of the
 * run, where the pair's error hardly moves the run without them). */
#define SELINST_PREDICT_MIN_HOOK_SAMPLES 100

/* ---- the rules, one definition for C (report/suggest.c) and C++
 * (plugin/feedback.cc) ---- */

/* Kinds of region for the rules below. */
#define SELINST_PREDICT_FUNCTION 0
#define SELINST_PREDICT_LOOP 1
#define SELINST_PREDICT_OTHER 2		/* manual regions */

/* A region's share of the profile's write at exit, in instructions:
 * NODES call-tree nodes, ENTRIES entries in the regions table (the
 * processes that ran it), NAME_BYTES the length of its name, file and
 * (loops) function as the profile writes them. */
static inline double selinst_predict_write_insns(int kind, double nodes, double entries,
						 double name_bytes)
{
	return nodes * (kind == SELINST_PREDICT_LOOP ? SELINST_PREDICT_LOOP_NODE_INSNS
			: SELINST_PREDICT_NODE_INSNS)
		+ entries * (SELINST_PREDICT_ENTRY_INSNS
			     + SELINST_PREDICT_ENTRY_BYTE_INSNS * name_bytes);
}

/* The iterations of a loop region that pay for its counter: none when
 * the profile says COUNTER_FOLDED, else its ITERATIONS.  The rules below
 * take what this returns. */
static inline double selinst_predict_counted(double iterations, int counter_folded)
{
	return counter_folded ? 0 : iterations;
}

/* A region's predicted cost besides its hook pairs, in ns: the inlining a
 * function region's calls lose, a loop's counter, its write. */
static inline double selinst_predict_extra_ns(int kind, double calls, double iterations,
					      double nodes, double entries, double name_bytes)
{
	return calls * (kind == SELINST_PREDICT_FUNCTION ? SELINST_PREDICT_OUT_OF_LINE_NS : 0)
		+ iterations * SELINST_PREDICT_ITER_NS
		+ selinst_predict_write_insns(kind, nodes, entries, name_bytes)
			/ SELINST_PREDICT_WRITE_INSNS_PER_NS;
}

/* The same region's whole cost in instructions (pairs included). */
static inline double selinst_predict_insns(int kind, double calls, double iterations,
					   double nodes, double entries, double name_bytes)
{
	return calls * (SELINST_PREDICT_PAIR_INSNS
			+ (kind == SELINST_PREDICT_FUNCTION ? SELINST_PREDICT_OUT_OF_LINE_INSNS : 0))
		+ iterations * SELINST_PREDICT_ITER_INSNS
		+ selinst_predict_write_insns(kind, nodes, entries, name_bytes);
}

/* A thread's length for the shares: its CPU time when the profile has
 * one no longer than its wall-clock (exclusive) time EXCL_NS, else that
 * (a loaded machine's preempted time is not the program's). */
static inline double selinst_predict_thread_time(double cpu_ns, double excl_ns)
{
	return cpu_ns > 0 && cpu_ns <= excl_ns ? cpu_ns : excl_ns;
}

/* Whether a thread's hook pairs are measured in situ: enough of its
 * SAMPLES found a hook running (SAMPLES_IN_RUNTIME). */
static inline int selinst_predict_in_situ(double samples, double samples_in_runtime)
{
	return samples_in_runtime >= SELINST_PREDICT_MIN_HOOK_SAMPLES
		&& samples_in_runtime <= samples;
}

/* What one thread's CALLS hook pairs cost its run (TIME_NS): in situ (see
 * SELINST_PREDICT_INSIDE_SHARE), else CALLS x PAIR_NS (calibrated). */
static inline double selinst_predict_thread_pairs_ns(double calls, double pair_ns,
						     double time_ns, double samples,
						     double samples_in_runtime)
{
	if (!selinst_predict_in_situ(samples, samples_in_runtime))
		return calls * pair_ns;
	return time_ns * samples_in_runtime / samples / SELINST_PREDICT_INSIDE_SHARE;
}

/* The run without its measured hooks (the shares' base): TIME_NS less
 * HOOKS_NS, at least a tenth of the run.  In a run that is 90% hooks or
 * more (threshold 0) the subtraction cannot be trusted, since the pairs'
 * error is of the size of what is left: bt's threshold-0 run, 42 million
 * pairs measured in situ at 19.4 ns, leaves less than 0 for a run that
 * takes 11% of it plain.  Such a run's length is measured by a lighter
 * build's run (the plugin's profile-base=). */
static inline int selinst_predict_at_floor(double time_ns, double hooks_ns)
{
	return time_ns - hooks_ns < time_ns / 10;
}

static inline double selinst_predict_run_without_hooks(double time_ns, double hooks_ns)
{
	double base = selinst_predict_at_floor(time_ns, hooks_ns) ? time_ns / 10
							       : time_ns - hooks_ns;
	return base > 1 ? base : 1;
}

#endif
