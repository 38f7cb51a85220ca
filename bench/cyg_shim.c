/* SPDX-License-Identifier: MIT */
/*
 * cyg_shim.c - GCC's -finstrument-functions hooks doing the same work as
 * selinst's: every __cyg_profile_func_enter/exit becomes __selinst_enter/
 * exit on a region descriptor made once per function address.
 *
 * Used only by the overhead benchmark, so that "full instrumentation with
 * GCC's own mechanism" and selinst differ only in which functions pay.
 * Lookup is an open-addressed table read without locks; a miss creates
 * the descriptor under a mutex and publishes it with a release store.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selinst.h"

#define SLOTS 65536			/* power of two, > functions in a workload */

struct slot {
	void *fn;
	const struct selinst_region *region;
};
static struct slot table[SLOTS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((no_instrument_function))
static const struct selinst_region *make_region(void *fn)
{
	struct selinst_region *r = calloc(1, sizeof *r);
	Dl_info info;
	char buf[64];
	const char *name = NULL;
	if (dladdr(fn, &info) && info.dli_sname)
		name = info.dli_sname;
	if (!name) {
		snprintf(buf, sizeof buf, "%p", fn);
		name = buf;
	}
	r->abi_version = SELINST_ABI_VERSION;
	r->kind = SELINST_KIND_FUNCTION;
	r->name = strdup(name);
	r->file = "?";
	return r;
}

__attribute__((no_instrument_function))
static const struct selinst_region *region_of(void *fn)
{
	uintptr_t h = ((uintptr_t) fn >> 4) * 0x9E3779B97F4A7C15ull;
	for (size_t i = h & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
		void *seen = __atomic_load_n(&table[i].fn, __ATOMIC_ACQUIRE);
		if (seen == fn)
			return table[i].region;
		if (seen == NULL)
			break;
	}
	pthread_mutex_lock(&table_lock);
	const struct selinst_region *r = NULL;
	for (size_t i = h & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
		if (table[i].fn == fn) {
			r = table[i].region;
			break;
		}
		if (table[i].fn == NULL) {
			r = make_region(fn);
			table[i].region = r;
			__atomic_store_n(&table[i].fn, fn, __ATOMIC_RELEASE);
			break;
		}
	}
	pthread_mutex_unlock(&table_lock);
	return r;
}

__attribute__((no_instrument_function))
void __cyg_profile_func_enter(void *fn, void *site)
{
	(void) site;
	__selinst_enter(region_of(fn));
}

__attribute__((no_instrument_function))
void __cyg_profile_func_exit(void *fn, void *site)
{
	(void) site;
	__selinst_exit(region_of(fn));
}
