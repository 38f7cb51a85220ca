/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * loops.cc - loop regions: the cost model applied to loops, an iteration
 * counter kept in a register, and the loop hooks.
 *
 * Score of a loop L in function P, in the spirit of the function model:
 *
 *   weight(L)         = block_weight * blocks + statements + call_sites,
 *                       counted over L's body (inner loops included)
 *   d                 = loop_depth(P) + nest(L) - 1
 *                       (P's deepest call site, plus the loops around L:
 *                       an outermost loop runs at its function's depth)
 *   loop_score(L)     = max(0, loop_base - d) * loop_unit
 *   callsite_score(L) = instrumented call sites inside L * call_unit^2
 *   L is instrumented when the sum >= loop-threshold (default 204800)
 *   (default model: not when small-body or leaf-loop excludes its body,
 *   see cost-model.h: a small or straight-line innermost loop in a
 *   function main does not reach in view; nor when whole-body finds it
 *   is nearly all of its function, a region: see cost-model.h)
 *
 * So an outermost loop of a function called outside loops is chosen, a
 * small call-free inner loop (or any loop of a leaf called deep in loops)
 * is not, and a loop around a call to an instrumented function always is:
 * exactly how small leaf functions stay out.  A loop is never chosen in a
 * function marked no_instrument_function or unsafe to instrument, nor when
 * it is left by an abnormal edge (setjmp receivers, non-local goto).
 *
 * Counting: a counter in an SSA register, 0 on every edge into the loop,
 * +1 at the top of the header; every normal exit edge hands it to
 * __selinst_loop_exit.  iterations = times the header ran, less the final
 * test when a top-tested loop (for, while) leaves through that test.
 * Loops are instrumented as measured, with no preheaders or latches made
 * in between, so what was chosen is what gets counted at every -O level.  No call is placed in
 * the body, so vectorization is unaffected.  An exception that leaves
 * counted loops lands first in a cleanup pad of ours that hands each
 * loop its count, innermost first, and resumes unwinding (see
 * count_eh_exits).  A loop left without its exit hook (longjmp, exit, a
 * fatal signal, a thread still running at exit) is closed by the runtime
 * with the count the loop stores in a cell once an iteration (see
 * instrument_body_starts).  A loop tests its descriptor's switched-off
 * bit (the throttle) at each entry and skips its hooks, exception pads'
 * included, when it is set (loop_guardable); one holding a call then
 * stores its count in a variable of the function's frame instead of the
 * enter hook's cell (merge_skipped_cells).  Loops are named by their keyword's line,
 * remembered from the front end before lowering (remember_loop).
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"
#include "../include/selinst.h"
#include "tree-iterator.h"

#include <map>
#include <set>

static bool exits_loop(basic_block b, class loop *loop)
{
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, b->succs)
		if (!flow_bb_inside_loop_p(loop, e->dest))
			return true;
	return false;
}

/* A block with nothing but labels, debug statements, predictions and
 * clobbers: what CFG cleanup keeps at -O0 and removes above it. */
static bool only_bookkeeping(basic_block b)
{
	for (gimple_stmt_iterator gsi = gsi_start_bb(b); !gsi_end_p(gsi); gsi_next(&gsi))
		if (!selinst_bookkeeping_stmt(gsi_stmt(gsi)))
			return false;
	return true;
}

static bool located(gimple *stmt)
{
	return stmt && LOCATION_LOCUS(gimple_location(stmt)) != UNKNOWN_LOCATION;
}

/* Does the header hold only its exit test: statements whose results are
 * used nowhere but in later statements of the header, then a condition? */
static bool header_is_test(basic_block header, class loop *loop)
{
	gimple *last = SELINST_LAST_STMT(header);
	if (!last || gimple_code(last) != GIMPLE_COND)
		return false;
	if (!exits_loop(header, loop))
		return false;
	for (gimple_stmt_iterator gsi = gsi_start_bb(header); !gsi_end_p(gsi);
	     gsi_next(&gsi)) {
		gimple *stmt = gsi_stmt(gsi);
		if (stmt == last || selinst_bookkeeping_stmt(stmt))
			continue;
		tree lhs = gimple_get_lhs(stmt);
		if (!lhs || TREE_CODE(lhs) != SSA_NAME)
			return false;	/* a store or a call for effect */
		imm_use_iterator it;
		use_operand_p use;
		FOR_EACH_IMM_USE_FAST(use, it, lhs) {
			gimple *user = USE_STMT(use);
			if (is_gimple_debug(user))
				continue;
			if (gimple_bb(user) != header || gimple_code(user) == GIMPLE_PHI)
				return false;
		}
	}
	return true;
}

/* Do two statements come from the same source expression?  The parts of
 * a short-circuit condition ("while (a && b)") all carry the location of
 * the whole condition; a test in the body ("if (k == 5) break;"), even on
 * the same line, has its own column. */
static bool same_source_location(gimple *a, gimple *b)
{
	expanded_location x = expand_location(gimple_location(a));
	expanded_location y = expand_location(gimple_location(b));
	return x.line == y.line && x.column == y.column
	       && (x.file == y.file || (x.file && y.file && !strcmp(x.file, y.file)));
}

/* Is B a later part of LOOP's header test, as the second test of
 * "while (a && b)" or "while (a || b)" (GCC folds the latter into one test
 * when optimizing, not at -O0): a side-effect-free block ending in a
 * condition, reached only from the header or other such parts, and either
 * laid out after the header (the C and C++ front ends put a loop's whole
 * test after its body, and blocks are numbered in layout order this early)
 * or from the header test's own source expression.  Leaving from there,
 * the body did not start either. */
static bool continues_header_test(basic_block b, class loop *loop, int depth = 0)
{
	gimple *head_test = SELINST_LAST_STMT(loop->header);
	gimple *test = SELINST_LAST_STMT(b);
	if (b == loop->header || depth > 16 || !flow_bb_inside_loop_p(loop, b)
	    || !test || gimple_code(test) != GIMPLE_COND)
		return false;
	bool after_header = (lang_GNU_C() || lang_GNU_CXX())
			    && b->index > loop->header->index;
	if (!after_header && !(located(test) && located(head_test)
			       && same_source_location(test, head_test)))
		return false;
	for (gimple_stmt_iterator gsi = gsi_start_bb(b); !gsi_end_p(gsi); gsi_next(&gsi)) {
		gimple *stmt = gsi_stmt(gsi);
		if (gimple_has_side_effects(stmt) || gimple_vdef(stmt))
			return false;
	}
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, b->preds)
		if (e->src != loop->header && !continues_header_test(e->src, loop, depth + 1))
			return false;
	return true;
}

/* Does LOOP's test (its header's condition, with its later parts) exit? */
static bool test_exits(class loop *loop)
{
	gimple *last = SELINST_LAST_STMT(loop->header);
	if (!last || gimple_code(last) != GIMPLE_COND)
		return false;
	if (exits_loop(loop->header, loop))
		return true;
	basic_block *body = get_loop_body(loop);
	bool exits = false;
	for (unsigned i = 0; i < loop->num_nodes && !exits; i++)
		exits = exits_loop(body[i], loop) && continues_header_test(body[i], loop);
	free(body);
	return exits;
}

/* Is the header an exiting test that comes after some of the loop's body,
 * in layout or in the source?  The C and C++ front ends lay a while or for
 * loop's test out after its body (the entry jumps to it), so this is a
 * top-tested loop even when the test has side effects, as in "while
 * (len--)"; a loop made of gotos that jumps into its test ("goto test;
 * body: ...; test: if (k) goto body;") has its test after its body in the
 * source, which stays so when CFG cleanup reorders blocks above -O0. */
static bool test_laid_out_last(class loop *loop)
{
	if (!test_exits(loop))
		return false;
	gimple *last = SELINST_LAST_STMT(loop->header);
	expanded_location t = expand_location(gimple_location(last));
	basic_block *body = get_loop_body(loop);
	bool before = false;
	for (unsigned i = 0; i < loop->num_nodes && !before; i++) {
		basic_block b = body[i];
		if (b->index < loop->header->index)
			before = true;
		if (b == loop->header || continues_header_test(b, loop) || !located(last))
			continue;
		for (gimple_stmt_iterator gsi = gsi_start_bb(b); !gsi_end_p(gsi) && !before;
		     gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);
			if (is_gimple_debug(stmt) || !located(stmt))
				continue;
			expanded_location x = expand_location(gimple_location(stmt));
			before = x.file && t.file && !strcmp(x.file, t.file) && x.line < t.line;
		}
	}
	free(body);
	return before;
}

/* Is the loop's own test at its top, so that leaving through it means the
 * body did not start again?  The C and C++ front ends lay a for or while
 * loop's test out after the body (the entry jumps to it), and that is the
 * sign to go by there: a header that exits but comes first is the body's
 * own first statement, as in "do { if (k == 0) break; ... } while (c)" or
 * "while (1) { if (c) break; ... }".  Other front ends (gfortran's DO) put
 * the test first: a header holding only an exit test is the loop's. */
static bool test_of_while_or_for(gimple *test);

static bool loop_is_top_tested(class loop *loop)
{
	if (test_laid_out_last(loop))
		return true;
	/* A for or while loop with an empty body has no block to lay out
	 * before its test: the front end says which loop the test is. */
	if (test_exits(loop) && test_of_while_or_for(SELINST_LAST_STMT(loop->header)))
		return true;
	if (lang_GNU_C() || lang_GNU_CXX())
		return false;
	return header_is_test(loop->header, loop);
}

/* Does block B's condition keep looping when true, as a do-while's test
 * does ("if (c) goto top"), unlike a break ("if (c) goto out")? */
static bool loops_on_true(basic_block b, class loop *loop)
{
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, b->succs)
		if (e->flags & EDGE_TRUE_VALUE)
			return flow_bb_inside_loop_p(loop, e->dest);
	return false;
}

/* Loop keywords, from the C and C++ front ends.  Before a body is
 * genericized its loops are still FOR_STMT, WHILE_STMT and DO_STMT, each
 * at its keyword; lowering keeps no trace of the keyword where the loop
 * has no test of its own (while (1), for (;;), constant tests: the jump
 * back takes the location of the body's first statement) and puts a for
 * loop's test on the test's own line.  So each loop is remembered by what
 * does survive into the CFG: its test's location (for, while, do), or for
 * a loop without a test the location of the jump back, each mapped to the
 * keyword's location.  Keys are pure locations: a statement's location
 * loses its source range once combined with a lexical block. */
static std::map<location_t, location_t> keyword_of_test, keyword_of_jump_back;
/* Every keyword seen: a loop named by one of them is a source loop. */
static std::set<location_t> keywords, do_keywords;
/* And the last source line of each loop's body, by keyword. */
static std::map<location_t, int> last_line_of;

static tree note_last_line(tree *tp, int *, void *data)
{
	if (EXPR_P(*tp) && LOCATION_LOCUS(EXPR_LOCATION(*tp)) != UNKNOWN_LOCATION) {
		int *last = (int *)data;
		*last = MAX(*last, LOCATION_LINE(EXPR_LOCATION(*tp)));
	}
	return NULL_TREE;
}

static location_t locus_of(tree t)
{
	return t && EXPR_P(t) ? get_pure_location(EXPR_LOCATION(t)) : UNKNOWN_LOCATION;
}

static void remember_loop(location_t keyword, tree cond, tree body)
{
	keyword = get_pure_location(keyword);
	if (keyword == UNKNOWN_LOCATION)
		return;
	if (cond && integer_zerop(cond))
		return;			/* no loop is made */
	keywords.insert(keyword);
	if (cond && !integer_nonzerop(cond)) {
		location_t test = locus_of(cond);
		keyword_of_test[test != UNKNOWN_LOCATION ? test : keyword] = keyword;
	}
	if (body) {
		int last = LOCATION_LINE(keyword);
		walk_tree_without_duplicates(&body, note_last_line, &last);
		last_line_of[keyword] = last;
	}
	/* Also for a test: C++ folds "while (3 > 2)" only later. */
	location_t back = body ? locus_of(expr_first(body)) : UNKNOWN_LOCATION;
	keyword_of_jump_back[back != UNKNOWN_LOCATION ? back : keyword] = keyword;
}

/* The c-family statement codes, looked up by name: their header
 * (c-family/c-common.h) must come before GCC's diagnostic headers.  They
 * are among the first codes after the common ones, and the operands are
 * WHILE_STMT (cond, body), DO_STMT (cond, body), FOR_STMT (init, cond,
 * incr, body, scope). */
static int while_code = -1, do_code = -1, for_code = -1;

static void find_statement_codes(void)
{
	for (int c = LAST_AND_UNUSED_TREE_CODE;
	     c < LAST_AND_UNUSED_TREE_CODE + 64 && (while_code < 0 || do_code < 0 || for_code < 0);
	     c++) {
		const char *name = get_tree_code_name((enum tree_code)c);
		if (!strcmp(name, "while_stmt"))
			while_code = c;
		else if (!strcmp(name, "do_stmt"))
			do_code = c;
		else if (!strcmp(name, "for_stmt"))
			for_code = c;
	}
}

/* The first statement of a body, inside its braces. */
static tree first_statement(tree body)
{
	for (int depth = 0; body && depth < 16; depth++) {
		if (TREE_CODE(body) == BIND_EXPR)
			body = BIND_EXPR_BODY(body);
		else if (TREE_CODE(body) == STATEMENT_LIST)
			body = expr_first(body);
		else
			break;
	}
	return body;
}

/* An OpenMP worksharing or simd loop is expanded (omp-expand) into loop
 * control of its own, without locations; what it keeps is its body, whose
 * first statement (or the loop that opens it) opens the new loop's header,
 * as the body of a loop without a test does.  One region per source loop
 * and collapse(N) nest, named by its for. */
static void remember_omp_loop(location_t keyword, tree body)
{
	keyword = get_pure_location(keyword);
	location_t first = locus_of(first_statement(body));
	if (keyword != UNKNOWN_LOCATION && first != UNKNOWN_LOCATION) {
		keyword_of_jump_back[first] = keyword;
		keywords.insert(keyword);
	}
}

static tree find_loop_statements(tree *tp, int *, void *)
{
	tree t = *tp;
	int code = TREE_CODE(t);
	if (code == OMP_FOR || code == OMP_SIMD) {
		/* The construct sits on the pragma's line; the for keyword's
		 * line is its first loop's initialization's. */
		location_t keyword = EXPR_LOCATION(t);
		tree init = OMP_FOR_INIT(t);
		if (init && TREE_CODE(init) == TREE_VEC && TREE_VEC_LENGTH(init) > 0
		    && EXPR_P(TREE_VEC_ELT(init, 0))
		    && EXPR_LOCATION(TREE_VEC_ELT(init, 0)) != UNKNOWN_LOCATION)
			keyword = EXPR_LOCATION(TREE_VEC_ELT(init, 0));
		remember_omp_loop(keyword, OMP_FOR_BODY(t));
	}
	else if (code == while_code || code == do_code)
		remember_loop(EXPR_LOCATION(t), TREE_OPERAND(t, 0), TREE_OPERAND(t, 1));
	if (code == do_code)
		do_keywords.insert(get_pure_location(EXPR_LOCATION(t)));
	else if (code == for_code)
		remember_loop(EXPR_LOCATION(t), TREE_OPERAND(t, 1), TREE_OPERAND(t, 3));
	return NULL_TREE;
}

void selinst_remember_loop_keywords(void *fndecl, void *)
{
	tree fn = (tree)fndecl;
	/* The statement codes exist in the C and C++ front ends only. */
	if (!(lang_GNU_C() || lang_GNU_CXX()) || !DECL_SAVED_TREE(fn))
		return;
	if (while_code < 0)
		find_statement_codes();
	if (while_code >= 0 && do_code >= 0 && for_code >= 0)
		walk_tree_without_duplicates(&DECL_SAVED_TREE(fn), find_loop_statements, NULL);
}

/* Is TEST the test of a for or while loop (not a do's, not an if's)? */
static bool test_of_while_or_for(gimple *test)
{
	if (!located(test) || gimple_code(test) != GIMPLE_COND)
		return false;
	auto it = keyword_of_test.find(get_pure_location(gimple_location(test)));
	return it != keyword_of_test.end() && !do_keywords.count(it->second);
}

static location_t keyword_or(const std::map<location_t, location_t> &map, location_t loc)
{
	auto it = map.find(get_pure_location(loc));
	return it != map.end() ? it->second : loc;
}

/* The keyword of a loop without a test: its jumps back to the header
 * carry the location of the body's first statement, and where CFG
 * cleanup removed the jump's own block, that statement is in the header. */
static location_t keyword_of_untested(class loop *loop, location_t fallback)
{
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, loop->header->preds) {
		if (!flow_bb_inside_loop_p(loop, e->src))
			continue;
		auto it = keyword_of_jump_back.find(get_pure_location(e->goto_locus));
		if (it != keyword_of_jump_back.end())
			return it->second;
	}
	for (gimple_stmt_iterator gsi = gsi_start_bb(loop->header); !gsi_end_p(gsi);
	     gsi_next(&gsi)) {
		gimple *stmt = gsi_stmt(gsi);
		if (is_gimple_debug(stmt) || !located(stmt))
			continue;
		auto it = keyword_of_jump_back.find(get_pure_location(gimple_location(stmt)));
		if (it != keyword_of_jump_back.end())
			return it->second;
	}
	/* A body that opens with a loop: its first statement is that loop,
	 * whose keyword is the location the jump back carries. */
	if (single_succ_p(loop->header)) {
		basic_block next = single_succ(loop->header);
		gimple *test = SELINST_LAST_STMT(next);
		location_t inner = UNKNOWN_LOCATION;
		if (located(test) && gimple_code(test) == GIMPLE_COND)
			inner = keyword_or(keyword_of_test, gimple_location(test));
		auto it = keyword_of_jump_back.find(get_pure_location(inner));
		if (it != keyword_of_jump_back.end())
			return it->second;
	}
	return fallback;
}

/* The loop's source location: the line of its keyword (for, while, do).
 * Found from its exit test: the header's condition when the loop is top
 * tested, else the condition ending the one block that leads back to the
 * header (a do-while); failing both (a loop without a test of its own),
 * from its jumps back; where the front end told us nothing (another
 * language), the test's own location, or the header's first located
 * statement. */
static location_t loop_location(class loop *loop)
{
	gimple *last = SELINST_LAST_STMT(loop->header);
	bool header_exits = located(last) && gimple_code(last) == GIMPLE_COND
			    && exits_loop(loop->header, loop);
	if (located(last) && loop_is_top_tested(loop))
		return keyword_or(keyword_of_test, gimple_location(last));
	/* A do-while: one block, past forwarders (which at -O0 also join
	 * several paths), leads back to the header and ends in the test. */
	basic_block tail = NULL;
	unsigned tails = 0;
	auto_vec<basic_block> work;
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, loop->header->preds)
		if (flow_bb_inside_loop_p(loop, e->src))
			work.safe_push(e->src);
	while (!work.is_empty() && tails < 2) {
		basic_block b = work.pop();
		if (b != loop->header && only_bookkeeping(b) && work.length() < 64) {
			FOR_EACH_EDGE(e, ei, b->preds)
				if (flow_bb_inside_loop_p(loop, e->src))
					work.safe_push(e->src);
			continue;
		}
		if (b != tail) {
			tail = b;
			tails++;
		}
	}
	if (tails == 1) {
		gimple *test = SELINST_LAST_STMT(tail);
		if (located(test) && gimple_code(test) == GIMPLE_COND && exits_loop(tail, loop)
		    && (!header_exits || loops_on_true(tail, loop)))
			return keyword_or(keyword_of_test, gimple_location(test));
	}
	if (located(last))
		return keyword_of_untested(loop, gimple_location(last));
	for (gimple_stmt_iterator gsi = gsi_start_bb(loop->header); !gsi_end_p(gsi);
	     gsi_next(&gsi))
		if (LOCATION_LOCUS(gimple_location(gsi_stmt(gsi))) != UNKNOWN_LOCATION)
			return keyword_of_untested(loop, gimple_location(gsi_stmt(gsi)));
	return keyword_of_untested(loop, UNKNOWN_LOCATION);
}

/* Above -O0, CFG cleanup removes the block that holds "while (1)"'s top
 * when the body opens with another loop ("while (1) { while (*p == ' ')
 * p++; ... }"): the outer loop's jump back then lands on the inner loop's
 * test, and the two are one loop with two latches.  Such a loop is split
 * again as the source has it: the latches whose jump back is another
 * loop's (a keyword other than the header test's) or that come from
 * beyond the inner loop's lines, and the entries, go to a new outer
 * header in front of the inner one, as at -O0. */
static hash_set<edge> *outer_edges;

static bool is_outer_edge(edge e)
{
	return outer_edges->contains(e);
}

/* Is block B's last located statement outside the lines of the loop
 * with keyword KEYWORD (after its body, in the same file)? */
static bool outside_loop_lines(basic_block b, location_t keyword)
{
	auto last = last_line_of.find(keyword);
	if (last == last_line_of.end())
		return false;
	for (gimple_stmt_iterator gsi = gsi_last_bb(b); !gsi_end_p(gsi); gsi_prev(&gsi)) {
		gimple *stmt = gsi_stmt(gsi);
		if (is_gimple_debug(stmt) || !located(stmt))
			continue;
		expanded_location x = expand_location(gimple_location(stmt));
		expanded_location k = expand_location(keyword);
		return x.file && k.file && !strcmp(x.file, k.file)
		       && (x.line > last->second || x.line < k.line);
	}
	return false;
}

static bool split_merged_loop(class loop *loop)
{
	gimple *test = SELINST_LAST_STMT(loop->header);
	if (!located(test) || gimple_code(test) != GIMPLE_COND)
		return false;
	auto own = keyword_of_test.find(get_pure_location(gimple_location(test)));
	if (own == keyword_of_test.end())
		return false;
	hash_set<edge> keep;
	unsigned inner_latches = 0, outer_latches = 0;
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, loop->header->preds) {
		if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
			return false;
		if (!flow_bb_inside_loop_p(loop, e->src)) {
			keep.add(e);
			continue;
		}
		auto back = keyword_of_jump_back.find(get_pure_location(e->goto_locus));
		if ((back != keyword_of_jump_back.end() && back->second != own->second)
		    || outside_loop_lines(e->src, own->second)) {
			keep.add(e);
			outer_latches++;
		} else {
			inner_latches++;
		}
	}
	if (!outer_latches || !inner_latches)
		return false;
	outer_edges = &keep;
	make_forwarder_block(loop->header, is_outer_edge, NULL);
	outer_edges = NULL;
	return true;
}

void selinst_split_merged_loops(void)
{
	if (!current_loops || !(lang_GNU_C() || lang_GNU_CXX()))
		return;
	bool split = false;
	SELINST_FOR_EACH_LOOP(cfun, loop, 0)
		split |= split_merged_loop(loop);
	if (!split)
		return;
	/* New loop tree: fix_loop_structure wants exact dominators. */
	free_dominance_info(CDI_DOMINATORS);
	calculate_dominance_info(CDI_DOMINATORS);
	loops_state_set(LOOPS_NEED_FIXUP);
	fix_loop_structure(NULL);
	free_dominance_info(CDI_DOMINATORS);
}

/* Refinement conditional-pull: whether BB, in LOOP's body, runs on every
 * iteration that comes back to the header (it dominates every latch). */
static bool on_every_iteration(class loop *loop, basic_block bb)
{
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, loop->header->preds)
		if (flow_bb_inside_loop_p(loop, e->src)
		    && !dominated_by_p(CDI_DOMINATORS, e->src, bb))
			return false;
	return true;
}

/* Is LOOP one that OpenMP expansion made with no source loop behind it
 * (a schedule's chunk dispatch around the source loop, the retry loop of
 * an atomic reduction): in an outlined body, its own tests without a
 * location, and no source loop's keyword found for it? */
static bool made_by_openmp(class loop *loop, location_t named)
{
	cgraph_node *node = cgraph_node::get(current_function_decl);
	if (!node || !node->parallelized_function
	    || keywords.count(get_pure_location(named)))
		return false;
	basic_block *body = get_loop_body(loop);
	bool located_test = false;
	for (unsigned i = 0; i < loop->num_nodes && !located_test; i++) {
		gimple *last = SELINST_LAST_STMT(body[i]);
		located_test = body[i]->loop_father == loop && last
			       && gimple_code(last) == GIMPLE_COND && located(last);
	}
	free(body);
	return !located_test;
}

void selinst_measure_loops(struct selinst_function *fn,
			   const struct selinst_block_info *blocks,
			   const vec<tree> *block_callees)
{
	unsigned n = number_of_loops(cfun);
	fn->loops = NULL;
	fn->nloops = 0;
	if (n <= 1)
		return;		/* only the root "loop": the function body */
	fn->loops = XCNEWVEC(struct selinst_loop, n);
	/* get_loop_body walks the dominator tree. */
	bool had_dominators = dom_info_available_p(CDI_DOMINATORS);
	if (!had_dominators)
		calculate_dominance_info(CDI_DOMINATORS);
	fn->nloops = 0;
	SELINST_FOR_EACH_LOOP(cfun, loop, 0) {
		struct selinst_loop *l = &fn->loops[fn->nloops++];
		l->header = loop->header->index;
		l->nest = loop_depth(loop);
		mpz_inits(l->weight, l->loop_score, l->callsite_score, l->score, NULL);
		l->callees = vNULL;
		l->callee_nest = vNULL;
		l->callee_steady = vNULL;
		l->outer_header = loop_depth(loop) > 1 ? loop_outer(loop)->header->index : -1;
		location_t named = loop_location(loop);
		l->made_by_openmp = made_by_openmp(loop, named);
		expanded_location x = expand_location(named);
		l->file = x.file ? x.file : fn->file;
		l->line = x.file ? x.line : fn->line;
		auto ll = last_line_of.find(get_pure_location(named));
		l->last_line = x.file && ll != last_line_of.end() ? MAX(ll->second, l->line) : l->line;
		l->name = xasprintf("%s:%d", lbasename(l->file), l->line);
		basic_block *body = get_loop_body(loop);
		for (unsigned i = 0; i < loop->num_nodes; i++) {
			int b = body[i]->index;
			l->statements += blocks[b].statements;
			l->call_sites += blocks[b].call_sites;
			if (blocks[b].counted)
				l->basic_blocks++;
			for (unsigned k = 0; k < block_callees[b].length(); k++) {
				l->callees.safe_push(block_callees[b][k]);
				l->callee_nest.safe_push(loop_depth(body[i]->loop_father));
				l->callee_steady.safe_push(on_every_iteration(loop, body[i]));
			}
			edge e;
			edge_iterator ei;
			FOR_EACH_EDGE(e, ei, body[i]->succs)
				if ((e->flags & EDGE_ABNORMAL)
				    && !flow_bb_inside_loop_p(loop, e->dest))
					l->abnormal_exit = true;
			FOR_EACH_EDGE(e, ei, body[i]->preds)
				if (e->flags & EDGE_ABNORMAL)
					l->abnormal_inside = true;
		}
		free(body);
		l->test_header = loop_is_top_tested(loop);
	}
	if (!had_dominators)
		free_dominance_info(CDI_DOMINATORS);
}

/* Refinement leaf-loop's shape: L holds no other loop, and every call in
 * it goes to a function in view whose work per call is bounded (no loop,
 * no recursion, bounded callees) and that is no region. */
static bool straight_leaf(const struct selinst_function *fn, const struct selinst_loop *l,
			  const struct selinst_function *all, size_t nall)
{
	for (unsigned i = 0; i < fn->nloops; i++)
		if (fn->loops[i].outer_header == l->header)
			return false;
	if (l->callees.length() != l->call_sites)
		return false;	/* calls through pointers */
	for (unsigned k = 0; k < l->callees.length(); k++) {
		const struct selinst_function *callee = selinst_function_of(l->callees[k], all, nall);
		if (!callee || !callee->cm.bounded_work || callee->cm.instrument)
			return false;
	}
	return true;
}

/* Refinement nest-depth's input: how deep FN's loops nest, counting a
 * level only where it does more than bounded work an iteration.  An
 * innermost loop of weight under CM_LEAF_LOOP whose calls all go to
 * functions in view that have no loop adds no level (leaf-loop's shape,
 * before the decisions: a few steps of address arithmetic; SQLite's
 * fillInCell skips pointer-map pages in one, nested in its loop over
 * overflow pages, and runs once per row).  A loop holding another loop,
 * or calling a function in view that has a loop (a merge inside a merge
 * sort's loop), or calling out of view or through a pointer, does. */
void selinst_loop_nest(struct selinst_function *fn, const struct selinst_function *all,
		       size_t nall)
{
	fn->cm.loop_nest = 0;
	mpz_t w;	/* the weight leaf-loop compares, with the model's constants */
	mpz_init(w);
	for (unsigned i = 0; i < fn->nloops; i++) {
		const struct selinst_loop *l = &fn->loops[i];
		bool counts = l->callees.length() != l->call_sites;
		for (unsigned j = 0; j < fn->nloops && !counts; j++)
			counts = fn->loops[j].outer_header == l->header;
		cm_weight(w, &selinst_opts.model, l->basic_blocks, l->statements, l->call_sites);
		counts |= mpz_cmp_ui(w, CM_LEAF_LOOP) >= 0;
		for (unsigned k = 0; k < l->callees.length() && !counts; k++) {
			const struct selinst_function *callee =
				selinst_function_of(l->callees[k], all, nall);
			counts = !callee || callee->cm.has_loops;
		}
		if (counts && l->nest > fn->cm.loop_nest)
			fn->cm.loop_nest = l->nest;
	}
	mpz_clear(w);
}

void selinst_decide_loops(struct selinst_function *fn,
			  const struct selinst_function *all, size_t nall)
{
	const struct cm_constants *c = &selinst_opts.model;
	for (unsigned i = 0; i < fn->nloops; i++) {
		struct selinst_loop *l = &fn->loops[i];
		const char *pull;
		l->instrumented_call_sites = 0;
		l->steady_call_sites = 0;
		for (unsigned k = 0; k < l->callees.length(); k++)
			if (selinst_is_instrumented_here(l->callees[k], all, nall)) {
				l->instrumented_call_sites++;
				l->steady_call_sites += l->callee_steady[k] != 0;
			}
		l->depth = fn->cm.loop_depth + l->nest - 1;
		cm_weight(l->weight, c, l->basic_blocks, l->statements, l->call_sites);
		cm_loop_score(l->loop_score, c, l->depth);
		cm_callsite_score(l->callsite_score, c, l->instrumented_call_sites);
		mpz_add(l->score, l->weight, l->loop_score);
		mpz_add(l->score, l->score, l->callsite_score);
		if (!selinst_opts.loops) {
			l->reason = "loops=off";
		} else if (fn->cm.force == CM_FORCE_NEVER && !fn->dropped_by_profile) {
			l->reason = fn->cm.force_reason;	/* the function's */
		} else if (l->made_by_openmp) {
			l->reason = "made by OpenMP expansion (a schedule's chunk dispatch, "
				"an atomic reduction's retry): no source loop";
		} else if (l->abnormal_exit) {
			l->reason = "left by an abnormal edge (setjmp or non-local goto)";
		} else if (l->abnormal_inside) {
			/* The abnormal edges make a CFG whose header is not the
			 * source loop's test: counts would be one off. */
			l->reason = "holds a setjmp receiver or non-local label";
		} else if (cm_small_body_excludes(c, l->weight, l->instrumented_call_sites,
						  fn->cm.from_main, selinst_opts.loop_threshold)) {
			l->reason = CM_SMALL_LOOP_REASON;
		} else if (cm_leaf_loop_excludes(c, l->weight, straight_leaf(fn, l, all, nall),
						 l->instrumented_call_sites, fn->cm.from_main,
						 selinst_opts.loop_threshold)) {
			l->reason = CM_LEAF_LOOP_REASON;
		} else if (cm_whole_body_excludes(c, l->weight, fn->cm.weight, l->nest,
						  fn->cm.instrument, l->instrumented_call_sites,
						  fn->cm.from_main, selinst_opts.loop_threshold)) {
			l->reason = CM_WHOLE_BODY_REASON;
		} else if ((pull = cm_pull_depth_excludes(c, l->depth, l->instrumented_call_sites,
							  l->steady_call_sites, l->weight,
							  l->loop_score,
							  selinst_opts.loop_threshold))) {
			l->reason = pull;
		} else if (mpz_cmp(l->score, selinst_opts.loop_threshold) >= 0) {
			l->instrument = true;
			l->reason = "score >= loop-threshold";
		} else {
			l->reason = "score < loop-threshold";
		}
	}
}

bool selinst_any_loop_chosen(const struct selinst_function *fn)
{
	for (unsigned i = 0; i < fn->nloops; i++)
		if (fn->loops[i].instrument)
			return true;
	return false;
}

/* A loop given a counter: what an exception path needs to close it. */
struct counted_loop {
	class loop *loop;
	tree descriptor;
	tree next;		/* header executions so far, this entry */
	bool test_header;
	tree flag;		/* the throttle test's PHI (loop_guardable), or null */
	location_t loc;		/* the hooks' (loop_location, taken before any
				   guard split blocks and freed the dominators
				   get_loop_body needs) */
};

/* "*CELL = COUNT" (the cell comes from the enter hook: it never traps). */
static gimple *count_store(tree cell, tree count)
{
	tree mem = build_simple_mem_ref(cell);
	TREE_THIS_NOTRAP(mem) = 1;
	return gimple_build_assign(mem, count);
}

/* Does LOOP hold a call that can take time or leave it (longjmp, exit):
 * not an internal function, one of our hooks, or a builtin that returns
 * (sqrt, memcpy: GCC may expand them inline and vectorize the loop)? */
static bool holds_real_call(class loop *loop)
{
	basic_block *body = get_loop_body(loop);
	bool found = false;
	for (unsigned i = 0; i < loop->num_nodes && !found; i++)
		for (gimple_stmt_iterator gsi = gsi_start_bb(body[i]); !gsi_end_p(gsi) && !found;
		     gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (!is_gimple_call(s) || gimple_call_internal_p(s))
				continue;
			tree fn = gimple_call_fndecl(s);
			found = !fn || (!selinst_is_hook(fn)
					&& (!fndecl_built_in_p(fn, BUILT_IN_NORMAL)
					    || (gimple_call_flags(s) & ECF_NORETURN)));
		}
	free(body);
	return found;
}

/* A hook call behind a descriptor test (the throttle's, or whether the
 * loop is iterated), to be wrapped once the edge insertions are
 * committed (selinst_guard_call). */
struct guarded_call {
	gcall *call;
	tree flag;
};

/* What runs where a body starts: "*CELL = NEXT", then, when the runtime
 * set the descriptor's iterate bit, __selinst_loop_iteration (DESC, NEXT)
 * (its guard is queued on ITERATIONS). */
static gimple_seq body_start_seq(tree descriptor, tree cell, tree next,
				 vec<guarded_call> *iterations)
{
	gimple_seq seq = NULL;
	gimple_seq_add_stmt(&seq, count_store(cell, next));
	tree flag = selinst_not_iterated_flag(descriptor, &seq);
	gcall *call = gimple_build_call(selinst_hook_decl(HOOK_LOOP_ITERATION), 2,
					build_fold_addr_expr(descriptor), next);
	gimple_seq_add_stmt(&seq, call);
	guarded_call gc = { call, flag };
	iterations->safe_push(gc);
	return seq;
}

/* Keep the entry's cell current (loops holding a real call only: in a
 * call-free loop the store can stop GCC from vectorizing it, as it did
 * bench/workloads/cg.c's first loop, whose sqrt keeps an errno call on a
 * cold path): "*CELL = NEXT" wherever the body starts
 * (the header's top; in a top-tested loop each edge from its test into
 * the body), so that the runtime, closing a loop left without its exit
 * hook (longjmp, exit, a fatal signal, a thread still running at exit),
 * reads the body starts so far: during a top-tested loop's test the cell
 * still holds the previous start's count, one less than NEXT.  One store
 * an iteration, not a call: the count stays in its register.  The same
 * places mark iterations for SELINST_ITERATE (one load and a branch). */
static void instrument_body_starts(class loop *loop, bool test_header, tree descriptor,
				   tree next, tree cell, gimple *increment,
				   vec<guarded_call> *iterations)
{
	if (!test_header) {
		gimple_stmt_iterator gsi = gsi_for_stmt(increment);
		gsi_insert_seq_after(&gsi, body_start_seq(descriptor, cell, next, iterations),
				     GSI_SAME_STMT);
		return;
	}
	basic_block *body = get_loop_body(loop);
	for (unsigned i = 0; i < loop->num_nodes; i++) {
		basic_block b = body[i];
		if (b != loop->header && !continues_header_test(b, loop))
			continue;
		edge e;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, b->succs)
			if (flow_bb_inside_loop_p(loop, e->dest)
			    && !continues_header_test(e->dest, loop)
			    && !(e->flags & (EDGE_EH | EDGE_ABNORMAL)))
				gsi_insert_seq_on_edge(e, body_start_seq(descriptor, cell, next,
									 iterations));
	}
	free(body);
}

/* May the loops' hooks sit behind the throttle test (the flag loaded at
 * each entry, a PHI in the header)?  Not where control comes back
 * abnormally (setjmp, non-local labels), whose edges new blocks must not
 * split.  A loop holding a call stores its count in a cell at each body
 * start; a skipped enter gives it one in the function's frame instead
 * (merge_skipped_cells).  An exception leaving the loop runs its exit
 * behind the same flag in count_eh_exits' pad (build_eh_exit_pad). */
static bool loop_guardable(void)
{
	return !cfun->calls_setjmp && !cfun->has_nonlocal_label;
}

/* An enter hook waiting for its edge: enters are queued after every
 * loop's exits, so that on an edge leaving one loop for the next the
 * first loop is closed before the next opens. */
struct pending_entry {
	edge e;
	gimple_seq flag_seq;	/* the throttle test's load, or empty */
	gcall *enter;
};

/* A guarded enter whose result is a loop's cell: once the enter has its
 * branch, the cell becomes PHI <CELL (enter called), the skipped enter's
 * cell (skipped)> (merge_skipped_cells). */
struct guarded_cell {
	gcall *enter;
	tree cell;
};

/* The queues instrument_loop fills for selinst_instrument_loops. */
struct loop_queues {
	auto_vec<counted_loop> counted;
	auto_vec<pending_entry> entries;
	auto_vec<guarded_call> guarded;		/* behind the throttle test */
	auto_vec<guarded_call> iterations;	/* behind the iterate test; pads' exits */
	auto_vec<guarded_cell> cells;		/* guarded enters giving a cell */
};

/* The loop hooks' pieces on one entry edge E of a loop: the counter's 0;
 * the enter hook, queued (behind the throttle test FLAG_PHI's argument
 * when FLAG_PHI, giving the cell CELL_PHI's argument when CELL_PHI). */
static void queue_entry(edge e, tree descriptor, location_t loc, gphi *phi, gphi *flag_phi,
			gphi *cell_phi, loop_queues *q)
{
	tree type = uint64_type_node;
	add_phi_arg(phi, build_int_cst(type, 0), e, UNKNOWN_LOCATION);
	gcall *enter = gimple_build_call(selinst_hook_decl(HOOK_LOOP_ENTER), 1,
					 build_fold_addr_expr(descriptor));
	gimple_set_location(enter, loc);
	pending_entry p = { e, NULL, enter };
	if (flag_phi) {
		tree flag_e = selinst_throttle_flag(descriptor, &p.flag_seq);
		add_phi_arg(flag_phi, flag_e, e, UNKNOWN_LOCATION);
		guarded_call gc = { enter, flag_e };
		q->guarded.safe_push(gc);
	}
	if (cell_phi) {
		tree entry_cell = make_temp_ssa_name(TREE_TYPE(gimple_phi_result(cell_phi)),
						     NULL, "selinst_cell");
		gimple_call_set_lhs(enter, entry_cell);
		add_phi_arg(cell_phi, entry_cell, e, UNKNOWN_LOCATION);
		if (flag_phi) {
			guarded_cell gc = { enter, entry_cell };
			q->cells.safe_push(gc);
		}
	}
	q->entries.safe_push(p);
}

static void instrument_loop(class loop *loop, struct selinst_loop *l,
			    const char *function_name, loop_queues *q)
{
	/* Iterable: its body starts are marked (instrument_body_starts). */
	bool iterable = holds_real_call(loop);
	tree descriptor = selinst_region_descriptor(SELINST_KIND_LOOP, l->name, l->file, l->line,
						    function_name,
						    iterable ? SELINST_REGION_ITERABLE : 0);
	l->descriptor = descriptor;	/* the entry's dispatch tests it */
	tree type = uint64_type_node;
	location_t loc = loop_location(loop);
	basic_block header = loop->header;

	/* The counter: PHI <0 (each entry), next (each latch)>; next = phi + 1.
	 * The loop is taken as measured, latches and entries however many:
	 * making preheaders and single latches could split it differently
	 * (a loop with two latches may become two nested loops).  Whether
	 * GCC keeps it is checked late (loopcounter.cc). */
	tree phi_result = make_temp_ssa_name(type, NULL, "selinst_iter");
	gphi *phi = create_phi_node(phi_result, header);
	tree next = make_temp_ssa_name(type, NULL, "selinst_iter");
	selinst_note_counted_loops();
	gassign *inc = gimple_build_assign(next, PLUS_EXPR, phi_result,
					   build_int_cst(type, 1));
	gimple_stmt_iterator gsi = gsi_after_labels(header);
	gsi_insert_before(&gsi, inc, GSI_NEW_STMT);
	/* The entry's cell (from the enter hook): PHI <cell_e (each entry),
	 * itself (each latch)>; dead, and removed, when nothing stores (a
	 * call-free loop).  A guarded loop's switched-off flag, loaded at
	 * each entry, is PHI <flag_e (each entry), itself (each latch)>. */
	bool guard = loop_guardable();
	tree cell = guard && !iterable ? NULL_TREE
		: make_temp_ssa_name(build_pointer_type(type), NULL, "selinst_cell");
	gphi *cell_phi = cell ? create_phi_node(cell, header) : NULL;
	tree flag = guard ? make_temp_ssa_name(unsigned_type_node, NULL, "selinst_off") : NULL_TREE;
	gphi *flag_phi = guard ? create_phi_node(flag, header) : NULL;
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, header->preds) {
		if (!flow_bb_inside_loop_p(loop, e->src)) {
			queue_entry(e, descriptor, loc, phi, flag_phi, cell_phi, q);
			continue;
		}
		add_phi_arg(phi, next, e, UNKNOWN_LOCATION);
		if (flag_phi)
			add_phi_arg(flag_phi, flag, e, UNKNOWN_LOCATION);
		if (cell_phi)
			add_phi_arg(cell_phi, cell, e, UNKNOWN_LOCATION);
	}

	counted_loop c = { loop, descriptor, next, l->test_header, flag, loc };
	q->counted.safe_push(c);

	/* Exits walked by hand: recorded exits may be stale or absent in the
	 * loop structure kept from earlier passes. */
	auto_vec<edge> exits;
	basic_block *body = get_loop_body(loop);
	for (unsigned b = 0; b < loop->num_nodes; b++)
		FOR_EACH_EDGE(e, ei, body[b]->succs)
			if (!flow_bb_inside_loop_p(loop, e->dest))
				exits.safe_push(e);
	free(body);
	if (iterable)
		instrument_body_starts(loop, l->test_header, descriptor, next, cell, inc,
				       &q->iterations);
	unsigned i;
	FOR_EACH_VEC_ELT(exits, i, e) {
		if (e->flags & (EDGE_EH | EDGE_ABNORMAL))
			continue;	/* count_eh_exits; the runtime */
		tree count = next;
		if (l->test_header
		    && (e->src == loop->header || continues_header_test(e->src, loop))) {
			count = make_temp_ssa_name(type, NULL, "selinst_iter");
			gsi_insert_on_edge(e, gimple_build_assign(count, MINUS_EXPR, next,
								  build_int_cst(type, 1)));
		}
		gcall *exit = gimple_build_call(selinst_hook_decl(HOOK_LOOP_EXIT), 2,
						build_fold_addr_expr(descriptor), count);
		gimple_set_location(exit, loc);
		gsi_insert_on_edge(e, exit);
		if (guard) {
			guarded_call gc = { exit, flag };
			q->guarded.safe_push(gc);
		}
	}
}

/* Exception exits.  A statement S inside counted loops that can throw to
 * a landing pad outside some of them (or out of the function) is given a
 * new cleanup region C, nested in the region S threw to, whose pad is
 *
 *     __selinst_loop_exit (&L1, n1); ... __selinst_loop_exit (&Lk, nk);
 *     resx C                       (on to S's old landing pad, if any)
 *
 * for the counted loops L1 (innermost) .. Lk that S leaves.  The counts
 * are the loops' header counters, which dominate S; when S is the exit
 * test of a top-tested loop, that loop's body had not started again: one
 * less.  Statements with the same old pad, loops and adjustment share one
 * new pad; PHIs in the old pad get their values through new PHIs in ours. */
struct eh_exit_group {
	int old_lp;		/* 0: S had none and left the function */
	unsigned innermost;	/* index into the counted loops */
	bool before_body;	/* S is the innermost loop's header test */
	auto_vec<gimple *> stmts;
};

static basic_block landing_block(int lp_nr)
{
	return label_to_block(cfun, get_eh_landing_pad_from_number(lp_nr)->post_landing_pad);
}

static void build_eh_exit_pad(eh_exit_group *grp, vec<counted_loop> &counted,
			      vec<guarded_call> *guarded)
{
	basic_block old_pad = grp->old_lp > 0 ? landing_block(grp->old_lp) : NULL;
	eh_region outer = grp->old_lp > 0 ? get_eh_region_from_lp_number(grp->old_lp) : NULL;
	eh_region region = gen_eh_region_cleanup(outer);
	eh_landing_pad lp = gen_eh_landing_pad(region);
	location_t loc = counted[grp->innermost].loc;
	tree label = create_artificial_label(loc);
	lp->post_landing_pad = label;
	EH_LANDING_PAD_NR(label) = lp->index;

	basic_block sbb = gimple_bb(grp->stmts[0]);
	basic_block pad = create_empty_bb(EXIT_BLOCK_PTR_FOR_FN(cfun)->prev_bb);
	class loop *home = old_pad ? find_common_loop(sbb->loop_father, old_pad->loop_father)
				   : current_loops->tree_root;
	add_bb_to_loop(pad, home);

	gimple_stmt_iterator gsi = gsi_start_bb(pad);
	gsi_insert_after(&gsi, gimple_build_label(label), GSI_NEW_STMT);
	tree type = uint64_type_node;
	for (unsigned k = grp->innermost; k < counted.length(); k++) {
		const counted_loop &c = counted[k];
		if (!flow_bb_inside_loop_p(c.loop, sbb)
		    || (old_pad && flow_bb_inside_loop_p(c.loop, old_pad)))
			continue;
		tree count = c.next;
		if (k == grp->innermost && grp->before_body) {
			count = make_temp_ssa_name(type, NULL, "selinst_iter");
			gsi_insert_after(&gsi, gimple_build_assign(count, MINUS_EXPR, c.next,
						build_int_cst(type, 1)), GSI_NEW_STMT);
		}
		gcall *exit = gimple_build_call(selinst_hook_decl(HOOK_LOOP_EXIT), 2,
						build_fold_addr_expr(c.descriptor), count);
		gimple_set_location(exit, loc);
		gsi_insert_after(&gsi, exit, GSI_NEW_STMT);
		/* A guarded loop's flag: its header's PHI, which dominates S
		 * and so the pad, reached from such statements only. */
		if (c.flag) {
			guarded_call gc = { exit, c.flag };
			guarded->safe_push(gc);
		}
	}
	gresx *resx = gimple_build_resx(region->index);
	gimple_set_location(resx, loc);
	gsi_insert_after(&gsi, resx, GSI_NEW_STMT);

	/* Move each S's EH edge from the old pad to ours, keeping what the
	 * old pad's PHIs received along it.  Our PHIs are made once every
	 * edge is in: adding edges reallocates PHI nodes. */
	unsigned nphis = 0;
	if (old_pad)
		for (gphi_iterator pi = gsi_start_phis(old_pad); !gsi_end_p(pi); gsi_next(&pi))
			nphis++;
	auto_vec<edge> moved;
	auto_vec<tree> args;		/* nphis per moved edge */
	unsigned i;
	gimple *stmt;
	FOR_EACH_VEC_ELT(grp->stmts, i, stmt) {
		selinst_end_block_at(stmt);
		basic_block bb = gimple_bb(stmt);
		edge old_edge = old_pad ? find_edge(bb, old_pad) : NULL;
		if (old_edge) {
			for (gphi_iterator pi = gsi_start_phis(old_pad); !gsi_end_p(pi);
			     gsi_next(&pi))
				args.safe_push(PHI_ARG_DEF_FROM_EDGE(pi.phi(), old_edge));
			remove_edge(old_edge);
		} else {
			for (unsigned p = 0; p < nphis; p++)
				args.safe_push(NULL_TREE);
		}
		if (grp->old_lp > 0)
			remove_stmt_from_eh_lp(stmt);
		add_stmt_to_eh_lp(stmt, lp->index);
		SELINST_MAKE_EH_EDGES(stmt);
		moved.safe_push(find_edge(bb, pad));
	}
	if (!old_pad)
		return;
	add_stmt_to_eh_lp(resx, grp->old_lp);
	SELINST_MAKE_EH_EDGES(resx);
	edge onward = find_edge(pad, old_pad);
	unsigned p = 0;
	for (gphi_iterator pi = gsi_start_phis(old_pad); !gsi_end_p(pi); gsi_next(&pi), p++) {
		gphi *old_phi = pi.phi();
		gphi *phi = create_phi_node(copy_ssa_name(gimple_phi_result(old_phi)), pad);
		for (unsigned m = 0; m < moved.length(); m++)
			if (args[m * nphis + p])
				add_phi_arg(phi, args[m * nphis + p], moved[m], UNKNOWN_LOCATION);
		add_phi_arg(old_phi, gimple_phi_result(phi), onward, UNKNOWN_LOCATION);
	}
}

static void count_eh_exits(vec<counted_loop> &counted, vec<guarded_call> *guarded)
{
	if (counted.is_empty() || !cfun->eh)
		return;
	auto_vec<eh_exit_group *> groups;
	basic_block bb;
	FOR_EACH_BB_FN(bb, cfun) {
		if (bb->loop_father == current_loops->tree_root)
			continue;
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
		     gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);
			if (!stmt_could_throw_p(cfun, stmt))
				continue;
			int lp_nr = lookup_stmt_eh_lp(stmt);
			if (lp_nr < 0)
				continue;	/* must-not-throw: terminate */
			basic_block dest = lp_nr > 0 ? landing_block(lp_nr) : NULL;
			/* The innermost counted loop that S leaves (counted is
			 * innermost first). */
			unsigned k;
			for (k = 0; k < counted.length(); k++)
				if (flow_bb_inside_loop_p(counted[k].loop, bb)
				    && !(dest && flow_bb_inside_loop_p(counted[k].loop, dest)))
					break;
			if (k == counted.length())
				continue;
			bool before_body = bb == counted[k].loop->header
				&& counted[k].test_header;
			eh_exit_group *grp = NULL;
			for (unsigned j = 0; j < groups.length() && !grp; j++)
				if (groups[j]->old_lp == lp_nr && groups[j]->innermost == k
				    && groups[j]->before_body == before_body)
					grp = groups[j];
			if (!grp) {
				grp = new eh_exit_group;
				grp->old_lp = lp_nr;
				grp->innermost = k;
				grp->before_body = before_body;
				groups.safe_push(grp);
			}
			grp->stmts.safe_push(stmt);
		}
	}
	for (unsigned j = 0; j < groups.length(); j++) {
		build_eh_exit_pad(groups[j], counted, guarded);
		delete groups[j];
	}
}

/* Give each guarded enter in CELLS, now behind its branch, the cell of a
 * skipped enter: the address of a variable in this function's frame.
 * The loop's count is stored there, in this thread's own stack, touching
 * nothing shared; nobody reads it: the runtime reads a loop's cell only
 * for a frame it pushed (closing loops left without their exit hook), and
 * a skipped enter pushes none.  One variable serves all the function's
 * loops and recursion gives each activation its own. */
static void merge_skipped_cells(vec<guarded_cell> &cells)
{
	if (cells.is_empty())
		return;
	tree var = create_tmp_var(uint64_type_node, "selinst_skipped_cell");
	TREE_ADDRESSABLE(var) = 1;
	for (unsigned i = 0; i < cells.length(); i++) {
		basic_block call_bb = gimple_bb(cells[i].enter);
		edge from_call = single_succ_edge(call_bb);
		basic_block join = from_call->dest;
		gcc_assert(EDGE_COUNT(join->preds) == 2);
		edge skip = EDGE_PRED(join, 0) == from_call ? EDGE_PRED(join, 1) : EDGE_PRED(join, 0);
		tree cell = cells[i].cell;
		tree merged = copy_ssa_name(cell);
		replace_uses_by(cell, merged);		/* the header's PHI */
		gphi *phi = create_phi_node(merged, join);
		add_phi_arg(phi, cell, from_call, UNKNOWN_LOCATION);
		add_phi_arg(phi, build_fold_addr_expr(var), skip, UNKNOWN_LOCATION);
	}
}

/* Can hooks go on every edge into LOOP's header from outside? */
static bool entries_are_normal(class loop *loop)
{
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, loop->header->preds)
		if (!flow_bb_inside_loop_p(loop, e->src)
		    && (e->flags & (EDGE_ABNORMAL | EDGE_EH)))
			return false;
	return true;
}

void selinst_instrument_loops(struct selinst_function *fn)
{
	/* The loops exactly as selinst_measure_loops saw them: nothing has
	 * changed this function's CFG since, so headers keep their index. */
	bool made_loops = false;
	if (!current_loops) {
		loop_optimizer_init(AVOID_CFG_MODIFICATIONS);
		made_loops = true;
	}
	calculate_dominance_info(CDI_DOMINATORS);	/* get_loop_body */
	loop_queues q;
	/* Innermost first: on an edge leaving several loops the inner loop's
	 * exit is queued, and so runs, before the outer one's. */
	SELINST_FOR_EACH_LOOP(cfun, loop, LI_FROM_INNERMOST) {
		struct selinst_loop *l = NULL;
		for (unsigned i = 0; i < fn->nloops && !l; i++)
			if (fn->loops[i].instrument && fn->loops[i].header == loop->header->index)
				l = &fn->loops[i];
		if (!l)
			continue;
		if (!entries_are_normal(loop)) {
			l->instrument = false;
			l->reason = "entered by an abnormal edge";
			continue;
		}
		instrument_loop(loop, l, fn->name, &q);
		l->inserted = true;
	}
	for (unsigned i = 0; i < q.entries.length(); i++) {
		if (q.entries[i].flag_seq)
			gsi_insert_seq_on_edge(q.entries[i].e, q.entries[i].flag_seq);
		gsi_insert_on_edge(q.entries[i].e, q.entries[i].enter);
	}
	/* Never silently: a chosen loop not found again is reported as such. */
	for (unsigned i = 0; i < fn->nloops; i++)
		if (fn->loops[i].instrument && !fn->loops[i].inserted) {
			fn->loops[i].instrument = false;
			fn->loops[i].reason = "not found again at insertion (a selinst bug: please report)";
		}
	gsi_commit_edge_inserts();
	/* Each hook call in place, in its order on its edge: now each can
	 * be given its branch.  The flags dominate them: an entry's is
	 * loaded just before it, the header's PHI dominates the loop. */
	for (unsigned i = 0; i < q.guarded.length(); i++)
		selinst_guard_call(q.guarded[i].call, q.guarded[i].flag);
	merge_skipped_cells(q.cells);
	if (!q.guarded.is_empty())
		free_dominance_info(CDI_DOMINATORS);
	/* The pads' exits of guarded loops go behind their flags with the
	 * iteration marks: after count_eh_exits, which walks the loops'
	 * blocks as they were (splitting them first made GCC fail on a C++
	 * loop with cleanups). */
	count_eh_exits(q.counted, &q.iterations);
	for (unsigned i = 0; i < q.iterations.length(); i++)
		selinst_guard_call(q.iterations[i].call, q.iterations[i].flag);
	if (!q.iterations.is_empty())
		free_dominance_info(CDI_DOMINATORS);
	if (made_loops)
		loop_optimizer_finalize();
}

void selinst_free_loops(struct selinst_function *fn)
{
	for (unsigned i = 0; i < fn->nloops; i++) {
		struct selinst_loop *l = &fn->loops[i];
		mpz_clears(l->weight, l->loop_score, l->callsite_score, l->score, NULL);
		l->callees.release();
		l->callee_nest.release();
		l->callee_steady.release();
		free(l->name);
	}
	if (fn->loops)
		XDELETEVEC(fn->loops);
	fn->loops = NULL;
	fn->nloops = 0;
}
