/*
 * libFuzzer target for selinst-report's reader: YAML -> profile ->
 * validation -> merge -> every view, export and the diff.  Built and run by
 * `make fuzz-report` (clang, -fsanitize=fuzzer,address,undefined).
 * Any input must give either a profile or one error message; never a
 * crash, leak or undefined behaviour.
 */
#include "report.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fast YAML path must build exactly libyaml's tree when it accepts. */
static void same_tree(const ynode *a, const ynode *b)
{
	while (a || b) {
		if (!a || !b || a->type != b->type || a->n != b->n || a->line != b->line ||
		    (a->type == Y_SCALAR && (a->plain != b->plain || strcmp(a->s, b->s))))
			abort();
		same_tree(a->first, b->first);
		a = a->next;
		b = b->next;
	}
}

static void differential(const uint8_t *data, size_t size)
{
	arena a1 = { 0 }, a2 = { 0 };
	ynode *fast = ydom_parse_fast((const char *)data, size, &a1);
	if (fast) {
		yerr e;
		e.msg[0] = 0;
		ynode *slow = ydom_parse_libyaml((const char *)data, size, &a2, &e);
		if (!slow)
			abort();	/* fast path accepted what libyaml rejects */
		same_tree(fast, slow);
	}
	arena_free(&a1);
	arena_free(&a2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!memchr(data, 0, size))
		differential(data, size);
	if (!null)
		null = fopen("/dev/null", "w");
	profile p;
	char err[512];
	if (profile_parse((const char *)data, size, "fuzz.prof", &p, err, sizeof err) < 0) {
		if (strncmp(err, "fuzz.prof", 9) || !err[0] || strchr(err, '\n'))
			abort();	/* every error names the file, on one line */
		return 0;
	}
	view v;
	view_init(&v, true);
	if (view_add(&v, &p, err, sizeof err) < 0) {
		if (strncmp(err, "fuzz.prof", 9) || strchr(err, '\n'))
			abort();
		view_free(&v);
		profile_free(&p);
		return 0;
	}
	view_finish(&v);
	opts o = { .prune = 0.1 };
	export_json(null, &v, &o);
	view_tree(null, &v, &o);
	view_loops(null, &v, &o);
	export_folded(null, &v, &o);
	export_chrome(null, &v, &o);
	view_flat(null, &v, &o);
	view_threads(null, &v, &o);
	export_svg(null, &v, &o);
	export_dot(null, &v, &o);
	export_callgrind(null, &v, &o);
	diff_views(null, &v, &v, &o, 1.0);
	view_free(&v);
	profile_free(&p);
	return 0;
}
