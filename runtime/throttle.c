/* SPDX-License-Identifier: MIT */
/*
 * throttle.c - switching off, for the rest of the run, regions that are
 * called often and cost little per call (SELINST_THROTTLE=CALLS:NS[,CALLS:NS]|off).
 *
 * The decision is taken out of line: each close counts down the region's
 * tally in this thread (struct si_tally: one per region and thread, shared
 * by the region's calling contexts, so a region is judged by all its
 * calls in the thread, not by its busiest context's), and the exit hooks
 * call si_throttle_check once it is below 0, i.e. from the region's
 * limit + 1st call in the thread on.  The check takes the region's mean
 * inclusive time per call in this thread: when it is below the limit,
 * the region's descriptor gets
 * SELINST_REGION_THROTTLED, with one compare-and-swap.  From then on, in
 * every thread, the hooks test that bit first and return (a load and a
 * branch); an activation still open when it was set is closed by its exit
 * hook if it is on top (si_throttled_exit), so no frame is left behind.
 *
 * Only descriptors the plugin marked SELINST_REGION_WRITABLE are ever
 * written: hand-made descriptors (const, perhaps in read-only memory) and
 * those of objects built before the throttle existed are never switched
 * off.
 */
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The default, its one definition (README.md and doc/runtime.md quote
 * it; bench/real-projects.sh reads it): TAU's rule, more than 100,000
 * calls at under 10 us each, and an early rule, more than 1,000 calls at
 * under 200 ns each, i.e. regions that the hook pair (about 20 ns)
 * distorts by 10% or more.  The early rule is checked once, so a region
 * it spares costs no check per call until TAU's rule applies; lowering
 * CALLS for every region instead also switched off Lua's and yaml-cpp's
 * regions of 0.3 to 1 us, whose time then went to their callers (figures:
 * bench/README.md, "Throttle dial"). */
#define DEFAULT_SETTING "1000:200,100000:10000"

#define MAX_RULES 2
static struct si_throttle_rule rules[MAX_RULES];	/* fewest calls first */
static unsigned nrules;
static uint64_t limit_ticks[MAX_RULES];		/* each rule's NS in clock ticks */

/* Regions switched off, in the order it happened: read by the writer. */
#define MAX_EVENTS 65536
static struct si_throttle_event events[MAX_EVENTS];
static uint32_t nevents;

unsigned si_throttle_rules(const struct si_throttle_rule **r)
{
	*r = rules;
	return nrules;
}

/* CALLS:NS, both positive decimal integers below 2^62. */
static int parse_rule(const char *s, size_t len, struct si_throttle_rule *r)
{
	const char *colon = memchr(s, ':', len);
	if (!colon || colon == s || (size_t)(colon - s) > 20 || len - (size_t)(colon - s) > 21)
		return -1;
	char head[24], tail[24];
	memcpy(head, s, (size_t)(colon - s));
	head[colon - s] = 0;
	memcpy(tail, colon + 1, len - (size_t)(colon - s) - 1);
	tail[len - (size_t)(colon - s) - 1] = 0;
	const uint64_t big = (uint64_t)1 << 62;
	return si_parse_decimal(head, 1, big, &r->calls) || si_parse_decimal(tail, 1, big, &r->ns)
		? -1 : 0;
}

/* "off", or one or two rules CALLS:NS separated by a comma (in any
 * order: they are kept fewest calls first).  0 and the rules in R and N,
 * or -1. */
static int parse(const char *s, struct si_throttle_rule *r, unsigned *n)
{
	*n = 0;
	if (!strcmp(s, "off"))
		return 0;
	for (;;) {
		size_t len = strcspn(s, ",");
		if (*n == MAX_RULES || parse_rule(s, len, &r[*n]) < 0)
			return -1;
		++*n;
		if (!s[len])
			break;
		s += len + 1;
	}
	if (*n == 2 && r[1].calls < r[0].calls) {
		struct si_throttle_rule x = r[0];
		r[0] = r[1];
		r[1] = x;
	}
	return 0;
}

static void set_rules(const struct si_throttle_rule *r, unsigned n)
{
	memcpy(rules, r, n * sizeof *r);
	nrules = n;
	si_hot.throttle_calls = n ? rules[0].calls : UINT64_MAX;
}

void si_throttle_init(void)
{
	struct si_throttle_rule r[MAX_RULES];
	unsigned n;
	parse(DEFAULT_SETTING, r, &n);
	set_rules(r, n);
	const char *e = getenv("SELINST_THROTTLE");
	if (!e || !*e)		/* empty: unset, as the other variables */
		return;
	if (parse(e, r, &n) < 0) {
		fprintf(stderr, "selinst: SELINST_THROTTLE='%s' is not CALLS:NS[,CALLS:NS] "
			"(positive integers) or off; using %s\n", e, DEFAULT_SETTING);
		return;
	}
	set_rules(r, n);
}

/* Rule K's limit in ticks, computed on first use (the clock calibrates
 * lazily). */
static uint64_t limit_in_ticks(unsigned k)
{
	uint64_t l = __atomic_load_n(&limit_ticks[k], __ATOMIC_RELAXED);
	if (!l) {
		double t = (double)rules[k].ns * (si_clock_is_tsc() ? si_ticks_per_second() / 1e9 : 1.0);
		l = t < 1.0 ? 1 : t > 1.8e19 ? UINT64_MAX : (uint64_t)t;
		__atomic_store_n(&limit_ticks[k], l, __ATOMIC_RELAXED);
	}
	return l;
}

static void switch_off(const struct selinst_region *r, uint64_t calls)
{
	uint32_t *word = (uint32_t *)&r->reserved;	/* writable: see the file's head */
	uint32_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
	if (!(old & SELINST_REGION_WRITABLE) || (old & SELINST_REGION_THROTTLED))
		return;
	if (!__atomic_compare_exchange_n(word, &old, old | SELINST_REGION_THROTTLED, 0,
					 __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return;		/* another thread did it (or is doing it) */
	uint32_t i = __atomic_fetch_add(&nevents, 1, __ATOMIC_RELAXED);
	if (i >= MAX_EVENTS)
		return;
	events[i].region = r;
	events[i].calls = calls;
	events[i].ticks = si_now() - si_start_ticks;
	__atomic_store_n(&events[i].ready, 1, __ATOMIC_RELEASE);
}

/* A new tally's countdown: the first rule's CALLS (its first check at the
 * region's CALLS + 1st close in the thread), or never with the throttle
 * off. */
int64_t si_throttle_countdown(void)
{
	uint64_t c = si_hot.throttle_calls;
	return c > INT64_MAX ? INT64_MAX : (int64_t)c;
}

/* N (this thread's node, just closed): its region has more closes in this
 * thread, over all its contexts, than its tally's rule's CALLS.  Under
 * that rule's NS per call: switched off.  Otherwise the next rule, if
 * any, is counted to (the early rule is checked once); the last rule is
 * checked at every later close, as TAU's. */
void si_throttle_check(struct si_node *n)
{
	const struct selinst_region *r = n->region;
	if ((r->reserved & (SELINST_REGION_WRITABLE | SELINST_REGION_THROTTLED))
	    != SELINST_REGION_WRITABLE)
		return;
	struct si_tally *y = n->tally;
	unsigned k = y->rule;
	uint64_t calls = rules[k].calls + (uint64_t)-y->left;	/* left < 0 here */
	if (y->incl / calls < limit_in_ticks(k)) {
		switch_off(r, calls);
		return;
	}
	if (k + 1 < nrules) {	/* calls <= the next rule's CALLS + 1: no overflow */
		y->rule = k + 1;
		y->left = (int64_t)rules[k + 1].calls - (int64_t)calls;
	}
}

/* si_exit_switched_off found R's frame on top (an activation entered
 * before the switch): close it.  ITERATIONS: loops' count for it. */
void si_throttled_exit(const struct selinst_region *r, uint64_t iterations)
{
	struct si_thread *t = si_self_settled();
	uint64_t now = si_now();
	if (!si_guard_take(t))		/* si_exit_switched_off saw it free */
		return;
	uint32_t d = si_depth(t);
	if (t->top->region == r && d > 1) {
		if (r->kind == SELINST_KIND_LOOP)
			*si_loop_cell(t, d - 1) = iterations;
		si_pop_to(t, d - 1, now);
		if (si_tracing)
			si_trace_left(t, d, now);
	}
	si_guard_release(t);
}

static const struct si_throttle_event *events_written(uint32_t *count)
{
	uint32_t n = __atomic_load_n(&nevents, __ATOMIC_ACQUIRE);
	*count = n < MAX_EVENTS ? n : MAX_EVENTS;
	return events;
}

/* The event of descriptor R, or NULL if R was not switched off (or its
 * event is still being written). */
const struct si_throttle_event *si_throttle_event_of(const struct selinst_region *r)
{
	if (!(__atomic_load_n(&r->reserved, __ATOMIC_ACQUIRE) & SELINST_REGION_THROTTLED))
		return NULL;
	uint32_t n;
	const struct si_throttle_event *ev = events_written(&n);
	for (uint32_t i = 0; i < n; i++)
		if (ev[i].region == r && __atomic_load_n(&ev[i].ready, __ATOMIC_ACQUIRE))
			return &ev[i];
	return NULL;
}

/* dlclose.c copied descriptor FROM to TO (a library, or the program at
 * exit, going away): its event follows.  Under the registry lock, as the
 * writer's reads. */
void si_throttle_moved(const struct selinst_region *from, const struct selinst_region *to)
{
	uint32_t n;
	events_written(&n);
	for (uint32_t i = 0; i < n; i++)
		if (events[i].region == from)
			events[i].region = to;
}
