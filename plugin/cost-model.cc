/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cost-model.cc - scores and decisions; see cost-model.h for the model.
 *
 * Plain C++ in the C-like subset GCC uses, no GCC headers: the unit test
 * links this file alone.
 */
#include "cost-model.h"

#include <limits.h>

#include <stdlib.h>
#include <string.h>

void cm_constants_init_default(struct cm_constants *c)
{
	mpz_init_set_ui(c->block_weight, 5);
	mpz_init_set_ui(c->loop_base, 100);
	mpz_init_set_ui(c->loop_unit, 2048);
	mpz_init_set_ui(c->call_unit, 2048);
	mpz_init_set_ui(c->threshold, 204800);
	c->refined = 1;
}

void cm_constants_clear(struct cm_constants *c)
{
	mpz_clears(c->block_weight, c->loop_base, c->loop_unit, c->call_unit,
		   c->threshold, NULL);
}

void cm_function_init(struct cm_function *f)
{
	memset(f, 0, sizeof *f);
	f->deepest_call_depth = -1;
	f->external_depth = -1;
	f->pointer_depth = -1;
	mpz_inits(f->weight, f->loop_score, f->callsite_score, f->score, NULL);
}

void cm_function_clear(struct cm_function *f)
{
	mpz_clears(f->weight, f->loop_score, f->callsite_score, f->score, NULL);
}

void cm_weight(mpz_t out, const struct cm_constants *c, unsigned long blocks,
	       unsigned long statements, unsigned long call_sites)
{
	mpz_mul_ui(out, c->block_weight, blocks);
	mpz_add_ui(out, out, statements);
	mpz_add_ui(out, out, call_sites);
}

void cm_loop_score(mpz_t out, const struct cm_constants *c, int depth)
{
	mpz_t d;
	mpz_init_set_si(d, depth);
	mpz_sub(out, c->loop_base, d);
	if (mpz_sgn(out) < 0)
		mpz_set_ui(out, 0);
	mpz_mul(out, out, c->loop_unit);
	mpz_clear(d);
}

void cm_callsite_score(mpz_t out, const struct cm_constants *c,
		       unsigned long instrumented_sites)
{
	mpz_mul(out, c->call_unit, c->call_unit);
	mpz_mul_ui(out, out, instrumented_sites);
}

/* Out-edges of each function in one array (CSR form), so that one
 * function's call sites can be walked quickly. */
struct adjacency {
	size_t *start;		/* nfns + 1 */
	size_t *callee;		/* nedges */
	char *conditional;	/* nedges: the edge's conditional flag */
};

static void adjacency_build(struct adjacency *a, size_t nfns,
			    const struct cm_call_edge *edges, size_t nedges)
{
	a->start = (size_t *) calloc(nfns + 1, sizeof(size_t));
	a->callee = (size_t *) malloc((nedges ? nedges : 1) * sizeof(size_t));
	a->conditional = (char *) malloc(nedges ? nedges : 1);
	for (size_t i = 0; i < nedges; i++)
		a->start[edges[i].caller + 1]++;
	for (size_t i = 0; i < nfns; i++)
		a->start[i + 1] += a->start[i];
	size_t *fill = (size_t *) malloc((nfns ? nfns : 1) * sizeof(size_t));
	memcpy(fill, a->start, nfns * sizeof(size_t));
	for (size_t i = 0; i < nedges; i++) {
		a->conditional[fill[edges[i].caller]] = edges[i].conditional != 0;
		a->callee[fill[edges[i].caller]++] = edges[i].callee;
	}
	free(fill);
}

/* The depth F's loop score is taken at when it runs at DEPTH: 0 where
 * refinement nest-depth holds (its own loops nest deeper than DEPTH, from
 * depth 1 on, main not in view; default model, threshold not 0), else
 * DEPTH.  Reached from main, the depths are the program's and the
 * paper's decisions stand: FT's cffz, three loops deep at depth 2, is
 * no region in the paper. */
static int scored_depth(const struct cm_constants *c, const struct cm_function *fn, int depth)
{
	if (c->refined && mpz_sgn(c->threshold) != 0 && fn->force == CM_FORCE_NONE
	    && !fn->recursive && !fn->program_entry && !fn->from_main
	    && depth >= 1 && fn->loop_nest > depth)
		return 0;
	return depth;
}

/* Score F from the current decisions of its callees. */
static void score_one(const struct cm_constants *c, struct cm_function *const *fns,
		      const struct adjacency *a, size_t f)
{
	struct cm_function *fn = fns[f];
	unsigned long inst = 0, steady = 0;
	for (size_t e = a->start[f]; e < a->start[f + 1]; e++)
		if (fns[a->callee[e]]->instrument) {
			inst++;
			if (!a->conditional[e])
				steady++;
		}
	fn->instrumented_call_sites = inst;
	fn->steady_call_sites = steady;
	if (!c->refined) {
		fn->loop_depth = fn->deepest_call_depth < 0 ? 0 : fn->deepest_call_depth;
		if (fn->external_depth > fn->loop_depth)
			fn->loop_depth = fn->external_depth;
	}
	cm_weight(fn->weight, c, fn->basic_blocks, fn->statements, fn->call_sites);
	cm_loop_score(fn->loop_score, c, scored_depth(c, fn, fn->loop_depth));
	cm_callsite_score(fn->callsite_score, c, inst);
	mpz_add(fn->score, fn->weight, fn->loop_score);
	mpz_add(fn->score, fn->score, fn->callsite_score);
}

/* Strongly connected components of the call graph, callees first. */
struct components {
	size_t *order;		/* members, component by component */
	size_t *start;		/* count + 1 offsets into order */
	size_t *comp_of;	/* component of each function */
	size_t count;
};

/* Weight of F's body as compiled: its own, plus the always_inline
 * functions it calls in view (copied into it), to a few levels. */
static unsigned long compiled_weight(const struct cm_constants *c,
				     const struct cm_function *const *fns,
				     const struct adjacency *a, size_t f, int levels)
{
	const struct cm_function *fn = fns[f];
	mpz_t own;
	mpz_init(own);
	cm_weight(own, c, fn->basic_blocks, fn->statements, fn->call_sites);
	unsigned long w = mpz_fits_ulong_p(own) ? mpz_get_ui(own) : (unsigned long) -1 / 2;
	mpz_clear(own);
	if (levels > 0)
		for (size_t e = a->start[f]; e < a->start[f + 1]; e++)
			if (fns[a->callee[e]]->always_inline)
				w += compiled_weight(c, fns, a, a->callee[e], levels - 1);
	return w;
}

/* Refinement unseen-small, before the decisions: a function that no call
 * site in view reaches, of compiled weight under CM_UNSEEN_SMALL, is an
 * accessor or a wrapper of its project's API, called per element by units
 * whose loops are out of view.  Marks it (unseen_small); a hidden one
 * gets its depth (component_depths) and takes what it calls in view down
 * with it (context-depth): Lua's LUAI_FUNC wrappers luaD_call ->
 * luaD_precall, luaX_next -> llex, luaS_newlstr -> internshrstr were
 * regions of 100,000 calls each in one script.  The weight limit keeps
 * the entry points of a phase, called once from another unit, regions
 * (yaml-cpp's SingleDocParser::HandleDocument). */
static void mark_unseen_small(const struct cm_constants *c, struct cm_function *const *fns,
			      size_t nfns, const struct adjacency *a)
{
	for (size_t f = 0; f < nfns; f++) {
		struct cm_function *fn = fns[f];
		fn->unseen_small = c->refined && mpz_sgn(c->threshold) != 0
			&& fn->unseen != CM_UNSEEN_NONE && !fn->program_entry
			&& fn->deepest_call_depth < 0 && fn->external_depth < 0
			&& fn->force == CM_FORCE_NONE && !fn->recursive
			&& compiled_weight(c, (const struct cm_function *const *) fns, a, f, 4)
			   < CM_UNSEEN_SMALL;
	}
}

/* A hidden helper of unseen-small: its depth, before the decisions. */
static int internal_helper(const struct cm_function *fn)
{
	return fn->unseen_small && fn->unseen == CM_UNSEEN_INTERNAL;
}

/* Refinement handler-depth: an exported C function whose address a
 * statement in view stores (a handler struct filled in at run time:
 * libxml2's xmlSAXVersion sets hdlr->startElementNs) and that no call in
 * view names is called through that pointer by other units, per element
 * for all this unit can tell (libxml2's parser calls its SAX handlers per
 * element and per text node): it runs at depth CM_HELPER_DEPTH, and so
 * do the functions it calls in view below it.  A large body still
 * qualifies there. */
static int stored_handler(const struct cm_constants *c, const struct cm_function *fn)
{
	return c->refined && mpz_sgn(c->threshold) != 0 && fn->stored_handler
		&& fn->deepest_call_depth < 0 && fn->external_depth < 0
		&& !fn->program_entry && !fn->recursive && fn->force == CM_FORCE_NONE;
}

/* An exported accessor of unseen-small: its loops, if any, are small
 * (a library function whose loop would be a region of its own, called
 * once from another unit's main, is an entry point), the functions it
 * calls in view do bounded work (cJSON_PrintBuffered, which enters a
 * recursive printer, is an entry point), and it calls no chosen
 * function; no region. */
static int unseen_accessor(const struct cm_function *fn)
{
	return fn->unseen_small && fn->unseen == CM_UNSEEN_EXPORTED
		&& fn->callees_bounded && fn->instrumented_call_sites == 0
		&& fn->largest_loop < CM_SMALL_BODY;
}

/* Whether the calls F makes run at F's own depth (refinements
 * depth-through and recursion): F is never a region and its body is
 * copied into its callers or runs at their depth (forced never; inline and
 * loop-free), or F is recursive (its cycle repeats like a loop, and is
 * seldom a region: its members score one level deeper). */
static int passes_depth_through(const struct cm_function *fn)
{
	return fn->force == CM_FORCE_NEVER || fn->recursive
		|| (fn->force == CM_FORCE_NONE && fn->declared_inline && !fn->has_loops);
}

/* Refinement hand-off: FN is called in view, only outside loops (no
 * depth through pointers, other units or callers it runs inside), main
 * does not reach it in view, and it calls CM_HAND_OFF or more distinct
 * functions of its project that this unit has no body of, one of them a
 * constructor: it builds an object another unit implements and runs it.
 * Their loops are out of view, so its work is not known to be bounded,
 * and building the driver of a phase marks the phase's entry (yaml-cpp's
 * operator<<(Emitter&, const Node&) builds NodeEvents, whose constructor
 * walks the tree, and emits it: a quarter of a run, main's before).
 * Calls to other units alone are not enough: yaml-cpp's emitter runs a
 * chain of methods per scalar that call EmitterState's (loop-free's
 * case: 17 more regions, +1.2% -> +2.5% instructions).  A function
 * called through pointers or from no call site in view is left to the
 * other rules: it may be an accessor or a callback called per element. */
static int hands_off(const struct cm_function *fn)
{
	return fn->other_unit_callees >= CM_HAND_OFF && fn->builds_other_unit_object
	       && fn->deepest_call_depth == 0
	       && fn->loop_depth == 0 && fn->pointer_depth < 0 && fn->external_depth < 0
	       && !fn->from_main && !fn->declared_inline;
}

/* Refinement straight-line: why a function scoring above the threshold is
 * still left out, or NULL.  Threshold 0 keeps its meaning: everything. */
static const char *refinement_excludes(const struct cm_constants *c,
				       const struct cm_function *fn)
{
	if (!c->refined || fn->force != CM_FORCE_NONE || mpz_sgn(c->threshold) == 0
	    || fn->recursive || fn->program_entry)
		return NULL;
	if (!fn->has_loops && fn->declared_inline)
		return "inline and loop-free: copied into its callers "
		       "(refinement straight-line)";
	if (hands_off(fn))
		return NULL;
	if (!fn->has_loops && fn->bounded_work && fn->instrumented_call_sites == 0)
		return "bounded work: no loop, no recursion, no callee in view "
		       "with either (refinement straight-line)";
	/* The loops it reaches are the system library's (string copies,
	 * container growth: work per element of what it hands them), and
	 * main does not reach it in view (as small-body). */
	if (!fn->has_loops && fn->bounded_own_work && !fn->from_main
	    && fn->instrumented_call_sites == 0)
		return "no loop, no recursion, loops only in system-header callees, "
		       "main not in view (refinement straight-line)";
	/* A small wrapper around an always_inline body with a loop of
	 * weight CM_SMALL_BODY or more (one level of always_inline) is that
	 * loop's entry (zstd's block compressors, weight 8, each copying in
	 * a generic search loop). */
	if (cm_small_body_excludes(c, fn->weight, fn->instrumented_call_sites, fn->from_main,
				   c->threshold)
	    && fn->inlined_loop < CM_SMALL_BODY)
		return CM_SMALL_BODY_REASON;
	if (unseen_accessor(fn))
		return CM_UNSEEN_SMALL_REASON;
	if (internal_helper(fn))
		return CM_HELPER_REASON;
	if (!fn->has_loops && fn->callees_light && !fn->from_main
	    && fn->instrumented_call_sites < CM_SMALL_BODY_PULL
	    && mpz_cmp_ui(fn->weight, CM_LOOP_FREE) < 0)
		return CM_LOOP_FREE_REASON;
	return NULL;
}

/* Refinement pull-depth: the callsite score pulls a caller (or a loop) in
 * only when it runs at depth 0, or at depth 1 with two or more chosen
 * callees (the paper's adi and its three solvers), a body of weight
 * CM_LOOP_FREE or more (lz4's per-file LZ4IO_compressFilename_extRess,
 * 1007), or a chain of calls outside loops from a function at depth 0
 * (SHALLOW_CALLER: lz4's LZ4IO_decompressSrcFile, 171, called once below
 * the one-file entry; its depth 1 is the other entry's loop over files);
 * deeper, or at depth 1 a small body around one chosen callee that only
 * loops reach (SQLite's insertCell, 201, once per row), it qualifies on
 * its own weight and loop score or not at all.  Outside such a chain, at
 * depth 1 one of those callees must be called on every path through the
 * body (refinement conditional-pull): then the body runs no more often
 * than that callee, and its hooks cost no more than the callee's.
 * SQLite's balance, called once per row inserted, calls its three chosen
 * rebalancers on a page overflow only (455 calls of 50,572).  A shallow
 * caller's chain runs about as often as its depth-0 head: rarely. */
int cm_pulls_at(const struct cm_constants *c, int depth, unsigned long instrumented_sites,
		unsigned long steady_sites, const mpz_t weight, int shallow_caller)
{
	if (!c->refined || depth <= 0)
		return 1;
	return depth == 1
		&& (shallow_caller
		    || (steady_sites > 0
			&& (instrumented_sites >= CM_SMALL_BODY_PULL
			    || mpz_cmp_ui(weight, CM_LOOP_FREE) >= 0)));
}

/* Whether a loop at DEPTH holding STEADY_SITES chosen callees called on
 * every iteration is pulled in: at depth 0 always, at depth 1 by one such
 * callee (a loop around a call to an instrumented function is a region,
 * loops.cc), never deeper. */
static int loop_pulls_at(const struct cm_constants *c, int depth, unsigned long steady_sites)
{
	return !c->refined || depth <= 0 || (depth == 1 && steady_sites > 0);
}

/* Why a body that reaches THRESHOLD only through its callsite score is not
 * pulled in (FUNCTION: a function's body, else a loop's), or NULL. */
static const char *pull_excluded(const struct cm_constants *c, int depth,
				 unsigned long instrumented_sites, unsigned long steady_sites,
				 const mpz_t weight, const mpz_t loop_score,
				 const mpz_t threshold, int function, int shallow_caller)
{
	if (!c->refined || mpz_sgn(threshold) == 0 || instrumented_sites == 0
	    || (function ? cm_pulls_at(c, depth, instrumented_sites, steady_sites, weight,
				       shallow_caller)
			 : loop_pulls_at(c, depth, steady_sites)))
		return NULL;
	mpz_t own;
	mpz_init(own);
	mpz_add(own, weight, loop_score);
	int below = mpz_cmp(own, threshold) < 0;
	mpz_clear(own);
	if (!below)
		return NULL;
	/* Counting every call site, would it be pulled in? */
	int would = function ? cm_pulls_at(c, depth, instrumented_sites, instrumented_sites,
						   weight, shallow_caller)
			     : loop_pulls_at(c, depth, instrumented_sites);
	return would ? CM_CONDITIONAL_PULL_REASON : CM_PULL_DEPTH_REASON;
}

const char *cm_pull_depth_excludes(const struct cm_constants *c, int depth,
				   unsigned long instrumented_sites,
				   unsigned long steady_sites, const mpz_t weight,
				   const mpz_t loop_score, const mpz_t threshold)
{
	return pull_excluded(c, depth, instrumented_sites, steady_sites, weight, loop_score,
			     threshold, 0, 0);
}

static const char *pull_excludes(const struct cm_constants *c,
				 const struct cm_function *fn)
{
	if (fn->force != CM_FORCE_NONE)
		return NULL;
	return pull_excluded(c, fn->loop_depth, fn->instrumented_call_sites,
			     fn->steady_call_sites, fn->weight, fn->loop_score, c->threshold, 1,
			     fn->shallow_caller);
}

static const char *refinement_excludes_any(const struct cm_constants *c,
					   const struct cm_function *fn)
{
	const char *why = refinement_excludes(c, fn);
	return why ? why : pull_excludes(c, fn);
}

static int wants_instrument(const struct cm_constants *c,
			    const struct cm_function *fn)
{
	if (fn->force == CM_FORCE_ALWAYS)
		return 1;
	if (fn->force == CM_FORCE_NEVER)
		return 0;
	return mpz_cmp(fn->score, c->threshold) >= 0 && !refinement_excludes_any(c, fn);
}

/* Least fixed point over one strongly connected component. */
static void decide_component(const struct cm_constants *c,
			     struct cm_function *const *fns, const struct adjacency *a,
			     const size_t *members, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fns[members[i]]->instrument = 0;
	int changed = 1;
	while (changed) {
		changed = 0;
		for (size_t i = 0; i < n; i++)
			score_one(c, fns, a, members[i]);
		for (size_t i = 0; i < n; i++) {
			struct cm_function *fn = fns[members[i]];
			if (!fn->instrument && wants_instrument(c, fn)) {
				fn->instrument = 1;
				changed = 1;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct cm_function *fn = fns[members[i]];
		const char *excluded = refinement_excludes_any(c, fn);
		if (fn->force != CM_FORCE_NONE)
			fn->reason = fn->force_reason;
		else if (fn->instrument)
			fn->reason = "score >= threshold";
		else if (excluded && mpz_cmp(fn->score, c->threshold) >= 0)
			fn->reason = excluded;
		else
			fn->reason = "score < threshold";
	}
}

/* Tarjan's algorithm, iterative so deep call chains cannot overflow the
 * compiler's stack.  Components come out callees first. */
static void find_components(const struct adjacency *a, size_t nfns,
			    struct components *out)
{
	const size_t UNSEEN = (size_t) -1;
	size_t n1 = nfns ? nfns : 1;
	size_t *index = (size_t *) malloc(n1 * sizeof(size_t));
	size_t *low = (size_t *) malloc(n1 * sizeof(size_t));
	char *on_stack = (char *) calloc(n1, 1);
	size_t *stack = (size_t *) malloc(n1 * sizeof(size_t));
	size_t *call_f = (size_t *) malloc(n1 * sizeof(size_t));
	size_t *call_e = (size_t *) malloc(n1 * sizeof(size_t));
	size_t sp = 0, next_index = 0, filled = 0;

	out->order = (size_t *) malloc(n1 * sizeof(size_t));
	out->start = (size_t *) malloc((n1 + 1) * sizeof(size_t));
	out->comp_of = (size_t *) malloc(n1 * sizeof(size_t));
	out->count = 0;
	out->start[0] = 0;
	for (size_t i = 0; i < nfns; i++)
		index[i] = UNSEEN;

	for (size_t root = 0; root < nfns; root++) {
		if (index[root] != UNSEEN)
			continue;
		size_t depth = 0;
		call_f[0] = root;
		call_e[0] = a->start[root];
		index[root] = low[root] = next_index++;
		stack[sp++] = root;
		on_stack[root] = 1;
		while (1) {
			size_t f = call_f[depth];
			if (call_e[depth] < a->start[f + 1]) {
				size_t g = a->callee[call_e[depth]++];
				if (index[g] == UNSEEN) {
					index[g] = low[g] = next_index++;
					stack[sp++] = g;
					on_stack[g] = 1;
					depth++;
					call_f[depth] = g;
					call_e[depth] = a->start[g];
				} else if (on_stack[g] && index[g] < low[f]) {
					low[f] = index[g];
				}
				continue;
			}
			/* All of f's callees done. */
			if (low[f] == index[f]) {
				do {
					sp--;
					on_stack[stack[sp]] = 0;
					out->comp_of[stack[sp]] = out->count;
					out->order[filled++] = stack[sp];
				} while (stack[sp] != f);
				out->start[++out->count] = filled;
			}
			if (depth == 0)
				break;
			depth--;
			size_t parent = call_f[depth];
			if (low[f] < low[parent])
				low[parent] = low[f];
		}
	}
	free(index); free(low); free(on_stack); free(stack);
	free(call_f); free(call_e);
}

/* Recursion and bounded work, callees first: a function is recursive when
 * its component has a cycle; its work per call is bounded when it has no
 * loop, is not recursive and calls only bounded functions in view. */
static void classify_work(struct cm_function *const *fns, const struct adjacency *a,
			  const struct components *k)
{
	for (size_t c = 0; c < k->count; c++) {
		const size_t *m = k->order + k->start[c];
		size_t n = k->start[c + 1] - k->start[c];
		int cyclic = n > 1, bounded = 1, bounded_lib = 1, light = 1;
		for (size_t i = 0; i < n; i++)
			for (size_t e = a->start[m[i]]; e < a->start[m[i] + 1]; e++) {
				size_t g = a->callee[e];
				if (k->comp_of[g] == c)
					cyclic = 1;
				else if (!fns[g]->bounded_work) {
					bounded = 0;
					if (!fns[g]->library_code && !fns[g]->bounded_own_work)
						bounded_lib = 0;
					if (!fns[g]->library_code && !fns[g]->light_work)
						light = 0;
				}
				/* Loops copied in are the caller's own. */
				if (fns[g]->always_inline && fns[g]->has_loops)
					light = 0;
				if (fns[g]->always_inline
				    && fns[g]->largest_loop > fns[m[i]]->inlined_loop)
					fns[m[i]]->inlined_loop = fns[g]->largest_loop;
			}
		for (size_t i = 0; i < n; i++) {
			fns[m[i]]->recursive = cyclic;
			fns[m[i]]->bounded_work = bounded && !cyclic && !fns[m[i]]->has_loops;
			fns[m[i]]->bounded_own_work = bounded_lib && !cyclic && !fns[m[i]]->has_loops;
			fns[m[i]]->callees_bounded = bounded_lib && !cyclic;
			fns[m[i]]->callees_light = light && !cyclic;
			fns[m[i]]->light_work = light && !cyclic
				&& fns[m[i]]->largest_loop < CM_SMALL_BODY;
		}
	}
}

int cm_small_body_excludes(const struct cm_constants *c, const mpz_t weight,
			   unsigned long instrumented_sites, int from_main,
			   const mpz_t threshold)
{
	return c->refined && mpz_sgn(threshold) != 0 && !from_main
	       && instrumented_sites < CM_SMALL_BODY_PULL
	       && mpz_cmp_ui(weight, CM_SMALL_BODY) < 0;
}

int cm_leaf_loop_excludes(const struct cm_constants *c, const mpz_t weight, int straight_leaf,
			  unsigned long instrumented_sites, int from_main,
			  const mpz_t threshold)
{
	return c->refined && mpz_sgn(threshold) != 0 && !from_main && straight_leaf
	       && instrumented_sites == 0 && mpz_cmp_ui(weight, CM_LEAF_LOOP) < 0;
}

int cm_whole_body_excludes(const struct cm_constants *c, const mpz_t weight,
			   const mpz_t fn_weight, int nest, int fn_region,
			   unsigned long instrumented_sites, int from_main,
			   const mpz_t threshold)
{
	if (!c->refined || mpz_sgn(threshold) == 0 || mpz_sgn(c->threshold) == 0
	    || from_main || !fn_region || nest != 1 || instrumented_sites != 0)
		return 0;
	/* weight * 100 >= fn_weight * CM_WHOLE_BODY_PCT, exactly */
	mpz_t lhs, rhs;
	mpz_inits(lhs, rhs, NULL);
	mpz_mul_ui(lhs, weight, 100);
	mpz_mul_ui(rhs, fn_weight, CM_WHOLE_BODY_PCT);
	int excluded = mpz_sgn(fn_weight) > 0 && mpz_cmp(lhs, rhs) >= 0;
	mpz_clears(lhs, rhs, NULL);
	return excluded;
}

int cm_site_base_depth(const struct cm_constants *c, const struct cm_function *f)
{
	return c->refined && !f->instrument ? f->context_depth : 0;
}

/* Which functions main reaches by call edges in view (refinement
 * small-body): a depth-first walk from every program entry. */
static void mark_from_main(struct cm_function *const *fns, size_t nfns,
			   const struct adjacency *a)
{
	size_t *stack = (size_t *) malloc((nfns ? nfns : 1) * sizeof(size_t));
	size_t sp = 0;
	for (size_t i = 0; i < nfns; i++) {
		fns[i]->from_main = fns[i]->program_entry;
		if (fns[i]->program_entry)
			stack[sp++] = i;
	}
	while (sp) {
		size_t f = stack[--sp];
		for (size_t e = a->start[f]; e < a->start[f + 1]; e++)
			if (!fns[a->callee[e]]->from_main) {
				fns[a->callee[e]]->from_main = 1;
				stack[sp++] = a->callee[e];
			}
	}
	free(stack);
}

/* Edge indexes grouped by the callee's component: component i's edges
 * are by_comp[first[i] .. first[i + 1]). */
static void group_edges_by_callee(const struct cm_call_edge *edges, size_t nedges,
				  const struct components *k, size_t *first,
				  size_t *by_comp)
{
	for (size_t e = 0; e < nedges; e++)
		first[k->comp_of[edges[e].callee] + 1]++;
	for (size_t i = 0; i < k->count; i++)
		first[i + 1] += first[i];
	size_t *fill = (size_t *) malloc((k->count ? k->count : 1) * sizeof(size_t));
	memcpy(fill, first, k->count * sizeof(size_t));
	for (size_t e = 0; e < nedges; e++)
		by_comp[fill[k->comp_of[edges[e].callee]]++] = e;
	free(fill);
}

/* Refinement pull-depth, after the depths: which functions a function
 * running at depth 0 reaches through call sites outside any loop (calls
 * inside a cycle are the cycle's own): along that chain each runs once a
 * call of the function at its top.  Components callers first, as
 * component_depths visits them, so a caller's mark is final when its
 * callees read it. */
static void mark_shallow_callers(struct cm_function *const *fns,
				 const struct cm_call_edge *edges, size_t nedges,
				 const struct components *k)
{
	size_t *first = (size_t *) calloc(k->count + 1, sizeof(size_t));
	size_t *by_comp = (size_t *) malloc((nedges ? nedges : 1) * sizeof(size_t));
	group_edges_by_callee(edges, nedges, k, first, by_comp);
	for (size_t ci = k->count; ci-- > 0;)
		for (size_t j = first[ci]; j < first[ci + 1]; j++) {
			const struct cm_call_edge *s = &edges[by_comp[j]];
			const struct cm_function *caller = fns[s->caller];
			if (s->depth == 0 && k->comp_of[s->caller] != ci
			    && (caller->loop_depth == 0 || caller->shallow_caller))
				fns[s->callee]->shallow_caller = 1;
		}
	free(first); free(by_comp);
}

/* A function chosen at a shallower depth is scored again at DEPTH, the
 * depth it runs at below the nearest region, and dropped when it no
 * longer reaches the threshold (refinement context-depth). */
static void drop_if_deeper(const struct cm_constants *c, struct cm_function *fn,
			   int depth, mpz_t scratch, const char *reason)
{
	fn->context_depth = depth;
	if (!fn->instrument || fn->force != CM_FORCE_NONE || depth <= fn->loop_depth)
		return;
	cm_loop_score(scratch, c, scored_depth(c, fn, depth));
	mpz_add(scratch, scratch, fn->weight);
	/* pull-depth holds here too: from depth 2 on callees pull nothing,
	 * at depth 1 only two or more called on every path, or a shallow
	 * caller's chain. */
	int pulled = cm_pulls_at(c, depth, fn->instrumented_call_sites, fn->steady_call_sites,
				 fn->weight, fn->shallow_caller);
	if (pulled)
		mpz_add(scratch, scratch, fn->callsite_score);
	if (mpz_cmp(scratch, c->threshold) >= 0)
		return;
	/* Conditional-pull decided only when every call site counted would
	 * have pulled it in, and the pull would have reached the threshold. */
	int conditional = !pulled && fn->instrumented_call_sites > 0
		&& cm_pulls_at(c, depth, fn->instrumented_call_sites,
			       fn->instrumented_call_sites, fn->weight, fn->shallow_caller);
	if (conditional) {
		mpz_add(scratch, scratch, fn->callsite_score);
		conditional = mpz_cmp(scratch, c->threshold) >= 0;
	}
	/* The depth that decided; its loops use it too. */
	fn->instrument = 0;
	fn->reason = conditional ? CM_CONDITIONAL_PULL_REASON : reason;
	fn->loop_depth = depth;
	cm_loop_score(fn->loop_score, c, scored_depth(c, fn, depth));
	mpz_add(fn->score, fn->weight, fn->loop_score);
	mpz_add(fn->score, fn->score, fn->callsite_score);
}

/* The depth an indirect site E gives TARGET, or -1 (refinement
 * indirect-depth): before the decisions (AFTER 0) its own loop depth, to a
 * function in no cycle that no direct call in view names; after them, in
 * the first pass (AFTER 1), nothing (the function keeps its depth).  Not
 * the caller's depth there: a call through a pointer is no call-graph
 * edge, and cycles through pointers (SQLite's byte-code engine calls SQL
 * functions that run statements) would add up.  Refinement
 * indirect-context: the second pass (AFTER 2) adds the caller's context
 * depth from the first pass (PASS1) when the caller is no region.  One
 * hop, from the first pass's depths: no sum over a cycle.  SQLite's pager
 * and page cache, reached through xGet and xFetch from helpers 16 levels
 * below the byte-code loop, were regions of 75,080 calls each at depth 0. */
static int pointer_site_depth(const struct cm_call_edge *e, struct cm_function *target,
			      const struct cm_function *caller, int after, const int *pass1)
{
	if (target->recursive)
		return -1;
	if (after == 2 && !target->callback) {
		if (e->depth > target->pointer_depth)
			target->pointer_depth = e->depth;
		return e->depth + (caller->instrument || caller == target ? 0 : pass1[e->caller]);
	}
	if (after)
		return -1;
	/* Recorded for a function named by direct calls too: hand-off asks
	 * whether anything calls it through a pointer. */
	if (e->depth > target->pointer_depth)
		target->pointer_depth = e->depth;
	return target->deepest_call_depth >= 0 ? -1 : e->depth;
}

/* Refinement indirect-context and pull-depth's shallow chains: a chain
 * from a function at depth 0 (mark_shallow_callers) stays shallow only
 * through callers that run no deeper than the first pass said (DEPTH: this
 * pass's depths by component, PASS1: the first pass's by function).  A
 * head reached through a pointer from deep below (SQLite's getPageMMap,
 * a pager method) runs as often as its pointer's site, and so does the
 * chain below it.  EDGES_AT: the NEDGES_AT direct call edges (of NDIRECT)
 * into one component, callers visited already. */
static void recheck_shallow(struct cm_function *const *fns, const struct cm_call_edge *edges,
			    size_t ndirect, const size_t *edges_at, size_t nedges_at,
			    const struct components *k, const int *depth, const int *pass1)
{
	for (size_t j = 0; j < nedges_at; j++)
		if (edges_at[j] < ndirect)
			fns[edges[edges_at[j]].callee]->shallow_caller = 0;
	for (size_t j = 0; j < nedges_at; j++) {
		if (edges_at[j] >= ndirect)
			continue;
		const struct cm_call_edge *s = &edges[edges_at[j]];
		const struct cm_function *caller = fns[s->caller];
		size_t cc = k->comp_of[s->caller];
		if (s->depth == 0 && cc != k->comp_of[s->callee]
		    && (caller->loop_depth == 0 || caller->shallow_caller)
		    && depth[cc] <= pass1[s->caller])
			fns[s->callee]->shallow_caller = 1;
	}
}

/* Depths, callers first (components in reverse order).  A call site s in
 * C reaching P counts depth(s), plus C's depth when C passes it through:
 * before the decisions (AFTER = 0) when passes_depth_through(C), after
 * them (AFTER = 1 or 2) when C is not a region, and then each component is
 * offered to drop_if_deeper before its callees are visited.  All members
 * of a cycle share one depth: the deepest entry from outside plus the
 * deepest call inside plus one.  Capped at loop_base.  AFTER = 2 runs once
 * more after AFTER = 1 with the indirect sites' callers' context depths
 * (refinement indirect-context). */
static void component_depths(const struct cm_constants *c, struct cm_function *const *fns,
			     const struct cm_call_edge *edges, size_t nedges,
			     size_t nindirect, const struct components *k, int after,
			     const int *pass1)
{
	int cap = mpz_fits_sint_p(c->loop_base) ? (int) mpz_get_si(c->loop_base) : 1 << 20;
	if (cap > (1 << 20) || cap < 0)
		cap = cap < 0 ? 0 : 1 << 20;
	size_t *first = (size_t *) calloc(k->count + 1, sizeof(size_t));
	size_t *by_comp = (size_t *) malloc((nedges ? nedges : 1) * sizeof(size_t));
	int *depth = (int *) calloc(k->count ? k->count : 1, sizeof(int));
	group_edges_by_callee(edges, nedges, k, first, by_comp);
	mpz_t scratch;
	mpz_init(scratch);
	for (size_t ci = k->count; ci-- > 0;) {
		int outside = 0, inside = -1, pointed = 0;
		for (size_t j = first[ci]; j < first[ci + 1]; j++) {
			const struct cm_call_edge *e = &edges[by_comp[j]];
			const struct cm_function *caller = fns[e->caller];
			if (by_comp[j] >= nedges - nindirect) {
				struct cm_function *target = fns[k->order[k->start[ci]]];
				pointed |= target->deepest_call_depth < 0;
				int d = pointer_site_depth(e, target, caller, after, pass1);
				if (d > outside)
					outside = d;
				continue;
			}
			if (k->comp_of[e->caller] == ci) {
				if (e->depth + 1 > inside)
					inside = e->depth + 1;
				continue;
			}
			int through = after ? !caller->instrument : passes_depth_through(caller);
			int d = e->depth + (through ? depth[k->comp_of[e->caller]] : 0);
			if (d > outside)
				outside = d;
		}
		/* A function alone also counts its sites known only as a
		 * depth (the unit test's graphs give no edge for them); any
		 * member its calls from other units. */
		if (inside < 0 && fns[k->order[k->start[ci]]]->deepest_call_depth > outside)
			outside = fns[k->order[k->start[ci]]]->deepest_call_depth;
		if (after && pointed && !fns[k->order[k->start[ci]]]->recursive
		    && fns[k->order[k->start[ci]]]->loop_depth > outside)
			outside = fns[k->order[k->start[ci]]]->loop_depth;
		for (size_t j = k->start[ci]; j < k->start[ci + 1]; j++) {
			if (fns[k->order[j]]->external_depth > outside)
				outside = fns[k->order[j]]->external_depth;
			if ((internal_helper(fns[k->order[j]]) || stored_handler(c, fns[k->order[j]]))
			    && outside < CM_HELPER_DEPTH)
				outside = CM_HELPER_DEPTH;
		}
		long d = (long) outside + (inside > 0 ? inside : 0);
		depth[ci] = d > cap ? cap : (int) d;
		/* indirect-context raises no cycle: entered through a pointer
		 * from deep helpers (a statement run from an SQL function),
		 * the byte-code engine would count the depth of its own
		 * nested runs. */
		if (after == 2 && fns[k->order[k->start[ci]]]->recursive)
			depth[ci] = pass1[k->order[k->start[ci]]];
		if (after == 2)
			recheck_shallow(fns, edges, nedges - nindirect, by_comp + first[ci],
					first[ci + 1] - first[ci], k, depth, pass1);
		for (size_t j = k->start[ci]; j < k->start[ci + 1]; j++) {
			if (after)
				drop_if_deeper(c, fns[k->order[j]], depth[ci], scratch,
					       after == 2 ? CM_POINTER_CONTEXT_REASON
							  : CM_CONTEXT_DEPTH_REASON);
			else
				fns[k->order[j]]->loop_depth = depth[ci];
		}
	}
	mpz_clear(scratch);
	free(first); free(by_comp); free(depth);
}

int cm_qualifies_at(const struct cm_constants *c, const struct cm_function *fn, int depth)
{
	mpz_t s;
	mpz_init(s);
	cm_loop_score(s, c, scored_depth(c, fn, depth));
	mpz_add(s, s, fn->weight);
	if (cm_pulls_at(c, depth, fn->instrumented_call_sites,
			fn->steady_call_sites, fn->weight, fn->shallow_caller))
		mpz_add(s, s, fn->callsite_score);
	int ok = mpz_cmp(s, c->threshold) >= 0;
	mpz_clear(s);
	return ok;
}

int cm_deepest_qualifying_depth(const struct cm_constants *c, const struct cm_function *fn)
{
	int limit = mpz_fits_sint_p(c->loop_base) ? (int) mpz_get_si(c->loop_base) : INT_MAX;
	if (limit > CM_DEPTH_SEARCH_MAX)
		limit = CM_DEPTH_SEARCH_MAX;
	int from = fn->context_depth > fn->loop_depth ? fn->context_depth : fn->loop_depth;
	if (from < 0)
		from = 0;
	for (int d = from + 1; d <= limit; d++)
		if (!cm_qualifies_at(c, fn, d))
			return d - 1;
	return -1;
}

int cm_loop_deepest_qualifying_depth(const struct cm_constants *c, const mpz_t weight,
				     const mpz_t callsite_score, unsigned long steady_sites,
				     int depth, const mpz_t threshold)
{
	int limit = mpz_fits_sint_p(c->loop_base) ? (int) mpz_get_si(c->loop_base) : INT_MAX;
	if (limit > CM_DEPTH_SEARCH_MAX)
		limit = CM_DEPTH_SEARCH_MAX;
	mpz_t s;
	mpz_init(s);
	int deepest = -1;
	for (int d = (depth < 0 ? 0 : depth) + 1; d <= limit && deepest < 0; d++) {
		/* As loops.cc decides: its own score, or pulled in where
		 * loop_pulls_at allows. */
		cm_loop_score(s, c, d);
		mpz_add(s, s, weight);
		int ok = mpz_cmp(s, threshold) >= 0;
		if (!ok && loop_pulls_at(c, d, steady_sites)) {
			mpz_add(s, s, callsite_score);
			ok = mpz_cmp(s, threshold) >= 0;
		}
		if (!ok)
			deepest = d - 1;
	}
	mpz_clear(s);
	return deepest;
}

/* Whether FN, scored from its callees' final decisions, still reaches the
 * threshold at the depth it runs at below the nearest region. */
static int still_qualifies_at_context(const struct cm_constants *c,
				      const struct cm_function *fn)
{
	return fn->context_depth <= fn->loop_depth || cm_qualifies_at(c, fn, fn->context_depth);
}

/* Refinement context-depth, after the decisions: component_depths drops
 * what no longer qualifies at the depth it runs at below the nearest
 * region (callees, visited later, see it as no region); then callers
 * chosen only through the callsite score of dropped callees are dropped,
 * callees first.  Only ever drops: one answer, in two passes. */
static void context_depths(const struct cm_constants *c, struct cm_function *const *fns,
			   size_t nfns, const struct cm_call_edge *edges, size_t nedges,
			   size_t nindirect, const struct adjacency *a,
			   const struct components *k)
{
	component_depths(c, fns, edges, nedges, nindirect, k, 1, NULL);
	int *pass1 = (int *) calloc(nfns ? nfns : 1, sizeof(int));
	for (size_t i = 0; i < nfns; i++)
		pass1[i] = fns[i]->context_depth;
	if (nindirect)
		component_depths(c, fns, edges, nedges, nindirect, k, 2, pass1);
	for (size_t ci = 0; ci < k->count; ci++)
		for (size_t j = k->start[ci]; j < k->start[ci + 1]; j++) {
			struct cm_function *fn = fns[k->order[j]];
			if (!fn->instrument || fn->force != CM_FORCE_NONE)
				continue;
			score_one(c, fns, a, k->order[j]);
			if (mpz_cmp(fn->score, c->threshold) >= 0
			    && still_qualifies_at_context(c, fn))
				continue;
			fn->instrument = 0;
			/* The depth that decided: the second pass's, where
			 * pointers raised it, names indirect-context. */
			fn->reason = fn->context_depth > pass1[k->order[j]]
				     && mpz_cmp(fn->score, c->threshold) >= 0
				     ? CM_POINTER_CONTEXT_REASON : CM_CONTEXT_DEPTH_REASON;
		}
	/* A region that nest-depth kept names it: one that would not reach
	 * the threshold at the depth it runs at. */
	mpz_t at_depth;
	mpz_init(at_depth);
	for (size_t i = 0; i < nfns; i++) {
		struct cm_function *fn = fns[i];
		if (!fn->instrument || fn->force != CM_FORCE_NONE
		    || scored_depth(c, fn, fn->context_depth) == fn->context_depth)
			continue;
		cm_loop_score(at_depth, c, fn->context_depth);
		mpz_add(at_depth, at_depth, fn->weight);
		mpz_add(at_depth, at_depth, fn->callsite_score);
		if (mpz_cmp(at_depth, c->threshold) < 0)
			fn->reason = CM_NEST_DEPTH_REASON;
	}
	mpz_clear(at_depth);
	free(pass1);
}

void cm_decide(const struct cm_constants *c, struct cm_function *const *fns,
	       size_t nfns, const struct cm_call_edge *edges, size_t nedges)
{
	cm_decide_indirect(c, fns, nfns, edges, nedges, NULL, 0);
}

void cm_decide_indirect(const struct cm_constants *c, struct cm_function *const *fns,
			size_t nfns, const struct cm_call_edge *edges, size_t nedges,
			const struct cm_call_edge *indirect, size_t nindirect)
{
	struct adjacency a;
	struct components k;
	adjacency_build(&a, nfns, edges, nedges);
	find_components(&a, nfns, &k);
	/* Depths read the indirect sites after the call edges, in one array. */
	size_t nall = nedges + nindirect;
	struct cm_call_edge *all = (struct cm_call_edge *)
		malloc((nall ? nall : 1) * sizeof *all);
	if (nedges)
		memcpy(all, edges, nedges * sizeof *all);
	if (nindirect)
		memcpy(all + nedges, indirect, nindirect * sizeof *all);
	for (size_t i = 0; i < nfns && !c->refined; i++)
		fns[i]->stored_handler = 0;
	if (c->refined) {
		classify_work(fns, &a, &k);
		/* The decision file names handler-depth where it holds only
		 * (not for main, recursion, forced decisions, threshold 0). */
		for (size_t i = 0; i < nfns; i++)
			fns[i]->stored_handler = stored_handler(c, fns[i]);
		mark_from_main(fns, nfns, &a);
		mark_unseen_small(c, fns, nfns, &a);
		component_depths(c, fns, all, nall, nindirect, &k, 0, NULL);
		mark_shallow_callers(fns, edges, nedges, &k);
	}
	for (size_t i = 0; i < k.count; i++)
		decide_component(c, fns, &a, k.order + k.start[i],
				 k.start[i + 1] - k.start[i]);
	if (c->refined && mpz_sgn(c->threshold) != 0)
		context_depths(c, fns, nfns, all, nall, nindirect, &a, &k);
	else
		for (size_t i = 0; i < nfns; i++)
			fns[i]->context_depth = fns[i]->loop_depth;
	free(all);
	free(k.order); free(k.start); free(k.comp_of);
	free(a.start); free(a.callee); free(a.conditional);
}
