/* loop_hook_double.c - a test double for libselinst's hooks that counts
 * loop entries and iterations per region and prints them at exit, so the
 * plugin's counters are checked independently of the runtime. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selinst.h"

#define MAX 128
static const struct selinst_region *regions[MAX];
static uint64_t entries[MAX], iterations[MAX];
static int nregions;

static int slot(const struct selinst_region *r)
{
	for (int i = 0; i < nregions; i++)
		if (regions[i] == r)
			return i;
	regions[nregions] = r;
	return nregions++;
}

void __selinst_enter(const struct selinst_region *r) { (void) r; }
void __selinst_exit(const struct selinst_region *r) { (void) r; }
void __selinst_setjmp_return(void) {}
static uint64_t cell;	/* the running count stored before calls: unread here */
uint64_t *__selinst_loop_enter(const struct selinst_region *r) { entries[slot(r)]++; return &cell; }
void __selinst_loop_exit(const struct selinst_region *r, uint64_t n) { iterations[slot(r)] += n; }
void __selinst_loop_iteration(const struct selinst_region *r, uint64_t n) { (void)r; (void)n; abort(); }

__attribute__((destructor)) static void report(void)
{
	for (int i = 0; i < nregions; i++)
		fprintf(stderr, "loop %s function=%s entries=%llu iterations=%llu\n",
			regions[i]->name, regions[i]->function,
			(unsigned long long) entries[i], (unsigned long long) iterations[i]);
}
