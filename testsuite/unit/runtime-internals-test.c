/* SPDX-License-Identifier: MIT */
/*
 * runtime-internals-test.c - the runtime's internals, called directly:
 * decimal parsing, SELINST_OUTPUT's expansion, the loop trip-count histogram, the calling-context tree
 * (a child index that grows past thousands of children, recursion folding
 * as doc/runtime.md describes it) and the hash table under them (map.c).  Linked with libselinst.a, whose hidden
 * functions a static link can reach (testsuite/t-unit-internals.sh).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; \
	fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static void decimals(void)
{
	uint64_t v = 7;
	CHECK(si_parse_decimal("42", 1, 100, &v) == 0 && v == 42, "42 -> %llu", (unsigned long long)v);
	CHECK(si_parse_decimal("18446744073709551615", 0, UINT64_MAX, &v) == 0 && v == UINT64_MAX,
	      "2^64-1");
	v = 7;
	CHECK(si_parse_decimal("18446744073709551616", 0, UINT64_MAX, &v) != 0 && v == 7, "2^64");
	CHECK(si_parse_decimal("0", 1, 100, &v) == 1 && v == 7, "below min");
	CHECK(si_parse_decimal("101", 1, 100, &v) == 1 && v == 7, "above max");
	static const char *const bad[] = { "", "-5", "+5", " 5", "5 ", "0x10", "5k", "1e3" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK(si_parse_decimal(bad[i], 0, UINT64_MAX, &v) == -1 && v == 7,
		      "'%s' accepted", bad[i]);
}

static void trip_histogram(void)
{
	struct si_loop l;
	memset(&l, 0, sizeof l);
	const uint64_t trips[] = { 0, 1, 15, 16, 31, 32, 1000, UINT64_MAX / 2 };
	for (size_t i = 0; i < sizeof trips / sizeof trips[0]; i++)
		si_loop_count(&l, trips[i]);
	CHECK(l.hist[0] == 1 && l.hist[1] == 1 && l.hist[15] == 1, "exact buckets");
	CHECK(l.hist[16] == 2, "16..31 holds 16 and 31: %llu", (unsigned long long)l.hist[16]);
	CHECK(l.hist[17] == 1, "32");
	CHECK(l.hist[selinst_trip_bucket(1000)] == 1 && selinst_trip_bucket(1000) == 16 + 5, "1000");
	CHECK(l.hist[SELINST_TRIP_BUCKETS - 2] == 1, "2^62..2^63-1");
}

/* SELINST_OUTPUT's expansion (output.c). */
static void output_names(void)
{
	static const struct si_naming nm = { 4242, "", "node7", "app", 0 };
	static const struct si_naming mpi = { 77, "3", "n1", "solver", 0 };
	static const struct si_naming child = { 99, "", "h", "app", 1 };
	static const struct { const char *pat; const struct si_naming *nm; const char *want; int keep; } cases[] = {
		{ NULL, &nm, "app.prof", 1 },
		{ "", &nm, "app.prof", 1 },
		{ NULL, &mpi, "solver.3.prof", 1 },
		{ NULL, &child, "app.99.prof", 1 },
		{ "out/%e.%p.%h.prof", &nm, "out/app.4242.node7.prof", 0 },
		{ "r%r-%%-%q-%", &nm, "r0-%-%q-%", 0 },
		{ "r%r.prof", &mpi, "r3.prof", 0 },
		{ "fixed.prof", &child, "fixed.prof.99", 0 },
		{ "%p.prof", &child, "99.prof", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char out[64];
		int keep = -1;
		int rc = si_expand_output(out, sizeof out, cases[i].pat, cases[i].nm, &keep);
		CHECK(rc == 0 && !strcmp(out, cases[i].want) && keep == cases[i].keep,
		      "'%s' -> '%s' keep %d (rc %d), want '%s' keep %d",
		      cases[i].pat ? cases[i].pat : "(unset)", rc == 0 ? out : "", keep, rc,
		      cases[i].want, cases[i].keep);
	}
	char small[8];
	int keep;
	CHECK(si_expand_output(small, sizeof small, "%e%e%e", &nm, &keep) == -1, "too long");
}

static int value_is(const struct si_mslot *s, const void *arg)
{
	return s->value == *(const uintptr_t *)arg;
}

/* map.c: 100,000 keys through several growths, all found with their
 * values, absent keys not found; a match callback picks among equal keys;
 * a cleared map is empty. */
static void one_map(void)
{
	struct si_map *m = NULL;
	CHECK(si_map_find(m, 1, 2, NULL, NULL) == NULL, "empty (no table)");
	const uintptr_t n = 100000;
	for (uintptr_t k = 1; k <= n; k++)
		CHECK(si_map_add(&m, k * 16, k & 3, k * 7, k & 1 ? SI_MAP_KEEP_OLD : 0) != NULL,
		      "add %lu", (unsigned long)k);
	CHECK(m && m->used == n && m->mask + 1 >= 2 * n, "size: used %zu, slots %zu",
	      m ? m->used : 0, m ? m->mask + 1 : 0);
	unsigned missing = 0, wrong = 0;
	for (uintptr_t k = 1; k <= n; k++) {
		struct si_mslot *s = si_map_find(m, k * 16, k & 3, NULL, NULL);
		missing += !s;
		wrong += s && s->value != k * 7;
	}
	CHECK(!missing && !wrong, "%u keys missing, %u wrong values", missing, wrong);
	CHECK(!si_map_find(m, 16, 2, NULL, NULL) && !si_map_find(m, (n + 1) * 16, 1, NULL, NULL),
	      "absent keys found");
	si_map_add(&m, 8, 0, 111, 0);
	si_map_add(&m, 8, 0, 222, 0);
	uintptr_t want = 222;
	struct si_mslot *s = si_map_find(m, 8, 0, value_is, &want);
	CHECK(s && s->value == 222, "match callback");
	si_map_clear(m);
	CHECK(m->used == 0 && !si_map_find(m, 16, 1, NULL, NULL), "cleared");
	si_map_free(m);
}

/* The child of NODE whose region is R in snapshot S, or UINT64_MAX. */
static uint64_t child(const struct si_snap *s, uint64_t node, const struct selinst_region *r)
{
	for (uint64_t i = 1; i < s->nn; i++)
		if (s->nodes[i].parent == node && s->nodes[i].region == r)
			return i;
	return UINT64_MAX;
}

#define WIDE 5000
static struct selinst_region wide[WIDE];

/* Thousands of children under one node (the child index grows several
 * times), each entered three times in turn, every pass in another order. */
static void many_children(struct si_thread *t)
{
	for (unsigned i = 0; i < WIDE; i++)
		wide[i] = (struct selinst_region){ SELINST_ABI_VERSION, SELINST_KIND_FUNCTION,
						   i + 1, 0, "w", "wide.c", NULL };
	uintptr_t sp = 1u << 20;
	for (unsigned pass = 0; pass < 3; pass++)
		for (unsigned k = 0; k < WIDE; k++) {
			unsigned i = pass == 1 ? WIDE - 1 - k : (k * 7919u) % WIDE;
			si_enter(t, &wide[i], sp);
			si_exit(t, &wide[i], si_now());
		}
	struct si_snap s;
	CHECK(si_snap_take(t, &s) == 0, "snapshot");
	CHECK(s.nn == WIDE + 1, "nodes %llu, want %u", (unsigned long long)s.nn, WIDE + 1);
	unsigned wrong = 0;
	for (unsigned i = 0; i < WIDE; i++) {
		uint64_t c = child(&s, 0, &wide[i]);
		wrong += c == UINT64_MAX || s.nodes[c].calls != 3;
	}
	CHECK(wrong == 0, "%u of %u children without exactly 3 calls", wrong, WIDE);
	si_snap_free(&s);
}

/* Direct recursion 1000 deep is one node with 1000 calls; mutual
 * recursion a -> b -> a -> b is two nodes, a and a/b (doc/runtime.md). */
static void recursion(struct si_thread *t)
{
	static const struct selinst_region f = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 1, 0,
						 "f", "rec.c", NULL };
	static const struct selinst_region a = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 2, 0,
						 "a", "rec.c", NULL };
	static const struct selinst_region b = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 3, 0,
						 "b", "rec.c", NULL };
	uintptr_t sp = 1u << 24;
	for (int i = 0; i < 1000; i++)
		si_enter(t, &f, sp - 64u * (uintptr_t)i);
	for (int i = 0; i < 1000; i++)
		si_exit(t, &f, si_now());
	for (int i = 0; i < 500; i++) {
		si_enter(t, &a, sp - 128u * (uintptr_t)i);
		si_enter(t, &b, sp - 128u * (uintptr_t)i - 64);
	}
	for (int i = 0; i < 500; i++) {
		si_exit(t, &b, si_now());
		si_exit(t, &a, si_now());
	}
	struct si_snap s;
	CHECK(si_snap_take(t, &s) == 0, "snapshot");
	CHECK(s.nn == 4, "nodes %llu, want root, f, a, a/b", (unsigned long long)s.nn);
	uint64_t nf = child(&s, 0, &f), na = child(&s, 0, &a);
	uint64_t nb = na == UINT64_MAX ? UINT64_MAX : child(&s, na, &b);
	CHECK(nf != UINT64_MAX && s.nodes[nf].calls == 1000, "f: 1000 calls on one node");
	CHECK(na != UINT64_MAX && s.nodes[na].calls == 500, "a: 500 calls");
	CHECK(nb != UINT64_MAX && s.nodes[nb].calls == 500, "a/b: 500 calls");
	CHECK(s.depth <= 1, "frames left open: %u", s.depth);
	si_snap_free(&s);
}

int main(void)
{
	decimals();
	trip_histogram();
	one_map();
	output_names();
	struct si_thread *t = si_thread_scratch();
	CHECK(t != NULL, "scratch thread");
	if (t) {
		many_children(t);
		t = si_thread_scratch();
		recursion(t);
	}
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("runtime internals: decimals, trip histogram, %d children, recursion: ok\n", WIDE);
	return failures != 0;
}
