/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * selinst-plugin.h - what the plugin's files share: options, the record
 * kept for each function of the unit, and the entry points of each file.
 *
 *   selinst.cc     plugin_init: version check, arguments, attribute, passes
 *   analysis.cc    the IPA pass: metrics, cost model, decisions
 *   instrument.cc  hook insertion into one function body
 *   loops.cc       loop regions: metrics, scores, counters and hooks
 *   decisions.cc   the decision file (YAML) and the verbose table
 *   cost-model.cc  the score arithmetic (GCC-free)
 *   sites.cc       call sites from other units (sites=, sites-out=)
 *   lto.cc         whole-program depths at an -flto link
 *   config.cc      the selection file (config=)
 *   feedback.cc    measured counts from profiles (profile=, budget=)
 *   hook-abi.h     the runtime's hooks and descriptor layout, checked
 *                  against include/selinst.h
 */
#ifndef SELINST_PLUGIN_H
#define SELINST_PLUGIN_H

#include "cost-model.h"
#include "hook-abi.h"

struct selinst_options {
	struct cm_constants model;
	const char *decisions_path;	/* NULL: no decision file */
	bool verbose;
	bool loops;			/* loops=on|off */
	mpz_t loop_threshold;		/* default 204800 */
	const char *sites_out;		/* sites-out=FILE, or NULL */
	bool inline_bodies;		/* inline=on|off: GCC may inline
					   instrumented bodies, hooks included */
	bool off_copy;			/* off-copy=on|off: a switched-off
					   region runs a hook-free copy */
};

/* One natural loop of a function. */
struct selinst_loop {
	int header;		/* header block index: the loop's identity
				   (the CFG does not change before insertion) */
	bool inserted;		/* hooks and counter are in */
	tree descriptor;	/* its region descriptor, once inserted */
	int nest;		/* 1 = outermost loop of the function */
	char *name;		/* "<file>:<line>" of the loop keyword */
	const char *file;
	int line;
	int last_line;		/* the body's last source line (>= line) */
	unsigned long basic_blocks, statements, call_sites;
	unsigned long instrumented_call_sites;
	unsigned long steady_call_sites;	/* those on every iteration */
	int depth;		/* d = function's call depth + nest - 1 */
	mpz_t weight, loop_score, callsite_score, score;
	bool test_header;	/* the header only computes the exit test */
	bool abnormal_exit;	/* left by an abnormal edge (setjmp, ...) */
	bool abnormal_inside;	/* holds a setjmp receiver or non-local label */
	bool made_by_openmp;	/* no source loop behind it (chunk dispatch) */
	bool instrument;
	const char *reason;
	vec<tree> callees;	/* callees of the direct call sites inside */
	vec<int> callee_nest;	/* the nest of each of those sites (feedback:
				   = nest when directly in this loop's body) */
	vec<char> callee_steady;	/* each of those sites runs on every
					   iteration: its block dominates the
					   latches (refinement conditional-pull) */
	int outer_header;	/* header of the enclosing loop, -1 if none */
};
extern struct selinst_options selinst_opts;

/* One function with a body in the unit. */
struct selinst_function {
	tree decl;
	char *name;		/* region name: source-level, annotated for
				   OpenMP outlined bodies */
	const char *symbol;	/* assembler name */
	const char *file;
	int line;
	struct cm_function cm;	/* metrics in, score and decision out */
	struct selinst_loop *loops;
	unsigned nloops;
	bool dropped_by_profile;	/* forced never by profile= alone: its
					   loops are still decided by score */
	const char *out_of_line_reason;	/* inline=on, yet kept out of line:
					   why (instrument.cc); NULL if not */
	const char *off_copy;		/* instrumented: "copy", "dispatch
					   over three copies", or why its hooks
					   stay in its body (instrument.cc) */
};

/* Per-block facts gathered once by the analysis and shared with loops.cc. */
struct selinst_block_info {
	unsigned long statements, call_sites;
	bool counted;		/* counts as a basic block (see analysis.cc) */
};

/* analysis.cc */
/* The IPA pass (PLUGIN_PASS_MANAGER_SETUP: before the early local
 * passes, see analysis.cc). */
opt_pass *selinst_make_pass(void);

/* loopcounter.cc: the late pass that marks the loop regions whose
 * counter GCC folded away (after "optimized"), which runs once a unit
 * counted loops. */
void selinst_note_counted_loops(void);
opt_pass *selinst_make_counter_pass(void);

/* instrument.cc: insert the function hooks into FN (the current cfun). */
/* PLAIN: selinst_hookless_copy's copy, made before the loops' hooks. */
void selinst_instrument_function(struct selinst_function *fn,
				 const struct selinst_function *all, size_t nall,
				 tree plain);
tree selinst_hookless_copy(const struct selinst_function *fn);
/* PLUGIN_PASS_EXECUTION: no late warning from the copies that hold
 * hooks (each would repeat the hook-free body's). */
void selinst_quiet_copies(void *gcc_data, void *user_data);
/* After all insertions into cfun: SSA, dominators, call-graph edges. */
void selinst_finish_body(void);
void selinst_insert_resyncs(void);
/* Which chosen bodies GCC may inline (inline=on|off), before any is. */
void selinst_set_inlining(struct selinst_function *fns, size_t n);
/* The hook declarations (the table in hook-abi.h) and region
 * descriptors, shared with loops.cc. */
tree selinst_hook_decl(enum selinst_hook which);
/* Is FNDECL one of the runtime's hooks? */
bool selinst_is_hook(tree fndecl);
/* The throttle test in the instrumented code (instrument.cc). */
tree selinst_throttle_flag(tree descriptor, gimple_seq *seq);
tree selinst_not_iterated_flag(tree descriptor, gimple_seq *seq);
void selinst_guard_call(gcall *call, tree flag);
tree selinst_region_descriptor(uint32_t kind, const char *name, const char *file,
			       int line, const char *function, uint32_t flags);
bool selinst_is_instrumented_here(tree callee, const struct selinst_function *all,
				  size_t nall);
/* The function of ALL that CALLEE (or its alias target) is, or NULL. */
const struct selinst_function *selinst_function_of(tree callee,
						   const struct selinst_function *all,
						   size_t nall);
/* Statements that are not source statements: labels, debug binds,
 * clobbers (scope ends), prediction hints, nops.  Their number varies with
 * -O level and -g, so the metrics skip them, and loops.cc looks through
 * them (blocks holding nothing else, a header holding only its test). */
static inline bool selinst_bookkeeping_stmt(gimple *stmt)
{
	switch (gimple_code(stmt)) {
	case GIMPLE_DEBUG:
	case GIMPLE_LABEL:
	case GIMPLE_NOP:
	case GIMPLE_PREDICT:
		return true;
	default:
		return gimple_clobber_p(stmt);
	}
}

/* STMT, about to get an EH edge, made the last statement of its block,
 * as a statement with an EH edge must be.  Debug binds after it count:
 * last_stmt () skips them, and a throwing call followed only by debug
 * binds (-g) failed GCC's verifier ("statement marked for throw in middle
 * of block") or crashed ehcleanup (expat's XML_ParserFree, C with
 * -fexceptions; any C++). */
static inline void selinst_end_block_at(gimple *stmt)
{
	gimple_stmt_iterator gsi = gsi_for_stmt(stmt);
	if (!gsi_one_before_end_p(gsi))
		split_block(gimple_bb(stmt), stmt);
}

/* The pass is done with its function array: drop the index over it. */
void selinst_forget_functions(void);

/* loops.cc */
void selinst_measure_loops(struct selinst_function *fn,
			   const struct selinst_block_info *blocks,
			   const vec<tree> *block_callees);
void selinst_decide_loops(struct selinst_function *fn,
			  const struct selinst_function *all, size_t nall);
void selinst_loop_nest(struct selinst_function *fn, const struct selinst_function *all,
		       size_t nall);
bool selinst_any_loop_chosen(const struct selinst_function *fn);
void selinst_instrument_loops(struct selinst_function *fn);
void selinst_free_loops(struct selinst_function *fn);
/* Splits loops that CFG cleanup merged with an enclosing one (cfun). */
void selinst_split_merged_loops(void);
/* PLUGIN_PRE_GENERICIZE: remembers each C or C++ loop's keyword line
 * before lowering. */
void selinst_remember_loop_keywords(void *fndecl, void *);

/* pragmas.cc: #pragma selinst phase start|end NAME (PLUGIN_PRAGMAS). */
void selinst_register_pragmas(void *, void *);
/* Why DECL cannot be instrumented safely, or NULL.  Checked before scoring
 * so the decision file lists the reason. */
const char *selinst_cannot_instrument(tree decl, function *body);
/* PLUGIN_REGISTER_GGC_ROOTS: the trees the plugin keeps across passes. */
extern const struct ggc_root_tab selinst_gc_roots[];

/* sites.cc: call sites from other units (sites=FILE, sites-out=FILE) */
bool selinst_sites_read(const char *path);
/* The unit's settings as its .note.selinst says them (selinst.cc), and the
 * note itself, emitted once per unit (instrument.cc). */
const char *selinst_settings_text(void);
void selinst_emit_settings_note(void);
/* looptable.cc: the unit's table of loops without hooks (SELINST_LOOP_SECTION) */
void selinst_emit_loop_table(const struct selinst_function *fns, size_t n);
int selinst_sites_depth(const char *symbol);
bool selinst_sites_loaded(void);	/* a sites= file was read */
void selinst_sites_write(const char *path, const char *const *symbols,
			 const int *depths, size_t n);

/* lto.cc: whole-program depths at an -flto link.  Compiling: the notes
 * the link reads (attributes on FN); the link's pass; in lto1, the fold
 * of dropped regions' tests (PLUGIN_ALL_PASSES_START). */
void selinst_lto_note_calls(tree fn, int passes, const char *lines);
void selinst_lto_note_region(tree fn, const char *name, int deepest, tree descriptor);
void selinst_lto_note_loops(const struct selinst_function *fn);
opt_pass *selinst_make_lto_pass(void);
void selinst_lto_fold(void *, void *);
/* A region the link dropped (decisions.cc writes them). */
struct selinst_lto_drop {
	bool loop;		/* a loop region (else a function's) */
	const char *name, *symbol;
	int depth;		/* the depth the link's call sites put it at */
	int deepest;		/* the deepest it qualifies at */
};
void selinst_write_link_decisions(const struct selinst_lto_drop *drops, size_t n,
				  unsigned considered, const char *output);

/* config.cc: the selection file (config=FILE) */
bool selinst_config_read(const char *path,
			 bool (*value_arg)(const char *key, const char *value, const char *where));
/* selinst.cc's option table: whether a selection file may set KEY, and
 * those keys as a list for messages. */
bool selinst_option_in_config(const char *key);
const char *selinst_config_value_keys(void);
/* Forces FN's decision when a rule of the file decides it. */
void selinst_config_apply(struct selinst_function *fn);

/* feedback.cc: profiles of an earlier build (profile=FILE[:FILE...],
 * budget=PCT).  Read after every argument, so the budget is known. */
bool selinst_feedback_budget(const char *value);
bool selinst_feedback_read(const char *list, const char *base);
bool selinst_feedback_active(void);
/* Before the model: forces the functions of the drop set never. */
void selinst_feedback_force(struct selinst_function *fn);
/* After the function and loop decisions: loop drops, reasons, additions. */
void selinst_feedback_apply(struct selinst_function *fns, size_t n,
			    const struct cm_call_edge *edges, size_t nedges);
struct selinst_feedback_summary {
	const char *profiles;		/* base names, ", "-separated */
	double budget_pct, hook_pair_ns;
	double predicted_all_pct;	/* every region of the profiles */
	double predicted_kept_pct;	/* after the drops (every unit) */
	double predicted_added_pct;	/* this unit's additions */
	/* The same in instructions (absolute: what the hooks add to a run) */
	double predicted_kept_insns, predicted_added_insns;
	/* This unit's regions that predicted_kept counts but its model did
	 * not choose: the build's prediction is predicted_kept less every
	 * unit's predicted_not_chosen plus every unit's predicted_added. */
	double predicted_not_chosen_pct, predicted_not_chosen_insns;
	double hook_pair_in_run_ns;	/* the measured run's pair, in situ */
	double run_ms;			/* the run without hooks the shares are of */
	const char *base_profiles;	/* profile-base='s base names, or NULL */
	bool run_at_floor;		/* run_ms is the floor: a tenth of the run */
	const char *bottleneck;		/* region name, or NULL */
};
bool selinst_feedback_get_summary(struct selinst_feedback_summary *s);

/* decisions.cc */
bool selinst_decisions_file_check(const char *path);
void selinst_write_decisions(const struct selinst_function *fns, size_t n);
void selinst_print_table(const struct selinst_function *fns, size_t n);

#endif
