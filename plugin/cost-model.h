/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cost-model.h - the selective-instrumentation cost model, GCC-free.
 *
 * The model of Hernandez, Jin and Chapman (2007), section 5, as the README
 * ("The cost model") documents it.  For a function P:
 *
 *   weight(P)         = block_weight * basic_blocks + statements + call_sites
 *   loop_score(P)     = max(0, loop_base - d) * loop_unit
 *                         d: loop depth of P's deepest call site in view;
 *                            0 when P has no call site in view
 *                         (never negative: then threshold=0 chooses every
 *                         function whatever loop_base is)
 *   callsite_score(P) = instrumented_call_sites(P) * call_unit^2
 *                         counting only call sites in P whose callee WILL be
 *                         instrumented (the rule of the text and of the FT
 *                         example; Table 1's x_solve row counts all ten)
 *   score(P)          = weight + loop_score + callsite_score
 *   P is instrumented when score(P) >= threshold.
 *
 * Defaults: block_weight 5, loop_base 100, loop_unit 2048, call_unit 2048,
 * threshold 204800 (the score of an empty function called outside loops).
 * All arithmetic is GMP mpz: exact for any threshold and any constants.
 *
 * Decision order: strongly connected components of the call graph,
 * callees first.  Recursion (a cycle) takes the LEAST FIXED POINT: start
 * with every member undecided-as-false, recompute all members' scores from
 * the current decisions, mark those that reach the threshold, repeat until
 * nothing changes.  Scores only grow as callees become instrumented, so
 * this ends after at most |SCC| rounds and gives one answer whatever order
 * the members are listed in.
 *
 * Models.  CM_MODEL_PAPER is the formula above and nothing else.
 * CM_MODEL_DEFAULT is the formula plus sixteen refinements (indirect-depth
 * and indirect-context at cm_decide_indirect below), each named in
 * the decision file and tested (README "The cost model"); with threshold
 * 0 every model instruments everything it safely can.
 *
 *   straight-line  A function whose work per call is bounded (no loop,
 *                  not recursive, and every callee with a body in view
 *                  bounded too) and that calls no instrumented function is
 *                  not instrumented: hooks would cost about as much as it
 *                  does, and its time shows in its caller's region.  A
 *                  function declared inline with no loop and no recursion
 *                  is never instrumented (the paper: "we avoid
 *                  instrumenting any procedure that meets the criteria for
 *                  inlining"); its body is copied into its callers.
 *                  Where main does not reach the function in view,
 *                  callees defined in system headers count as bounded
 *                  (library string and container code).
 *                  `main` is exempt: it runs once and is the root the
 *                  rest of the profile hangs under.
 *   depth-through  A call site inside a function that passes its depth
 *                  through runs at the site's depth plus that function's:
 *                  d(P) = max over sites s in C calling P of
 *                         depth(s) + (C passes depth through ? d(C) : 0),
 *                  computed callers first, capped at loop_base.  Passing
 *                  through: never instrumented and copied into or run at
 *                  its callers' depth (forced never: always_inline, system
 *                  header, no_instrument_function, unsafe; or inline and
 *                  loop-free), or recursive (below).
 *   pull-depth     The callsite score pulls a function (or loop) in only
 *                  when it runs at depth 0 or 1, as the paper's adi does;
 *                  deeper, instrumented callees do not make it a region
 *                  (its hooks would run a loop's trip count more often
 *                  than theirs).  At depth 1 a function needs two chosen
 *                  callees, a weight of CM_LOOP_FREE, or a chain of calls
 *                  outside loops from a function that runs at depth 0
 *                  (then it also runs once a call of that function:
 *                  lz4's per-file functions, called once below the
 *                  one-file entry and in the loop over files of the
 *                  other).
 *   conditional-pull  Outside such a chain, at depth 1 chosen callees
 *                  pull a body in only when one of them is called on
 *                  every path through it: for a function, a call site
 *                  whose block dominates every block that returns; for a
 *                  loop, one dominating every latch (each iteration that
 *                  comes back runs it).  Then the body runs no more often
 *                  than that callee.  A body that calls its chosen
 *                  callees on some paths only may run far more often than
 *                  they do (SQLite's balance: 50,572 calls, its three
 *                  rebalancers 455), and its hooks then cost more than
 *                  theirs; the paper's adi calls its solvers on every call.
 *                  Edges carry the flag (cm_call_edge.conditional).
 *   context-depth  After the decisions, callers first: a chosen function
 *                  is scored again at the depth it runs at below the
 *                  nearest region (call depths added up through callers
 *                  that are not regions) and dropped if it no longer
 *                  reaches the threshold; then callers that only dropped
 *                  callees pulled in are dropped, callees first, each
 *                  scored at that same depth.  The
 *                  paper's BT keeps its decisions: adi is a region, so
 *                  the solvers run at depth 0 below it.
 *   indirect-context  After context-depth's pass, a second one: an indirect
 *                  site gives the static address-taken functions whose type
 *                  matches the site's depth plus its caller's context depth
 *                  from the first pass when the caller is no region (also
 *                  to a function a direct call in view names); the
 *                  functions they call in view follow (context-depth).
 *                  One hop, from the first pass: cycles through pointers do
 *                  not add up; a call-graph cycle keeps its depth.  Not a
 *                  callback, whose address a call in view receives as an
 *                  argument (Lua's f_parser, handed to luaD_pcall once per
 *                  chunk loaded): it runs inside that call, and the
 *                  matching sites' callers are other callbacks' too; a
 *                  method stored in an object (SQLite's xGet, xFetch)
 *                  runs wherever the object is used.
 *   recursion      The members of a call-graph cycle share one depth: the
 *                  deepest call into the cycle from outside plus the
 *                  deepest call inside it plus one (recursion repeats
 *                  them like a loop), and the calls they make run at that
 *                  depth.  A recursive descent and its helpers are then
 *                  not chosen for being called outside loops; the function
 *                  that enters it is.
 *   small-body     A function or loop body of weight under CM_SMALL_BODY
 *                  (64) with fewer than CM_SMALL_BODY_PULL (2) call sites
 *                  to instrumented functions is not a region when its
 *                  function is not reached from main by call edges in view
 *                  (recursive functions and forced decisions are exempt):
 *                  the paper's inlining criterion by size, where the
 *                  depths are not the program's.  Reached from main, the
 *                  call chain is in view and the formula's depth says how
 *                  often it runs; elsewhere (a library's unit, a function
 *                  called through a pointer) it does not, and such a body
 *                  costs about what its hooks cost.  A small caller of
 *                  several chosen functions (the paper's adi) stays.
 *   unseen-small   A function no call site in view reaches (external
 *                  linkage, no sites= file names it), of weight under
 *                  CM_UNSEEN_SMALL (128, always_inline bodies it copies
 *                  included), is an accessor or a wrapper its users call
 *                  per element (small-body's limit, doubled where the
 *                  callers are out of view).  Exported, with no chosen
 *                  callee, only bounded callees in view and no loop body
 *                  of weight CM_SMALL_BODY (64) or more: no region.  Hidden or internal visibility (the
 *                  project's own helper): no region, and it runs at depth
 *                  CM_HELPER_DEPTH (2), and so do the functions it calls
 *                  in view (context-depth).
 *   handler-depth  An exported C function that no call in view names,
 *                  whose address a statement in view stores (not only a
 *                  variable's initializer) and no call receives, is a
 *                  handler other units call through the pointer: it runs
 *                  at depth CM_HELPER_DEPTH, and so do the functions it
 *                  calls in view (context-depth).
 *   loop-free      A function with no loop, not recursive, whose callees
 *                  in view run no loop body of weight CM_SMALL_BODY or
 *                  more (library code aside), with fewer than
 *                  CM_SMALL_BODY_PULL instrumented callees, of weight
 *                  under CM_LOOP_FREE (256), is not a region when main
 *                  does not reach it in view: small-body for a body that
 *                  runs each statement once a call.
 *   leaf-loop      (loops.cc) An innermost loop whose calls all go to
 *                  bounded, uninstrumented functions in view, of weight
 *                  under CM_LEAF_LOOP (256), is not a loop region when
 *                  main does not reach its function in view.
 *   hand-off       A function called in view, only outside loops (depth
 *                  0, no pointer or sites= depth), not inline, that main
 *                  does not reach in view, that calls CM_HAND_OFF (2) or
 *                  more distinct functions of its project out of view
 *                  (no body here, declared outside system headers), one
 *                  of them a constructor (C++: it builds an object another
 *                  unit implements, and is no constructor or destructor
 *                  itself), is not dropped by straight-line, small-body
 *                  or loop-free: it builds a phase's driver and runs it,
 *                  work whose loops are out of view.  yaml-cpp's
 *                  operator<<(Emitter&, const Node&): NodeEvents' tree
 *                  walk and Emit, 28% of a run.  The emitter's per-scalar
 *                  steps, which call other units but build nothing,
 *                  stay to loop-free.
 *   nest-depth     A function whose own loops nest deeper than the depth
 *                  it runs at below the nearest region (loop_nest >
 *                  depth >= 1; not recursive, not main, main not in
 *                  view) is scored at depth 0: each call runs a loop
 *                  level more than its callers repeat it (SQLite's
 *                  merge sort below the byte-code loop); reached from
 *                  main, the paper's FT keeps cffz out.  An innermost
 *                  loop of bounded work under CM_LEAF_LOOP adds no
 *                  level (loops.cc, selinst_loop_nest).
 *   whole-body     (loops.cc) An outermost loop of CM_WHOLE_BODY_PCT (90)
 *                  percent or more of its function's weight, with no
 *                  instrumented call site, in a function that is a region
 *                  and that main does not reach in view, is not a loop
 *                  region: the function's region measures the same time.
 *
 * This file has no GCC dependency so the model can be tested alone
 * (testsuite/unit/) against the paper's Table 1.
 */
#ifndef SELINST_COST_MODEL_H
#define SELINST_COST_MODEL_H

#include <gmp.h>
#include <stddef.h>

struct cm_constants {
	mpz_t block_weight;	/* 5 */
	mpz_t loop_base;	/* 100 */
	mpz_t loop_unit;	/* 2048 */
	mpz_t call_unit;	/* 2048 */
	mpz_t threshold;	/* 204800 */
	int refined;		/* 1: CM_MODEL_DEFAULT, 0: CM_MODEL_PAPER */
};

/* The accepted values of -fplugin-arg-selinst-model=. */
#define CM_MODEL_DEFAULT_NAME "default"
#define CM_MODEL_PAPER_NAME "paper"

/* A forced decision overrides the score. */
enum cm_force {
	CM_FORCE_NONE = 0,
	CM_FORCE_ALWAYS,	/* the selinst_instrument attribute */
	CM_FORCE_NEVER		/* no_instrument_function, or cannot be
				   instrumented safely (reason says why) */
};

/* What a function with external linkage is, when no sites= file says
 * who calls it from other units (refinement unseen-small). */
enum cm_unseen {
	CM_UNSEEN_NONE = 0,	/* static, or a sites= file was read */
	CM_UNSEEN_EXPORTED,	/* default visibility: others may call it */
	CM_UNSEEN_INTERNAL	/* hidden or internal visibility: only the
				   project's other units call it */
};

struct cm_function {
	/* Inputs. */
	unsigned long basic_blocks;
	unsigned long statements;
	unsigned long call_sites;	/* every call statement */
	int deepest_call_depth;		/* -1: no call site in view */
	int external_depth;		/* -1, or the deepest depth other units
					   call it at (sites=FILE) */
	enum cm_unseen unseen;		/* whether other units call it out of
					   view, and what the project says it is
					   (no sites= file: CM_UNSEEN_NONE) */
	int library_code;		/* defined in a system header (forced
					   never): its loops are the library's */
	int always_inline;		/* copied into every caller: its weight
					   counts in theirs for unseen-small */
	unsigned long other_unit_callees;	/* distinct functions it calls
					   that have no body in view and are
					   declared outside system headers:
					   the project's other units
					   (refinement hand-off) */
	int builds_other_unit_object;	/* calls a constructor of the
					   project's other units (C++), not
					   being a constructor or destructor
					   itself (refinement hand-off) */
	int has_loops;			/* a loop in its own body */
	int loop_nest;			/* how deep its own loops nest (0: none;
					   refinement nest-depth) */
	unsigned long largest_loop;	/* weight of its heaviest loop body */
	unsigned long inlined_loop;	/* the heaviest loop body of the
					   always_inline functions it calls
					   (copied into it): small-body */
	int declared_inline;		/* inline keyword (or in-class C++) */
	int program_entry;		/* main: the root of every profile, run
					   once; straight-line never drops it */
	enum cm_force force;
	const char *force_reason;	/* with force: why */

	/* Outputs of cm_decide. */
	mpz_t weight, loop_score, callsite_score, score;
	unsigned long instrumented_call_sites;
	unsigned long steady_call_sites;	/* those of them on every path
					   through the body (refinement
					   conditional-pull) */
	int loop_depth;			/* the d used in loop_score (default
					   model: with depth-through and
					   recursion) */
	int context_depth;		/* depth below the nearest region (default
					   model; else loop_depth) */
	int recursive;			/* in a call-graph cycle (default model) */
	int bounded_own_work;		/* the same, counting callees of
					   library_code as bounded (default
					   model) */
	int callees_bounded;		/* not recursive, and the callees in
					   view do bounded work (library loops
					   allowed; default model) */
	int bounded_work;		/* no loop, no recursion, callees in
					   view likewise (default model) */
	int light_work;			/* not recursive, no loop body of weight
					   CM_SMALL_BODY or more, callees in
					   view likewise or library code
					   (default model) */
	int callees_light;		/* not recursive, callees in view all
					   light_work or library code */
	int unseen_small;		/* refinement unseen-small applies
					   (default model) */
	int callback;			/* its address is passed as an argument
					   of a call in view (refinement
					   indirect-context leaves it be) */
	int stored_handler;		/* C, external linkage, its address
					   stored by a statement in view and
					   passed to no call (a handler struct
					   filled in at run time; refinement
					   handler-depth) */
	int pointer_depth;		/* -1, or the deepest matching indirect
					   call (refinement indirect-depth;
					   default model) */
	int from_main;			/* reached from main by call edges in
					   view (default model): its depths
					   are the program's */
	int shallow_caller;		/* reached from a function that runs at
					   depth 0 through calls outside loops
					   (refinement pull-depth; default
					   model) */
	int instrument;
	const char *reason;
};

/* One call site: a call statement in CALLER whose target is CALLEE (both
 * indexes into the function array).  Calls to functions without a body in
 * view have no edge: they are never instrumented here. */
struct cm_call_edge {
	size_t caller, callee;
	int depth;		/* loop depth of the call in the caller */
	int conditional;	/* 0: the call runs on every call of CALLER
				   (its block dominates the exit); 1: on some
				   paths only (refinement conditional-pull) */
};

void cm_constants_init_default(struct cm_constants *c);
void cm_constants_clear(struct cm_constants *c);

void cm_function_init(struct cm_function *f);
void cm_function_clear(struct cm_function *f);

/* The three parts and their sum, for one function, given the number of its
 * call sites to instrumented functions.  Used by cm_decide and directly by
 * the Table 1 test (which feeds the paper's weights). */
void cm_weight(mpz_t out, const struct cm_constants *c, unsigned long blocks,
	       unsigned long statements, unsigned long call_sites);
void cm_loop_score(mpz_t out, const struct cm_constants *c, int depth);
void cm_callsite_score(mpz_t out, const struct cm_constants *c,
		       unsigned long instrumented_sites);

/* Refinement pull-depth, for loops: why a score that reaches THRESHOLD
 * only through its callsite score is refused (CM_PULL_DEPTH_REASON or
 * CM_CONDITIONAL_PULL_REASON), or NULL: at depth 2 or deeper, and at depth
 * 1 when none of its INSTRUMENTED_SITES runs on every iteration
 * (STEADY_SITES 0, refinement conditional-pull; default model).
 * Functions: as cm_pulls_at says. */
const char *cm_pull_depth_excludes(const struct cm_constants *c, int depth,
				   unsigned long instrumented_sites,
				   unsigned long steady_sites, const mpz_t weight,
				   const mpz_t loop_score, const mpz_t threshold);
/* Whether INSTRUMENTED_SITES chosen callees pull a body of WEIGHT running
 * at DEPTH in (pull-depth): always at depth 0 (and in model=paper), at
 * depth 1 when SHALLOW_CALLER (a function running at depth 0 reaches it
 * through calls outside loops), or from CM_SMALL_BODY_PULL callees on, or
 * one in a body of weight CM_LOOP_FREE or more, and then only when one of
 * them (STEADY_SITES) is called on every path through the body
 * (refinement conditional-pull: a body that calls them on some paths only
 * may run far more often than they do, and its hooks would cost more than
 * theirs); never deeper. */
int cm_pulls_at(const struct cm_constants *c, int depth, unsigned long instrumented_sites,
		unsigned long steady_sites, const mpz_t weight, int shallow_caller);
/* Refinement small-body, for functions and loops: a body of weight under
 * CM_SMALL_BODY with fewer than CM_SMALL_BODY_PULL call sites to
 * instrumented functions, in a function main does not reach in view
 * (FROM_MAIN 0), is not a region (default model, threshold not 0). */
#define CM_SMALL_BODY 64
#define CM_SMALL_BODY_PULL 2
int cm_small_body_excludes(const struct cm_constants *c, const mpz_t weight,
			   unsigned long instrumented_sites, int from_main,
			   const mpz_t threshold);
#define CM_STR_(x) #x
#define CM_STR(x) CM_STR_(x)
#define CM_SMALL_BODY_REASON "weight under " CM_STR(CM_SMALL_BODY) " and fewer than " \
	CM_STR(CM_SMALL_BODY_PULL) " instrumented callees: hooks would cost about " \
	"what the body does (refinement small-body)"
#define CM_SMALL_LOOP_REASON "loop body of weight under " CM_STR(CM_SMALL_BODY) \
	" and fewer than " CM_STR(CM_SMALL_BODY_PULL) " instrumented callees " \
	"(refinement small-body)"
/* Refinement leaf-loop: an innermost loop whose body does bounded work
 * (every call in it goes to a function in view with no loop, no recursion
 * and no instrumented callee, which GCC copies in or which returns at
 * once), of weight under CM_LEAF_LOOP, with no instrumented call site, in
 * a function main does not reach in view (FROM_MAIN 0), is not a region
 * (default model, threshold not 0): its counter (an increment and a store
 * an iteration) would cost 2% or more of a body that small, on a trip
 * count no call site in view bounds, and its time is its function's.
 * STRAIGHT_LEAF: innermost and bounded, as the caller finds it. */
#define CM_LEAF_LOOP 256
int cm_leaf_loop_excludes(const struct cm_constants *c, const mpz_t weight, int straight_leaf,
			  unsigned long instrumented_sites, int from_main,
			  const mpz_t threshold);
#define CM_LEAF_LOOP_REASON "innermost loop of bounded work per iteration, weight under " \
	CM_STR(CM_LEAF_LOOP) ", main not in view: its counter would cost 2% or more " \
	"of the body; its time is its function's (refinement leaf-loop)"
/* Refinement whole-body: an outermost loop with no instrumented call
 * site whose weight is at least CM_WHOLE_BODY_PCT% of its function's
 * (FN_WEIGHT), in a function that is a region (FN_REGION) and that main
 * does not reach in view (FROM_MAIN 0), is not a loop region (default
 * model, neither threshold 0): the function's region already measures
 * what the loop does, the loop's counter would add an increment and a
 * store an iteration and no information but the trip count.  SQLite's
 * byte-code loop in sqlite3VdbeExec (93% of its function, 3.7 M
 * iterations, 3% of the run in its counter alone).  NEST: 1 outermost. */
#define CM_WHOLE_BODY_PCT 90
int cm_whole_body_excludes(const struct cm_constants *c, const mpz_t weight,
			   const mpz_t fn_weight, int nest, int fn_region,
			   unsigned long instrumented_sites, int from_main,
			   const mpz_t threshold);
#define CM_WHOLE_BODY_REASON "outermost loop of " CM_STR(CM_WHOLE_BODY_PCT) "% or more " \
	"of its function's weight, no instrumented callee, the function a region, main " \
	"not in view: the function's region measures it (refinement whole-body)"
/* Refinement loop-free: a function with no loop, no recursion, whose
 * callees in view run no loop of weight CM_SMALL_BODY or more (library
 * code aside), with fewer than CM_SMALL_BODY_PULL instrumented call
 * sites, of weight under CM_LOOP_FREE, in a function main does not reach
 * in view, is not a region (default model, threshold not 0): small-body's
 * reasoning for a body that runs each statement once a call.  yaml-cpp's
 * Emitter: one call per scalar through a chain of such methods from
 * another unit. */
#define CM_LOOP_FREE 256
#define CM_LOOP_FREE_REASON "no loop, no recursion, callees with small loops at most, " \
	"weight under " CM_STR(CM_LOOP_FREE) ", fewer than " CM_STR(CM_SMALL_BODY_PULL) \
	" instrumented callees, main not in view (refinement loop-free)"
/* Refinement hand-off: a function called in view at depth 0 only, main
 * not in view, calling CM_HAND_OFF or more distinct functions of its
 * project's other units (other_unit_callees), a constructor among them
 * (builds_other_unit_object), keeps its score against straight-line,
 * small-body and loop-free. */
#define CM_HAND_OFF 2
/* Refinement nest-depth: a function (not recursive, not main) whose own
 * loops nest deeper than the loop depth it runs at below the nearest
 * region (LOOP_NEST > depth >= 1), and that main does not reach in view,
 * is scored at depth 0 (default model, threshold not 0; reached from
 * main, the paper's decisions stand: FT's cffz, three loops deep at depth
 * 2, is no region): each call runs at least one loop level more than the
 * loops around its calls repeat it, a "significant, infrequently called,
 * large body" (the paper).  SQLite's vdbeSorterSort (a merge sort: 3
 * calls, 20% of the run) runs at depth 1 below the byte-code loop. */
#define CM_NEST_DEPTH_REASON "its loops nest deeper than the loops it is called " \
	"in below the nearest region: scored at depth 0 (refinement nest-depth)"
#define CM_CONTEXT_DEPTH_REASON "below the threshold at the depth it runs at " \
	"through callers that are not regions (refinement context-depth)"
/* Refinement unseen-small: a function no call site in view reaches, of
 * weight under CM_UNSEEN_SMALL (with the always_inline bodies copied into
 * it); hidden ones are no region and run, with what they call in view,
 * at depth CM_HELPER_DEPTH; exported ones with no chosen callee, bounded
 * callees and small loops are no region. */
#define CM_UNSEEN_SMALL 128
#define CM_HELPER_DEPTH 2
#define CM_HELPER_REASON "hidden visibility, no call site in view, weight under " \
	CM_STR(CM_UNSEEN_SMALL) ": a helper the project's other units call inside their " \
	"loops, scored at depth " CM_STR(CM_HELPER_DEPTH) " with what it calls " \
	"(refinement unseen-small)"
#define CM_UNSEEN_SMALL_REASON "exported, no call site in view, weight under " \
	CM_STR(CM_UNSEEN_SMALL) ", loops under " CM_STR(CM_SMALL_BODY) ", no instrumented " \
	"callee, bounded callees: an accessor " \
	"its users call per element (refinement unseen-small)"
#define CM_PULL_DEPTH_REASON "at loop depth 2 or deeper, or at depth 1 with one " \
	"instrumented callee, weight under " CM_STR(CM_LOOP_FREE) " and no chain of " \
	"calls outside loops from a function at depth 0: instrumented callees do not " \
	"pull it in (refinement pull-depth)"
#define CM_CONDITIONAL_PULL_REASON "at loop depth 1, its instrumented callees " \
	"called on some paths only: they do not pull it in (refinement conditional-pull)"
#define CM_POINTER_CONTEXT_REASON "below the threshold at the depth it runs at " \
	"through callers that are not regions, calls through pointers included " \
	"(refinement indirect-context)"

/* Whether chosen FN still reaches the threshold when it runs at DEPTH
 * below the nearest region, as refinement context-depth scores it (pull-
 * depth included). */
int cm_qualifies_at(const struct cm_constants *c, const struct cm_function *fn, int depth);
/* After cm_decide, for a chosen FN: the deepest depth it still qualifies
 * at, searching up from the depth it was scored at (the first depth where
 * it does not, less one); -1 when it qualifies up to loop_base (or
 * CM_DEPTH_SEARCH_MAX): no depth drops it.  An -flto link drops FN when
 * other units call it deeper (plugin/lto.cc). */
#define CM_DEPTH_SEARCH_MAX 1000
int cm_deepest_qualifying_depth(const struct cm_constants *c, const struct cm_function *fn);

/* The same for a loop chosen by its score at DEPTH (loops.cc): WEIGHT,
 * CALLSITE_SCORE, STEADY_SITES and THRESHOLD as there; -1 when no depth
 * drops it. */
int cm_loop_deepest_qualifying_depth(const struct cm_constants *c, const mpz_t weight,
				     const mpz_t callsite_score, unsigned long steady_sites,
				     int depth, const mpz_t threshold);

/* After cm_decide: the depth added to F's own call depths for calls to
 * other units' functions (sites-out): F's context depth when F is not a
 * region in the default model, else 0. */
int cm_site_base_depth(const struct cm_constants *c, const struct cm_function *f);

/* Decide every function (FNS: pointers to NFNS functions, decided where
 * they lie): fills the outputs.  Deterministic for a given input whatever
 * the order of EDGES. */
void cm_decide(const struct cm_constants *c, struct cm_function *const *fns,
	       size_t nfns, const struct cm_call_edge *edges, size_t nedges);
/* The same, with INDIRECT: refinement indirect-depth's sites, one for each
 * indirect call in view (caller, depth) and each static function only
 * reached through its address whose type the call's matches (callee).
 * They give that function the site's depth (plus the caller's, as a call
 * edge does, when the caller's depth is known first), in both passes of
 * the depths; nothing else (not call sites for the callsite score, not
 * cycles, not reachability from main). */
void cm_decide_indirect(const struct cm_constants *c, struct cm_function *const *fns,
			size_t nfns, const struct cm_call_edge *edges, size_t nedges,
			const struct cm_call_edge *indirect, size_t nindirect);

#endif
