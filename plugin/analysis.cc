/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * analysis.cc - the selinst IPA pass: measure every function of the unit,
 * score it with the cost model, decide, and instrument what was chosen.
 *
 * Where it runs: a SIMPLE_IPA_PASS just before "opt_local_passes".  There
 * every body is in SSA form with a CFG and loops, and nothing has been
 * inlined yet, at every -O level: the metrics describe the user's source,
 * so -O0 and -O3 give the same decisions.  The hooks are inserted here,
 * before the early inliner runs, so clones made later (.constprop, .isra,
 * .part) and inlined copies carry the same region descriptor and count as
 * one region; whether chosen bodies may be inlined at all is the inline=
 * argument's (instrument.cc, selinst_set_inlining).
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"

#include <vector>
#include <algorithm>

/* A call statement that may be an edge of the cost model's call graph. */
struct call_site {
	size_t caller;
	tree callee;		/* FUNCTION_DECL */
	int depth;		/* loop depth of the call in the caller */
	int conditional;	/* not on every path to the return
				   (refinement conditional-pull) */
};

/* A call through a pointer (refinement indirect-depth). */
struct indirect_site {
	size_t caller;
	tree fntype;		/* the called pointer's function type */
	int depth;
};

/* The name of a function without GCC's "__builtin_" prefix. */
static const char *plain_name(tree fndecl)
{
	const char *n = IDENTIFIER_POINTER(DECL_NAME(fndecl));
	return startswith(n, "__builtin_") ? n + strlen("__builtin_") : n;
}

/* A call the model counts as a call site: to a procedure, not to an
 * internal function or a builtin the compiler expands itself. */
static bool counts_as_call(gimple *stmt)
{
	if (!is_gimple_call(stmt) || gimple_call_internal_p(stmt))
		return false;
	tree fndecl = gimple_call_fndecl(stmt);
	/* libgomp entry points are implicit builtins but real calls. */
	if (fndecl && DECL_IS_UNDECLARED_BUILTIN(fndecl))
		return startswith(plain_name(fndecl), "GOMP_");
	return true;
}

/* The kind of OpenMP construct an outlined body came from, by the libgomp
 * entry point that receives its address. */
static const char *omp_construct(tree gomp_fn, tree body)
{
	const char *n = plain_name(gomp_fn);
	/* GOMP_task also receives the task's firstprivate copy function. */
	if (strstr(IDENTIFIER_POINTER(DECL_NAME(body)), "_omp_cpyfn"))
		return "omp task copy";
	if (startswith(n, "GOMP_parallel"))
		return "omp parallel";
	if (startswith(n, "GOMP_taskloop"))
		return "omp taskloop";
	if (startswith(n, "GOMP_task"))
		return "omp task";
	if (startswith(n, "GOMP_teams"))
		return "omp teams";
	if (startswith(n, "GOMP_target"))
		return "omp target";
	return "omp region";
}

static const char *printable_name(tree decl)
{
	return lang_hooks.decl_printable_name(decl, 2);
}

/* Where an OpenMP outlined body was launched: the function holding the
 * construct, which construct, and its source line. */
struct omp_origin {
	size_t parent;
	const char *construct;
	const char *file;	/* base name, for the region's name */
	const char *path;	/* as the location gives it */
	int line;
};

/* Where the libgomp call at GSI launching TARGET comes from: its
 * location, or (GCC 11 leaves the GOMP_taskloop call and the outlined
 * body without one) the nearest located statement before it in its
 * block, else the first located statement of TARGET's body. */
static location_t omp_call_location(gimple_stmt_iterator gsi, tree target)
{
	for (; !gsi_end_p(gsi); gsi_prev(&gsi))
		if (LOCATION_LOCUS(gimple_location(gsi_stmt(gsi))) != UNKNOWN_LOCATION)
			return gimple_location(gsi_stmt(gsi));
	function *body = DECL_STRUCT_FUNCTION(target);
	basic_block bb;
	if (body && body->cfg)
		FOR_EACH_BB_FN(bb, body)
			for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
				if (LOCATION_LOCUS(gimple_location(gsi_stmt(gsi))) != UNKNOWN_LOCATION)
					return gimple_location(gsi_stmt(gsi));
	return DECL_SOURCE_LOCATION(target);
}

static bool is_empty_forwarder(basic_block bb, const selinst_block_info *blocks)
{
	return blocks[bb->index].statements == 0 && single_succ_p(bb);
}

/* BB's only predecessor as the source has it: past empty forwarders,
 * which -O0 keeps (a "goto" to a loop's test, say) and CFG cleanup
 * removes above it.  NULL when BB has several. */
static basic_block source_pred(basic_block bb, const selinst_block_info *blocks)
{
	for (int steps = 0; steps < 64 && single_pred_p(bb); steps++) {
		basic_block pred = single_pred(bb);
		if (pred->index < NUM_FIXED_BLOCKS || !is_empty_forwarder(pred, blocks))
			return pred;
		bb = pred;
	}
	return NULL;
}

/* Refinement conditional-pull: whether BB runs on every call of its
 * function: it dominates every block that returns (paths that end in a
 * noreturn call do not count; in a function that never returns, none
 * does).  GCC keeps no dominator for the exit block itself. */
static bool on_every_call(basic_block bb)
{
	edge e;
	edge_iterator ei;
	basic_block exit_bb = EXIT_BLOCK_PTR_FOR_FN(cfun);
	if (EDGE_COUNT(exit_bb->preds) == 0)
		return false;
	FOR_EACH_EDGE(e, ei, exit_bb->preds)
		if (!dominated_by_p(CDI_DOMINATORS, e->src, bb))
			return false;
	return true;
}

/* FN's basic blocks as the source has them (see measure): marks each
 * counted one in BLOCKS and counts it. */
static void count_blocks(struct selinst_function *fn, function *body,
			 selinst_block_info *blocks)
{
	basic_block bb;
	FOR_EACH_BB_FN(bb, body) {
		bool empty_forwarder = is_empty_forwarder(bb, blocks);
		basic_block pred = source_pred(bb, blocks);
		bool mergeable = pred && pred != ENTRY_BLOCK_PTR_FOR_FN(body)
			&& single_succ_p(pred)
			&& !(single_pred_edge(bb)->flags & (EDGE_ABNORMAL | EDGE_EH));
		blocks[bb->index].counted = !empty_forwarder && !mergeable;
		if (blocks[bb->index].counted)
			fn->cm.basic_blocks++;
	}
}

/* The weight of FN's heaviest loop body (the default block weight, 5: the
 * refinements compare it with fixed sizes). */
static unsigned long largest_loop(const struct selinst_function *fn)
{
	unsigned long largest = 0;
	for (unsigned i = 0; i < fn->nloops; i++) {
		const struct selinst_loop *l = &fn->loops[i];
		unsigned long w = 5 * l->basic_blocks + l->statements + l->call_sites;
		if (w > largest)
			largest = w;
	}
	return largest;
}

static void measure(struct selinst_function *fn, size_t index,
		    std::vector<call_site> &sites, std::vector<indirect_site> &indirect,
		    hash_map<tree, omp_origin> &omp_origins)
{
	function *body = DECL_STRUCT_FUNCTION(fn->decl);
	push_cfun(body);
	bool made_loops = false;
	if (!loops_for_fn(body)) {
		loop_optimizer_init(AVOID_CFG_MODIFICATIONS);
		made_loops = true;
	}
	selinst_split_merged_loops();
	bool had_dominators = dom_info_available_p(CDI_DOMINATORS);
	if (!had_dominators)
		calculate_dominance_info(CDI_DOMINATORS);

	/* Blocks: empty forwarders (no statement, one successor) and blocks
	 * that could merge into their only predecessor are not counted: at -O0
	 * CFG cleanup keeps some of them for their source locations, at -O1
	 * and above it removes them, and the count must describe the source. */
	int nblocks = last_basic_block_for_fn(body);
	selinst_block_info *blocks = XCNEWVEC(selinst_block_info, nblocks);
	vec<tree> *block_callees = XCNEWVEC(vec<tree>, nblocks);
	basic_block bb;
	FOR_EACH_BB_FN(bb, body) {
		int depth = bb_loop_depth(bb);
		int conditional = !on_every_call(bb);
		unsigned long before = fn->cm.statements;
		unsigned long calls_before = fn->cm.call_sites;
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
		     gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);
			if (selinst_bookkeeping_stmt(stmt))
				continue;
			fn->cm.statements++;
			if (!counts_as_call(stmt))
				continue;
			fn->cm.call_sites++;
			tree callee = gimple_call_fndecl(stmt);
			if (callee) {
				call_site cs = { index, callee, depth, conditional };
				sites.push_back(cs);
				block_callees[bb->index].safe_push(callee);
			} else if (gimple_call_fntype(stmt)) {
				indirect_site is = { index, gimple_call_fntype(stmt), depth };
				indirect.push_back(is);
			}
			/* OpenMP: the outlined body is reached through its
			 * address passed to libgomp; count that as a call site
			 * at the construct's depth and name the body after it. */
			for (unsigned i = 0; i < gimple_call_num_args(stmt); i++) {
				tree arg = gimple_call_arg(stmt, i);
				if (TREE_CODE(arg) != ADDR_EXPR ||
				    TREE_CODE(TREE_OPERAND(arg, 0)) != FUNCTION_DECL)
					continue;
				tree target = TREE_OPERAND(arg, 0);
				cgraph_node *tn = cgraph_node::get(target);
				if (!tn || !tn->parallelized_function)
					continue;
				call_site cs = { index, target, depth, conditional };
				sites.push_back(cs);
				block_callees[bb->index].safe_push(target);
				if (callee && !omp_origins.get(target)) {
					location_t where = omp_call_location(gsi, target);
					expanded_location loc = expand_location(where);
					omp_origin o = { index, omp_construct(callee, target),
							 loc.file ? lbasename(loc.file) : "?",
							 loc.file ? loc.file : "", loc.line };
					omp_origins.put(target, o);
				}
			}
		}
		blocks[bb->index].statements = fn->cm.statements - before;
		blocks[bb->index].call_sites = fn->cm.call_sites - calls_before;
	}
	count_blocks(fn, body, blocks);
	selinst_measure_loops(fn, blocks, block_callees);
	fn->cm.has_loops = fn->nloops > 0;
	fn->cm.largest_loop = largest_loop(fn);
	fn->cm.declared_inline = DECL_DECLARED_INLINE_P(fn->decl);
	fn->cm.always_inline = lookup_attribute("always_inline", DECL_ATTRIBUTES(fn->decl)) != NULL;
	/* The program's main (C's, and C++'s ::main, which is not mangled). */
	fn->cm.program_entry = TREE_PUBLIC(fn->decl)
		&& !strcmp(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn->decl)), "main");
	for (int b = 0; b < nblocks; b++)
		block_callees[b].release();
	XDELETEVEC(block_callees);
	XDELETEVEC(blocks);
	if (!had_dominators)
		free_dominance_info(CDI_DOMINATORS);

	if (made_loops)
		loop_optimizer_finalize();
	pop_cfun();
}

/* An outlined body is named after the source function that holds its
 * construct, however deeply constructs nest (a task inside a parallel
 * region inside main is "main [omp task at f.c:12]"), and the innermost
 * construct. */
static void name_omp_bodies(struct selinst_function *fns, size_t n,
			    hash_map<tree, omp_origin> &omp_origins)
{
	for (size_t i = 0; i < n; i++) {
		omp_origin *o = omp_origins.get(fns[i].decl);
		if (!o)
			continue;
		size_t root = o->parent;
		/* Bounded walk: outlining never makes a cycle, but a bound
		 * costs nothing. */
		for (size_t hops = 0; hops < n; hops++) {
			omp_origin *up = omp_origins.get(fns[root].decl);
			if (!up)
				break;
			root = up->parent;
		}
		char *name = xasprintf("%s [%s at %s:%d]",
			fns[root].name, o->construct, o->file, o->line);
		free(fns[i].name);
		fns[i].name = name;
		if (!fns[i].file[0]) {	/* a body without a location (GCC 11) */
			fns[i].file = o->path;
			fns[i].line = o->line;
		}
	}
}

/* C++ constructors and destructors are emitted as several variants of
 * one source function (complete, base, deleting; at -Os a unified body
 * with the others as thunks).  GCC names them "__ct_comp ", "__dt_del "
 * and so on. */
static bool is_cdtor_variant(tree decl)
{
	const char *n = IDENTIFIER_POINTER(DECL_NAME(decl));
	return startswith(n, "__ct") || startswith(n, "__dt");
}

/* All variants of one constructor or destructor are one region: the
 * language hook calls some of them "virtual X::~X()", others "X::~X()". */
static char *region_name(tree decl)
{
	const char *n = printable_name(decl);
	if (is_cdtor_variant(decl) && startswith(n, "virtual "))
		n += strlen("virtual ");
	return xstrdup(n);
}

/* A variant whose body calls another variant of the same source function
 * (the deleting destructor calls the complete one; at -Os the complete and
 * base variants call the unified body) is left out: the variant it calls
 * is the region, entered once per object. */
static bool forwards_to_cdtor_variant(tree decl)
{
	if (!is_cdtor_variant(decl))
		return false;
	function *body = DECL_STRUCT_FUNCTION(decl);
	basic_block bb;
	FOR_EACH_BB_FN(bb, body)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
		     gsi_next(&gsi)) {
			tree callee = is_gimple_call(gsi_stmt(gsi))
				? gimple_call_fndecl(gsi_stmt(gsi)) : NULL_TREE;
			if (callee && callee != decl && is_cdtor_variant(callee)
			    && DECL_CONTEXT(callee) == DECL_CONTEXT(decl)
			    && DECL_SOURCE_LINE(callee) == DECL_SOURCE_LINE(decl)
			    && !strcmp(DECL_SOURCE_FILE(callee), DECL_SOURCE_FILE(decl)))
				return true;
		}
	return false;
}

/* Loop regions are named "<file>:<line>" (LoopProf's convention), but
 * loops written on one line, or made by one macro expansion, would then
 * be one region: the second and later ones, outer loops first, become
 * "<file>:<line>#2", "#3" ... */
struct loop_ref {
	struct selinst_loop *loop;
	size_t order;
};

static bool loop_ref_less(const loop_ref &a, const loop_ref &b)
{
	int c = strcmp(a.loop->file, b.loop->file);
	if (c != 0)
		return c < 0;
	if (a.loop->line != b.loop->line)
		return a.loop->line < b.loop->line;
	if (a.loop->nest != b.loop->nest)
		return a.loop->nest < b.loop->nest;
	return a.order < b.order;
}

static void name_same_line_loops(struct selinst_function *fns, size_t n)
{
	std::vector<loop_ref> refs;
	for (size_t i = 0; i < n; i++)
		for (unsigned j = 0; j < fns[i].nloops; j++) {
			loop_ref r = { &fns[i].loops[j], refs.size() };
			refs.push_back(r);
		}
	std::sort(refs.begin(), refs.end(), loop_ref_less);
	int k = 1;
	for (size_t r = 1; r < refs.size(); r++) {
		selinst_loop *prev = refs[r - 1].loop, *l = refs[r].loop;
		if (l->line != prev->line || strcmp(l->file, prev->file)) {
			k = 1;
			continue;
		}
		free(l->name);
		l->name = xasprintf("%s:%d#%d", lbasename(l->file), l->line, ++k);
	}
}

static bool has_attribute(tree decl, const char *name)
{
	return lookup_attribute(name, DECL_ATTRIBUTES(decl)) != NULL_TREE;
}

/* sites-out: each call to a function with external linkage, at the depth
 * it runs at below the nearest region (the caller's context depth added
 * when the caller is not a region). */
static void write_sites(const selinst_function *fns, const std::vector<call_site> &sites)
{
	std::vector<const char *> symbols;
	std::vector<int> depths;
	for (size_t k = 0; k < sites.size(); k++) {
		tree callee = sites[k].callee;
		if (!TREE_PUBLIC(callee) || DECL_IS_UNDECLARED_BUILTIN(callee))
			continue;
		const cm_function *caller = &fns[sites[k].caller].cm;
		int depth = sites[k].depth + cm_site_base_depth(&selinst_opts.model, caller);
		symbols.push_back(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(callee)));
		depths.push_back(depth);
	}
	selinst_sites_write(selinst_opts.sites_out,
			    symbols.empty() ? NULL : &symbols[0],
			    depths.empty() ? NULL : &depths[0], symbols.size());
}

/* Compiling with -flto, the default model: each function's calls to
 * functions with external linkage, for the link (lto.cc), with the depth
 * the function passes on to them (cm_site_base_depth), -1 for a region. */
static void note_lto_calls(const selinst_function *fns, size_t n,
			   const std::vector<call_site> &sites)
{
	std::vector<char *> text(n, (char *) NULL);
	for (size_t k = 0; k < sites.size(); k++) {
		tree callee = sites[k].callee;
		if (!TREE_PUBLIC(callee) || DECL_IS_UNDECLARED_BUILTIN(callee))
			continue;
		char *line = xasprintf("%d %s\n", sites[k].depth,
				       IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(callee)));
		char *joined = concat(text[sites[k].caller] ? text[sites[k].caller] : "",
				      line, NULL);
		free(text[sites[k].caller]);
		free(line);
		text[sites[k].caller] = joined;
	}
	for (size_t i = 0; i < n; i++) {
		const cm_function *f = &fns[i].cm;
		if (text[i] || f->instrument)
			selinst_lto_note_calls(fns[i].decl,
					       f->instrument ? -1
					       : cm_site_base_depth(&selinst_opts.model, f),
					       text[i] ? text[i] : "");
		free(text[i]);
	}
}

static bool source_order(const selinst_function &a, const selinst_function &b)
{
	int c = strcmp(a.file, b.file);
	if (c != 0)
		return c < 0;
	if (a.line != b.line)
		return a.line < b.line;
	return strcmp(a.symbol, b.symbol) < 0;
}

/* Static functions nothing live refers to: GCC drops them before this
 * pass when optimizing and keeps them at -O0 (force_output, for
 * -fno-toplevel-reorder); they are left out at every level, so the unit
 * lists the same functions (-fkeep-static-functions keeps them all).
 * Live: visible or kept outside the unit, or referred to (called, address
 * taken, in an initializer) by something live. */
static hash_set<cgraph_node *> *unreferenced_statics(void)
{
	hash_set<cgraph_node *> *dead = new hash_set<cgraph_node *>;
	cgraph_node *node;
	FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node)
		if (!TREE_PUBLIC(node->decl) && !DECL_PRESERVE_P(node->decl)
		    && !flag_keep_static_functions && !node->inlined_to && !node->alias
		    && !DECL_STATIC_CONSTRUCTOR(node->decl)
		    && !DECL_STATIC_DESTRUCTOR(node->decl))
			dead->add(node);
	for (bool changed = true; changed; ) {
		changed = false;
		FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node) {
			if (!dead->contains(node))
				continue;
			bool live = false;
			for (cgraph_edge *e = node->callers; e && !live; e = e->next_caller)
				live = !dead->contains(e->caller);
			ipa_ref *ref;
			for (unsigned i = 0; !live && node->iterate_referring(i, ref); i++) {
				cgraph_node *from = dyn_cast<cgraph_node *>(ref->referring);
				live = !from || !dead->contains(from);
			}
			if (live) {
				dead->remove(node);
				changed = true;
			}
		}
	}
	return dead;
}

/* The functions of the unit with a body of its own, in source order (the
 * decision file reads top to bottom like the unit, and the same source
 * lists the same way at every -O level); INDEX_OF maps each to its place. */
static void collect_functions(std::vector<selinst_function> &fns,
			      hash_map<tree, size_t> &index_of)
{
	cgraph_node *node;
	hash_set<cgraph_node *> *unreferenced = unreferenced_statics();
	FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node) {
		if (unreferenced->contains(node))
			continue;
		if (node->inlined_to || node->alias || SELINST_NODE_IS_THUNK(node)
		    || node->simd_clones != NULL || node->simdclone
		    || node->split_part || node->in_other_partition)
			continue;
		function *body = DECL_STRUCT_FUNCTION(node->decl);
		if (!body || !body->cfg || !gimple_in_ssa_p(body))
			continue;
		/* extern inline (gnu_inline) bodies, as glibc's headers give
		 * when optimizing, are never emitted here: not the unit's code. */
		if (DECL_EXTERNAL(node->decl))
			continue;
		selinst_function fn;
		memset(&fn, 0, sizeof fn);
		fn.decl = node->decl;
		fn.symbol = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(node->decl));
		/* GCC 11 gives some OpenMP outlined bodies no location. */
		fn.file = DECL_SOURCE_FILE(node->decl) ? DECL_SOURCE_FILE(node->decl) : "";
		fn.line = DECL_SOURCE_LINE(node->decl);
		fns.push_back(fn);
	}
	delete unreferenced;
	std::sort(fns.begin(), fns.end(), source_order);
	/* Once the vector stops moving: the GMP numbers and the names
	 * (xstrdup: the langhook returns a buffer it reuses). */
	for (size_t i = 0; i < fns.size(); i++) {
		cm_function_init(&fns[i].cm);
		index_of.put(fns[i].decl, i);
		fns[i].name = region_name(fns[i].decl);
	}
}

/* Whether DECL, called without a body in view, is a function of the
 * project's other units (refinement hand-off): not the compiler's, not
 * declared in a system header (the C and C++ libraries). */
static bool other_unit_function(tree decl)
{
	return !DECL_IS_UNDECLARED_BUILTIN(decl) && !fndecl_built_in_p(decl)
		&& !DECL_ARTIFICIAL(decl)
		&& !in_system_header_at(DECL_SOURCE_LOCATION(decl));
}

/* Call edges to functions with a body here, and each callee's deepest
 * site; each function's distinct callees of other units (hand-off); then
 * the depths other units recorded (sites=). */
static void call_edges(std::vector<selinst_function> &fns, hash_map<tree, size_t> &index_of,
		       const std::vector<call_site> &sites, std::vector<cm_call_edge> &edges)
{
	std::vector<std::pair<size_t, unsigned> > out_of_view;
	for (size_t k = 0; k < sites.size(); k++) {
		cgraph_node *callee = cgraph_node::get(sites[k].callee);
		if (callee)
			callee = callee->ultimate_alias_target();
		size_t *ci = callee ? index_of.get(callee->decl) : NULL;
		if (!ci) {
			tree d = callee ? callee->decl : sites[k].callee;
			if ((callee && callee->definition) || !other_unit_function(d))
				continue;
			out_of_view.push_back(std::make_pair(sites[k].caller,
							     (unsigned) DECL_UID(d)));
			/* A constructor that builds its bases and members
			 * is no phase entry. */
			tree caller = fns[sites[k].caller].decl;
			if (DECL_CXX_CONSTRUCTOR_P(d) && !DECL_CXX_CONSTRUCTOR_P(caller)
			    && !DECL_CXX_DESTRUCTOR_P(caller))
				fns[sites[k].caller].cm.builds_other_unit_object = 1;
			continue;
		}
		cm_call_edge e = { sites[k].caller, *ci, sites[k].depth, sites[k].conditional };
		edges.push_back(e);
		struct cm_function *cf = &fns[*ci].cm;
		if (sites[k].depth > cf->deepest_call_depth)
			cf->deepest_call_depth = sites[k].depth;
	}
	std::sort(out_of_view.begin(), out_of_view.end());
	for (size_t k = 0; k < out_of_view.size(); k++)
		if (k == 0 || out_of_view[k] != out_of_view[k - 1])
			fns[out_of_view[k].first].cm.other_unit_callees++;
	for (size_t i = 0; i < fns.size(); i++)
		if (TREE_PUBLIC(fns[i].decl)) {
			fns[i].cm.external_depth = selinst_sites_depth(fns[i].symbol);
			/* Who calls it from other units (refinement
			 * unseen-small): with a sites= file
			 * the file says; a symbol it does not name is called
			 * by no other unit. */
			if (!selinst_sites_loaded())
				fns[i].cm.unseen = DECL_VISIBILITY(fns[i].decl) == VISIBILITY_DEFAULT
					? CM_UNSEEN_EXPORTED : CM_UNSEEN_INTERNAL;
		}
}

/* Whether NODE's address is an argument of a call in view (a callback
 * handed to that call), rather than only stored (a method in an object, a
 * table's initializer): refinement indirect-context. */
static bool passed_to_a_call(cgraph_node *node)
{
	ipa_ref *ref;
	for (unsigned r = 0; node->iterate_referring(r, ref); r++)
		if (ref->use == IPA_REF_ADDR && ref->stmt && is_gimple_call(ref->stmt))
			return true;
	return false;
}

/* Whether NODE's address is stored by a statement in view (a handler
 * struct filled in at run time: libxml2's xmlSAXVersion sets
 * hdlr->startElementNs), rather than only in a variable's initializer
 * (SQLite's sqlite3Apis, a table of its whole API, which other units
 * also call by name): refinement handler-depth. */
static bool stored_by_code(cgraph_node *node)
{
	ipa_ref *ref;
	for (unsigned r = 0; node->iterate_referring(r, ref); r++) {
		if (ref->use != IPA_REF_ADDR || !ref->stmt
		    || !gimple_assign_single_p(ref->stmt))
			continue;
		/* A store of the address into memory or a variable (libxml2's
		 * axis selector: next = xmlXPathNext...), not a comparison or
		 * a copy into a temporary only returned. */
		tree lhs = gimple_assign_lhs(ref->stmt);
		if (TREE_CODE(gimple_assign_rhs1(ref->stmt)) != ADDR_EXPR)
			continue;
		if (handled_component_p(lhs) || TREE_CODE(lhs) == MEM_REF
		    || (VAR_P(lhs) && !DECL_ARTIFICIAL(lhs)))
			return true;
		/* A register: a pointer to call later, unless all it does is
		 * return the address or compare it. */
		use_operand_p use;
		gimple *user;
		if (TREE_CODE(lhs) == SSA_NAME
		    && !(single_imm_use(lhs, &use, &user)
			 && (gimple_code(user) == GIMPLE_RETURN
			     || gimple_code(user) == GIMPLE_COND
			     || (is_gimple_assign(user)
				 && TREE_CODE_CLASS(gimple_assign_rhs_code(user))
				    == tcc_comparison))))
			return true;
	}
	return false;
}

/* Refinement indirect-depth: a static function whose address is taken is
 * called through pointers; the indirect calls in view whose type matches
 * its own are its call sites (SQLite's sorter comparators, called 660,000
 * times in vdbeSorterMerge's loop, and its aggregate steps in the
 * byte-code loop, scored as if called at depth 0).  Before the decisions
 * they count for a function that no call in view names; after them, for
 * every such function, with their callers' context depths (refinement
 * indirect-context, cost-model.cc): SQLite's getPageNormal is named by
 * getPageMMap outside any loop, and called through xGet per page. */
static void indirect_edges(std::vector<selinst_function> &fns,
			   const std::vector<indirect_site> &indirect,
			   std::vector<cm_call_edge> &out)
{
	for (size_t i = 0; i < fns.size(); i++) {
		cgraph_node *node = cgraph_node::get(fns[i].decl);
		if (!node || !node->address_taken)
			continue;
		if (TREE_PUBLIC(fns[i].decl)) {
			/* Refinement handler-depth: C only (C++ methods
			 * and vtables are other units' calls too). */
			fns[i].cm.stored_handler = !lang_GNU_CXX()
				&& !passed_to_a_call(node) && stored_by_code(node);
			continue;
		}
		fns[i].cm.callback = passed_to_a_call(node);
		tree type = TREE_TYPE(fns[i].decl);
		for (size_t k = 0; k < indirect.size(); k++)
			if (types_compatible_p(type, indirect[k].fntype)) {
				cm_call_edge e = { indirect[k].caller, i, indirect[k].depth, 1 };
				out.push_back(e);
			}
	}
}

/* Decisions taken before the model: attributes, safety, system headers,
 * constructor variants, the selection file, the profile's drops. */
static void force_decision(selinst_function *fn)
{
	const char *unsafe = selinst_cannot_instrument(fn->decl, DECL_STRUCT_FUNCTION(fn->decl));
	if (has_attribute(fn->decl, "no_instrument_function")) {
		fn->cm.force = CM_FORCE_NEVER;
		fn->cm.force_reason = "no_instrument_function attribute";
	} else if (unsafe) {
		fn->cm.force = CM_FORCE_NEVER;
		fn->cm.force_reason = unsafe;
	} else if (in_system_header_at(DECL_SOURCE_LOCATION(fn->decl))) {
		/* Library code (libstdc++ templates, inline helpers): the
		 * profile is about the user's functions. */
		fn->cm.force = CM_FORCE_NEVER;
		fn->cm.force_reason = "defined in a system header";
		fn->cm.library_code = 1;
	} else if (forwards_to_cdtor_variant(fn->decl)) {
		fn->cm.force = CM_FORCE_NEVER;
		fn->cm.force_reason = "constructor/destructor variant that calls "
			"another variant: that one is the region";
	} else if (has_attribute(fn->decl, "selinst_instrument")) {
		fn->cm.force = CM_FORCE_ALWAYS;
		fn->cm.force_reason = "selinst_instrument attribute";
	} else
		selinst_config_apply(fn);
	selinst_feedback_force(fn);
}

/* Hooks into every chosen function and loop: loops first, so that on a
 * path leaving loops and the function at once the loop exits run before
 * the function's exit. */
static void instrument_unit(std::vector<selinst_function> &fns)
{
	bool unit_instrumented = false;
	for (size_t i = 0; i < fns.size(); i++)
		if (fns[i].cm.instrument || selinst_any_loop_chosen(&fns[i]))
			unit_instrumented = true;
	if (!fns.empty())
		selinst_set_inlining(&fns[0], fns.size());
	for (size_t i = 0; i < fns.size(); i++) {
		selinst_function *fn = &fns[i];
		bool loops = selinst_any_loop_chosen(fn);
		function *body = DECL_STRUCT_FUNCTION(fn->decl);
		/* Landing sites get a resync even in functions left out: the
		 * longjmp may come from instrumented frames below.  A unit
		 * that instruments nothing is left byte-identical. */
		bool resync = unit_instrumented && body
			&& (body->calls_setjmp || body->has_nonlocal_label);
		if (!fn->cm.instrument && !loops && !resync)
			continue;
		push_cfun(body);
		/* Before any hook is in the body. */
		tree plain = selinst_hookless_copy(fn);
		if (loops)
			selinst_instrument_loops(fn);
		if (fn->cm.instrument)
			selinst_instrument_function(fn, &fns[0], fns.size(), plain);
		if (resync)
			selinst_insert_resyncs();
		if (loops)
			selinst_lto_note_loops(fn);
		selinst_finish_body();
		pop_cfun();
	}
}

static unsigned int selinst_execute(void)
{
	std::vector<selinst_function> fns;
	hash_map<tree, size_t> index_of;
	std::vector<call_site> sites;
	hash_map<tree, omp_origin> omp_origins;
	std::vector<cm_call_edge> edges, through_pointers;
	std::vector<indirect_site> indirect;

	collect_functions(fns, index_of);
	for (size_t i = 0; i < fns.size(); i++)
		measure(&fns[i], i, sites, indirect, omp_origins);
	name_omp_bodies(&fns[0], fns.size(), omp_origins);
	if (!fns.empty())
		name_same_line_loops(&fns[0], fns.size());
	call_edges(fns, index_of, sites, edges);
	indirect_edges(fns, indirect, through_pointers);
	for (size_t i = 0; i < fns.size(); i++)
		force_decision(&fns[i]);
	for (size_t i = 0; i < fns.size(); i++)
		selinst_loop_nest(&fns[i], &fns[0], fns.size());

	/* The model decides in place, through pointers: no copies of the
	 * functions' GMP numbers. */
	std::vector<cm_function *> cms(fns.size());
	for (size_t i = 0; i < fns.size(); i++)
		cms[i] = &fns[i].cm;
	cm_decide_indirect(&selinst_opts.model, cms.empty() ? NULL : &cms[0], fns.size(),
			   edges.empty() ? NULL : &edges[0], edges.size(),
			   through_pointers.empty() ? NULL : &through_pointers[0],
			   through_pointers.size());
	for (size_t i = 0; i < fns.size(); i++)
		selinst_decide_loops(&fns[i], &fns[0], fns.size());
	if (!fns.empty())
		selinst_feedback_apply(&fns[0], fns.size(),
				       edges.empty() ? NULL : &edges[0], edges.size());
	if (selinst_opts.sites_out)
		write_sites(&fns[0], sites);
	if (flag_generate_lto && !in_lto_p && selinst_opts.model.refined && !fns.empty())
		note_lto_calls(&fns[0], fns.size(), sites);

	instrument_unit(fns);
	if (!fns.empty()) {
		selinst_emit_settings_note();
		selinst_emit_loop_table(&fns[0], fns.size());
	}
	if (selinst_opts.verbose)
		selinst_print_table(&fns[0], fns.size());
	if (selinst_opts.decisions_path)
		selinst_write_decisions(fns.empty() ? NULL : &fns[0], fns.size());

	selinst_forget_functions();
	for (size_t i = 0; i < fns.size(); i++) {
		cm_function_clear(&fns[i].cm);
		selinst_free_loops(&fns[i]);
		free(fns[i].name);
	}
	return 0;
}

static const pass_data selinst_pass_data = {
	SIMPLE_IPA_PASS,	/* type */
	"selinst",		/* name */
	OPTGROUP_NONE,		/* optinfo_flags */
	TV_NONE,		/* tv_id */
	PROP_cfg,		/* properties_required */
	0,			/* properties_provided */
	0,			/* properties_destroyed */
	0,			/* todo_flags_start */
	0,			/* todo_flags_finish */
};

class selinst_pass : public simple_ipa_opt_pass {
public:
	selinst_pass(gcc::context *ctxt)
		: simple_ipa_opt_pass(selinst_pass_data, ctxt) {}
	bool gate(function *) final override { return !seen_error(); }
	unsigned int execute(function *) final override { return selinst_execute(); }
};

opt_pass *selinst_make_pass(void)
{
	return new selinst_pass(g);
}
