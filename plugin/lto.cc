/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lto.cc - whole-program depths at an -flto link (issue 10).
 *
 * A unit sees only its own call sites: a function with external linkage
 * that other units call inside loops is scored as called at depth 0 and
 * chosen.  Without LTO, sites= gives a build the call sites an earlier
 * build recorded (sites.cc).  With -flto the link sees every unit, and
 * the plugin, given at the link too, does it in one build:
 *
 *   compiling   each unit scores and instruments as always, and notes on
 *               the decls what the link needs (attributes, streamed with
 *               the IL): each function's calls to functions with external
 *               linkage (depth, symbol) with the depth its calls pass on
 *               (what sites-out= writes), and, for each chosen function
 *               with external linkage, the deepest depth it still
 *               qualifies at and its descriptor (and for its loop
 *               regions, the deepest depth of the function at which each
 *               still qualifies);
 *   WPA         (a pass after the inliner; lto1 without partitions too)
 *               the call graph of the notes, callers first by strongly
 *               connected components: each function runs at the deepest
 *               depth any unit calls it at, callers that are no regions
 *               adding theirs, a cycle at the deepest call into it plus
 *               the deepest inside plus one (as the unit's model counts
 *               recursion); a chosen function that runs deeper than it
 *               qualifies at is dropped: its descriptor is marked (so
 *               are its loops', each by its own depth);
 *   LTRANS      before each function's passes, every load of a marked
 *               descriptor's flag word becomes the constant "switched
 *               off": GCC then folds the tests away, and callers run the
 *               hook-free body as in the plain build.
 *
 * Only drops: a function the unit's model left out stays out (its body
 * has no hooks; a loop forced by a rule or a profile stays).  Not
 * followed: a static function's context through its
 * unit's public callers that other units call deeper (sites= rounds do
 * follow it).  Not for regions whose hooks test the flag themselves
 * (setjmp), under ThreadSanitizer (an atomic load), forced by attribute,
 * selection file or profile, recursive, or main.  The link's decisions go
 * to its decisions= file (decisions.cc, an "lto_link" document).
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"

/* Attribute names with a space: no source can spell them. */
#define LTO_CALLS_ATTR "selinst lto calls"
#define LTO_REGION_ATTR "selinst lto region"
#define LTO_LOOPS_ATTR "selinst lto loops"
#define LTO_DROPPED_ATTR "selinst lto dropped"

/* ---- compiling: notes on the decls ------------------------------------ */

/* FN's calls to functions with external linkage, as "DEPTH SYMBOL" lines
 * (the call's own loop depth), and PASSES: the depth FN adds to them, its
 * context depth, or -1 when FN is a region (its calls run below it). */
void selinst_lto_note_calls(tree fn, int passes, const char *lines)
{
	/* First line: the function's own name as this unit knows it, '+'
	 * for external linkage (the link may make it local, or rename it). */
	char *text = xasprintf("%c%s\n%s", TREE_PUBLIC(fn) ? '+' : '-',
			       IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn)), lines);
	tree args = tree_cons(NULL_TREE, build_int_cst(integer_type_node, passes),
			      build_tree_list(NULL_TREE, build_string(strlen(text) + 1, text)));
	free(text);
	DECL_ATTRIBUTES(fn) = tree_cons(get_identifier(LTO_CALLS_ATTR), args,
					DECL_ATTRIBUTES(fn));
}

/* FN (external linkage), chosen, qualifies down to depth DEEPEST;
 * DESCRIPTOR is its region's variable (the attribute holds the decl
 * itself: the streamer keeps it that variable through an incremental
 * link, where a name could be another unit's), NAME the region's name. */
void selinst_lto_note_region(tree fn, const char *name, int deepest, tree descriptor)
{
	tree args = tree_cons(NULL_TREE, build_int_cst(integer_type_node, deepest),
			      tree_cons(NULL_TREE, descriptor,
					build_tree_list(NULL_TREE,
							build_string(strlen(name) + 1, name))));
	DECL_ATTRIBUTES(fn) = tree_cons(get_identifier(LTO_REGION_ATTR), args,
					DECL_ATTRIBUTES(fn));
}

/* FN's loop regions chosen by their score, for a link that may find FN
 * deeper: each loop's variable, name, and the deepest depth FN may run
 * at with the loop still qualifying (its own deepest less its nest).
 * The current function is FN, its hooks in. */
void selinst_lto_note_loops(const struct selinst_function *fn)
{
	if (!flag_generate_lto || in_lto_p || !selinst_opts.model.refined
	    || !TREE_PUBLIC(fn->decl) || fn->cm.recursive || MAIN_NAME_P(DECL_NAME(fn->decl))
	    || (flag_sanitize & SANITIZE_THREAD) || cfun->calls_setjmp
	    || cfun->has_nonlocal_label)
		return;	/* as note_for_lto; loops there test no flag */
	tree list = NULL_TREE;
	for (unsigned i = 0; i < fn->nloops; i++) {
		const struct selinst_loop *l = &fn->loops[i];
		if (!l->instrument || !l->descriptor || strcmp(l->reason, "score >= loop-threshold"))
			continue;	/* forced by a rule or a profile, or no hooks */
		int deepest = cm_loop_deepest_qualifying_depth(&selinst_opts.model, l->weight,
							       l->callsite_score,
							       l->steady_call_sites, l->depth,
							       selinst_opts.loop_threshold);
		if (deepest < 0)
			continue;
		tree one = tree_cons(NULL_TREE,
				     build_int_cst(integer_type_node, deepest - (l->nest - 1)),
				     tree_cons(NULL_TREE, l->descriptor,
					       build_tree_list(NULL_TREE,
							       build_string(strlen(l->name) + 1,
									    l->name))));
		list = tree_cons(NULL_TREE, one, list);
	}
	if (list)
		DECL_ATTRIBUTES(fn->decl) = tree_cons(get_identifier(LTO_LOOPS_ATTR), list,
						      DECL_ATTRIBUTES(fn->decl));
}

/* ---- the link: whole-program depths ----------------------------------- */

/* A call noted by a unit: its loop depth in the caller, the callee. */
struct lto_site {
	int depth;
	unsigned to;		/* the callee's node */
};

/* One function of the link with notes (GCC's clones of it carry the same
 * notes: one record each). */
struct lto_record {
	const char *symbol;	/* its assembler name when compiled */
	bool is_public;		/* external linkage when compiled */
	int passes;		/* context depth, or -1: a region */
	tree descriptor;	/* a noted region's variable, or NULL_TREE */
	int deepest;		/* the deepest depth the region qualifies at */
	const char *name;	/* the region's name */
	tree loops;		/* LTO_LOOPS_ATTR's list, or NULL_TREE */
};

/* A function as the call graph of the notes sees it: one node per public
 * symbol (its records and clones together; other units name it), one per
 * record of a static one (no other unit can call it). */
struct lto_node {
	vec<unsigned> records;
	vec<lto_site> out;
	int in_depth;		/* deepest call from outside its cycle */
	int depth;		/* the depth it runs at, once decided */
	bool dropped;		/* its region dropped at the link */
	int through;		/* the depth its calls add */
	int index, low;		/* Tarjan's */
	bool on_stack;
	unsigned scc;		/* its component, in sccs */
};

struct lto_graph {
	auto_vec<lto_record> records;
	auto_vec<lto_node> nodes;
	hash_map<nofree_string_hash, unsigned> by_symbol;	/* public nodes */
	auto_vec<unsigned> stack;
	auto_vec<vec<unsigned> > sccs;	/* callees first (Tarjan's order) */
	int counter;
};

static unsigned new_node(lto_graph *lg)
{
	lto_node n = {};
	n.records = vNULL;
	n.out = vNULL;
	n.index = -1;
	lg->nodes.safe_push(n);
	return lg->nodes.length() - 1;
}

static unsigned public_node(lto_graph *lg, const char *symbol)
{
	bool existed;
	unsigned &slot = lg->by_symbol.get_or_insert(symbol, &existed);
	if (!existed)
		slot = new_node(lg);
	return slot;
}

static int int_arg(tree args)
{
	return (int) tree_to_shwi(TREE_VALUE(args));
}

/* LTO_CALLS_ATTR's string: the function's own line ("+SYMBOL": external
 * linkage, "-SYMBOL": static), then "DEPTH SYMBOL" per call.  Split in
 * place (a copy, kept to the pass's end). */
static void add_record(lto_graph *lg, tree calls, tree region, tree loops)
{
	char *text = xstrdup(TREE_STRING_POINTER(TREE_VALUE(TREE_CHAIN(TREE_VALUE(calls)))));
	char *line = strtok(text, "\n");
	if (!line || !line[1])
		return;
	lto_record r = {};
	r.is_public = line[0] == '+';
	r.symbol = line + 1;
	r.passes = int_arg(TREE_VALUE(calls));
	if (region) {
		tree args = TREE_VALUE(region);
		tree var = TREE_VALUE(TREE_CHAIN(args));
		if (var && TREE_CODE(var) == VAR_DECL && varpool_node::get(var)) {
			r.descriptor = var;
			r.deepest = int_arg(args);
			r.name = TREE_STRING_POINTER(TREE_VALUE(TREE_CHAIN(TREE_CHAIN(args))));
		}
	}
	r.loops = loops ? TREE_VALUE(loops) : NULL_TREE;
	unsigned from = r.is_public ? public_node(lg, r.symbol) : new_node(lg);
	lg->records.safe_push(r);
	lg->nodes[from].records.safe_push(lg->records.length() - 1);
	while ((line = strtok(NULL, "\n"))) {
		char *sp = strchr(line, ' ');
		if (!sp || !sp[1])
			continue;
		*sp = '\0';
		lto_site site = { atoi(line), public_node(lg, sp + 1) };
		lg->nodes[from].out.safe_push(site);
	}
}

/* Every function of the link with notes, once per decl (inline clones
 * share their origin's).  TREE_PUBLIC is not asked here: the link makes
 * functions no other object uses local.  Clones GCC made carry their
 * origin's notes, symbol included: the same node, the same calls again. */
static void collect(lto_graph *lg)
{
	hash_set<tree> seen;
	cgraph_node *node;
	FOR_EACH_FUNCTION(node) {
		tree decl = node->decl;
		if (seen.add(decl))
			continue;
		tree calls = lookup_attribute(LTO_CALLS_ATTR, DECL_ATTRIBUTES(decl));
		if (calls)	/* every noted region has its calls noted */
			add_record(lg, calls,
				   lookup_attribute(LTO_REGION_ATTR, DECL_ATTRIBUTES(decl)),
				   lookup_attribute(LTO_LOOPS_ATTR, DECL_ATTRIBUTES(decl)));
	}
}

/* Tarjan's strongly connected components, from node V. */
static void strong_connect(lto_graph *lg, unsigned v)
{
	lg->nodes[v].index = lg->nodes[v].low = lg->counter++;
	lg->stack.safe_push(v);
	lg->nodes[v].on_stack = true;
	for (unsigned k = 0; k < lg->nodes[v].out.length(); k++) {
		unsigned w = lg->nodes[v].out[k].to;
		if (lg->nodes[w].index < 0) {
			strong_connect(lg, w);
			lg->nodes[v].low = MIN(lg->nodes[v].low, lg->nodes[w].low);
		} else if (lg->nodes[w].on_stack) {
			lg->nodes[v].low = MIN(lg->nodes[v].low, lg->nodes[w].index);
		}
	}
	if (lg->nodes[v].low != lg->nodes[v].index)
		return;
	vec<unsigned> scc = vNULL;
	unsigned w;
	do {
		w = lg->stack.pop();
		lg->nodes[w].on_stack = false;
		scc.safe_push(w);
		lg->nodes[w].scc = lg->sccs.length();
	} while (w != v);
	lg->sccs.safe_push(scc);
}

/* The depths of one component, its callers' already known: as the unit's
 * model has it (cost-model.cc, refinement recursion), a cycle's members
 * run at the deepest call into it plus the deepest call inside it plus
 * one.  Then its regions called deeper than they qualify at are dropped,
 * and its calls out give their callees depths. */
static void decide_component(lto_graph *lg, unsigned c, int cap)
{
	const vec<unsigned> &scc = lg->sccs[c];
	int entry = 0, inside = -1;
	for (unsigned i = 0; i < scc.length(); i++) {
		lto_node &n = lg->nodes[scc[i]];
		entry = MAX(entry, n.in_depth);
		for (unsigned k = 0; k < n.out.length(); k++)
			if (lg->nodes[n.out[k].to].scc == c)
				inside = MAX(inside, n.out[k].depth);
	}
	for (unsigned i = 0; i < scc.length(); i++) {
		lto_node &n = lg->nodes[scc[i]];
		n.depth = MIN(cap, inside >= 0 ? entry + inside + 1 : n.in_depth);
		n.through = 0;
		for (unsigned k = 0; k < n.records.length(); k++) {
			const lto_record &r = lg->records[n.records[k]];
			if (r.descriptor && n.depth > r.deepest)
				n.dropped = true;
		}
		for (unsigned k = 0; k < n.records.length(); k++) {
			const lto_record &r = lg->records[n.records[k]];
			int t = r.passes >= 0 ? MAX(r.passes, r.is_public ? n.depth : 0)
				: n.dropped ? n.depth : 0;
			n.through = MAX(n.through, t);
		}
	}
	for (unsigned i = 0; i < scc.length(); i++) {
		lto_node &n = lg->nodes[scc[i]];
		for (unsigned k = 0; k < n.out.length(); k++) {
			lto_node &to = lg->nodes[n.out[k].to];
			if (lg->nodes[n.out[k].to].scc != c)
				to.in_depth = MAX(to.in_depth, MIN(cap, n.out[k].depth + n.through));
		}
	}
}

static void mark(tree var)
{
	DECL_ATTRIBUTES(var) = tree_cons(get_identifier(LTO_DROPPED_ATTR), NULL_TREE,
					 DECL_ATTRIBUTES(var));
}

/* Node N's loop regions (its records' LTO_LOOPS_ATTR) that run deeper
 * than they qualify at: marked, listed in DROPS.  How many were noted. */
static unsigned mark_loops(const lto_graph *lg, const lto_node &n, hash_set<tree> *seen,
			   vec<selinst_lto_drop> *drops)
{
	unsigned noted = 0;
	for (unsigned k = 0; k < n.records.length(); k++) {
		const lto_record &r = lg->records[n.records[k]];
		for (tree l = r.loops; l; l = TREE_CHAIN(l)) {
			tree one = TREE_VALUE(l);
			int deepest = int_arg(one);
			tree var = TREE_VALUE(TREE_CHAIN(one));
			if (TREE_CODE(var) != VAR_DECL || !varpool_node::get(var) || seen->add(var))
				continue;
			noted++;
			if (n.depth <= deepest)
				continue;
			mark(var);
			const char *name =
				TREE_STRING_POINTER(TREE_VALUE(TREE_CHAIN(TREE_CHAIN(one))));
			selinst_lto_drop d = { true, name, r.symbol, n.depth, deepest };
			drops->safe_push(d);
		}
	}
	return noted;
}

/* Marks the dropped regions' variables, functions' and loops'; their
 * records for the decision file in DROPS.  How many regions were noted. */
static unsigned mark_dropped(lto_graph *lg, vec<selinst_lto_drop> *drops)
{
	hash_set<tree> marked;
	unsigned considered = 0;
	for (unsigned v = 0; v < lg->nodes.length(); v++) {
		lto_node &n = lg->nodes[v];
		bool listed = false;
		for (unsigned k = 0; k < n.records.length(); k++) {
			const lto_record &r = lg->records[n.records[k]];
			if (!r.descriptor || marked.contains(r.descriptor))
				continue;
			marked.add(r.descriptor);
			considered++;
			if (!n.dropped)
				continue;
			mark(r.descriptor);
			if (!listed) {
				selinst_lto_drop d = { false, r.name, r.symbol, n.depth, r.deepest };
				drops->safe_push(d);
				listed = true;
			}
		}
		considered += mark_loops(lg, n, &marked, drops);
	}
	return considered;
}

/* The link's output file name, from lto1's dump base ("prog.wpa", or
 * "prog.lto.o-XXXX.lto.o" without partitions): "prog". */
static char *link_output_name(void)
{
	static const char *const suffixes[] = { ".wpa", ".lto.o", ".ltrans" };
	char *name = xstrdup(dump_base_name ? lbasename(dump_base_name) : "a.out");
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		char *p = strstr(name, suffixes[i]);
		if (p && p != name)
			*p = '\0';
	}
	return name;
}

static unsigned int lto_link_execute(void)
{
	lto_graph lg;
	lg.counter = 0;
	collect(&lg);
	int cap = mpz_fits_sint_p(selinst_opts.model.loop_base)
		? (int) mpz_get_si(selinst_opts.model.loop_base) : CM_DEPTH_SEARCH_MAX;
	if (cap > CM_DEPTH_SEARCH_MAX || cap < 0)
		cap = CM_DEPTH_SEARCH_MAX;
	for (unsigned v = 0; v < lg.nodes.length(); v++)
		if (lg.nodes[v].index < 0)
			strong_connect(&lg, v);
	for (unsigned i = lg.sccs.length(); i-- > 0; )	/* callers first */
		decide_component(&lg, i, cap);
	auto_vec<selinst_lto_drop> drops;
	unsigned considered = mark_dropped(&lg, &drops);
	if (selinst_opts.verbose)
		for (unsigned i = 0; i < drops.length(); i++)
			inform(UNKNOWN_LOCATION, "selinst: %<-flto%> link: %s%s dropped: the call "
			       "sites of all units put %s at depth %d, it qualifies down to %d",
			       drops[i].loop ? "loop " : "", drops[i].name,
			       drops[i].loop ? "its function" : "it", drops[i].depth,
			       drops[i].deepest);
	if (selinst_opts.decisions_path) {
		char *output = link_output_name();
		selinst_write_link_decisions(drops.address(), drops.length(), considered, output);
		free(output);
	}
	for (unsigned v = 0; v < lg.nodes.length(); v++) {
		lg.nodes[v].records.release();
		lg.nodes[v].out.release();
	}
	for (unsigned i = 0; i < lg.sccs.length(); i++)
		lg.sccs[i].release();
	return 0;
}

static const pass_data lto_link_pass_data = {
	IPA_PASS,		/* type: placed among the regular IPA passes,
				   which a simple one cannot reference */
	"selinst-lto",		/* name */
	OPTGROUP_NONE,		/* optinfo_flags */
	TV_NONE,		/* tv_id */
	0,			/* properties_required */
	0,			/* properties_provided */
	0,			/* properties_destroyed */
	0,			/* todo_flags_start */
	0,			/* todo_flags_finish */
};

/* In the whole-program stage only: WPA, or lto1 without partitions.  No
 * summaries: the notes travel on the decls. */
class lto_link_pass : public ipa_opt_pass_d {
public:
	lto_link_pass(gcc::context *ctxt)
		: ipa_opt_pass_d(lto_link_pass_data, ctxt,
				 NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL) {}
	bool gate(function *) final override
	{
		return in_lto_p && !flag_ltrans && !seen_error();
	}
	unsigned int execute(function *) final override { return lto_link_execute(); }
};

opt_pass *selinst_make_lto_pass(void)
{
	return new lto_link_pass(g);
}

/* ---- LTRANS: the dropped regions' tests folded ------------------------- */

/* Whether REF reads a field of a descriptor the link dropped. */
static bool reads_dropped_descriptor(tree ref)
{
	if (TREE_CODE(ref) != COMPONENT_REF)
		return false;
	tree base = TREE_OPERAND(ref, 0);
	return TREE_CODE(base) == VAR_DECL
		&& lookup_attribute(LTO_DROPPED_ATTR, DECL_ATTRIBUTES(base));
}

/* PLUGIN_ALL_PASSES_START, in lto1 (cfun: the function about to be
 * optimized, inlined bodies in): each load of a dropped region's flag
 * word (instrument.cc, descriptor_bit: only SELINST_REGION_THROTTLED is
 * tested in a function descriptor's) becomes that bit set. */
void selinst_lto_fold(void *, void *)
{
	if (!in_lto_p || !cfun || !cfun->cfg)
		return;
	basic_block bb;
	FOR_EACH_BB_FN(bb, cfun)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);
			if (!is_gimple_assign(stmt) || !gimple_assign_single_p(stmt)
			    || !reads_dropped_descriptor(gimple_assign_rhs1(stmt)))
				continue;
			tree lhs = gimple_assign_lhs(stmt);
			if (TREE_CODE(lhs) != SSA_NAME || !INTEGRAL_TYPE_P(TREE_TYPE(lhs)))
				continue;
			gimple_assign_set_rhs_from_tree(&gsi, build_int_cst(TREE_TYPE(lhs),
						SELINST_REGION_THROTTLED | SELINST_REGION_WRITABLE));
			update_stmt(gsi_stmt(gsi));	/* drops its virtual use */
		}
}
