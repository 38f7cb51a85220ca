/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * feedback.cc - measured counts into the next compile (issue 13 point 2):
 * -fplugin-arg-selinst-profile=FILE[:FILE...] and
 * -fplugin-arg-selinst-budget=PCT (default 1).
 *
 * Input: profiles written by libselinst (doc/profile-format.md, version 1)
 * or the merged JSON of `selinst-report --format=json` (which records no
 * hook_pair_ns: 20 ns is assumed, as --suggest does).  All files must name
 * the same program (the base name of `program`); the compiler cannot know
 * which program the unit will be linked into, so that is all it checks.
 * A missing, unparsable, truncated (no `end: true`) or newer-version file
 * is a compile error naming the file (and line for YAML).
 *
 * Regions are summed over every file by (kind, name, base name of file):
 * functions by their region name, loops by "<file>:<line>" as the profile
 * names them, so a loop that moved is unmatched and a function that moved
 * within its file still matches.
 *
 * Predicted cost of a region (include/selinst-predict.h, which
 * `selinst-report --suggest` shares) = (calls x hook_pair_ns (the mean
 * over the files) + selinst_predict_extra_ns (a function's calls x the
 * inlining it loses, a loop's iterations x its counter, its profile
 * nodes x their write)) / run time, where the run time is the
 * threads' CPU time (cpu_ns; a thread without one: its nodes' exclusive
 * time, i.e. wall clock) over the files MINUS what the measured hooks
 * cost (at least a tenth of the sum): the share of a run without
 * those hooks, which is what the next build's kept hooks add to.  A
 * thread's pairs cost, in that subtraction, what it measured in situ
 * when it was sampled (thread_pairs_ns), else calls x the calibrated
 * pair.  From a heavily instrumented first run (threshold=0: hooks 57% of
 * bt's run, 96% of zstd's) shares over the run with its hooks are too low
 * by that factor (bt: predicted 0.96%, measured +2.18%), and a pair 12%
 * dearer than calibrated made zstd's 5 times too low.  The same cost in
 * instructions (region_insns) goes to the decision file's summary.
 *
 * The drop set depends on the profiles and the budget alone, so every
 * unit agrees on it:
 *   - regions the runtime throttled are dropped (their calls are a lower
 *     bound; the throttle found them cheap per call);
 *   - then, while the kept total exceeds the budget, function and loop
 *     regions are dropped in order of predicted cost per exclusive time,
 *     highest first (the least information for the most hook cost);
 *   - then the dropped regions are taken back, lowest ratio first, while
 *     the total stays within the budget (no region is dropped that the
 *     budget did not need).
 *   Manual regions cannot be dropped, nor the runtime's start-up in each
 *   process (FB_PROCESS_NS); when they alone exceed the budget, the
 *   budget is counted on top of them (as --suggest does).
 * Dropped functions are forced "never" before the model decides, so
 * callers they pulled in are decided without them (their loops are not:
 * a loop has its own entry in the drop set); attributes and the
 * selection file's always/never still win.
 *
 * Bottleneck additions (Paradyn): the one region with the most exclusive
 * time (ties: by name) is the bottleneck.  In the unit that defines it,
 * what the static model left out is added, cheapest estimate first, while
 * the kept total plus the additions stays within the budget:
 *   Added loops' iterations are unknown and not in their estimate.
 *   - function bottleneck F: its loops at nest 1 (estimated entries: F's
 *     calls, one entry per call) and the functions it calls directly,
 *     their calls taken from the profile when it has them, else estimated
 *     as F's calls x the number of call sites when every site in F is
 *     outside loops, else not added (count unknown);
 *     (an estimate also needs the callee not recursive and called from
 *     nowhere else in view: see estimate());
 *   - loop bottleneck L (kept): the loops directly inside it (estimated
 *     entries: L's iterations) and the functions called in it, their
 *     calls from the profile, else L's iterations x the call sites when
 *     every site is directly in L's body (not in an inner loop), else not
 *     added.
 * Only that unit adds, so the budget is not spent twice.
 *
 * Effective counts (effective_counts()): before the model, a measured
 * function's weight counts its loop bodies per measured iteration.
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"
#include "../include/selinst-profile.h"
#include "../include/selinst-predict.h"

#include <yaml.h>
#include <map>
#include <set>
#include <string>
#include <vector>
#include <algorithm>

/* The prediction's constants, shared with selinst-report --suggest. */
#define FB_FALLBACK_PAIR_NS SELINST_PREDICT_FALLBACK_PAIR_NS
#define FB_PROCESS_NS SELINST_PREDICT_PROCESS_NS

enum fb_kind { FB_FUNCTION, FB_LOOP, FB_MANUAL };

struct fb_region {
	enum fb_kind kind;
	std::string name, file, function;
	double calls, excl_ns, iterations;
	double nodes;		/* call-tree nodes over threads and files */
	double kept_nodes;	/* the same with the dropped regions' nodes merged */
	double tree_nodes;	/* nodes in trees (not a merged JSON's) */
	double entries;		/* regions-table entries: the processes that ran it */
	double name_bytes;	/* its name, file and function as written */
	bool throttled;
	bool counted;		/* some entry lacks "counter: folded" (loops) */
	bool drop;
	double cost_pct;
};

static std::map<std::string, fb_region> regions;
static std::string profile_names;	/* "a.prof, b.prof" for reasons */
static std::string program;		/* base name, from the first file */
static const char *program_from;
static double total_ns, pair_sum;
/* The run's length for the predicted shares: per thread its CPU time
 * where the profile has it (cpu_ns), else its exclusive time summed
 * (wall clock), over the files. */
static double time_ns;
static double run_ns = 1;		/* the run without the measured hooks */
/* The measured run's hook pairs: in situ where a thread was sampled
 * enough (see thread_pairs_ns), else calls x the file's hook_pair_ns;
 * and all of them at the calibrated pair (for the summary's ratio). */
static double pairs_run_ns, pairs_cal_ns, pairs_run_calls;
static double json_calls;		/* merged JSONs' calls: at pair_ns() */
static int pair_files;
/* Every file's build instrumented everything (threshold 0 for functions
 * and loops: plugin_settings), so that a region of a measured file that
 * no profile names never ran; and the measured files' base names. */
static bool profiled_all = true;
static std::set<std::string> profiled_files;
static int processes;			/* files (profiles) read */
static double budget_pct = 1.0;
static double kept_pct, all_pct;	/* after the drops; before any */
static double added_pct;		/* this unit's additions */
static double kept_insns, added_insns;	/* the same in instructions */
static double unchosen_pct, unchosen_insns;	/* this unit's: see not_chosen() */
static const fb_region *bottleneck;

bool selinst_feedback_active(void)
{
	return !regions.empty() || total_ns > 0;
}

static std::string region_key(enum fb_kind kind, const char *name, const char *file)
{
	std::string k(1, (char)('0' + kind));
	k += '\t';
	k += name;
	k += '\t';
	k += lbasename(file ? file : "");
	return k;
}

/* The reader of one file. */
struct fb_reader {
	const char *path;
	yaml_document_t doc;
	bool ok;
};

static void fb_error(fb_reader *r, const yaml_node_t *n, const char *fmt, ...)
	ATTRIBUTE_PRINTF_3;
static void fb_error(fb_reader *r, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (n)
		error("selinst: %s:%lu: %s", r->path, (unsigned long)n->start_mark.line + 1, msg);
	else
		error("selinst: %s: %s", r->path, msg);
	free(msg);
	r->ok = false;
}

static yaml_node_t *get(fb_reader *r, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&r->doc, p->key);
		if (k && k->type == YAML_SCALAR_NODE
		    && !strcmp((const char *)k->data.scalar.value, key))
			return yaml_document_get_node(&r->doc, p->value);
	}
	return NULL;
}

static const char *str(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A non-negative number (integer or decimal); false with an error when
 * it is something else. */
static bool num(fb_reader *r, yaml_node_t *n, const char *what, double *out)
{
	const char *s = str(n);
	char *end = (char *) s;	/* an empty value: end == s, no number */
	double v = s && *s ? strtod(s, &end) : -1;
	if (!s || end == s || *end || !(v >= 0)) {
		fb_error(r, n, "expected a non-negative number for '%s'", what);
		return false;
	}
	*out = v;
	return true;
}

static yaml_node_t *seq_item(fb_reader *r, yaml_node_item_t *i)
{
	return yaml_document_get_node(&r->doc, *i);
}

static bool is_seq(yaml_node_t *n)
{
	return n && n->type == YAML_SEQUENCE_NODE;
}

/* Both formats: the program name, equal in every file. */
static void check_program(fb_reader *r, yaml_node_t *node)
{
	const char *p = str(node);
	if (!p) {
		fb_error(r, node, "no 'program' recorded");
		return;
	}
	std::string base = lbasename(p);
	processes++;
	if (!program_from) {
		program = base;
		program_from = xstrdup(r->path);	/* the argument's copy is freed */
	} else if (program != base)
		error("selinst: %s: a profile of %qs, but %s is a profile of %qs: the "
		      "profiles given to %<-fplugin-arg-selinst-profile%> (and "
		      "%<profile-base%>) must come from one program", r->path, base.c_str(),
		      program_from, program.c_str());
}

static fb_region *region_of(fb_reader *r, yaml_node_t *reg)
{
	const char *kind = str(get(r, reg, "kind")), *name = str(get(r, reg, "name"));
	const char *file = str(get(r, reg, "file"));
	if (!kind || !name || !file) {
		fb_error(r, reg, "a region needs kind, name and file");
		return NULL;
	}
	enum fb_kind k = !strcmp(kind, "loop") ? FB_LOOP
		: !strcmp(kind, "function") ? FB_FUNCTION : FB_MANUAL;
	fb_region &fr = regions[region_key(k, name, file)];
	profiled_files.insert(lbasename(file));
	if (fr.name.empty()) {
		fr.kind = k;
		fr.name = name;
		fr.file = file;
		const char *fn = str(get(r, reg, "function"));
		fr.function = fn ? fn : "";
		fr.name_bytes = strlen(name) + strlen(file) + fr.function.size();
	}
	if (get(r, reg, "throttled"))
		fr.throttled = true;
	const char *counter = str(get(r, reg, SELINST_PROFILE_COUNTER));
	if (!counter || strcmp(counter, SELINST_PROFILE_COUNTER_FOLDED))
		fr.counted = true;
	fr.entries++;
	return &fr;
}

/* A thread's length for the shares: its CPU time (cpu_ns; "~" when the
 * runtime could not read it), at most its wall-clock time EXCL.  The
 * hooks cost CPU time, and a profile taken on a loaded machine has
 * preempted time in its wall clock: bt's first run under load, 1.2 s of
 * exclusive time for 0.83 s of CPU, predicted its feedback build at 0.94%
 * and measured +3.41% CPU time (the same run's CPU time: 3.60%). */
static double thread_time(fb_reader *r, yaml_node_t *thread, double excl)
{
	const char *s = str(get(r, thread, "cpu_ns"));
	char *end = (char *) s;	/* an empty value: end == s, no number */
	double cpu = s && *s ? strtod(s, &end) : -1;
	if (!s || end == s || *end)
		cpu = -1;
	return selinst_predict_thread_time(cpu, excl);
}

/* Every thread's call tree: its nodes' regions and parents, so that the
 * nodes the next run writes can be counted once the drops are known
 * (count_kept_nodes). */
struct fb_node {
	double id, parent;
	fb_region *region;
};
static std::vector<std::vector<fb_node> > trees;

/* One thread's NODES into the regions (BY_ID: the profile's ids); adds
 * the thread's calls (function and loop entries) to *CALLS. */
static void read_nodes(fb_reader *r, yaml_node_t *nodes, std::vector<fb_region *> &by_id,
		       double *calls_sum)
{
	trees.push_back(std::vector<fb_node>());
	for (yaml_node_item_t *i = nodes->data.sequence.items.start;
	     r->ok && i < nodes->data.sequence.items.top; i++) {
		yaml_node_t *n = seq_item(r, i);
		double id, calls, excl, iters = 0, nid = -1, parent = -1;
		if (!num(r, get(r, n, "region"), "region", &id)
		    || !num(r, get(r, n, "calls"), "calls", &calls)
		    || !num(r, get(r, n, "exclusive_ns"), "exclusive_ns", &excl))
			return;
		if (get(r, n, "iterations")
		    && !num(r, get(r, n, "iterations"), "iterations", &iters))
			return;
		if (id >= by_id.size()) {
			fb_error(r, n, "node names region %s, not in 'regions'",
				 str(get(r, n, "region")));
			return;
		}
		by_id[(size_t)id]->calls += calls;
		by_id[(size_t)id]->excl_ns += excl;
		by_id[(size_t)id]->iterations += iters;
		by_id[(size_t)id]->nodes++;
		if (get(r, n, "id") && get(r, n, "parent")
		    && num(r, get(r, n, "id"), "id", &nid)
		    && num(r, get(r, n, "parent"), "parent", &parent))
		{
			trees.back().push_back(fb_node { nid, parent, by_id[(size_t)id] });
			by_id[(size_t)id]->tree_nodes++;
		}
		*calls_sum += calls;
		total_ns += excl;
	}
}

/* What the hook pairs of one thread (CALLS of them, TIME_NS its length)
 * cost in the run (selinst_predict_thread_pairs_ns): in situ when it was
 * sampled (SELINST_SAMPLE) and enough samples found a hook running; else
 * CALLS x PAIR (calibrated at start-up with one region, in cache: zstd's
 * threshold-0 run paid 20.5 ns a pair where 19.1 were calibrated; in a
 * run that is 96% hooks such an error is the size of the run without
 * them, which a lighter run then measures: profile-base=). */
static double thread_pairs_ns(fb_reader *r, yaml_node_t *thread, double calls, double pair,
			      double time)
{
	double samples = 0, in_hooks = 0;
	yaml_node_t *s = get(r, thread, "samples"), *h = get(r, thread, "samples_in_runtime");
	if (!s || !h || !num(r, s, "samples", &samples)
	    || !num(r, h, "samples_in_runtime", &in_hooks))
		return calls * pair;
	return selinst_predict_thread_pairs_ns(calls, pair, time, samples, in_hooks);
}

/* Whether one plugin_settings text (selinst_settings_text) instruments
 * every function and loop: threshold 0 for both, loops on, no selection
 * file and no profile (whose drops leave regions out). */
static bool settings_all(const char *s)
{
	bool fn = false, loops = false, narrowed = false;
	char *copy = xstrdup(s);
	for (char *save = NULL, *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		fn |= !strcmp(t, "threshold=0");
		loops |= !strcmp(t, "loop-threshold=0");
		narrowed |= !strcmp(t, "loops=off") || startswith(t, "config=")
			|| startswith(t, "profile=");
	}
	free(copy);
	return fn && loops && !narrowed;
}

/* plugin_settings ([{units, settings}]): every unit's at threshold 0? */
static void read_settings(fb_reader *r, yaml_node_t *list)
{
	if (!is_seq(list) || list->data.sequence.items.start == list->data.sequence.items.top) {
		profiled_all = false;
		return;
	}
	for (yaml_node_item_t *i = list->data.sequence.items.start;
	     i < list->data.sequence.items.top; i++) {
		const char *s = str(get(r, seq_item(r, i), "settings"));
		profiled_all &= s && settings_all(s);
	}
}

/* A libselinst profile: regions by id, then every thread's nodes. */
static void read_profile(fb_reader *r, yaml_node_t *root)
{
	read_settings(r, get(r, root, "plugin_settings"));
	check_program(r, get(r, root, "program"));
	yaml_node_t *pair = get(r, root, "hook_pair_ns");
	double pns = FB_FALLBACK_PAIR_NS;
	if (pair && num(r, pair, "hook_pair_ns", &pns)) {
		pair_sum += pns;
		pair_files++;
	}
	yaml_node_t *regs = get(r, root, "regions"), *threads = get(r, root, "threads");
	if (!is_seq(regs) || !is_seq(threads)) {
		fb_error(r, root, "no 'regions' or 'threads' list");
		return;
	}
	std::vector<fb_region *> by_id;
	for (yaml_node_item_t *i = regs->data.sequence.items.start;
	     r->ok && i < regs->data.sequence.items.top; i++)
		by_id.push_back(region_of(r, seq_item(r, i)));
	for (yaml_node_item_t *t = threads->data.sequence.items.start;
	     r->ok && t < threads->data.sequence.items.top; t++) {
		yaml_node_t *nodes = get(r, seq_item(r, t), "nodes");
		if (!is_seq(nodes))
			continue;
		double before = total_ns, calls = 0;
		read_nodes(r, nodes, by_id, &calls);
		double time = thread_time(r, seq_item(r, t), total_ns - before);
		time_ns += time;
		pairs_run_ns += thread_pairs_ns(r, seq_item(r, t), calls, pns, time);
		pairs_cal_ns += calls * pns;
		pairs_run_calls += calls;
	}
}

/* The merged JSON of selinst-report --format=json: per-region sums. */
static void read_report_json(fb_reader *r, yaml_node_t *root)
{
	yaml_node_t *files = get(r, root, "files"), *regs = get(r, root, "regions");
	double total;
	if (!is_seq(files) || !is_seq(regs)
	    || !num(r, get(r, root, "total_seconds"), "total_seconds", &total)) {
		if (r->ok)
			fb_error(r, root, "no 'files', 'regions' or 'total_seconds'");
		return;
	}
	total_ns += total * 1e9;
	time_ns += total * 1e9;		/* no CPU times in the merged JSON */
	profiled_all = false;		/* nor the builds' settings */
	for (yaml_node_item_t *i = files->data.sequence.items.start;
	     i < files->data.sequence.items.top; i++)
		check_program(r, get(r, seq_item(r, i), "program"));
	for (yaml_node_item_t *i = regs->data.sequence.items.start;
	     r->ok && i < regs->data.sequence.items.top; i++) {
		yaml_node_t *reg = seq_item(r, i);
		fb_region *fr = region_of(r, reg);
		double calls, excl, iters = 0;
		if (!fr || !num(r, get(r, reg, "calls"), "calls", &calls)
		    || !num(r, get(r, reg, "exclusive_seconds"), "exclusive_seconds", &excl))
			return;
		if (get(r, reg, "iterations")
		    && !num(r, get(r, reg, "iterations"), "iterations", &iters))
			return;
		/* Each process that ran it writes its regions-table entry:
		 * region_of counted one for this file. */
		double procs;
		if (get(r, reg, "processes")
		    && num(r, get(r, reg, "processes"), "processes", &procs) && procs > 1)
			fr->entries += procs - 1;
		if (!r->ok)
			return;
		fr->calls += calls;
		json_calls += calls;
		fr->excl_ns += excl * 1e9;
		fr->iterations += iters;
		fr->nodes += calls > 0;	/* the merged JSON has no nodes */
	}
}

/* format and version, then the end marker (a profile cut at a line break
 * is still valid YAML). */
static void read_root(fb_reader *r, yaml_node_t *root)
{
	const char *format = str(get(r, root, "format"));
	yaml_node_t *version = get(r, root, "version");
	double v;
	bool json = format && !strcmp(format, SELINST_REPORT_JSON_FORMAT);
	if (!format || (strcmp(format, SELINST_PROFILE_FORMAT) && !json)) {
		fb_error(r, root, "not a selinst profile (no 'format: " SELINST_PROFILE_FORMAT
			 "')");
		return;
	}
	if (!num(r, version, "version", &v))
		return;
	int known = json ? SELINST_REPORT_JSON_VERSION : SELINST_PROFILE_VERSION;
	if (v > known) {
		fb_error(r, version, "format version %s is newer than this plugin reads "
			 "(%d); rebuild with a newer selinst", str(version), known);
		return;
	}
	if (json) {
		read_report_json(r, root);
		return;
	}
	const char *end = str(get(r, root, "end"));
	if (!end || strcmp(end, "true")) {
		error("selinst: %s:%lu: profile is truncated (no 'end: true' marker; the "
		      "writer did not finish)", r->path, (unsigned long)root->end_mark.line + 1);
		r->ok = false;
		return;
	}
	read_profile(r, root);
}

static bool read_file(const char *path)
{
	fb_reader r;
	r.path = path;
	r.ok = true;
	FILE *f = fopen(path, "rb");
	if (!f) {
		error("selinst: cannot read profile %qs given by "
		      "%<-fplugin-arg-selinst-profile%>: %s", path, xstrerror(errno));
		return false;
	}
	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	bool loaded = yaml_parser_load(&parser, &r.doc);
	if (!loaded)
		error("selinst: %s:%lu: bad profile (truncated or not YAML/JSON): %s", path,
		      (unsigned long)parser.problem_mark.line + 1,
		      parser.problem ? parser.problem : "parse error");
	yaml_parser_delete(&parser);
	fclose(f);
	if (!loaded)
		return false;
	yaml_node_t *root = yaml_document_get_root_node(&r.doc);
	if (!root || root->type != YAML_MAPPING_NODE)
		fb_error(&r, root, "not a selinst profile (empty or not a mapping)");
	else
		read_root(&r, root);
	yaml_document_delete(&r.doc);
	return r.ok;
}

/* Ratio order: predicted cost per exclusive time, highest first; then
 * the larger cost; then the key (deterministic). */
static bool worse_value(const fb_region *a, const fb_region *b)
{
	long double ra = (long double)a->cost_pct * (b->excl_ns + 1);
	long double rb = (long double)b->cost_pct * (a->excl_ns + 1);
	if (ra != rb)
		return ra > rb;
	if (a->cost_pct != b->cost_pct)
		return a->cost_pct > b->cost_pct;
	if (a->name != b->name)
		return a->name < b->name;
	return a->file < b->file;
}

static double pair_ns(void)
{
	return pair_files ? pair_sum / pair_files : FB_FALLBACK_PAIR_NS;
}

static int predict_kind(enum fb_kind kind)
{
	return kind == FB_FUNCTION ? SELINST_PREDICT_FUNCTION
		: kind == FB_LOOP ? SELINST_PREDICT_LOOP : SELINST_PREDICT_OTHER;
}

/* The iterations that pay for FR's loop counter (selinst-predict.h). */
static double counted_iterations(const fb_region *fr)
{
	return selinst_predict_counted(fr->iterations, !fr->counted);
}

/* A region's predicted cost besides its hook pairs: the inlining its
 * calls lose, its loop counter, the write of its NODES and its entries. */
static double extra_ns(const fb_region *fr, double nodes)
{
	return selinst_predict_extra_ns(predict_kind(fr->kind), fr->calls, counted_iterations(fr),
					nodes, fr->entries, fr->name_bytes);
}

/* A region's predicted hook cost: its calls, and its loop counter. */
static double cost_ns(const fb_region *fr, double nodes)
{
	return fr->calls * pair_ns() + extra_ns(fr, nodes);
}

/* The same cost in instructions (selinst-predict.h), which a run does not
 * measure: absolute counts, for the decision file's summary. */
static double region_insns(const fb_region *fr, double nodes)
{
	return selinst_predict_insns(predict_kind(fr->kind), fr->calls, counted_iterations(fr), nodes,
				     fr->entries, fr->name_bytes);
}

/* The nodes each region kept will have in the next run: a dropped
 * region's node is merged into its parent's, so that its children's
 * nodes under different dropped callers become one (zstd's threshold-0
 * run: 313 nodes of the regions its feedback build kept, 221 in that
 * build's run).  Node ids are in creation order, a parent's before its
 * children's. */
static void count_kept_nodes(void)
{
	for (auto &it : regions)
		it.second.kept_nodes = it.second.nodes - it.second.tree_nodes;
	for (const std::vector<fb_node> &t : trees) {
		std::map<double, long> merged;		/* node id -> context */
		std::map<std::pair<long, fb_region *>, long> context;
		for (const fb_node &n : t) {
			auto p = merged.find(n.parent);
			long parent = p == merged.end() ? -1 : p->second;
			if (n.region->drop) {
				merged[n.id] = parent;
				continue;
			}
			auto key = std::make_pair(parent, n.region);
			auto c = context.find(key);
			if (c == context.end()) {
				c = context.insert(std::make_pair(key, (long)context.size())).first;
				n.region->kept_nodes++;
			}
			merged[n.id] = c->second;
		}
	}
}

/* What the measured run's hooks cost (in situ where measured), and so
 * the run without them (selinst_predict_run_without_hooks); *FLOOR: it
 * is the floor, a tenth of the run (the hooks 90% of it or more: its
 * length without them is not measured, and the shares may be too low by
 * the rest's error: zstd's threshold-0 run, 96% hooks, gave 169.5 ms for
 * a build that runs in about 65). */
static double run_without_hooks(bool *floor)
{
	pairs_run_ns += json_calls * pair_ns();
	pairs_cal_ns += json_calls * pair_ns();
	pairs_run_calls += json_calls;
	json_calls = 0;
	double hooks_ns = pairs_run_ns;
	for (auto &it : regions)
		hooks_ns += extra_ns(&it.second, it.second.nodes);
	*floor = selinst_predict_at_floor(time_ns, hooks_ns);
	return selinst_predict_run_without_hooks(time_ns, hooks_ns);
}

/* profile-base=LIST: the run without hooks from these profiles, of a
 * lighter build of the program (the feedback build of a threshold-0
 * run): its hooks are a small part of it, so their error hardly moves
 * the rest.  Read as the profiles of profile= are, then set aside: their
 * regions and counts are not the feedback's. */
static double base_run_ns;	/* 0: none given */
static bool run_floor;		/* run_ns is the floor (see run_without_hooks) */
static bool base_floor;		/* base_run_ns is */
static std::string base_names;

/* The global drop set: see the header comment. */
static void choose_drops(void)
{
	std::vector<fb_region *> cand;
	double kept = 0, fixed = 0;
	run_ns = run_without_hooks(&run_floor);
	if (base_run_ns > 0) {
		run_ns = base_run_ns;
		run_floor = base_floor;
	}
	for (auto &it : regions) {
		fb_region *fr = &it.second;
		fr->cost_pct = 100.0 * cost_ns(fr, fr->nodes) / run_ns;
		kept += fr->cost_pct;
		if (fr->kind == FB_MANUAL)
			fixed += fr->cost_pct;
		else if (fr->throttled) {
			fr->drop = true;
			kept -= fr->cost_pct;
		} else
			cand.push_back(fr);
		if (!bottleneck || fr->excl_ns > bottleneck->excl_ns)
			bottleneck = fr;	/* map order: ties go to the first key */
	}
	double start_pct = 100.0 * processes * FB_PROCESS_NS / run_ns;
	kept += start_pct;
	fixed += start_pct;
	all_pct = kept;
	double budget = fixed > budget_pct ? budget_pct + fixed : budget_pct;
	std::sort(cand.begin(), cand.end(), worse_value);
	size_t ndropped = 0;
	while (ndropped < cand.size() && kept > budget) {
		cand[ndropped]->drop = true;
		kept -= cand[ndropped++]->cost_pct;
	}
	for (size_t i = ndropped; i-- > 0; )
		if (kept + cand[i]->cost_pct <= budget) {
			cand[i]->drop = false;
			kept += cand[i]->cost_pct;
		}
	/* What is kept, again with the nodes the next run will write. */
	count_kept_nodes();
	kept_pct = start_pct;
	kept_insns = processes * SELINST_PREDICT_PROCESS_INSNS;
	for (auto &it : regions)
		if (!it.second.drop) {
			kept_pct += 100.0 * cost_ns(&it.second, it.second.kept_nodes) / run_ns;
			kept_insns += region_insns(&it.second, it.second.kept_nodes);
		}
	if (bottleneck && (bottleneck->kind == FB_MANUAL || bottleneck->excl_ns <= 0))
		bottleneck = NULL;
}

/* Reads every file of LIST (FILE[:FILE...]); their base names are added
 * to *NAMES.  ARG: the argument's name, for the error. */
static bool read_list(const char *list, std::string *names, const char *arg)
{
	bool ok = true;
	size_t before = names->size();
	char *copy = xstrdup(list);
	for (char *save = NULL, *p = strtok_r(copy, ":", &save); p;
	     p = strtok_r(NULL, ":", &save)) {
		ok &= read_file(p);
		if (!names->empty())
			*names += ", ";
		*names += lbasename(p);
	}
	free(copy);
	if (ok && names->size() == before) {
		error("selinst: argument %qs names no file", arg);
		ok = false;
	}
	return ok;
}

static bool read_base(const char *list)
{
	std::map<std::string, fb_region> own;
	own.swap(regions);
	std::set<std::string> files;
	files.swap(profiled_files);
	std::vector<std::vector<fb_node> > own_trees;	/* the base's point into its regions */
	own_trees.swap(trees);
	bool all = profiled_all;
	double saved[] = { total_ns, time_ns, pair_sum, pairs_run_ns, pairs_cal_ns,
			   pairs_run_calls, json_calls };
	int saved_files = pair_files, saved_processes = processes;
	total_ns = time_ns = pair_sum = pairs_run_ns = pairs_cal_ns = 0;
	pairs_run_calls = json_calls = 0;
	pair_files = processes = 0;
	bool ok = read_list(list, &base_names, "profile-base");
	if (ok && !seen_error())
		base_run_ns = run_without_hooks(&base_floor);
	own.swap(regions);
	files.swap(profiled_files);
	own_trees.swap(trees);
	profiled_all = all;
	total_ns = saved[0], time_ns = saved[1], pair_sum = saved[2];
	pairs_run_ns = saved[3], pairs_cal_ns = saved[4], pairs_run_calls = saved[5];
	json_calls = saved[6];
	pair_files = saved_files, processes = saved_processes;
	return ok;
}

/* At argument time: LIST is FILE[:FILE...]; BASE (or NULL) profile-base=. */
bool selinst_feedback_read(const char *list, const char *base)
{
	bool ok = read_list(list, &profile_names, "profile");
	if (ok && base)
		ok = read_base(base);
	if (ok && !seen_error())
		choose_drops();
	return ok && !seen_error();
}

bool selinst_feedback_budget(const char *value)
{
	char *end = (char *) value;
	double v = value && *value ? strtod(value, &end) : -1;
	if (!value || end == value || *end || !(v >= 0) || v > 100) {
		error("selinst: bad value %qs for argument %<budget%>: expected a "
		      "percentage of the run from 0 to 100 (e.g. 1 or 0.5)", value ? value : "");
		return false;
	}
	budget_pct = v;
	return true;
}

static const fb_region *lookup(enum fb_kind kind, const char *name, const char *file)
{
	auto it = regions.find(region_key(kind, name, file));
	return it == regions.end() ? NULL : &it->second;
}

static const char *drop_reason(const fb_region *fr)
{
	if (fr->throttled)
		return xasprintf("dropped: throttled at run time, predicted >= %.2f%% "
				 "(profile %s)", fr->cost_pct, profile_names.c_str());
	if (fr->cost_pct > budget_pct)
		return xasprintf("dropped: predicted %.2f%% > budget %g%% (profile %s)",
				 fr->cost_pct, budget_pct, profile_names.c_str());
	return xasprintf("dropped: predicted %.2f%%, all regions %.2f%% > budget %g%% "
			 "(profile %s)", fr->cost_pct, all_pct, budget_pct,
			 profile_names.c_str());
}

/* Effective counts: the reason notes of this unit's functions whose
 * weight they changed (by declaration), for selinst_feedback_apply. */
static std::map<tree, std::string> effective_note;

/* How often loop K of FN's body runs per call of FN (FN_CALLS calls):
 * its measured iterations per call when the profile has the loop, else
 * its enclosing loop's factor, else 1 (the static count: once). */
static double loop_factor(const selinst_function *fn, unsigned k, double fn_calls)
{
	const selinst_loop *l = &fn->loops[k];
	const fb_region *fr = lookup(FB_LOOP, l->name, l->file);
	if (fr)
		return fr->iterations / fn_calls;
	for (unsigned j = 0; l->outer_header >= 0 && j < fn->nloops; j++)
		if (fn->loops[j].header == l->outer_header)
			return loop_factor(fn, j, fn_calls);
	return 1;
}

/* One metric, effective: each loop's own part (its body less its inner
 * loops') counted its factor times instead of once. */
static unsigned long effective(unsigned long whole, const selinst_function *fn,
			       const std::vector<double> &factor,
			       unsigned long selinst_loop::*metric)
{
	double v = whole;
	for (unsigned k = 0; k < fn->nloops; k++) {
		double own = fn->loops[k].*metric;
		for (unsigned c = 0; c < fn->nloops; c++)
			if (fn->loops[c].outer_header == fn->loops[k].header)
				own -= fn->loops[c].*metric;
		v += (factor[k] - 1) * MAX(own, 0.0);
	}
	return v < 0 ? 0 : v > 1e15 ? (unsigned long)1e15 : (unsigned long)(v + 0.5);
}

/* The OpenUH paper: when runtime information is known, the weight "will
 * use the effective number of basic blocks, statements and callsites
 * invoked at runtime".  For a function the profile measured (calls > 0)
 * with at least one measured loop, its blocks, statements and call sites
 * become those run per call: a loop body counts its iterations per call
 * (0 for a loop that never ran) instead of once.  A function at depth 1
 * whose small loop runs a thousand times per call then reaches the
 * threshold, and one whose large loop never runs no longer does.
 * Functions or loops the profile lacks keep the static counts. */
static void effective_counts(selinst_function *fn)
{
	const fb_region *ff = lookup(FB_FUNCTION, fn->name, fn->file);
	if (!ff || !(ff->calls > 0))
		return;
	std::vector<double> factor(fn->nloops);
	bool measured = false;
	for (unsigned k = 0; k < fn->nloops; k++) {
		factor[k] = loop_factor(fn, k, ff->calls);
		measured |= lookup(FB_LOOP, fn->loops[k].name, fn->loops[k].file) != NULL;
	}
	if (!measured)
		return;
	cm_function *cm = &fn->cm;
	mpz_t before;
	mpz_init(before);
	cm_weight(before, &selinst_opts.model, cm->basic_blocks, cm->statements, cm->call_sites);
	cm->basic_blocks = effective(cm->basic_blocks, fn, factor, &selinst_loop::basic_blocks);
	cm->statements = effective(cm->statements, fn, factor, &selinst_loop::statements);
	cm->call_sites = effective(cm->call_sites, fn, factor, &selinst_loop::call_sites);
	char *w = mpz_get_str(NULL, 10, before);
	effective_note[fn->decl] = std::string("effective weight from measured loop "
		"iterations per call; static weight ") + w;
	free(w);
	mpz_clear(before);
}

/* A region the profiles do not name although every build they came from
 * instrumented everything and measured its file: it never ran in those
 * runs.  Chosen anyway (the static model at threshold 0 chooses it), it
 * tells nothing and costs its host's inlining: Lua's loops of classend
 * and l_str2int, never entered, kept those hot functions out of line,
 * and lessthanothers, never called, made luaV_lessthan too large to
 * inline (+2.2% instructions for 1.0% predicted). */
static bool never_ran(enum fb_kind kind, const char *name, const char *file)
{
	return profiled_all && !regions.empty() && !lookup(kind, name, file)
		&& profiled_files.count(lbasename(file ? file : ""));
}

static const char *never_ran_reason(void)
{
	return xasprintf("dropped: not run (profile %s of a build that instrumented "
			 "everything)", profile_names.c_str());
}

/* Before the model: a dropped function is forced never; the others'
 * weights use the effective counts. */
void selinst_feedback_force(struct selinst_function *fn)
{
	if (!selinst_feedback_active())
		return;
	effective_counts(fn);
	if (fn->cm.force != CM_FORCE_NONE)
		return;
	if (never_ran(FB_FUNCTION, fn->name, fn->file)) {
		fn->cm.force = CM_FORCE_NEVER;
		fn->cm.force_reason = never_ran_reason();
		fn->dropped_by_profile = true;
		return;
	}
	const fb_region *fr = lookup(FB_FUNCTION, fn->name, fn->file);
	if (fr && fr->drop) {
		fn->cm.force = CM_FORCE_NEVER;
		fn->cm.force_reason = drop_reason(fr);
		fn->dropped_by_profile = true;
	}
}

static const char *kept_reason(const fb_region *fr, const char *why)
{
	return xasprintf("kept: predicted %.2f%% (%s)", fr->cost_pct, why);
}

/* An addition candidate of this unit. */
struct fb_addition {
	double cost_pct, insns;
	const char *what;	/* for ordering: name */
	selinst_function *fn;	/* function to add, or the loop's owner */
	selinst_loop *loop;	/* loop to add, or NULL */
	std::string why;
};

static bool cheaper(const fb_addition &a, const fb_addition &b)
{
	if (a.cost_pct != b.cost_pct)
		return a.cost_pct < b.cost_pct;
	return strcmp(a.what, b.what) < 0;
}

static bool loop_left_by_score(const selinst_loop *l)
{
	return !l->instrument && selinst_opts.loops
		&& (!strcmp(l->reason, "score < loop-threshold")
		    || !strcmp(l->reason, CM_PULL_DEPTH_REASON));
}

/* A callee of the bottleneck as a candidate: its calls from the profile,
 * else EST_CALLS (< 0: unknown, not added). */
static void add_callee(std::vector<fb_addition> &out, selinst_function *callee,
		       double est_calls, const char *where)
{
	if (callee->cm.instrument || callee->cm.force != CM_FORCE_NONE)
		return;
	const fb_region *fr = lookup(FB_FUNCTION, callee->name, callee->file);
	double calls = fr ? fr->calls : est_calls;
	if (calls < 0)
		return;
	for (size_t i = 0; i < out.size(); i++)
		if (out[i].fn == callee && !out[i].loop)
			return;
	fb_addition a;
	a.cost_pct = 100.0 * (calls * pair_ns()
			      + selinst_predict_extra_ns(SELINST_PREDICT_FUNCTION, calls, 0,
							 processes, processes,
							 strlen(callee->name) + strlen(callee->file)))
		/ run_ns;
	a.insns = selinst_predict_insns(SELINST_PREDICT_FUNCTION, calls, 0, processes, processes,
					strlen(callee->name) + strlen(callee->file));
	a.what = callee->name;
	a.fn = callee;
	a.loop = NULL;
	a.why = std::string(where) + (fr ? "" : ", calls estimated");
	out.push_back(a);
}

static std::string bottleneck_where(const char *kind)
{
	char share[32];
	snprintf(share, sizeof share, "%.0f%%", 100.0 * bottleneck->excl_ns
		 / (total_ns > 0 ? total_ns : 1));
	return std::string(kind) + " added: in bottleneck " + bottleneck->name + " ("
		+ share + " exclusive)";
}

static bool is_bottleneck(enum fb_kind kind, const char *name, const char *file)
{
	return region_key(kind, name, file)
		== region_key(bottleneck->kind, bottleneck->name.c_str(), bottleneck->file.c_str());
}

static void add_loop(std::vector<fb_addition> &out, selinst_function *f, selinst_loop *l,
		     double entries)
{
	fb_addition a;
	double name_bytes = strlen(l->name) + strlen(l->file) + strlen(f->name);
	a.cost_pct = 100.0 * (entries * pair_ns()
			      + selinst_predict_extra_ns(SELINST_PREDICT_LOOP, entries, 0, processes,
							 processes, name_bytes))
		/ run_ns;
	a.insns = selinst_predict_insns(SELINST_PREDICT_LOOP, entries, 0, processes, processes,
					name_bytes);
	a.what = l->name;
	a.fn = f;
	a.loop = l;
	a.why = bottleneck_where("loop") + ", entries estimated";
	out.push_back(a);
}

/* The estimate of a callee's calls from the bottleneck's counts holds
 * only when the bottleneck's SITES call sites are all the calls it gets:
 * no other caller in view (its calls from there are unknown), the same
 * number of edges from the bottleneck's function, and not recursive (a
 * recursive descent calls itself far more often than it is entered:
 * cJSON's parse_value, estimated 1 call, made 84,001).  Else -1. */
static double estimate(const selinst_function *fns, size_t callee, size_t caller,
		       double sites, double count, const cm_call_edge *edges, size_t nedges)
{
	double from_caller = 0;
	for (size_t e = 0; e < nedges; e++)
		if (edges[e].callee == callee) {
			if (edges[e].caller != caller)
				return -1;
			from_caller++;
		}
	if (sites < 0 || from_caller != sites || fns[callee].cm.recursive)
		return -1;
	return sites * count;
}

/* Function bottleneck F (index I): loops at nest 1, and callees. */
static void function_candidates(std::vector<fb_addition> &out, selinst_function *fns,
				size_t i, const cm_call_edge *edges, size_t nedges)
{
	selinst_function *f = &fns[i];
	for (unsigned k = 0; k < f->nloops && f->cm.instrument; k++)
		if (f->loops[k].nest == 1 && loop_left_by_score(&f->loops[k]))
			add_loop(out, f, &f->loops[k], bottleneck->calls);
	for (size_t e = 0; e < nedges; e++) {
		if (edges[e].caller != i || edges[e].callee == i)
			continue;
		/* Estimated only when every site in F is outside loops. */
		double sites = 0;
		for (size_t s = 0; s < nedges; s++)
			if (edges[s].caller == i && edges[s].callee == edges[e].callee)
				sites = edges[s].depth > 0 || sites < 0 ? -1 : sites + 1;
		add_callee(out, &fns[edges[e].callee],
			   estimate(fns, edges[e].callee, i, sites, bottleneck->calls, edges, nedges),
			   bottleneck_where("function").c_str());
	}
}

/* Loop bottleneck L of F: the loops directly inside it (entries: L's
 * iterations) and the functions called in it (calls: L's iterations x
 * sites when every site is directly in L's body). */
static void loop_candidates(std::vector<fb_addition> &out, selinst_function *fns, size_t n,
			    size_t fi, selinst_loop *l, const cm_call_edge *edges, size_t nedges)
{
	selinst_function *f = &fns[fi];
	for (unsigned k = 0; k < f->nloops; k++)
		if (f->loops[k].outer_header == l->header && loop_left_by_score(&f->loops[k]))
			add_loop(out, f, &f->loops[k], bottleneck->iterations);
	for (unsigned c = 0; c < l->callees.length(); c++) {
		double sites = 0;
		for (unsigned d = 0; d < l->callees.length(); d++)
			if (l->callees[d] == l->callees[c])
				sites = l->callee_nest[d] != l->nest || sites < 0 ? -1 : sites + 1;
		for (size_t j = 0; j < n; j++)
			if (fns[j].decl == l->callees[c])
				add_callee(out, &fns[j], estimate(fns, j, fi, sites,
								   bottleneck->iterations,
								   edges, nedges),
					   bottleneck_where("function").c_str());
	}
}

/* The bottleneck's candidates in this unit (none when it is elsewhere). */
static void bottleneck_candidates(std::vector<fb_addition> &out, selinst_function *fns,
				  size_t n, const cm_call_edge *edges, size_t nedges)
{
	for (size_t i = 0; i < n; i++) {
		selinst_function *f = &fns[i];
		if (bottleneck->kind == FB_FUNCTION && is_bottleneck(FB_FUNCTION, f->name, f->file))
			function_candidates(out, fns, i, edges, nedges);
		for (unsigned k = 0; bottleneck->kind == FB_LOOP && k < f->nloops; k++)
			if (f->loops[k].instrument
			    && is_bottleneck(FB_LOOP, f->loops[k].name, f->loops[k].file))
				loop_candidates(out, fns, n, i, &f->loops[k], edges, nedges);
	}
}

/* Additions within what the budget leaves after the drops. */
static void add_in_bottleneck(selinst_function *fns, size_t n, const cm_call_edge *edges,
			      size_t nedges)
{
	std::vector<fb_addition> cand;
	bottleneck_candidates(cand, fns, n, edges, nedges);
	std::sort(cand.begin(), cand.end(), cheaper);
	double total = kept_pct;
	for (size_t i = 0; i < cand.size(); i++) {
		if (total + cand[i].cost_pct > budget_pct)
			break;
		total += cand[i].cost_pct;
		added_pct += cand[i].cost_pct;
		added_insns += cand[i].insns;
		char *why = xasprintf("%s, predicted %.2f%%", cand[i].why.c_str(),
				      cand[i].cost_pct);
		if (cand[i].loop) {
			cand[i].loop->instrument = true;
			cand[i].loop->reason = why;
		} else {
			cand[i].fn->cm.instrument = 1;
			cand[i].fn->cm.reason = why;
		}
	}
}

/* A region of the profile that the drops kept (predicted_kept counts it)
 * but that this unit's model did not choose: with effective counts, or
 * because the drops left it too few instrumented callees (yaml-cpp's
 * Emitter::Write, 25,500 calls, "refinement loop-free"), it is not
 * instrumented, and the unit says what that takes off the prediction.
 * Only for a region of the unit's own source file: one in a header is
 * compiled, and decided, in many units. */
static void not_chosen(const fb_region *fr, bool instrumented, const char *file)
{
	if (!fr || fr->drop || instrumented || !main_input_filename
	    || strcmp(lbasename(file ? file : ""), lbasename(main_input_filename)))
		return;
	unchosen_pct += 100.0 * cost_ns(fr, fr->kept_nodes) / run_ns;
	unchosen_insns += region_insns(fr, fr->kept_nodes);
}

/* After the model and the loop decisions: drop the loops of the drop set,
 * name the profile in the reasons of what it kept, then add. */
void selinst_feedback_apply(struct selinst_function *fns, size_t n,
			    const struct cm_call_edge *edges, size_t nedges)
{
	if (!selinst_feedback_active())
		return;
	for (size_t i = 0; i < n; i++) {
		selinst_function *f = &fns[i];
		const fb_region *fr = lookup(FB_FUNCTION, f->name, f->file);
		auto note = effective_note.find(f->decl);
		if (note != effective_note.end() && f->cm.force == CM_FORCE_NONE)
			f->cm.reason = xasprintf("%s; %s", f->cm.reason, note->second.c_str());
		if (fr && f->cm.instrument)
			f->cm.reason = kept_reason(fr, f->cm.reason);
		not_chosen(fr, f->cm.instrument, f->file);
		for (unsigned k = 0; k < f->nloops; k++) {
			selinst_loop *l = &f->loops[k];
			fr = lookup(FB_LOOP, l->name, l->file);
			if (fr && fr->drop && l->instrument) {
				l->instrument = false;
				l->reason = drop_reason(fr);
			} else if (l->instrument && never_ran(FB_LOOP, l->name, l->file)) {
				l->instrument = false;
				l->reason = never_ran_reason();
			} else if (fr && l->instrument)
				l->reason = kept_reason(fr, l->reason);
			not_chosen(fr, l->instrument, l->file);
		}
	}
	effective_note.clear();	/* by declaration: this unit's */
	if (bottleneck)
		add_in_bottleneck(fns, n, edges, nedges);
}

/* For the decision file: profiles, budget, hook pair and predictions. */
bool selinst_feedback_get_summary(struct selinst_feedback_summary *s)
{
	if (!selinst_feedback_active())
		return false;
	s->profiles = profile_names.c_str();
	s->budget_pct = budget_pct;
	s->hook_pair_ns = pair_ns();
	s->predicted_all_pct = all_pct;
	s->predicted_kept_pct = kept_pct;
	s->predicted_added_pct = added_pct;
	s->predicted_kept_insns = kept_insns;
	s->predicted_added_insns = added_insns;
	s->predicted_not_chosen_pct = unchosen_pct;
	s->predicted_not_chosen_insns = unchosen_insns;
	s->run_ms = run_ns / 1e6;
	s->base_profiles = base_names.empty() ? NULL : base_names.c_str();
	s->run_at_floor = run_floor;
	s->hook_pair_in_run_ns = pairs_run_calls > 0 && pairs_cal_ns > 0
		? pair_ns() * pairs_run_ns / pairs_cal_ns : pair_ns();
	s->bottleneck = bottleneck ? bottleneck->name.c_str() : NULL;
	return true;
}
