/*
 * selinst-plugin.h - what the plugin's files share: options, the record
 * kept for each function of the unit, and the entry points of each file.
 *
 *   selinst.cc     plugin_init: version check, arguments, attribute, passes
 *   analysis.cc    the IPA pass: metrics, cost model, decisions
 *   instrument.cc  hook insertion into one function body
 *   decisions.cc   the decision file (YAML) and the verbose table
 *   cost-model.cc  the score arithmetic (GCC-free)
 */
#ifndef SELINST_PLUGIN_H
#define SELINST_PLUGIN_H

#include "cost-model.h"

struct selinst_options {
	struct cm_constants model;
	const char *decisions_path;	/* NULL: no decision file */
	bool verbose;
};
extern struct selinst_options selinst_opts;

/* One function with a body in the unit. */
struct selinst_function {
	tree decl;
	char *name;		/* region name: source-level, annotated for
				   OpenMP outlined bodies */
	const char *symbol;	/* assembler name */
	const char *file;
	int line;
	struct cm_function cm;	/* metrics in, score and decision out */
	const char *not_instrumented_because;	/* set when unsafe to
						   instrument, or after a
						   failed insertion */
};

/* analysis.cc */
void selinst_register_passes(const char *plugin_name);

/* instrument.cc: insert the hooks into FN (the current cfun).  Returns
 * NULL on success or a reason why the body was left alone. */
const char *selinst_instrument_function(struct selinst_function *fn,
					 const struct selinst_function *all,
					 size_t nall);
/* Why DECL cannot be instrumented safely, or NULL.  Checked before scoring
 * so the decision file lists the reason. */
const char *selinst_cannot_instrument(tree decl, function *body);
void selinst_register_gc_roots(const char *plugin_name);

/* decisions.cc */
bool selinst_decisions_file_check(const char *path);
void selinst_write_decisions(const struct selinst_function *fns, size_t n);
void selinst_print_table(const struct selinst_function *fns, size_t n);

#endif
