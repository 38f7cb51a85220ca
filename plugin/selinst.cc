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
 * no_instrument_function forbids it.
 *
 * The order below follows the kernel's plugins: check the GCC version,
 * parse every argument (rejecting unknown ones), then register callbacks.
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"

int plugin_is_GPL_compatible;

struct selinst_options selinst_opts;

static struct plugin_info selinst_info = {
	"0.1",
	"compile-time selective instrumentation; see README.md.\n"
	"  -fplugin-arg-selinst-threshold=N  -fplugin-arg-selinst-decisions=FILE\n"
	"  -fplugin-arg-selinst-verbose  -fplugin-arg-selinst-config=FILE\n"
	"  -fplugin-arg-selinst-profile=FILE[:FILE...]  -fplugin-arg-selinst-budget=PCT"
};

static const char accepted_keys[] =
	"threshold=N, decisions=FILE, verbose, loop-threshold=N, loops=on|off, "
	"model=default|paper, sites=FILE, sites-out=FILE, config=FILE, "
	"profile=FILE[:FILE...], budget=PCT, block-weight=N, loop-base=N, loop-unit=N, call-unit=N";

/* model=default (the paper's formula plus the refinements documented in
 * cost-model.h) or model=paper (the formula alone). */
static bool parse_model(const char *value)
{
	if (value && strcmp(value, CM_MODEL_DEFAULT_NAME) == 0)
		selinst_opts.model.refined = 1;
	else if (value && strcmp(value, CM_MODEL_PAPER_NAME) == 0)
		selinst_opts.model.refined = 0;
	else {
		/* One message for both cases: the accepted names matter most. */
		error("selinst: %s %qs for argument %<model%>; accepted models: "
		      "%qs (the formula of the paper plus documented refinements) "
		      "and %qs (the formula alone)",
		      value ? "unknown model" : "no model given:", value ? value : "",
		      CM_MODEL_DEFAULT_NAME, CM_MODEL_PAPER_NAME);
		return false;
	}
	return true;
}

/* A non-negative decimal integer of any size: digits only. */
static bool parse_natural(const char *key, const char *value, mpz_t out)
{
	if (value == NULL || *value == '\0') {
		error("selinst: argument %qs needs a value: "
		      "%<-fplugin-arg-selinst-%s=N%> with N a non-negative integer",
		      key, key);
		return false;
	}
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

/* The arguments that set the model's numbers and switches (also read
 * from a selection file, config.cc): false when KEY is not one of them,
 * else *OK &= whether VALUE is good. */
static bool loop_threshold_given;
static bool value_argument(const char *key, const char *value, bool *ok)
{
	if (strcmp(key, "threshold") == 0)
		*ok &= parse_natural(key, value, selinst_opts.model.threshold);
	else if (strcmp(key, "loop-threshold") == 0) {
		*ok &= parse_natural(key, value, selinst_opts.loop_threshold);
		loop_threshold_given = true;
	}
	else if (strcmp(key, "loops") == 0) {
		if (value && strcmp(value, "on") == 0)
			selinst_opts.loops = true;
		else if (value && strcmp(value, "off") == 0)
			selinst_opts.loops = false;
		else {
			if (value)
				error("selinst: bad value %qs for argument %<loops%>: "
				      "expected %<on%> or %<off%>", value);
			else
				error("selinst: argument %<loops%> needs a value: "
				      "%<-fplugin-arg-selinst-loops=on%> or %<=off%>");
			*ok = false;
		}
	} else if (strcmp(key, "model") == 0)
		*ok &= parse_model(value);
	else if (strcmp(key, "block-weight") == 0)
		*ok &= parse_natural(key, value, selinst_opts.model.block_weight);
	else if (strcmp(key, "loop-base") == 0)
		*ok &= parse_natural(key, value, selinst_opts.model.loop_base);
	else if (strcmp(key, "loop-unit") == 0)
		*ok &= parse_natural(key, value, selinst_opts.model.loop_unit);
	else if (strcmp(key, "call-unit") == 0)
		*ok &= parse_natural(key, value, selinst_opts.model.call_unit);
	else
		return false;
	return true;
}

/* A value from the selection file (WHERE: "FILE:LINE"): the command line
 * wins. */
static struct plugin_name_args *command_line;
static bool config_value(const char *key, const char *value, const char *where)
{
	for (int i = 0; i < command_line->argc; i++)
		if (strcmp(command_line->argv[i].key, key) == 0)
			return true;
	bool ok = true;
	value_argument(key, value, &ok);
	if (!ok)
		error("selinst: %s: bad value for %qs in the selection file", where, key);
	return ok;
}

static bool parse_arguments(struct plugin_name_args *info)
{
	bool ok = true;
	const char *config_path = NULL, *profiles = NULL;
	for (int i = 0; i < info->argc; i++) {
		const char *key = info->argv[i].key;
		const char *value = info->argv[i].value;
		/* Given twice, one would silently win: say so instead. */
		bool repeated = false;
		for (int j = 0; j < i; j++)
			if (strcmp(info->argv[j].key, key) == 0)
				repeated = true;
		if (repeated) {
			error("selinst: argument %<-fplugin-arg-%s-%s%> given more "
			      "than once", info->base_name, key);
			ok = false;
			continue;
		}
		if (value_argument(key, value, &ok))
			;
		else if (strcmp(key, "sites") == 0 || strcmp(key, "sites-out") == 0) {
			if (value == NULL || *value == '\0') {
				error("selinst: argument %qs needs a file name: "
				      "%<-fplugin-arg-selinst-%s=FILE%>", key, key);
				ok = false;
			} else if (strcmp(key, "sites") == 0)
				ok &= selinst_sites_read(value);
			else
				selinst_opts.sites_out = xstrdup(value);
		}
		else if (strcmp(key, "config") == 0) {
			if (value == NULL || *value == '\0') {
				error("selinst: argument %<config%> needs a file name: "
				      "%<-fplugin-arg-selinst-config=FILE%>");
				ok = false;
			} else
				config_path = value;
		}
		else if (strcmp(key, "profile") == 0) {
			if (value == NULL || *value == '\0') {
				error("selinst: argument %<profile%> needs a file name: "
				      "%<-fplugin-arg-selinst-profile=FILE[:FILE...]%>");
				ok = false;
			} else
				profiles = value;
		} else if (strcmp(key, "budget") == 0)
			ok &= selinst_feedback_budget(value);
		else if (strcmp(key, "decisions") == 0) {
			if (value == NULL || *value == '\0') {
				error("selinst: argument %<decisions%> needs a "
				      "file name: %<-fplugin-arg-selinst-decisions=FILE%>");
				ok = false;
			} else {
				selinst_opts.decisions_path = xstrdup(value);
				ok &= selinst_decisions_file_check(value);
			}
		} else if (strcmp(key, "verbose") == 0) {
			if (value != NULL) {
				error("selinst: argument %<verbose%> takes no value "
				      "(got %qs)", value);
				ok = false;
			}
			selinst_opts.verbose = true;
		} else {
			error("selinst: unknown argument %<-fplugin-arg-%s-%s%>; "
			      "accepted: %s", info->base_name, key, accepted_keys);
			ok = false;
		}
	}
	/* The selection file's values, for keys the command line left out. */
	if (ok && config_path) {
		command_line = info;
		ok &= selinst_config_read(config_path, config_value);
	}
	/* After the loop: the drop set needs the budget. */
	if (ok && profiles)
		ok &= selinst_feedback_read(profiles);
	/* One knob by default: loops follow the function threshold. */
	if (!loop_threshold_given)
		mpz_set(selinst_opts.loop_threshold, selinst_opts.model.threshold);
	return ok;
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

	cm_constants_init_default(&selinst_opts.model);
	mpz_init_set_ui(selinst_opts.loop_threshold, 204800);
	selinst_opts.loops = true;
	if (!parse_arguments(info))
		return 1;

	register_callback(info->base_name, PLUGIN_INFO, NULL, &selinst_info);
	register_callback(info->base_name, PLUGIN_ATTRIBUTES, register_attributes, NULL);
	selinst_register_gc_roots(info->base_name);
	selinst_register_passes(info->base_name);
	return 0;
}
