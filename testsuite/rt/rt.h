/* rt.h - helpers for the runtime tests: hand-written region descriptors
 * and a busy wait, so tests can drive the hooks without the plugin. */
#ifndef RT_H
#define RT_H
#include <stdint.h>
#include <time.h>
#include "selinst.h"

#define FUNC(var, nm, ln) \
	static const struct selinst_region var = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, ln, 0, nm, "rt.c", 0 }
#define LOOP(var, nm, fn, ln) \
	static const struct selinst_region var = { SELINST_ABI_VERSION, SELINST_KIND_LOOP, ln, 0, nm, "rt.c", fn }

static inline uint64_t rt_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spin for NS nanoseconds of wall clock. */
static inline void rt_busy(uint64_t ns)
{
	uint64_t end = rt_now_ns() + ns;
	while (rt_now_ns() < end)
		;
}
#endif
