/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * config.cc - the selection file, -fplugin-arg-selinst-config=FILE (YAML).
 *
 *   threshold: 204800            # the model's numbers, as the arguments of
 *   loop-threshold: 0            # the same names (an argument given on the
 *   block-weight: 5              # command line wins over the file)
 *   model: default
 *   exclude:                     # not instrumented ...
 *     - file: "*_test.cc"
 *     - function: "helper_*"
 *   include:                     # ... unless a later-listed include matches
 *     - function: "helper_main"
 *   always: [hot_driver]         # instrumented whatever the score
 *   never: ["_Z4tinyv", "ns::g(int)"]
 *
 * A list entry is a string (a function pattern) or a one-key mapping
 * `function: PATTERN` or `file: GLOB`.  Patterns are fnmatch(3) globs;
 * a function pattern is matched against the region name (as the decision
 * file gives it), the plain identifier ("f"), the assembler name
 * ("_ZN2ns1fEi") and its demangling ("ns::f(int)"); a file glob against the file name as given to the
 * compiler.  Precedence: what cannot be instrumented safely (and
 * system-header functions, constructor variants that forward), then the
 * source's attributes, then never, then always, then exclude/include
 * (among those two, the last matching entry in file order wins; an
 * include leaves the function to the model), then the model.  The
 * decision file's reason names the rule: "config FILE:LINE never".
 *
 * Errors (unknown key, bad glob, bad value, bad YAML) are compile errors
 * naming FILE:LINE.
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"

#include <yaml.h>
#include <fnmatch.h>

/* libiberty's demangler, which cc1, cc1plus and f951 export (its header
 * is not among the plugin headers). */
extern "C" char *cplus_demangle(const char *mangled, int options);
#define SELINST_DMGL_PARAMS (1 << 0)
#define SELINST_DMGL_ANSI   (1 << 1)

enum rule_kind { RULE_NEVER, RULE_ALWAYS, RULE_EXCLUDE, RULE_INCLUDE };
static const char *const rule_names[] = { "never", "always", "exclude", "include" };

struct config_rule {
	enum rule_kind kind;
	bool by_file;		/* file: GLOB, else a function pattern */
	const char *pattern;
	const char *reason;	/* "config FILE:LINE KIND" */
};

static vec<config_rule> rules;


struct config_reader {
	const char *path;
	yaml_document_t doc;
	bool ok;
};

static void config_error(config_reader *r, const yaml_node_t *n, const char *what,
			 const char *detail)
{
	error("selinst: %s:%lu: %s%s%s", r->path,
	      n ? (unsigned long)n->start_mark.line + 1 : 0UL, what,
	      detail ? ": " : "", detail ? detail : "");
	r->ok = false;
}

/* A glob fnmatch would take but read otherwise than meant: an unclosed
 * bracket expression or a trailing backslash; and an empty pattern. */
static const char *glob_problem(const char *glob)
{
	if (!*glob)
		return "empty pattern";
	for (const char *p = glob; *p; p++) {
		if (*p == '\\') {
			if (!*++p)
				return "ends in a lone backslash";
		} else if (*p == '[') {
			const char *q = p + 1;
			if (*q == '!' || *q == '^')
				q++;
			if (*q == ']')
				q++;
			while (*q && *q != ']')
				q++;
			if (!*q)
				return "'[' without a closing ']'";
			p = q;
		}
	}
	return NULL;
}

static void add_rule(config_reader *r, enum rule_kind kind, const yaml_node_t *entry)
{
	const yaml_node_t *pat = entry;
	bool by_file = false;
	if (entry->type == YAML_MAPPING_NODE) {
		yaml_node_pair_t *p = entry->data.mapping.pairs.start;
		if (entry->data.mapping.pairs.top - p != 1) {
			config_error(r, entry, "a rule is 'function: PATTERN' or 'file: GLOB'", NULL);
			return;
		}
		const yaml_node_t *k = yaml_document_get_node(&r->doc, p->key);
		const char *ks = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
		if (!strcmp(ks, "file"))
			by_file = true;
		else if (strcmp(ks, "function")) {
			config_error(r, k, "unknown rule key (accepted: function, file)", ks);
			return;
		}
		pat = yaml_document_get_node(&r->doc, p->value);
	}
	if (pat->type != YAML_SCALAR_NODE) {
		config_error(r, pat, "a pattern must be a string", NULL);
		return;
	}
	const char *glob = (const char *)pat->data.scalar.value;
	const char *bad = glob_problem(glob);
	if (bad) {
		config_error(r, pat, "bad glob", bad);
		return;
	}
	config_rule rule;
	rule.kind = kind;
	rule.by_file = by_file;
	rule.pattern = xstrdup(glob);
	rule.reason = xasprintf("config %s:%lu %s", r->path,
				(unsigned long)entry->start_mark.line + 1, rule_names[kind]);
	rules.safe_push(rule);
}

static void read_list(config_reader *r, enum rule_kind kind, const yaml_node_t *list)
{
	if (list->type == YAML_SCALAR_NODE && !*list->data.scalar.value)
		return;		/* "never:" with nothing after it */
	if (list->type != YAML_SEQUENCE_NODE) {
		config_error(r, list, "expected a list of rules under", rule_names[kind]);
		return;
	}
	for (yaml_node_item_t *i = list->data.sequence.items.start;
	     i < list->data.sequence.items.top; i++)
		add_rule(r, kind, yaml_document_get_node(&r->doc, *i));
}

/* Top-level KEY: VALUE.  VALUE_ARG receives the arguments the file sets. */
static void read_key(config_reader *r, const yaml_node_t *k, const yaml_node_t *v,
		     bool (*value_arg)(const char *, const char *, const char *))
{
	const char *key = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
	for (int kind = 0; kind < 4; kind++)
		if (!strcmp(key, rule_names[kind])) {
			read_list(r, (enum rule_kind)kind, v);
			return;
		}
	if (selinst_option_in_config(key)) {
		if (v->type != YAML_SCALAR_NODE) {
			config_error(r, v, "expected a value for", key);
			return;
		}
		char *where = xasprintf("%s:%lu", r->path, (unsigned long)v->start_mark.line + 1);
		if (!value_arg(key, (const char *)v->data.scalar.value, where))
			r->ok = false;
		return;
	}
	config_error(r, k, "unknown key", xasprintf("'%s' (accepted: %s, exclude, include, "
		     "always, never)", key, selinst_config_value_keys()));
}

/* K, the key of pair P of MAP, already came earlier (libyaml keeps both). */
static bool repeated_key(config_reader *r, yaml_node_t *map, yaml_node_pair_t *p, yaml_node_t *k)
{
	if (k->type != YAML_SCALAR_NODE)
		return false;
	for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
		yaml_node_t *e = yaml_document_get_node(&r->doc, q->key);
		if (e->type == YAML_SCALAR_NODE && !strcmp((const char *)e->data.scalar.value,
							   (const char *)k->data.scalar.value)) {
			config_error(r, k, "key given twice", (const char *)k->data.scalar.value);
			return true;
		}
	}
	return false;
}

bool selinst_config_read(const char *path,
			 bool (*value_arg)(const char *key, const char *value, const char *where))
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		error("selinst: cannot read selection file %qs given by "
		      "%<-fplugin-arg-selinst-config%>: %s", path, xstrerror(errno));
		return false;
	}
	config_reader r;
	r.path = path;
	r.ok = true;
	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &r.doc)) {
		error("selinst: %s:%lu: bad YAML: %s", path,
		      (unsigned long)parser.problem_mark.line + 1,
		      parser.problem ? parser.problem : "parse error");
		yaml_parser_delete(&parser);
		fclose(f);
		return false;
	}
	yaml_parser_delete(&parser);
	fclose(f);
	yaml_node_t *root = yaml_document_get_root_node(&r.doc);
	if (root && root->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
		     p < root->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(&r.doc, p->key);
			if (repeated_key(&r, root, p, k))
				continue;
			read_key(&r, k, yaml_document_get_node(&r.doc, p->value), value_arg);
		}
	} else if (root && !(root->type == YAML_SCALAR_NODE && !*root->data.scalar.value))
		config_error(&r, root, "the selection file must be a mapping of keys", NULL);
	yaml_document_delete(&r.doc);
	return r.ok;
}

/* The names a function pattern is matched against. */
struct fn_names { const char *name, *ident, *symbol, *demangled, *file; };

static bool rule_matches(const config_rule *rule, const fn_names *n)
{
	if (rule->by_file)
		return n->file && fnmatch(rule->pattern, n->file, 0) == 0;
	const char *all[] = { n->name, n->ident, n->symbol, n->demangled };
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (all[i] && fnmatch(rule->pattern, all[i], 0) == 0)
			return true;
	return false;
}

/* The rule deciding for a function, or NULL: never, then always, then the
 * last matching exclude/include (an include match leaves it to the model:
 * NULL). */
static const config_rule *deciding_rule(const fn_names *n)
{
	const config_rule *last_filter = NULL;
	for (int kind = RULE_NEVER; kind <= RULE_ALWAYS; kind++)
		for (unsigned i = 0; i < rules.length(); i++)
			if (rules[i].kind == kind
			    && rule_matches(&rules[i], n))
				return &rules[i];
	for (unsigned i = 0; i < rules.length(); i++)
		if (rules[i].kind >= RULE_EXCLUDE
		    && rule_matches(&rules[i], n))
			last_filter = &rules[i];
	return last_filter && last_filter->kind == RULE_EXCLUDE ? last_filter : NULL;
}

void selinst_config_apply(struct selinst_function *fn)
{
	if (rules.is_empty())
		return;
	fn_names n;
	n.name = fn->name;
	n.ident = DECL_NAME(fn->decl) ? IDENTIFIER_POINTER(DECL_NAME(fn->decl)) : NULL;
	n.symbol = fn->symbol;
	char *demangled = fn->symbol ? cplus_demangle(fn->symbol,
				SELINST_DMGL_PARAMS | SELINST_DMGL_ANSI) : NULL;
	n.demangled = demangled;
	n.file = fn->file;
	const config_rule *rule = deciding_rule(&n);
	free(demangled);
	if (!rule)
		return;
	fn->cm.force = rule->kind == RULE_ALWAYS ? CM_FORCE_ALWAYS : CM_FORCE_NEVER;
	fn->cm.force_reason = rule->reason;
}
