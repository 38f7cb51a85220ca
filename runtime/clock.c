/* SPDX-License-Identifier: MIT */
/*
 * clock.c - the runtime's one clock: invariant TSC calibrated against
 * CLOCK_MONOTONIC where the CPU has one, CLOCK_MONOTONIC otherwise.
 *
 * SELINST_CLOCK=tsc|monotonic forces a choice (tsc without an invariant TSC
 * is honoured with a warning).  The TSC rate is not measured at start-up
 * (that would cost every program a calibration delay): the runtime keeps the
 * pair (TSC, CLOCK_MONOTONIC) read at start and derives the rate from the
 * whole run when a profile is written; runs shorter than 200 us wait until
 * the span reaches 200 us (pairs are read to ~15 ns, so the rate error
 * stays below about 2e-4, and far below on longer runs).  It was 2 ms:
 * every short process paid the wait, a test suite of hundreds of them
 * 1.45 times its CPU time (jsoncpp's; bench/README.md, "More projects").
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"

static int use_tsc;
uint64_t si_start_ticks;

uint64_t si_clock_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPUID 0x80000007 EDX bit 8, or the kernel's constant_tsc + nonstop_tsc
 * flags (hypervisors often hide the CPUID bit but the kernel knows). */
static int have_invariant_tsc(void)
{
	unsigned a, b, c, d;
	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 &&
	    __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8)))
		return 1;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	char line[4096];
	int ok = 0;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
		break;
	}
	fclose(f);
	return ok;
}

/* A (tsc, monotonic) pair read as close together as we can manage. */
static void read_pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	*tsc = si_rdtsc();
	*ns = si_clock_mono_ns();
	for (int i = 0; i < 5; i++) {
		uint64_t t0 = si_rdtsc();
		uint64_t n = si_clock_mono_ns();
		uint64_t t1 = si_rdtsc();
		if (t1 - t0 < best) {
			best = t1 - t0;
			*tsc = t0 + (t1 - t0) / 2;
			*ns = n;
		}
	}
}

static uint64_t start_tsc_pair, start_ns_pair;

/* Called last in start-up: the hooks' fast paths test the gate's
 * SI_GATE_SLOW bit, so clearing it also says that the runtime has started. */
void si_clock_publish(void)
{
	if (use_tsc)
		__atomic_and_fetch(&si_hot.gate, ~SI_GATE_SLOW, __ATOMIC_RELEASE);
}

void si_clock_init(void)
{
	const char *e = getenv("SELINST_CLOCK");
	int inv = have_invariant_tsc();
	if (e && strcmp(e, "monotonic") == 0)
		use_tsc = 0;
	else if (e && strcmp(e, "tsc") == 0) {
		if (!inv)
			fprintf(stderr, "selinst: SELINST_CLOCK=tsc but the TSC is not invariant; using it anyway\n");
		use_tsc = 1;
	} else {
		if (e && *e)
			fprintf(stderr, "selinst: SELINST_CLOCK=%s not understood (tsc or monotonic); using %s\n",
				e, inv ? "tsc" : "monotonic");
		use_tsc = inv;
	}
	if (use_tsc) {
		read_pair(&start_tsc_pair, &start_ns_pair);
		si_start_ticks = start_tsc_pair;
	} else {
		si_start_ticks = si_clock_mono_ns();
	}
}

/* The shortest span the TSC rate is measured over (see the top). */
#define CALIBRATION_NS 200000u

/* Ticks per second over the whole run so far (TSC), or 1e9. */
double si_ticks_per_second(void)
{
	if (!use_tsc)
		return 1e9;
	uint64_t t = 0, n = 0;
	read_pair(&t, &n);
	while (n - start_ns_pair < CALIBRATION_NS)
		read_pair(&t, &n);
	return (double)(t - start_tsc_pair) * 1e9 / (double)(n - start_ns_pair);
}

double si_clock_resolution_ns(void)
{
	if (use_tsc)
		return 1e9 / si_ticks_per_second();
	struct timespec r;
	if (clock_getres(CLOCK_MONOTONIC, &r) != 0)
		return 1;
	return r.tv_sec * 1e9 + r.tv_nsec;
}

const char *si_clock_name(void)
{
	return use_tsc ? "tsc" : "monotonic";
}

int si_clock_is_tsc(void)
{
	return use_tsc;
}
