/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * selinst.cc - GCC plugin entry point for compile-time selective
 * instrumentation.
 *
 * Usage:
 *   gcc -fplugin=selinst.so [-fplugin-arg-selinst-KEY[=VALUE] ...] app.c -lselinst
 *
 * Arguments (an unknown key or a bad value is a compile error):
 *   threshold=N         instrument functions scoring >= N (any non-negative
 *                       integer, default 204800)
 *   decisions=FILE      write every function's metrics, score and decision
 *                       as YAML; "%u" in FILE becomes the unit's source
 *                       path as one file name (../common/wtime.c ->
 *                       up_common_wtime.c: one file per unit), otherwise
 *                       each unit appends a YAML document under an
 *                       exclusive lock
 *   verbose             print a Table-1-style score table on stderr
 *   block-weight=N, loop-base=N, loop-unit=N, call-unit=N
 *                       the model's constants (defaults 5, 100, 2048, 2048)
 *   loop-threshold=N    instrument loops scoring >= N (default: the
 *                       threshold; 0 instruments every loop); see loops.cc
 *   loops=on|off        loop regions (default on)
 *   inline=on|off       let GCC inline instrumented bodies, their hooks
 *                       travelling with them (default on; off: every
 *                       instrumented function stays out of line)
 *   model=default|paper the paper's formula plus refinements (default), or
 *                       the formula alone; see cost-model.h
 *   sites-out=FILE      append this unit's calls to external functions
 *   sites=FILE          take call depths from other units (see sites.cc)
 *   config=FILE         selection file: include/exclude/always/never rules
 *                       and the values above (see config.cc)
 *   profile=FILE[:FILE...]  profiles of an earlier run (or a merged JSON of
 *                       selinst-report --format=json): drop regions whose
 *                       predicted hook cost exceeds the budget, add inside
 *                       the bottleneck (see feedback.cc)
 *   budget=PCT          predicted hook cost allowed, percent of the run
 *                       (default 1; with profile=)
 *
 * Attributes: __attribute__((selinst_instrument)) forces instrumentation;
 * no_instrument_function forbids it.  Pragmas: #pragma selinst phase
 * start|end NAME (see pragmas.cc).
 *
 * The order below follows the kernel's plugins: check the GCC version,
 * parse every argument (rejecting unknown ones), then register callbacks.
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"

int plugin_is_GPL_compatible;

struct selinst_options selinst_opts;

/* ---- the arguments: one table for parsing, the error's list and help -- */

/* model=default (the paper's formula plus the refinements documented in
 * cost-model.h) or model=paper (the formula alone). */
static bool set_model(const char *, const char *value)
{
	if (value == NULL || *value == '\0') {
		error("selinst: no model given for argument %<model%>; accepted models: "
		      "%qs (the formula of the paper plus documented refinements) "
		      "and %qs (the formula alone)", CM_MODEL_DEFAULT_NAME, CM_MODEL_PAPER_NAME);
		return false;
	}
	if (strcmp(value, CM_MODEL_DEFAULT_NAME) == 0)
		selinst_opts.model.refined = 1;
	else if (strcmp(value, CM_MODEL_PAPER_NAME) == 0)
		selinst_opts.model.refined = 0;
	else {
		/* The accepted names matter most. */
		error("selinst: unknown model %qs for argument %<model%>; accepted models: "
		      "%qs (the formula of the paper plus documented refinements) "
		      "and %qs (the formula alone)",
		      value, CM_MODEL_DEFAULT_NAME, CM_MODEL_PAPER_NAME);
		return false;
	}
	return true;
}

/* A non-negative decimal integer of any size: digits only. */
static bool parse_natural(const char *key, const char *value, mpz_t out)
{
	for (const char *p = value; *p; p++)
		if (!ISDIGIT(*p)) {
			error("selinst: bad value %qs for argument %qs: "
			      "expected a non-negative decimal integer "
			      "(digits only, any size)", value, key);
			return false;
		}
	mpz_set_str(out, value, 10);
	return true;
}

static bool loop_threshold_given;
static bool set_threshold(const char *k, const char *v) { return parse_natural(k, v, selinst_opts.model.threshold); }
static bool set_block_weight(const char *k, const char *v) { return parse_natural(k, v, selinst_opts.model.block_weight); }
static bool set_loop_base(const char *k, const char *v) { return parse_natural(k, v, selinst_opts.model.loop_base); }
static bool set_loop_unit(const char *k, const char *v) { return parse_natural(k, v, selinst_opts.model.loop_unit); }
static bool set_call_unit(const char *k, const char *v) { return parse_natural(k, v, selinst_opts.model.call_unit); }
static bool set_loop_threshold(const char *k, const char *v)
{
	loop_threshold_given = true;
	return parse_natural(k, v, selinst_opts.loop_threshold);
}

/* KEY=on|off into *OUT. */
static bool parse_on_off(const char *key, const char *value, bool *out)
{
	if (strcmp(value, "on") == 0 || strcmp(value, "off") == 0) {
		*out = value[1] == 'n';
		return true;
	}
	error("selinst: bad value %qs for argument %qs: expected %<on%> or %<off%>",
	      value, key);
	return false;
}

static bool set_loops(const char *k, const char *v) { return parse_on_off(k, v, &selinst_opts.loops); }

/* inline=on|off: whether GCC may inline instrumented bodies (see
 * selinst_set_inlining in instrument.cc). */
static bool set_inline(const char *k, const char *v)
{
	return parse_on_off(k, v, &selinst_opts.inline_bodies);
}

/* off-copy=on|off: whether a switched-off function runs a copy of its
 * body without its own hooks (selinst_instrument_function). */
static bool set_off_copy(const char *k, const char *v)
{
	return parse_on_off(k, v, &selinst_opts.off_copy);
}

static const char *config_path, *profile_paths, *base_paths, *sites_path, *budget_value;
static bool set_sites(const char *, const char *v) { sites_path = v; return selinst_sites_read(v); }
static bool set_sites_out(const char *, const char *v) { selinst_opts.sites_out = xstrdup(v); return true; }
static bool set_config(const char *, const char *v) { config_path = v; return true; }
static bool set_profile(const char *, const char *v) { profile_paths = v; return true; }
static bool set_profile_base(const char *, const char *v) { base_paths = v; return true; }
static bool set_budget(const char *, const char *v) { budget_value = v; return selinst_feedback_budget(v); }
static bool set_verbose(const char *, const char *) { selinst_opts.verbose = true; return true; }
static bool set_decisions(const char *, const char *value)
{
	selinst_opts.decisions_path = xstrdup(value);
	return selinst_decisions_file_check(value);
}

struct plugin_option {
	const char *key;
	const char *value;	/* its syntax; NULL: a switch without a value */
	bool in_config;		/* may also be set by a selection file */
	bool (*set)(const char *key, const char *value);
	const char *help;
};

static const struct plugin_option options[] = {
	{ "threshold", "N", true, set_threshold,
	  "instrument functions scoring >= N (default 204800)" },
	{ "loop-threshold", "N", true, set_loop_threshold,
	  "instrument loops scoring >= N (default: the threshold)" },
	{ "loops", "on|off", true, set_loops, "loop regions (default on)" },
	{ "inline", "on|off", true, set_inline,
	  "let GCC inline instrumented bodies, hooks and all (default on)" },
	{ "off-copy", "on|off", true, set_off_copy,
	  "a switched-off function runs a copy without its hooks (default on)" },
	{ "model", "default|paper", true, set_model,
	  "the paper's formula plus refinements, or the formula alone" },
	{ "block-weight", "N", true, set_block_weight, "model constant (default 5)" },
	{ "loop-base", "N", true, set_loop_base, "model constant (default 100)" },
	{ "loop-unit", "N", true, set_loop_unit, "model constant (default 2048)" },
	{ "call-unit", "N", true, set_call_unit, "model constant (default 2048)" },
	{ "decisions", "FILE", false, set_decisions,
	  "write every decision as YAML (%u: one file per unit)" },
	{ "verbose", NULL, false, set_verbose, "print the score table on stderr" },
	{ "sites-out", "FILE", false, set_sites_out, "append calls to other units' functions" },
	{ "sites", "FILE", false, set_sites, "take call depths from other units" },
	{ "config", "FILE", false, set_config, "selection file (YAML rules and values)" },
	{ "profile", "FILE[:FILE...]", false, set_profile,
	  "measured counts from earlier runs (feedback)" },
	{ "profile-base", "FILE[:FILE...]", false, set_profile_base,
	  "feedback: the run's length from a lighter build's profiles" },
	{ "budget", "PCT", false, set_budget,
	  "feedback: predicted hook cost allowed, % of the run (default 1)" },
};
#define NOPTIONS (sizeof options / sizeof options[0])

static const struct plugin_option *find_option(const char *key)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (strcmp(options[i].key, key) == 0)
			return &options[i];
	return NULL;
}

/* "threshold=N, loop-threshold=N, ..., verbose" (the keys a selection
 * file may set, with CONFIG_ONLY): for messages. */
static char *key_list(bool config_only)
{
	char *list = xstrdup("");
	for (size_t i = 0; i < NOPTIONS; i++) {
		if (config_only && !options[i].in_config)
			continue;
		char *next = xasprintf("%s%s%s%s%s", list, *list ? ", " : "", options[i].key,
				       options[i].value ? "=" : "",
				       options[i].value ? options[i].value : "");
		free(list);
		list = next;
	}
	return list;
}

static const char *accepted_keys(void)
{
	static char *list;
	if (!list)
		list = key_list(false);
	return list;
}

bool selinst_option_in_config(const char *key)
{
	const struct plugin_option *o = find_option(key);
	return o && o->in_config;
}

const char *selinst_config_value_keys(void)
{
	static char *list;
	if (!list)
		list = key_list(true);
	return list;
}

/* One line an option, for gcc -v --help (plugin_info.help). */
static const char *help_text(void)
{
	char *text = xstrdup("compile-time selective instrumentation; see selinst(7).");
	for (size_t i = 0; i < NOPTIONS; i++) {
		char *arg = xasprintf("%s%s%s", options[i].key, options[i].value ? "=" : "",
				      options[i].value ? options[i].value : "");
		char *next = xasprintf("%s\n  -fplugin-arg-selinst-%-24s %s", text, arg,
				       options[i].help);
		free(arg);
		free(text);
		text = next;
	}
	return text;
}

/* KEY=VALUE through its table row: a value where one is needed, none
 * where none is (model says itself which it accepts). */
static bool apply_option(const struct plugin_option *o, const char *value)
{
	if (o->value && (value == NULL || *value == '\0') && o->set != set_model) {
		error("selinst: argument %qs needs %s: %<-fplugin-arg-selinst-%s=%s%>", o->key,
		      strncmp(o->value, "FILE", 4) == 0 ? "a file name" : "a value",
		      o->key, o->value);
		return false;
	}
	if (!o->value && value != NULL) {
		error("selinst: argument %qs takes no value (got %qs)", o->key, value);
		return false;
	}
	return o->set(o->key, value);
}

/* A value from the selection file (WHERE: "FILE:LINE"): the command line
 * wins; keys the file may not set are refused by config.cc. */
static struct plugin_name_args *command_line;
static bool config_value(const char *key, const char *value, const char *where)
{
	for (int i = 0; i < command_line->argc; i++)
		if (strcmp(command_line->argv[i].key, key) == 0)
			return true;
	const struct plugin_option *o = find_option(key);
	if (!o || !o->in_config)
		return false;
	bool ok = apply_option(o, value);
	if (!ok)
		error("selinst: %s: bad value for %qs in the selection file", where, key);
	return ok;
}

/* The earlier argument before argument I with its key, or NULL. */
static const struct plugin_argument *earlier_argument(struct plugin_name_args *info, int i)
{
	for (int j = 0; j < i; j++)
		if (strcmp(info->argv[j].key, info->argv[i].key) == 0)
			return &info->argv[j];
	return NULL;
}

static bool same_value(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool parse_arguments(struct plugin_name_args *info)
{
	bool ok = true;
	for (int i = 0; i < info->argc; i++) {
		const char *key = info->argv[i].key;
		const char *value = info->argv[i].value;
		const struct plugin_argument *before = earlier_argument(info, i);
		/* Build systems repeat their flags (gawk's support/ and
		 * extension/ Makefiles put CFLAGS on a compile command twice):
		 * the same value again changes nothing.  Two values, one
		 * would silently win: say so instead. */
		if (before && same_value(before->value, value))
			continue;
		const struct plugin_option *o = find_option(key);
		if (before)
			error("selinst: argument %<-fplugin-arg-%s-%s%> given more "
			      "than once, with different values (%qs, %qs)", info->base_name,
			      key, before->value ? before->value : "", value ? value : "");
		else if (!o)
			error("selinst: unknown argument %<-fplugin-arg-%s-%s%>; "
			      "accepted: %s", info->base_name, key, accepted_keys());
		ok &= !before && o && apply_option(o, value);
	}
	/* The selection file's values, for keys the command line left out. */
	if (ok && config_path) {
		command_line = info;
		ok &= selinst_config_read(config_path, config_value);
	}
	/* After the loop: the drop set needs the budget. */
	if (ok && profile_paths)
		ok &= selinst_feedback_read(profile_paths, base_paths);
	else if (ok && base_paths) {
		error("selinst: argument %<profile-base%> needs %<profile%>");
		ok = false;
	}
	/* One knob by default: loops follow the function threshold. */
	if (!loop_threshold_given)
		mpz_set(selinst_opts.loop_threshold, selinst_opts.model.threshold);
	return ok;
}

/* The file part of PATH (the settings compare files by name: units built
 * in different folders name the same file differently). */
static const char *file_part(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* The settings the unit's decisions depend on, as its .note.selinst says
 * them: effective values, so "threshold=204800" and no argument agree;
 * output-only arguments (decisions, verbose, sites-out) left out. */
const char *selinst_settings_text(void)
{
	static char *text;
	if (text)
		return text;
	char *thr = mpz_get_str(NULL, 10, selinst_opts.model.threshold);
	char *lthr = mpz_get_str(NULL, 10, selinst_opts.loop_threshold);
	char *bw = mpz_get_str(NULL, 10, selinst_opts.model.block_weight);
	char *lb = mpz_get_str(NULL, 10, selinst_opts.model.loop_base);
	char *lu = mpz_get_str(NULL, 10, selinst_opts.model.loop_unit);
	char *cu = mpz_get_str(NULL, 10, selinst_opts.model.call_unit);
	text = xasprintf("model=%s threshold=%s loop-threshold=%s loops=%s block-weight=%s "
			 "loop-base=%s loop-unit=%s call-unit=%s%s%s%s%s%s%s%s%s",
			 selinst_opts.model.refined ? CM_MODEL_DEFAULT_NAME : CM_MODEL_PAPER_NAME,
			 thr, lthr, selinst_opts.loops ? "on" : "off", bw, lb, lu, cu,
			 config_path ? " config=" : "", config_path ? file_part(config_path) : "",
			 profile_paths ? " profile=" : "", profile_paths ? profile_paths : "",
			 profile_paths ? " budget=" : "",
			 profile_paths ? (budget_value ? budget_value : "1") : "",
			 sites_path ? " sites=" : "", sites_path ? file_part(sites_path) : "");
	free(thr), free(lthr), free(bw), free(lb), free(lu), free(cu);
	return text;
}

/* Loaded into lto1 (the link of -flto objects), the plugin does nothing:
 * units are scored and instrumented when they are compiled.  A link none
 * of whose units was compiled with the plugin would silently give a
 * program without regions (and, linked --as-needed, without the runtime):
 * say so, once, from the first pass gate of the whole-program stage (WPA,
 * or lto1 without partitions), where every unit's variables are in view
 * and the units' notes (instrument.cc) mark the plugin's units. */
static void check_lto_link(void *, void *)
{
	static bool checked;
	if (checked || !in_lto_p || flag_ltrans)
		return;
	checked = true;
	varpool_node *v;
	FOR_EACH_VARIABLE(v)
		if (DECL_NAME(v->decl) && strcmp(IDENTIFIER_POINTER(DECL_NAME(v->decl)),
						 "__selinst_note") == 0)
			return;
	warning(0, "selinst: no unit of this link was compiled with the plugin, so nothing is "
		"instrumented; with %<-flto%>, give %<-fplugin=selinst.so%> when compiling the "
		"units (at link time it does nothing)");
}

/* __attribute__((selinst_instrument)): no arguments, functions only. */
static tree handle_instrument_attribute(tree *node, tree name, tree, int,
					bool *no_add_attrs)
{
	if (TREE_CODE(*node) != FUNCTION_DECL) {
		warning(OPT_Wattributes, "%qE attribute applies to functions only",
			name);
		*no_add_attrs = true;
	}
	return NULL_TREE;
}

static struct attribute_spec instrument_attribute = {
	"selinst_instrument", 0, 0, true, false, false, false,
	handle_instrument_attribute, NULL
};

static void register_attributes(void *, void *)
{
	register_attribute(&instrument_attribute);
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	struct plugin_gcc_version built_for = gcc_version;
#ifdef SELINST_TEST_BUILT_FOR
	/* t-plugin-args.sh builds a copy that claims another GCC. */
	built_for.basever = SELINST_TEST_BUILT_FOR;
#endif
	if (!plugin_default_version_check(version, &built_for)) {
		error("selinst: this plugin was built for GCC %s (%s) and cannot "
		      "be loaded into GCC %s (%s); rebuild selinst with this "
		      "compiler (%<make PLUGIN_GCC=gcc-N%>)",
		      built_for.basever, built_for.datestamp,
		      version->basever, version->datestamp);
		return 1;
	}

	/* A preprocessing run (-E, -M: the spec file loads the plugin there
	 * so that cc1 accepts the -fplugin-arg-selinst-* options the driver
	 * passes on, configure's "$CC -E" with SELINST_PLUGIN_ARGS): nothing
	 * to instrument, no decision file, the pragmas printed as written. */
	if (flag_preprocess_only)
		return 0;
	cm_constants_init_default(&selinst_opts.model);
	mpz_init_set_ui(selinst_opts.loop_threshold, 204800);
	selinst_opts.loops = true;
	selinst_opts.inline_bodies = true;
	selinst_opts.off_copy = true;
	if (!parse_arguments(info))
		return 1;

	static struct plugin_info about = { SELINST_VERSION, NULL };
	about.help = help_text();
	register_callback(info->base_name, PLUGIN_INFO, NULL, &about);
	register_callback(info->base_name, PLUGIN_ATTRIBUTES, register_attributes, NULL);
	register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
			  (void *) selinst_gc_roots);
	struct register_pass_info pass;
	pass.pass = selinst_make_pass();
	pass.reference_pass_name = "opt_local_passes";	/* see analysis.cc */
	pass.ref_pass_instance_number = 1;
	pass.pos_op = PASS_POS_INSERT_BEFORE;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
	struct register_pass_info counters;	/* see loopcounter.cc */
	counters.pass = selinst_make_counter_pass();
	counters.reference_pass_name = "optimized";
	counters.ref_pass_instance_number = 1;
	counters.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &counters);
	struct register_pass_info lto_link;	/* see lto.cc */
	lto_link.pass = selinst_make_lto_pass();
	lto_link.reference_pass_name = "inline";
	lto_link.ref_pass_instance_number = 1;
	lto_link.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &lto_link);
	register_callback(info->base_name, PLUGIN_ALL_PASSES_START, selinst_lto_fold, NULL);
	register_callback(info->base_name, PLUGIN_PRE_GENERICIZE,
			  selinst_remember_loop_keywords, NULL);
	register_callback(info->base_name, PLUGIN_PRAGMAS, selinst_register_pragmas, NULL);
	register_callback(info->base_name, PLUGIN_OVERRIDE_GATE, check_lto_link, NULL);
	register_callback(info->base_name, PLUGIN_PASS_EXECUTION, selinst_quiet_copies, NULL);
	return 0;
}
