/* misc.c MODE - loop trip-count histograms, many call paths, node budget,
 * control API, foreign-ABI descriptors, a plain program for naming tests. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

FUNC(r_main, "main", 1);
FUNC(r_f, "f", 2);
FUNC(r_g, "g", 3);
LOOP(r_loop, "rt.c:20", "main", 20);
static const struct selinst_region r_bad = { 99, SELINST_KIND_FUNCTION, 5, 0, "bad", "rt.c", 0 };

static const uint64_t trips[] = { 0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 1000, 1u << 20,
				  (1ull << 40) + 5, UINT64_MAX };

/* Paths: K level-1 regions, each calling the same K level-2 regions. */
static struct selinst_region *mk(int k, int base)
{
	struct selinst_region *rs = calloc(k, sizeof *rs);
	char *names = malloc((size_t)k * 16);
	for (int i = 0; i < k; i++) {
		rs[i].abi_version = SELINST_ABI_VERSION;
		rs[i].kind = SELINST_KIND_FUNCTION;
		rs[i].line = base + i;
		snprintf(names + 16 * i, 16, "p%d", base + i);
		rs[i].name = names + 16 * i;
		rs[i].file = "paths.c";
	}
	return rs;
}

static struct selinst_region *a, *b;	/* descriptors live until exit */
static void paths(int k)
{
	a = mk(k, 1000000);
	b = mk(k, 2000000);
	for (int rep = 0; rep < 2; rep++)
		for (int i = 0; i < k; i++) {
			__selinst_enter(&a[i]);
			for (int j = 0; j < k; j++) {
				__selinst_enter(&b[j]);
				__selinst_exit(&b[j]);
			}
			__selinst_exit(&a[i]);
		}
}

static void *manual_thread(void *arg)
{
	(void)arg;
	char copy[] = "phase";	/* another pointer, same name: one region */
	for (int i = 0; i < 10; i++) {
		selinst_region_begin(copy);
		selinst_region_begin("inner");
		__selinst_enter(&r_f);
		__selinst_exit(&r_f);
		selinst_region_end("inner");
		selinst_region_end(copy);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "plain";
	__selinst_enter(&r_main);
	if (!strcmp(mode, "loops")) {
		for (size_t i = 0; i < sizeof trips / sizeof trips[0]; i++)
			for (int rep = 0; rep < 3; rep++) {
				__selinst_loop_enter(&r_loop);
				__selinst_enter(&r_f);
				__selinst_exit(&r_f);
				__selinst_loop_exit(&r_loop, trips[i]);
			}
		for (int i = 0; i < 4; i++) {	/* zero-trip entries */
			__selinst_loop_enter(&r_loop);
			__selinst_loop_exit(&r_loop, 0);
		}
		__selinst_loop_enter(&r_loop);	/* left by return: exit of main closes it */
	} else if (!strcmp(mode, "paths")) {
		paths(argc > 2 ? atoi(argv[2]) : 1000);
	} else if (!strcmp(mode, "control")) {
		__selinst_enter(&r_f);
		__selinst_exit(&r_f);
		selinst_pause();
		selinst_pause();
		__selinst_enter(&r_g);		/* not counted */
		__selinst_enter(&r_f);
		__selinst_exit(&r_f);
		selinst_resume();
		__selinst_enter(&r_f);		/* still paused: two pauses */
		__selinst_exit(&r_f);
		selinst_resume();
		__selinst_enter(&r_f);		/* counted, under main: g was not */
		__selinst_exit(&r_f);
		__selinst_exit(&r_g);
		pthread_t th[2];
		for (int i = 0; i < 2; i++)
			pthread_create(&th[i], NULL, manual_thread, NULL);
		for (int i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		__selinst_enter(&r_g);
		if (selinst_dump("snap.prof") != 0)
			return 4;
		__selinst_exit(&r_g);
	} else if (!strcmp(mode, "abi")) {
		for (int i = 0; i < 3; i++) {
			__selinst_enter(&r_bad);
			__selinst_enter(&r_f);
			__selinst_exit(&r_f);
			__selinst_exit(&r_bad);
		}
	} else {
		__selinst_enter(&r_f);
		__selinst_exit(&r_f);
	}
	__selinst_exit(&r_main);
	return argc > 2 && !strcmp(mode, "plain") ? atoi(argv[2]) : 0;
}
