/* SPDX-License-Identifier: MIT */
/*
 * calibrate.c - what one enter/exit pair of the hooks costs on this
 * machine, measured once at start-up and written into the profile
 * (hook_pair_ns), so that selinst-report --suggest can predict the share
 * of a run that a region's hooks cost (calls x pair cost).  The same for a
 * loop's pair, and for each the part that lies between the pair's two
 * clock reads (the region's own inclusive time, read back from the
 * scratch node): selinst-report --compensate takes the hooks' cost out of
 * a profile with that inside part from the region itself and the rest
 * from its parent (doc/report.md).
 *
 * The real exported hooks run, in their fast path, on a scratch thread
 * state (not in the registry, so nothing of it reaches the profile) that
 * stands in for the calling thread's for the few microseconds it takes;
 * the throttle's bit tests run as for any region.  The best of a few batches after a warm-up: the hooks' cost
 * with their memory in cache, as in a loop that calls a region often.
 */
#include "internal.h"
#include <errno.h>
#include <signal.h>

double si_hook_pair_ns;
double si_hook_inside_ticks;
double si_hook_loop_pair_ns;
double si_hook_loop_inside_ticks;

static struct selinst_region calibration_region = {
	SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 0, 0, "[calibration]", "", NULL
};
static struct selinst_region calibration_loop = {
	SELINST_ABI_VERSION, SELINST_KIND_LOOP, 0, 0, "[calibration loop]", "", "[calibration]"
};

/* Two kinds of 416 pairs, about 70,000 instructions at every process's
 * start (2,820 before: 0.2 million, 0.2% of a zstd run per process), for
 * figures within 1% of the longer calibration's.  A batch of 128 pairs
 * lasts about 2.5 us, against a clock read of well under 0.1 us. */
#define WARMUP  32
#define BATCH   128
#define BATCHES 3

/* One pair of the exported hooks of REGION's kind. */
static inline void one_pair(const struct selinst_region *region)
{
	if (region->kind == SELINST_KIND_LOOP) {
		__selinst_loop_enter(region);
		__selinst_loop_exit(region, 1);
	} else {
		__selinst_enter(region);
		__selinst_exit(region);
	}
}

/* The best batch's ns per pair of REGION's hooks, and in *INSIDE the
 * ticks per pair that its node's inclusive time grew by in that batch (0
 * when the pair did not reach the fast path's node). */
static double measure_pairs(struct si_thread *scratch, const struct selinst_region *region,
			    double *inside)
{
	double best = 0;
	*inside = 0;
	one_pair(region);
	struct si_node *node = scratch->root.mru;
	if (!node || node->region != region)
		node = NULL;
	for (int b = -1; b < BATCHES; b++) {
		int n = b < 0 ? WARMUP : BATCH;
		uint64_t in0 = node ? node->incl : 0;
		uint64_t t0 = si_clock_mono_ns();
		for (int i = 0; i < n; i++)
			one_pair(region);
		double per = (double)(si_clock_mono_ns() - t0) / n;
		if (b >= 0 && (best == 0 || per < best)) {
			best = per;
			*inside = node ? (double)(node->incl - in0) / n : 0;
		}
	}
	return best;
}

void si_calibrate_hooks(void)
{
	int saved_errno = errno;
	struct si_thread *scratch = si_thread_scratch();
	if (!scratch)
		goto out;
	struct si_thread *own = si_self;
	sigset_t all, old;
	sigfillset(&all);
	/* A handler running hooks meanwhile would record into the scratch
	 * state and be lost: keep them out for these microseconds. */
	pthread_sigmask(SIG_BLOCK, &all, &old);
	si_self = scratch;
	si_hook_pair_ns = measure_pairs(scratch, &calibration_region, &si_hook_inside_ticks);
	si_hook_loop_pair_ns = measure_pairs(scratch, &calibration_loop,
					     &si_hook_loop_inside_ticks);
	si_self = own;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
out:
	errno = saved_errno;
}
