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
 *               qualifies at and its descriptor;
 *   WPA         (a pass after the inliner; lto1 without partitions too)
 *               the deepest depth every unit calls each function at,
 *               through callers that pass their depth on, to a fixed
 *               point; a chosen function called deeper than it qualifies
 *               at is dropped: its descriptor is marked;
 *   LTRANS      before each function's passes, every load of a marked
 *               descriptor's flag word becomes the constant "switched
 *               off": GCC then folds the tests away, and callers run the
 *               hook-free body as in the plain build.
 *
 * Only drops: a function the unit's model left out stays out (its body
 * has no hooks).  Not followed: a static function's context through its
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
 * DESCRIPTOR is its region's, NAME the region's name.  The string:
 * "DESCRIPTOR SYMBOL NAME". */
void selinst_lto_note_region(tree fn, const char *name, int deepest, tree descriptor)
{
	char *text = xasprintf("%s %s %s", IDENTIFIER_POINTER(DECL_NAME(descriptor)),
			       IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn)), name);
	tree args = tree_cons(NULL_TREE, build_int_cst(integer_type_node, deepest),
			      build_tree_list(NULL_TREE, build_string(strlen(text) + 1, text)));
	free(text);
	DECL_ATTRIBUTES(fn) = tree_cons(get_identifier(LTO_REGION_ATTR), args,
					DECL_ATTRIBUTES(fn));
}

/* ---- the link: whole-program depths ----------------------------------- */

struct lto_site {
	int depth;
	const char *symbol;	/* in the attribute's string, NUL-split */
};

struct lto_caller {
	tree decl;
	const char *symbol;	/* its assembler name when compiled */
	bool is_public;		/* external linkage when compiled */
	int passes;		/* context depth, or -1: a region */
	bool region;		/* chosen (LTO_REGION_ATTR) and not dropped */
	int deepest;		/* LTO_REGION_ATTR's depth */
	const char *descriptor;	/* LTO_REGION_ATTR's descriptor name */
	const char *name;	/* and region name */
	vec<lto_site> sites;
};

static int int_arg(tree args)
{
	return (int) tree_to_shwi(TREE_VALUE(args));
}

/* A copy of the attribute's string (the parsers split it in place; kept
 * to the pass's end). */
static char *string_arg(tree args)
{
	return xstrdup(TREE_STRING_POINTER(TREE_VALUE(TREE_CHAIN(args))));
}

/* An LTO_CALLS_ATTR string: C's own line, then its sites. */
static void parse_calls(char *text, lto_caller *c)
{
	char *line = strtok(text, "\n");
	if (!line)
		return;
	c->is_public = line[0] == '+';
	c->symbol = line + 1;
	while ((line = strtok(NULL, "\n"))) {
		char *sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = '\0';
		lto_site s = { atoi(line), sp + 1 };
		c->sites.safe_push(s);
	}
}

/* Every function of the link with notes, once per decl (inline clones
 * share their origin's).  Clones GCC made (.part, .constprop, the off-
 * copy) carry their origin's attributes, names included: their calls
 * count once more (no harm: a maximum), their region is their origin's
 * (one record per descriptor and symbol).  TREE_PUBLIC is not asked
 * here: the link makes functions no other object uses local. */
static void collect_callers(vec<lto_caller> *callers)
{
	hash_set<tree> seen;
	hash_set<nofree_string_hash> regions;
	cgraph_node *node;
	FOR_EACH_FUNCTION(node) {
		tree decl = node->decl;
		if (seen.add(decl))
			continue;
		tree calls = lookup_attribute(LTO_CALLS_ATTR, DECL_ATTRIBUTES(decl));
		tree region = lookup_attribute(LTO_REGION_ATTR, DECL_ATTRIBUTES(decl));
		if (!calls)
			continue;	/* every noted region has its calls noted */
		lto_caller c = {};
		c.decl = decl;
		c.passes = int_arg(TREE_VALUE(calls));
		c.sites = vNULL;
		parse_calls(string_arg(TREE_VALUE(calls)), &c);
		if (region) {
			char *text = string_arg(TREE_VALUE(region));
			char *sp = strchr(text, ' ');
			char *sp2 = sp ? strchr(sp + 1, ' ') : NULL;
			if (sp2 && !regions.add(xstrdup(text))) {
				*sp = *sp2 = '\0';
				c.region = true;
				c.deepest = int_arg(TREE_VALUE(region));
				c.descriptor = text;
				c.name = sp2 + 1;
			}
		}
		if (c.symbol)
			callers->safe_push(c);
	}
}

static int depth_of(hash_map<nofree_string_hash, int> *depths, const char *symbol)
{
	int *d = depths->get(symbol);
	return d ? *d : 0;
}

/* One round: chosen functions called deeper than they qualify at are
 * regions no more (DROPPED, by symbol: clones share it), then every
 * site's depth through its caller.  Whether anything changed. */
static bool propagate(vec<lto_caller> &callers, hash_map<nofree_string_hash, int> *depths,
		      hash_set<nofree_string_hash> *dropped, int cap)
{
	bool changed = false;
	for (unsigned i = 0; i < callers.length(); i++) {
		lto_caller &c = callers[i];
		int d_c = depth_of(depths, c.symbol);
		if (c.region && d_c > c.deepest) {
			c.region = false;
			dropped->add(c.symbol);
			changed = true;
		}
		/* No region when compiled: it passes its depth on, its callers'
		 * in other units included.  A region: its calls run below it,
		 * unless the link dropped it. */
		int through;
		if (c.passes >= 0)
			through = c.is_public && d_c > c.passes ? d_c : c.passes;
		else
			through = c.is_public && dropped->contains(c.symbol) ? d_c : 0;
		for (unsigned k = 0; k < c.sites.length(); k++) {
			int d = c.sites[k].depth + through;
			if (d > cap)
				d = cap;
			bool existed;
			int &slot = depths->get_or_insert(c.sites[k].symbol, &existed);
			if (!existed || slot < d) {
				slot = d;
				changed = true;
			}
		}
	}
	return changed;
}

/* The descriptor NAME of FN's unit: the variable of that name read from
 * the same object file. */
static varpool_node *descriptor_of(tree fn, const char *name)
{
	cgraph_node *f = cgraph_node::get(fn);
	if (!f)
		return NULL;
	varpool_node *v;
	FOR_EACH_VARIABLE(v)
		if (DECL_NAME(v->decl) && strcmp(IDENTIFIER_POINTER(DECL_NAME(v->decl)), name) == 0
		    && v->lto_file_data == f->lto_file_data)
			return v;
	return NULL;
}

static unsigned int lto_link_execute(void)
{
	auto_vec<lto_caller> callers;
	collect_callers(&callers);
	hash_map<nofree_string_hash, int> depths;
	hash_set<nofree_string_hash> dropped;
	int cap = mpz_fits_sint_p(selinst_opts.model.loop_base)
		? (int) mpz_get_si(selinst_opts.model.loop_base) : CM_DEPTH_SEARCH_MAX;
	if (cap > CM_DEPTH_SEARCH_MAX || cap < 0)
		cap = CM_DEPTH_SEARCH_MAX;
	/* Depths only grow and regions only go, each bounded: a fixed point;
	 * the bound on rounds is for cycles through callers that pass on. */
	for (int round = 0; round < 2 * cap + 4 && propagate(callers, &depths, &dropped, cap); round++)
		;
	auto_vec<struct selinst_lto_drop> drops;
	unsigned considered = 0;
	for (unsigned i = 0; i < callers.length(); i++) {
		lto_caller &c = callers[i];
		if (!c.descriptor)
			continue;
		considered++;
		if (c.region)
			continue;
		varpool_node *v = descriptor_of(c.decl, c.descriptor);
		struct selinst_lto_drop d = {
			c.name, c.symbol,
			depth_of(&depths, c.symbol), c.deepest, v != NULL
		};
		drops.safe_push(d);
		if (v)
			DECL_ATTRIBUTES(v->decl) = tree_cons(get_identifier(LTO_DROPPED_ATTR),
							     NULL_TREE, DECL_ATTRIBUTES(v->decl));
	}
	if (selinst_opts.verbose)
		for (unsigned i = 0; i < drops.length(); i++)
			inform(UNKNOWN_LOCATION, "selinst: %<-flto%> link: %s dropped: other units "
			       "call it at depth %d, it qualifies down to %d%s", drops[i].name,
			       drops[i].depth, drops[i].deepest,
			       drops[i].marked ? "" : " (its descriptor was not found: kept)");
	if (selinst_opts.decisions_path)
		selinst_write_link_decisions(drops.address(), drops.length(), considered);
	for (unsigned i = 0; i < callers.length(); i++)
		callers[i].sites.release();
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
