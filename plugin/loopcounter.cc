/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * loopcounter.cc - whether a loop region's iteration counter survived
 * GCC's optimizations as a value of its own.
 *
 * loops.cc counts a loop's iterations in an SSA register (PHI <0, next>,
 * next = PHI + 1 in the header).  In optimized code GCC often keeps no
 * such register: ivopts expresses the count through the loop's own
 * induction variable, or final value replacement computes it once at the
 * exit from the trip count (bench/loop-counter.sh: three of four shapes
 * cost 0 instructions an iteration, the data-dependent one 2; cg's
 * makea loops none).  The prediction of the next build's cost
 * (selinst-predict.h) charges SELINST_PREDICT_ITER_INSNS an iteration
 * only for a counter that is left.
 *
 * A late pass (after "optimized", just before expansion) looks at each
 * function that calls a loop hook.  A counter is left when some value
 * carried round a loop (a PHI with an incoming edge from a block that its
 * own block dominates, or in an irreducible region) exists only for the
 * hooks: everything computed from it, followed through PHIs and
 * assignments, ends in loop hooks' arguments or in stores into a loop's
 * iteration cell, and nowhere else (a compare, an address, another call).
 * Whatever name ivopts gave it: in the data-dependent shape the counter is
 * a new "ivtmp" of its own.  Its region (the hooks' descriptor) is then
 * counted; a region no function keeps such a value for, and whose loop
 * holds no calls (an ITERABLE loop's body starts store the count, see
 * mark_descriptor), gets SELINST_REGION_COUNTER_FOLDED in its descriptor,
 * which the runtime writes into the profile.  Descriptors are written out after every
 * function has been expanded (output_variables, with -ftoplevel-reorder,
 * GCC's default from -O1); where they may not be (-fno-toplevel-reorder,
 * so -O0, and LTO) nothing is marked, and the counter is charged as
 * before.
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"
#include "../include/selinst.h"
#include <set>

/* Regions found counted in some function: never marked folded again. */
static std::set<tree> counted_regions;
static bool loops_instrumented;

void selinst_note_counted_loops(void)
{
	loops_instrumented = true;
}

/* By name: a late pass builds no hook declaration a unit lacks. */
static bool is_hook_call(gimple *stmt, enum selinst_hook which)
{
	tree fn = is_gimple_call(stmt) ? gimple_call_fndecl(stmt) : NULL_TREE;
	return fn && DECL_NAME(fn)
		&& strcmp(IDENTIFIER_POINTER(DECL_NAME(fn)), selinst_hook_abi[which].symbol) == 0;
}

/* The descriptor a loop hook call STMT names, or NULL_TREE. */
static tree loop_hook_descriptor(gimple *stmt)
{
	if (!is_hook_call(stmt, HOOK_LOOP_ENTER) && !is_hook_call(stmt, HOOK_LOOP_EXIT)
	    && !is_hook_call(stmt, HOOK_LOOP_ITERATION))
		return NULL_TREE;
	tree arg = gimple_call_arg(stmt, 0);
	if (TREE_CODE(arg) != ADDR_EXPR || TREE_CODE(TREE_OPERAND(arg, 0)) != VAR_DECL)
		return NULL_TREE;
	return TREE_OPERAND(arg, 0);
}

/* Is PHI (in BB) a value carried round a loop? */
static bool carried(gphi *phi, basic_block bb)
{
	if (bb->flags & BB_IRREDUCIBLE_LOOP)
		return true;
	for (unsigned i = 0; i < gimple_phi_num_args(phi); i++)
		if (dominated_by_p(CDI_DOMINATORS, gimple_phi_arg_edge(phi, i)->src, bb))
			return true;
	return false;
}

/* Is PTR a loop's iteration cell (what __selinst_loop_enter returned,
 * through PHIs)? */
static bool is_cell(tree ptr, int depth)
{
	if (TREE_CODE(ptr) != SSA_NAME || depth > 4)
		return false;
	gimple *def = SSA_NAME_DEF_STMT(ptr);
	if (is_hook_call(def, HOOK_LOOP_ENTER))
		return true;
	gphi *phi = dyn_cast<gphi *>(def);
	if (!phi)
		return false;
	for (unsigned i = 0; i < gimple_phi_num_args(phi); i++) {
		tree a = gimple_phi_arg_def(phi, i);
		if (a != ptr && !is_cell(a, depth + 1))
			return false;
	}
	return true;
}

/* Everything computed from the carried value START ends in loop hooks or
 * cells: add the hooks' descriptors to *REGIONS and say so.  Values
 * followed are at most a small number (a counter's are a few). */
static bool only_for_hooks(tree start, std::set<tree> *regions)
{
	auto_vec<tree> work;
	std::set<tree> seen;
	std::set<tree> found;
	work.safe_push(start);
	seen.insert(start);
	while (!work.is_empty()) {
		tree v = work.pop();
		imm_use_iterator it;
		gimple *use;
		FOR_EACH_IMM_USE_STMT(use, it, v) {
			if (is_gimple_debug(use))
				continue;
			tree d = loop_hook_descriptor(use);
			tree next = NULL_TREE;
			if (d && gimple_call_arg(use, 0) != v)
				found.insert(d);
			else if (gimple_code(use) == GIMPLE_PHI)
				next = gimple_phi_result(use);
			else if (gimple_store_p(use) && gimple_assign_single_p(use)
				 && gimple_assign_rhs1(use) == v
				 && TREE_CODE(gimple_assign_lhs(use)) == MEM_REF
				 && is_cell(TREE_OPERAND(gimple_assign_lhs(use), 0), 0))
				continue;
			else if (is_gimple_assign(use) && !gimple_vuse(use)
				 && TREE_CODE(gimple_assign_lhs(use)) == SSA_NAME)
				next = gimple_assign_lhs(use);
			else
				return false;
			if (next && !seen.count(next)) {
				if (seen.size() > 32)
					return false;
				seen.insert(next);
				work.safe_push(next);
			}
		}
	}
	regions->insert(found.begin(), found.end());
	return !found.empty();
}

/* Set or clear the folded bit in DESCRIPTOR's initializer. */
static void mark_descriptor(tree descriptor, bool folded)
{
	tree init = DECL_INITIAL(descriptor);
	if (TREE_ASM_WRITTEN(descriptor) || !init || TREE_CODE(init) != CONSTRUCTOR
	    || CONSTRUCTOR_NELTS(init) < 4)
		return;
	constructor_elt *reserved = CONSTRUCTOR_ELT(init, 3);
	unsigned HOST_WIDE_INT flags = tree_to_uhwi(reserved->value);
	/* A loop with calls in it stores its count into its cell and tests
	 * the iterate bit at each body start (loops.cc): an iteration costs
	 * that however the counter is kept. */
	if (flags & SELINST_REGION_ITERABLE)
		folded = false;
	flags = folded ? flags | SELINST_REGION_COUNTER_FOLDED
		: flags & ~(unsigned HOST_WIDE_INT)SELINST_REGION_COUNTER_FOLDED;
	reserved->value = build_int_cst(uint32_type_node, flags);
}

static unsigned int check_counters(function *fn)
{
	bool had_dom = dom_info_available_p(fn, CDI_DOMINATORS);
	if (!had_dom)
		calculate_dominance_info(CDI_DOMINATORS);
	std::set<tree> descriptors;
	basic_block bb;
	FOR_EACH_BB_FN(bb, fn) {
		for (gphi_iterator pi = gsi_start_phis(bb); !gsi_end_p(pi); gsi_next(&pi)) {
			tree res = gimple_phi_result(pi.phi());
			if (!virtual_operand_p(res) && carried(pi.phi(), bb))
				only_for_hooks(res, &counted_regions);
		}
		for (gimple_stmt_iterator si = gsi_start_bb(bb); !gsi_end_p(si); gsi_next(&si))
			if (tree d = loop_hook_descriptor(gsi_stmt(si)))
				descriptors.insert(d);
	}
	if (!had_dom)
		free_dominance_info(CDI_DOMINATORS);
	for (tree d : descriptors)
		mark_descriptor(d, !counted_regions.count(d));
	return 0;
}

static const pass_data counter_pass_data = {
	GIMPLE_PASS,		/* type */
	"selinst_counters",	/* name */
	OPTGROUP_NONE,		/* optinfo_flags */
	TV_NONE,		/* tv_id */
	PROP_cfg | PROP_ssa,	/* properties_required */
	0, 0, 0, 0,
};

class counter_pass : public gimple_opt_pass {
public:
	counter_pass(gcc::context *ctxt) : gimple_opt_pass(counter_pass_data, ctxt) {}
	/* See the top: only where the descriptors are written after it. */
	bool gate(function *) final override
	{
		return loops_instrumented && flag_toplevel_reorder && !in_lto_p && !seen_error();
	}
	unsigned int execute(function *fn) final override { return check_counters(fn); }
};

opt_pass *selinst_make_counter_pass(void)
{
	return new counter_pass(g);
}
