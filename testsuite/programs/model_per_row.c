/* SPDX-License-Identifier: MIT */
/* Refinements indirect-context and conditional-pull (issue 10), in the
 * shape SQLite's b-tree showed: a region (run_rows) whose loop calls,
 * once per row, a helper that is no region (row_step).  The helper reaches
 * a page getter through a function pointer (page_get, also named by a
 * direct call in page_get_mapped outside any loop, as getPageNormal is by
 * getPageMMap) and the getter calls a cache lookup with a loop
 * (cache_fetch, as pcache1FetchNoMutex); and it calls rebalance, whose
 * loop calls three splitters on an overflow only (as balance calls
 * balance_quick, balance_nonroot and balance_deeper).  step_all calls two
 * of them on every call: the paper's adi, still pulled in.  run_task calls
 * a callback (load_chunk, handed to it by main) through a pointer.
 * argv[1] rows. */
#include <stdio.h>
#include <stdlib.h>

#define SPLIT __attribute__((noinline, selinst_instrument))

struct pager;
typedef int (*getter)(struct pager *, unsigned, unsigned *);
struct pager {
	getter get;
	unsigned cache[64];
	unsigned hits, fill, splits;
};

static unsigned cache_fetch(struct pager *p, unsigned key)
{
	unsigned slot = key % 64;
	for (unsigned probe = 0; probe < 64; probe++) {
		unsigned s = (slot + probe) % 64;
		if (p->cache[s] == key || p->cache[s] == 0) {
			p->hits += p->cache[s] == key;
			if (p->cache[s] == 0 && probe > 8)
				p->fill++;
			p->cache[s] = key;
			return s;
		}
	}
	p->cache[slot] = key;
	return slot;
}

static int page_get(struct pager *p, unsigned key, unsigned *out)
{
	if (key == 0)
		return 1;
	*out = cache_fetch(p, key);
	for (unsigned k = 0; k < (key & 3); k++)
		*out ^= p->cache[(*out + k) % 64];
	if (*out > 60)
		*out -= 3;
	else if (*out < 4)
		*out += 2;
	if (p->hits > 100000u)
		p->hits = 0;
	return 0;
}

static int page_get_mapped(struct pager *p, unsigned key, unsigned *out)
{
	return page_get(p, key > 1000000u ? key - 1 : key, out);
}

SPLIT void split_quick(struct pager *p) { p->splits += 1; p->fill = 0; }
SPLIT void split_nonroot(struct pager *p) { p->splits += 2; p->fill /= 2; }
SPLIT void split_deeper(struct pager *p) { p->splits += 4; p->fill /= 3; }

static int rebalance(struct pager *p, unsigned key)
{
	int rc = 0;
	do {
		if (p->fill < 40)
			break;
		if (key % 3 == 0)
			split_quick(p);
		else if (key % 3 == 1)
			split_nonroot(p);
		else
			split_deeper(p);
		rc++;
	} while (rc < 4);
	return rc;
}

/* Both splitters on every call: pulled in at depth 1 (refinement
 * pull-depth, as the paper's adi). */
static void step_all(struct pager *p, unsigned key)
{
	p->fill += key & 1;
	split_quick(p);
	split_nonroot(p);
}

/* A trampoline called once per row, and once from main with a callback
 * that loads the cache (as Lua's luaD_rawrunprotected runs f_parser once
 * per chunk): a callback, whose address a call receives, keeps its own
 * depth (indirect-context leaves it be). */
typedef void (*task)(struct pager *, unsigned);
static void run_task(struct pager *p, task fn, unsigned arg)
{
	fn(p, arg);
}

static void touch_row(struct pager *p, unsigned key)
{
	p->fill += key & 1;
}

static void load_chunk(struct pager *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned k = (i * 40503u) % 64;
		if (p->cache[k] == 0)
			p->cache[k] = i + 1;
		else if (p->cache[k] % 7 == 0)
			p->cache[k] += 3;
		else
			p->cache[k] ^= i;
		if (i % 100 == 99)
			p->hits++;
	}
}

static unsigned row_step(struct pager *p, unsigned key)
{
	unsigned where = 0;
	if (p->get(p, key, &where))
		return 0;
	run_task(p, touch_row, key);
	p->fill++;
	rebalance(p, key);
	return where;
}

__attribute__((noinline)) unsigned long run_rows(struct pager *p, unsigned rows)
{
	unsigned long sum = 0;
	for (unsigned r = 1; r <= rows; r++) {
		sum += row_step(p, r * 7919u % 10007u + 1);
		if (r % 500 == 0)
			step_all(p, r);
	}
	return sum;
}

int main(int argc, char **argv)
{
	static struct pager p;
	unsigned rows = argc > 1 ? (unsigned) atoi(argv[1]) : 1000;
	p.get = argc > 5 ? page_get_mapped : page_get;
	run_task(&p, load_chunk, 300);
	unsigned long s = run_rows(&p, rows);
	printf("%lu %u %u\n", s, p.hits, p.splits);
	return 0;
}
