/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sites.cc - call sites seen by other units (issue 10).
 *
 * Without LTO a unit sees only its own call sites: a function called only
 * from other units counts as depth 0 and is chosen however deep the loops
 * around its real calls are.  sites-out=FILE appends, for every call to a
 * function with external linkage, "DEPTH SYMBOL" (the depth that call runs
 * at, the caller's depth added where the caller passes it through); a
 * later build given sites=FILE takes, for each of its external functions,
 * the deepest depth any unit recorded, as if that call site were in view.
 *
 * The file is plain text: '#' lines are comments, every other line is a
 * non-negative decimal depth, one space, an assembler name.  One build
 * writes it and the next reads it, so a build never reads what its own
 * units are writing (decisions do not depend on compile order).
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"

#include <sys/file.h>

static hash_map<nofree_string_hash, int> *other_unit_depths;

/* Reads FILE at argument time: a bad line is an error naming the file and
 * the line. */
bool selinst_sites_read(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		error("selinst: cannot read call-site file %qs given by "
		      "%<-fplugin-arg-selinst-sites%>: %s", path, xstrerror(errno));
		return false;
	}
	other_unit_depths = new hash_map<nofree_string_hash, int>;
	char line[4096];
	int lineno = 0;
	bool ok = true;
	while (ok && fgets(line, sizeof line, f)) {
		lineno++;
		size_t len = strlen(line);
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		char *sym = strchr(line, ' ');
		char *end = NULL;
		long depth = sym && ISDIGIT(line[0]) ? strtol(line, &end, 10) : -1;
		if (depth < 0 || depth > 1000000 || end != sym || !sym[1]
		    || strchr(sym + 1, ' ')) {
			error("selinst: %s:%d: bad call-site line %qs: expected "
			      "%<DEPTH SYMBOL%> (a non-negative integer, one space, "
			      "an assembler name)", path, lineno, line);
			ok = false;
			break;
		}
		int *known = other_unit_depths->get(sym + 1);
		if (!known)
			other_unit_depths->put(xstrdup(sym + 1), (int) depth);
		else if (*known < depth)
			*known = (int) depth;
	}
	if (ok && ferror(f)) {
		error("selinst: reading call-site file %qs failed: %s", path,
		      xstrerror(errno));
		ok = false;
	}
	fclose(f);
	return ok;
}

bool selinst_sites_loaded(void)
{
	return other_unit_depths != NULL;
}

int selinst_sites_depth(const char *symbol)
{
	if (!other_unit_depths)
		return -1;
	int *d = other_unit_depths->get(symbol);
	return d ? *d : -1;
}

/* Appends this unit's calls to external functions, the deepest per
 * symbol, under an exclusive lock (parallel compiles share the file). */
void selinst_sites_write(const char *path, const char *const *symbols,
			 const int *depths, size_t n)
{
	hash_map<nofree_string_hash, int> deepest;
	auto_vec<const char *> order;
	for (size_t i = 0; i < n; i++) {
		int *d = deepest.get(symbols[i]);
		if (!d) {
			deepest.put(symbols[i], depths[i]);
			order.safe_push(symbols[i]);
		} else if (*d < depths[i])
			*d = depths[i];
	}
	FILE *f = fopen(path, "a");
	if (!f) {
		error("selinst: cannot write call-site file %qs: %s", path,
		      xstrerror(errno));
		return;
	}
	flock(fileno(f), LOCK_EX);
	fprintf(f, "# %s\n", main_input_filename ? main_input_filename : "unit");
	for (unsigned i = 0; i < order.length(); i++)
		fprintf(f, "%d %s\n", *deepest.get(order[i]), order[i]);
	fflush(f);
	if (ferror(f))
		error("selinst: writing call-site file %qs failed: %s", path,
		      xstrerror(errno));
	flock(fileno(f), LOCK_UN);
	if (fclose(f) != 0)
		error("selinst: closing call-site file %qs failed: %s", path,
		      xstrerror(errno));
}
