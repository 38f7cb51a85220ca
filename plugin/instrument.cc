/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * instrument.cc - insert selinst's hooks into one function body.
 *
 * For a chosen function F with region descriptor D (a static, read-only
 * struct selinst_region emitted into this unit):
 *
 *   entry      __selinst_enter (&D) on the edge out of the entry block
 *   return     __selinst_exit (&D) before every GIMPLE_RETURN
 *   exception  a new outermost cleanup region whose landing pad is
 *              { __selinst_exit (&D); resx }: see instrument_eh_exits
 *   noreturn   __selinst_exit (&D) before calls to noreturn, nothrow
 *              functions not instrumented here (exit, abort, longjmp ...),
 *              except in functions that call setjmp: there a longjmp may
 *              land back in F, which then goes on and returns
 *
 * and in every function of a unit that instruments anything, chosen or
 * not:
 *
 *   setjmp     __selinst_setjmp_return () on the fall-through path after
 *              every returns-twice call, after __builtin_setjmp receivers
 *              and at non-local goto labels: after a longjmp or a
 *              non-local goto lands there the runtime drops the regions of
 *              the frames it skipped
 *
 * The hooks are declared nothrow and leaf: they neither throw nor call
 * back into the unit, so they do not split blocks in functions that call
 * setjmp and add no EH or abnormal edges.
 */
#include "gcc-compat.h"
#include "tree-inline.h"	/* tree_versionable_function_p */
#include "tree-dfa.h"	/* get_or_create_ssa_default_def */
#include "selinst-plugin.h"
#include "../include/selinst.h"

static tree hook_decls[HOOK_COUNT];
static tree region_type;

const struct ggc_root_tab selinst_gc_roots[] = {
	{ &hook_decls[0], HOOK_COUNT, sizeof(tree), &gt_ggc_mx_tree_node,
	  &gt_pch_nx_tree_node },
	{ &region_type, 1, sizeof(tree), &gt_ggc_mx_tree_node,
	  &gt_pch_nx_tree_node },
	LAST_GGC_ROOT_TAB
};

/* The declaration of a runtime hook.  If the unit already declares it
 * (it included selinst.h), that declaration is used so the symbol table
 * holds one node per symbol. */
/* The GCC type of a hook-abi.h type code (a region pointer is passed as
 * const void *: the descriptors' record type is the plugin's own). */
static tree abi_type(enum hook_abi_type t)
{
	switch (t) {
	case HT_VOID: return void_type_node;
	case HT_REGION_PTR: return const_ptr_type_node;
	case HT_U64: return uint64_type_node;
	case HT_U64_PTR: return build_pointer_type(uint64_type_node);
	case HT_U32: return uint32_type_node;
	case HT_CSTR:
		return build_pointer_type(build_qualified_type(char_type_node,
							       TYPE_QUAL_CONST));
	}
	gcc_unreachable();
}

static tree hook_type(const struct hook_abi *h)
{
	tree params[2];
	int n = 0;
	while (n < 2 && h->params[n] != HT_VOID) {
		params[n] = abi_type(h->params[n]);
		n++;
	}
	return build_function_type_array(abi_type(h->ret), n, params);
}

bool selinst_is_hook(tree fndecl)
{
	if (!fndecl || !DECL_NAME(fndecl))
		return false;
	const char *name = IDENTIFIER_POINTER(DECL_NAME(fndecl));
	for (int i = 0; i < HOOK_COUNT; i++)
		if (strcmp(name, selinst_hook_abi[i].symbol) == 0)
			return true;
	return false;
}

tree selinst_hook_decl(enum selinst_hook which)
{
	const struct hook_abi *h = &selinst_hook_abi[which];
	if (hook_decls[which])
		return hook_decls[which];
	tree id = get_identifier(h->symbol);
	symtab_node *existing = symtab_node::get_for_asmname(id);
	tree decl;
	if (existing && TREE_CODE(existing->decl) == FUNCTION_DECL) {
		decl = existing->decl;
	} else {
		decl = build_fn_decl(h->symbol, hook_type(h));
		TREE_PUBLIC(decl) = 1;
		DECL_EXTERNAL(decl) = 1;
		DECL_ARTIFICIAL(decl) = 1;
		DECL_PRESERVE_P(decl) = 0;
	}
	TREE_NOTHROW(decl) = 1;
	DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("leaf"), NULL_TREE,
					  DECL_ATTRIBUTES(decl));
	DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("nothrow"), NULL_TREE,
					  DECL_ATTRIBUTES(decl));
	hook_decls[which] = decl;
	return decl;
}

/* struct selinst_region from hook-abi.h's field table; its layout must be
 * the header's (the plugin and the runtime are built for one target). */
static tree build_region_type(void)
{
	if (region_type)
		return region_type;
	/* finish_builtin_struct wants the chain in reverse order. */
	tree reversed = NULL_TREE;
	for (size_t i = 0; i < SELINST_REGION_NFIELDS; i++) {
		tree f = build_decl(BUILTINS_LOCATION, FIELD_DECL,
				    get_identifier(selinst_region_abi[i].name),
				    abi_type(selinst_region_abi[i].type));
		DECL_CHAIN(f) = reversed;
		reversed = f;
	}
	region_type = make_node(RECORD_TYPE);
	finish_builtin_struct(region_type, "__selinst_region", reversed, NULL_TREE);
	size_t i = 0;
	for (tree f = TYPE_FIELDS(region_type); f; f = DECL_CHAIN(f), i++)
		gcc_assert(i < SELINST_REGION_NFIELDS
			   && (size_t)int_byte_position(f) == selinst_region_abi[i].offset);
	gcc_assert(i == SELINST_REGION_NFIELDS && tree_to_uhwi(TYPE_SIZE_UNIT(region_type))
		   == sizeof(struct selinst_region));
	return region_type;
}

static tree string_field(const char *s)
{
	tree cstr = build_pointer_type(build_qualified_type(char_type_node,
							    TYPE_QUAL_CONST));
	if (!s)
		return build_int_cst(cstr, 0);
	return fold_convert(cstr, build_string_literal(strlen(s) + 1, s));
}

/* A static descriptor for region NAME at FILE:LINE: writable data, of
 * which the runtime writes only the throttle and iterate bits
 * (include/selinst.h).  FLAGS: more SELINST_REGION_* bits of the plugin's. */
tree selinst_region_descriptor(uint32_t kind, const char *name, const char *file,
			       int line, const char *function, uint32_t flags)
{
	static unsigned counter;
	tree type = build_region_type();
	vec<constructor_elt, va_gc> *v = NULL;
	tree f = TYPE_FIELDS(type);
	CONSTRUCTOR_APPEND_ELT(v, f, build_int_cst(uint32_type_node, SELINST_ABI_VERSION));
	f = DECL_CHAIN(f);
	CONSTRUCTOR_APPEND_ELT(v, f, build_int_cst(uint32_type_node, kind));
	f = DECL_CHAIN(f);
	CONSTRUCTOR_APPEND_ELT(v, f, build_int_cst(uint32_type_node, line));
	f = DECL_CHAIN(f);
	CONSTRUCTOR_APPEND_ELT(v, f, build_int_cst(uint32_type_node,
						   SELINST_REGION_WRITABLE | flags));
	f = DECL_CHAIN(f);
	CONSTRUCTOR_APPEND_ELT(v, f, string_field(name));
	f = DECL_CHAIN(f);
	CONSTRUCTOR_APPEND_ELT(v, f, string_field(file));
	f = DECL_CHAIN(f);
	CONSTRUCTOR_APPEND_ELT(v, f, string_field(function));
	tree init = build_constructor(type, v);
	TREE_CONSTANT(init) = 1;
	TREE_STATIC(init) = 1;

	char label[40];
	snprintf(label, sizeof label, "__selinst_region.%u", counter++);
	tree var = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(label), type);
	TREE_STATIC(var) = 1;
	TREE_PUBLIC(var) = 0;
	TREE_READONLY(var) = 0;	/* the runtime may set SELINST_REGION_THROTTLED */
	TREE_USED(var) = 1;
	TREE_ADDRESSABLE(var) = 1;
	DECL_ARTIFICIAL(var) = 1;
	DECL_IGNORED_P(var) = 1;
	DECL_INITIAL(var) = init;
	varpool_node::add(var);
	return var;
}

/* The unit's ELF note of its settings (selinst.h, SELINST_NOTE_NAME), so
 * that the runtime can tell units compiled under different settings
 * apart.  Host byte order: the plugin and the runtime are built for one
 * target, as for the descriptors.  Kept though nothing refers to it. */
void selinst_emit_settings_note(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	const char *text = selinst_settings_text();
	uint32_t head[3] = { sizeof SELINST_NOTE_NAME, (uint32_t)strlen(text) + 1,
			     SELINST_NOTE_SETTINGS };
	size_t name_room = (sizeof SELINST_NOTE_NAME + 3) & ~(size_t)3;
	size_t size = sizeof head + name_room + ((head[1] + 3) & ~(size_t)3);
	char *bytes = XCNEWVEC(char, size);
	memcpy(bytes, head, sizeof head);
	memcpy(bytes + sizeof head, SELINST_NOTE_NAME, sizeof SELINST_NOTE_NAME);
	memcpy(bytes + sizeof head + name_room, text, head[1]);
	tree type = build_array_type(char_type_node, build_index_type(size_int(size - 1)));
	tree init = build_string((int)size, bytes);
	TREE_TYPE(init) = type;
	XDELETEVEC(bytes);
	tree var = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier("__selinst_note"), type);
	TREE_STATIC(var) = 1;
	TREE_PUBLIC(var) = 0;
	TREE_READONLY(var) = 1;
	TREE_USED(var) = 1;
	DECL_ARTIFICIAL(var) = 1;
	DECL_IGNORED_P(var) = 1;
	DECL_PRESERVE_P(var) = 1;
	SET_DECL_ALIGN(var, 32);
	DECL_USER_ALIGN(var) = 1;
	DECL_INITIAL(var) = init;
	set_decl_section_name(var, ".note.selinst");
	varpool_node::add(var);
	varpool_node::get(var)->force_output = 1;
}

static gcall *hook_call(enum selinst_hook which, tree descriptor, location_t loc)
{
	gcall *call = descriptor
		? gimple_build_call(selinst_hook_decl(which), 1, build_fold_addr_expr(descriptor))
		: gimple_build_call(selinst_hook_decl(which), 0);
	gimple_set_location(call, loc);
	return call;
}

/* FN's loops that get no hooks, in FN's own file, as "LINE-LAST ...": the
 * runtime names the loop a sample of FN's exclusive time fell in by the
 * sample's source line (SELINST_REGION_LOOP_TABLE); NULL when none.
 * Loops of another file (a macro's, an included body's) are left out:
 * the runtime matches lines in FN's file only. */
static char *uninstrumented_loop_table(const struct selinst_function *fn)
{
	char *table = NULL;
	for (unsigned i = 0; i < fn->nloops; i++) {
		const struct selinst_loop *l = &fn->loops[i];
		if (l->instrument || l->made_by_openmp || !l->file || !fn->file ||
		    strcmp(l->file, fn->file))
			continue;
		char *more = xasprintf("%s%s%d-%d", table ? table : "", table ? " " : "",
				       l->line, l->last_line);
		free(table);
		table = more;
	}
	return table;
}

/* Constructs whose exits the hooks cannot all see. */
const char *selinst_cannot_instrument(tree decl, function *body)
{
	if (lookup_attribute("always_inline", DECL_ATTRIBUTES(decl)))
		return "always_inline: its body is copied into every caller";
	if (DECL_EXTERNAL(decl))
		return "extern inline (gnu_inline): no out-of-line copy is emitted here";
	if (lookup_attribute("naked", DECL_ATTRIBUTES(decl)))
		return "naked function: no prologue or epilogue to hook";
	/* Entered by the hardware with its own frame and return; the hooks
	 * are ordinary calls into a user-space runtime.  (x86 keeps it on
	 * the type, other targets on the declaration.) */
	if (lookup_attribute("interrupt", DECL_ATTRIBUTES(decl))
	    || lookup_attribute("interrupt", TYPE_ATTRIBUTES(TREE_TYPE(decl))))
		return "interrupt handler: entered by the hardware, not by a call";
	if (!body)
		return "no body";
	basic_block bb;
	FOR_EACH_BB_FN(bb, body)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
		     gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);
			if (gimple_call_builtin_p(stmt, BUILT_IN_NONLOCAL_GOTO))
				return "leaves by a non-local goto";
			if (gimple_call_builtin_p(stmt, BUILT_IN_EH_RETURN))
				return "uses __builtin_eh_return";
			if (gimple_call_builtin_p(stmt, BUILT_IN_APPLY_ARGS)
			    || gimple_call_builtin_p(stmt, BUILT_IN_RETURN))
				return "uses __builtin_apply_args/__builtin_return";
			if (gimple_code(stmt) == GIMPLE_ASM
			    && gimple_asm_nlabels(as_a<gasm *>(stmt)) > 0)
				return "asm goto: its jumps may leave the function";
			/* Inlined copies of a label whose address is taken
			 * have distinct addresses, and a region may be kept
			 * out of line (inline=off, setjmp callers). */
			if (gimple_code(stmt) == GIMPLE_LABEL
			    && FORCED_LABEL(gimple_label_label(as_a<glabel *>(stmt))))
				return "a label's address is taken (&&label): a region "
				       "may be kept out of line, and inlined copies must "
				       "keep distinct label addresses";
		}
	if (body->has_nonlocal_label)
		return "receives a non-local goto";
	return NULL;
}

/* The unit's functions by declaration, built on the first question about
 * ALL and dropped when the pass is done with the array. */
static hash_map<tree, size_t> *function_index;
static const struct selinst_function *indexed_all;
static size_t indexed_n;

void selinst_forget_functions(void)
{
	delete function_index;
	function_index = NULL;
	indexed_all = NULL;
	indexed_n = 0;
}

const struct selinst_function *selinst_function_of(tree callee,
						   const struct selinst_function *all,
						   size_t nall)
{
	if (indexed_all != all || indexed_n != nall || !function_index) {
		delete function_index;
		function_index = new hash_map<tree, size_t>(nall * 2 + 1);
		for (size_t i = 0; i < nall; i++)
			function_index->put(all[i].decl, i);
		indexed_all = all;
		indexed_n = nall;
	}
	cgraph_node *n = cgraph_node::get(callee);
	if (n)
		callee = n->ultimate_alias_target()->decl;
	size_t *i = function_index->get(callee);
	return i ? &all[*i] : NULL;
}

bool selinst_is_instrumented_here(tree callee, const struct selinst_function *all,
				  size_t nall)
{
	const struct selinst_function *f = selinst_function_of(callee, all, nall);
	return f && f->cm.instrument;
}

/* Exit hooks on the exception paths.  A new cleanup region R becomes the
 * outermost EH region of F: every existing top-level region is moved
 * inside it, so an exception that an inner try/catch does not match still
 * lands in R (the personality routine only stops in frames whose action
 * chain holds a handler or a cleanup); statements that could throw out of
 * F with no region at all, and resx statements that left F, now go to R's
 * landing pad, which calls the exit hook and resumes unwinding. */
static gimple *instrument_eh_exits(tree descriptor, location_t loc)
{
	auto_vec<gimple *> leaving;
	basic_block bb;
	FOR_EACH_BB_FN(bb, cfun)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
		     gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);
			if (stmt_could_throw_p(cfun, stmt) && lookup_stmt_eh_lp(stmt) == 0)
				leaving.safe_push(stmt);
		}
	/* Unmatched catches and cleanups end in a resx that leaves F, so
	 * they are in LEAVING too: empty means no exception can leave F. */
	if (leaving.is_empty())
		return NULL;

	eh_region region = gen_eh_region_cleanup(NULL);
	/* gen_eh_region put R first among the top-level regions: adopt the
	 * others. */
	eh_region adopted = region->next_peer;
	region->next_peer = NULL;
	region->inner = adopted;
	for (eh_region r = adopted; r; r = r->next_peer)
		r->outer = region;
	cfun->eh->region_tree = region;

	eh_landing_pad lp = gen_eh_landing_pad(region);
	tree label = create_artificial_label(loc);
	lp->post_landing_pad = label;
	EH_LANDING_PAD_NR(label) = lp->index;

	basic_block pad = create_empty_bb(EXIT_BLOCK_PTR_FOR_FN(cfun)->prev_bb);
	if (current_loops)
		add_bb_to_loop(pad, current_loops->tree_root);
	gimple_stmt_iterator gsi = gsi_start_bb(pad);
	gsi_insert_after(&gsi, gimple_build_label(label), GSI_NEW_STMT);
	gsi_insert_after(&gsi, hook_call(HOOK_EXIT, descriptor, loc), GSI_NEW_STMT);
	gresx *resx = gimple_build_resx(region->index);
	gimple_set_location(resx, loc);
	gsi_insert_after(&gsi, resx, GSI_NEW_STMT);

	unsigned i;
	gimple *stmt;
	FOR_EACH_VEC_ELT(leaving, i, stmt) {
		selinst_end_block_at(stmt);
		add_stmt_to_eh_lp(stmt, lp->index);
		SELINST_MAKE_EH_EDGES(stmt);
	}
	return resx;
}

/* ---- the throttle test in the instrumented code ----------------------- */

/* FLAG = D.reserved & SELINST_REGION_THROTTLED, as statements appended
 * to SEQ: a region the runtime switched off costs a load and a branch at
 * entry and a branch at each exit, with no call. */
/* "reserved & BIT" of DESCRIPTOR, loaded by statements appended to SEQ. */
static tree descriptor_bit(tree descriptor, unsigned bit, gimple_seq *seq)
{
	tree field = TYPE_FIELDS(TREE_TYPE(descriptor));
	for (size_t i = 0; i < SELINST_REGION_NFIELDS; i++, field = DECL_CHAIN(field))
		if (strcmp(selinst_region_abi[i].name, "reserved") == 0)
			break;
	gcc_assert(field);	/* in hook-abi.h; build_region_type checks the layout */
	tree ref = build3(COMPONENT_REF, TREE_TYPE(field), descriptor, field, NULL_TREE);
	tree word = make_ssa_name(TREE_TYPE(field));
	tree load = builtin_decl_explicit(BUILT_IN_ATOMIC_LOAD_4);
	if ((flag_sanitize & SANITIZE_THREAD) && load
	    && TYPE_PRECISION(TREE_TYPE(field)) == 32) {
		/* The runtime sets these bits from any thread (__atomic_fetch_or):
		 * under ThreadSanitizer a plain load races with that and is
		 * reported in the user's program.  A relaxed atomic load is the
		 * same instruction without it; plain elsewhere, so that GCC may
		 * fold it into the test. */
		tree raw = make_ssa_name(TREE_TYPE(TREE_TYPE(load)));
		gcall *call = gimple_build_call(load, 2, build_fold_addr_expr(ref),
						build_int_cst(integer_type_node, __ATOMIC_RELAXED));
		gimple_call_set_lhs(call, raw);
		gimple_seq_add_stmt(seq, call);
		gimple_seq_add_stmt(seq, gimple_build_assign(word, NOP_EXPR, raw));
	} else {
		gimple_seq_add_stmt(seq, gimple_build_assign(word, ref));
	}
	tree flag = make_ssa_name(TREE_TYPE(field));
	gimple_seq_add_stmt(seq, gimple_build_assign(flag, BIT_AND_EXPR, word,
						     build_int_cst(TREE_TYPE(field), bit)));
	return flag;
}

/* Nonzero when DESCRIPTOR's region is switched off (the throttle). */
tree selinst_throttle_flag(tree descriptor, gimple_seq *seq)
{
	return descriptor_bit(descriptor, SELINST_REGION_THROTTLED, seq);
}

/* Nonzero when DESCRIPTOR's loop is NOT the one SELINST_ITERATE names:
 * the flag selinst_guard_call skips __selinst_loop_iteration on. */
tree selinst_not_iterated_flag(tree descriptor, gimple_seq *seq)
{
	tree bit = descriptor_bit(descriptor, SELINST_REGION_ITERATE, seq);
	tree flag = make_ssa_name(TREE_TYPE(bit));
	gimple_seq_add_stmt(seq, gimple_build_assign(flag, BIT_XOR_EXPR, bit,
						     build_int_cst(TREE_TYPE(bit),
								   SELINST_REGION_ITERATE)));
	return flag;
}

/* BB ends with "if (FLAG != 0)"; its single successor edge becomes the
 * false one, into CALL_BB, and a new true edge skips to JOIN. */
static void branch_around(basic_block bb, tree flag, basic_block call_bb, basic_block join)
{
	gimple_stmt_iterator end = gsi_last_bb(bb);
	gcond *cond = gimple_build_cond(NE_EXPR, flag, build_zero_cst(TREE_TYPE(flag)),
					NULL_TREE, NULL_TREE);
	gsi_insert_after(&end, cond, GSI_NEW_STMT);
	edge to_call = single_succ_edge(bb);
	to_call->flags = (to_call->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
	/* Switched off is the likely case for the calls that matter: the
	 * throttle switches off regions called often; then the prologue
	 * the hook calls need moves onto the call path (shrink-wrapping). */
	edge skip = make_edge(bb, join, EDGE_TRUE_VALUE);
	skip->probability = profile_probability::likely();
	to_call->probability = skip->probability.invert();
	/* JOIN's PHIs take over the call path's values on the new edge. */
	edge from_call = single_succ_edge(call_bb);
	for (gphi_iterator pi = gsi_start_phis(join); !gsi_end_p(pi); gsi_next(&pi)) {
		gphi *phi = pi.phi();
		add_phi_arg(phi, PHI_ARG_DEF_FROM_EDGE(phi, from_call), skip,
			    gimple_phi_arg_location_from_edge(phi, from_call));
	}
}

/* CALL, already in a block, run only when FLAG is zero: CALL gets a
 * block of its own, which a branch on FLAG skips.  FLAG must dominate it. */
void selinst_guard_call(gcall *call, tree flag)
{
	basic_block bb = gimple_bb(call);
	gimple_stmt_iterator prev = gsi_for_stmt(call);
	gsi_prev(&prev);
	edge e = gsi_end_p(prev) || gimple_code(gsi_stmt(prev)) == GIMPLE_LABEL
		? split_block_after_labels(bb) : split_block(bb, gsi_stmt(prev));
	basic_block call_bb = e->dest;
	basic_block rest = split_block(call_bb, call)->dest;
	branch_around(e->src, flag, call_bb, rest);
}

/* CALL before STMT, run when FLAG is zero. */
static void insert_guarded_before(gimple *stmt, gcall *call, tree flag)
{
	gimple_stmt_iterator gsi = gsi_for_stmt(stmt);
	gsi_insert_before(&gsi, call, GSI_SAME_STMT);
	selinst_guard_call(call, flag);
}

/* The entry: FLAG computed on the edge out of the entry block, the enter
 * hook called when it is zero.  Returns FLAG. */
static tree insert_guarded_entry(tree descriptor, gcall *enter)
{
	edge e = single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(cfun));
	basic_block join = e->dest;
	basic_block test_bb = split_edge(e);
	gimple_seq seq = NULL;
	tree flag = selinst_throttle_flag(descriptor, &seq);
	gimple_stmt_iterator gsi = gsi_start_bb(test_bb);
	gsi_insert_seq_after(&gsi, seq, GSI_NEW_STMT);
	basic_block call_bb = split_edge(single_succ_edge(test_bb));
	gsi = gsi_start_bb(call_bb);
	gsi_insert_after(&gsi, enter, GSI_NEW_STMT);
	branch_around(test_bb, flag, call_bb, join);
	return flag;
}

/* Whether the hooks of F may sit behind the throttle test: not where
 * control can come back abnormally (setjmp, non-local labels), whose
 * edges new blocks must not split; there the hooks test it themselves. */
static bool throttle_test_inline(void)
{
	return !cfun->calls_setjmp && !cfun->has_nonlocal_label;
}

/* ---- the instrumented copy ------------------------------------------- */

/* Where the function's hooks can sit behind the throttle test, they go
 * into a copy of its body (its loop regions' hooks already in), and the
 * function starts with the test: while the region is on it calls the
 * copy (a tail call); switched off it runs its own body, the plain
 * build's code after a load, a test and a branch.  With the hooks in the
 * body behind tests instead, the flag read at entry stays live to every
 * exit and the hook calls' saved registers are paid on every call,
 * switched off too: libxml2's xmlStrEqual, 19 instructions a call plain,
 * took 37 switched off (four registers pushed and popped, the flag kept
 * in one of them; bench/README.md, "Switched-off copies").  A function
 * with loop regions becomes a dispatcher over three copies (insert_
 * dispatch).  Only where the call is plain: parameters and result of
 * register types (no aggregate or invisible reference to pass on), not
 * variadic, no static chain, not noreturn, not main, no K&R parameter
 * that arrives promoted, not a target_clones function (versioned by GCC
 * itself; copying one crashed cc1), not recursive, not heavier than
 * OFF_COPY_MAX_WEIGHT, a body GCC can copy (not_copyable); off-copy=off:
 * never.  The decision file says which, or why not (off_copy). */

/* The heaviest body that is copied: above it the few instructions a
 * switched-off call saves are lost in the body's own work, while its two
 * or three copies still cost their code (libxml2's gains came from
 * functions of weight 73 to 476; the chosen functions of 1 KiB of code
 * or more held 95 of the 182 KB the copies added there). */
#define OFF_COPY_MAX_WEIGHT 512

/* Why DECL's body may not run behind a dispatcher (NULL: it may): where
 * the dispatcher's frame would show.  A body that calls itself (its
 * switched-off recursion becomes a loop around the call of the copy, so every level
 * keeps the dispatcher's frame: half the depth fit the stack), that
 * reads its return or frame address, or that holds inline asm text (a
 * label it defines would be assembled once per copy; an empty asm, a
 * compiler barrier, is fine). */
static const char *body_not_copyable(tree decl)
{
	basic_block bb;
	FOR_EACH_BB_FN(bb, DECL_STRUCT_FUNCTION(decl))
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);
			if (gasm *as = dyn_cast<gasm *>(stmt)) {
				const char *text = gimple_asm_string(as);
				if (text[strspn(text, " \t\n")])
					return "inline asm text";
				continue;
			}
			tree callee = is_gimple_call(stmt) ? gimple_call_fndecl(stmt) : NULL_TREE;
			if (callee == decl)
				return "calls itself";
			if (callee && (fndecl_built_in_p(callee, BUILT_IN_RETURN_ADDRESS)
				       || fndecl_built_in_p(callee, BUILT_IN_FRAME_ADDRESS)
				       || fndecl_built_in_p(callee, BUILT_IN_EXTRACT_RETURN_ADDR)))
				return "reads its return or frame address";
		}
	return NULL;
}

/* Why FN's own hooks stay in its body (see above), or NULL: they go into
 * a copy.  Without sibling calls (-O0, -O1, -Og) or under
 * AddressSanitizer the call of the copy keeps the dispatcher's frame:
 * deep recursion overflows sooner and __builtin_return_address sees the
 * wrong caller.  The error and warning attributes would fire on the
 * dispatcher's calls of the copies. */
static const char *not_copyable(const struct selinst_function *fn)
{
	tree decl = fn->decl;
	cgraph_node *node = cgraph_node::get(decl);
	if (!selinst_opts.off_copy)
		return "off-copy=off";
	if (!throttle_test_inline())
		return "setjmp or a non-local label: the hooks test the flag";
	if (!flag_optimize_sibling_calls)
		return "no sibling calls (-O0, -O1, -Og, -fno-optimize-sibling-calls)";
	if (flag_sanitize & SANITIZE_ADDRESS)
		return "AddressSanitizer";
	/* Each copy would call mcount or __cyg_profile_func_enter too: one
	 * call counted two or three times by gprof or the user's hooks. */
	if (profile_flag || flag_instrument_function_entry_exit)
		return "-pg or -finstrument-functions";
	if (MAIN_NAME_P(DECL_NAME(decl)))
		return "main";
	if (fn->cm.recursive)
		return "recursive";
	if (mpz_cmp_ui(fn->cm.weight, OFF_COPY_MAX_WEIGHT) > 0)
		return "weight over 512";
	if (stdarg_p(TREE_TYPE(decl)) || DECL_STATIC_CHAIN(decl) || TREE_THIS_VOLATILE(decl))
		return "variadic, nested or noreturn";
	if (!tree_versionable_function_p(decl) || !node)
		return "GCC cannot copy the body";
	if (node->ifunc_resolver || DECL_FUNCTION_VERSIONED(decl)
	    || lookup_attribute("target_clones", DECL_ATTRIBUTES(decl)))
		return "versioned by GCC (target_clones, ifunc)";
	if (lookup_attribute("error", DECL_ATTRIBUTES(decl))
	    || lookup_attribute("warning", DECL_ATTRIBUTES(decl)))
		return "error or warning attribute";
	/* Its calls keep the frame (every register is restored after
	 * them): the dispatcher would show. */
	if (lookup_attribute("no_caller_saved_registers", TYPE_ATTRIBUTES(TREE_TYPE(decl))))
		return "no_caller_saved_registers: the call of a copy is no tail call";
	tree res = DECL_RESULT(decl);
	if (res && !VOID_TYPE_P(TREE_TYPE(res))
	    && (!is_gimple_reg_type(TREE_TYPE(res)) || DECL_BY_REFERENCE(res)))
		return "aggregate result";
	/* A K&R parameter arrives promoted (DECL_ARG_TYPE: float as double,
	 * char as int): the call would pass it unpromoted. */
	bool knr = !prototype_p(TREE_TYPE(decl));
	for (tree p = DECL_ARGUMENTS(decl); p; p = DECL_CHAIN(p)) {
		if (!is_gimple_reg_type(TREE_TYPE(p)) || DECL_BY_REFERENCE(p))
			return "aggregate parameter";
		if (knr && TYPE_MAIN_VARIANT(DECL_ARG_TYPE(p)) != TYPE_MAIN_VARIANT(TREE_TYPE(p)))
			return "K&R parameter that arrives promoted";
	}
	return body_not_copyable(decl);
}

/* Marks a copy whose late warnings would repeat another body's: a name
 * with a space, which no source can spell. */
#define QUIET_COPY_ATTRIBUTE "selinst quiet copy"

/* A copy of the current function's body as it is now, named after it
 * with SUFFIX.  QUIET: the passes after this one warn in another body
 * (the hook-free one), not in this copy. */
static tree copy_body(const char *suffix, bool quiet)
{
	cgraph_node *copy = cgraph_node::get(current_function_decl)
		->create_version_clone_with_body(vNULL, NULL, NULL, NULL, NULL, suffix);
	gcc_assert(copy && cfun == DECL_STRUCT_FUNCTION(current_function_decl));
	if (quiet)
		DECL_ATTRIBUTES(copy->decl) = tree_cons(get_identifier(QUIET_COPY_ATTRIBUTE),
							NULL_TREE,
							DECL_ATTRIBUTES(copy->decl));
	return copy->decl;
}

/* A function with copies is compiled once per body, and a late warning
 * (-Wstringop-overflow, -Warray-bounds, -Wmaybe-uninitialized ...) came
 * once per body: three times for one line.  Exactly one body of each
 * function speaks, the one without hooks (the function itself, or its
 * selinst_off copy behind a dispatcher), so a build warns as the plain
 * build does; -Werror counts the same.  Set before every pass: a quiet
 * copy's passes run with warnings inhibited, every other with the
 * user's own setting (-w). */
void selinst_quiet_copies(void *, void *)
{
	static int user_setting = -1;
	if (user_setting < 0)
		user_setting = SELINST_INHIBIT_WARNINGS(global_dc);
	bool quiet = cfun && cfun->decl
		&& lookup_attribute(QUIET_COPY_ATTRIBUTE, DECL_ATTRIBUTES(cfun->decl));
	SELINST_INHIBIT_WARNINGS(global_dc) = user_setting || quiet;
}

/* FN's body before any hook is in it, for the function to run while its
 * region and all its loop regions are switched off (selinst_instrument_
 * function), or NULL_TREE.  Only for a function with chosen loops: a
 * loop's guard keeps its flag and cell live across the loop, and the
 * loop's hook calls' saved registers are paid on every call too
 * (libxml2's xmlOutputBufferWrite, a do-while entered once a call: 51
 * instructions a call plain, 70 with its loop's guard alone). */
tree selinst_hookless_copy(const struct selinst_function *fn)
{
	if (!fn->cm.instrument || !selinst_any_loop_chosen(fn) || not_copyable(fn))
		return NULL_TREE;
	return copy_body("selinst_off", false);
}

/* The copy of the current function (its loop regions' hooks in) that
 * takes its own hooks: see selinst_instrument_function.  It stays out of
 * line: inlined back, the bodies would share one prologue. */
static tree instrumented_copy(void)
{
	/* The copy is taken from the SSA form and call edges as they are. */
	selinst_finish_body();
	tree copy = copy_body("selinst", true);
	DECL_UNINLINABLE(copy) = 1;
	return copy;
}

/* A new block after AFTER that calls COPY with the function's own
 * arguments and returns what it returns. */
static basic_block call_copy_block(tree copy, basic_block after, location_t loc)
{
	basic_block bb = create_empty_bb(after);
	if (current_loops)
		add_bb_to_loop(bb, current_loops->tree_root);
	gimple_stmt_iterator gsi = gsi_start_bb(bb);
	auto_vec<tree> args;
	for (tree p = DECL_ARGUMENTS(current_function_decl); p; p = DECL_CHAIN(p)) {
		tree v = is_gimple_reg(p) ? get_or_create_ssa_default_def(cfun, p) : NULL_TREE;
		if (!v) {	/* kept in memory (its address is taken): load it */
			v = make_ssa_name(TREE_TYPE(p));
			gsi_insert_after(&gsi, gimple_build_assign(v, p), GSI_NEW_STMT);
		}
		args.safe_push(v);
	}
	gcall *call = gimple_build_call_vec(copy, args);
	tree res = DECL_RESULT(current_function_decl);
	tree value = NULL_TREE;
	if (res && !VOID_TYPE_P(TREE_TYPE(res))) {
		value = make_ssa_name(TREE_TYPE(res));
		gimple_call_set_lhs(call, value);
	}
	gimple_set_location(call, loc);
	gsi_insert_after(&gsi, call, GSI_NEW_STMT);
	greturn *ret = gimple_build_return(value);
	gimple_set_location(ret, loc);
	gsi_insert_after(&gsi, ret, GSI_NEW_STMT);
	make_edge(bb, EXIT_BLOCK_PTR_FOR_FN(cfun), 0);
	return bb;
}

/* TEST_BB, with one successor, gets SEQ and "if (VALUE CODE 0)": true, a
 * new block that calls COPY (LIKELY: the common case); false, the
 * successor it had. */
static void branch_to_copy(basic_block test_bb, gimple_seq seq, enum tree_code code,
			   tree value, tree copy, bool likely, location_t loc)
{
	gimple_stmt_iterator gsi = gsi_last_bb(test_bb);
	gsi_insert_seq_after(&gsi, seq, GSI_NEW_STMT);
	gsi = gsi_last_bb(test_bb);
	gsi_insert_after(&gsi, gimple_build_cond(code, value, build_zero_cst(TREE_TYPE(value)),
						 NULL_TREE, NULL_TREE), GSI_NEW_STMT);
	basic_block call_bb = call_copy_block(copy, test_bb, loc);
	edge other = single_succ_edge(test_bb);
	other->flags = (other->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
	edge to_copy = make_edge(test_bb, call_bb, EDGE_TRUE_VALUE);
	/* Switched off is the likely case for the calls that matter (as
	 * branch_around). */
	to_copy->probability = likely ? profile_probability::likely()
				      : profile_probability::unlikely();
	other->probability = to_copy->probability.invert();
	call_bb->count = test_bb->count.apply_probability(to_copy->probability);
	other->dest->count = test_bb->count.apply_probability(other->probability);
}

/* The current function's new entry: the throttle flag tested on the
 * edge out of the entry block; clear (the region on), a call of COPY;
 * set, the function's own body. */
static void insert_call_of_copy(tree descriptor, tree copy, location_t loc)
{
	basic_block test_bb = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(cfun)));
	gimple_seq seq = NULL;
	tree flag = selinst_throttle_flag(descriptor, &seq);
	branch_to_copy(test_bb, seq, EQ_EXPR, flag, copy, false, loc);
}

/* FN's body (its loop regions' hooks in) replaced by a dispatch: region
 * on, FULL (every hook); region and all its loop regions switched off,
 * PLAIN (no hook: selinst_hookless_copy); else LOOPS (a copy of the body
 * as it is, loop hooks only).  The function itself then holds no hook
 * and no body: no prologue before the tests, a tail call after them. */
static void insert_dispatch(const struct selinst_function *fn, tree descriptor, tree full,
			    tree plain, location_t loc)
{
	tree loops = copy_body("selinst_loops", true);
	basic_block test_bb = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(cfun)));
	basic_block test2_bb = split_edge(single_succ_edge(test_bb));
	basic_block body = single_succ(test2_bb);
	gimple_seq seq = NULL;
	tree flag = selinst_throttle_flag(descriptor, &seq);
	branch_to_copy(test_bb, seq, EQ_EXPR, flag, full, false, loc);
	/* All loop regions off: the AND of their flags (the same bit). */
	seq = NULL;
	tree all = NULL_TREE;
	for (unsigned i = 0; i < fn->nloops; i++) {
		if (!fn->loops[i].inserted)
			continue;
		tree bit = selinst_throttle_flag(fn->loops[i].descriptor, &seq);
		if (all) {
			tree both = make_ssa_name(TREE_TYPE(bit));
			gimple_seq_add_stmt(&seq, gimple_build_assign(both, BIT_AND_EXPR, all, bit));
			bit = both;
		}
		all = bit;
	}
	gcc_assert(all);	/* selinst_hookless_copy: a function with chosen loops */
	branch_to_copy(test2_bb, seq, NE_EXPR, all, plain, true, loc);
	edge old = find_edge(test2_bb, body);
	basic_block loops_bb = call_copy_block(loops, test2_bb, loc);
	edge to_loops = make_edge(test2_bb, loops_bb, EDGE_FALSE_VALUE);
	to_loops->probability = old->probability;
	loops_bb->count = body->count;
	remove_edge(old);
	delete_unreachable_blocks();
}

/* The exit hook before each of STMTS, behind FLAG unless NULL_TREE. */
static void insert_exits(tree descriptor, const vec<gimple *> &stmts, tree flag)
{
	unsigned i;
	gimple *stmt;
	FOR_EACH_VEC_ELT(stmts, i, stmt) {
		gcall *exit = hook_call(HOOK_EXIT, descriptor, gimple_location(stmt));
		if (flag)
			insert_guarded_before(stmt, exit, flag);
		else {
			gimple_stmt_iterator gsi = gsi_for_stmt(stmt);
			gsi_insert_before(&gsi, exit, GSI_SAME_STMT);
		}
	}
}

/* The function's own hooks into the current body: enter, exits, exception
 * exits; behind the throttle test when GUARD. */
static void hook_body(tree descriptor, location_t loc, bool guard,
		      const struct selinst_function *all, size_t nall)
{
	/* Collect first, insert after: insertion splits blocks. */
	auto_vec<gimple *> returns, noreturns;
	basic_block bb;
	FOR_EACH_BB_FN(bb, cfun)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
		     gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);
			if (gimple_code(stmt) == GIMPLE_RETURN) {
				returns.safe_push(stmt);
				continue;
			}
			if (!is_gimple_call(stmt) || gimple_call_internal_p(stmt))
				continue;
			int flags = gimple_call_flags(stmt);
			tree callee = gimple_call_fndecl(stmt);
			if ((flags & ECF_NORETURN)
			    && !cfun->calls_setjmp
			    && !stmt_could_throw_p(cfun, stmt)
			    && !gimple_call_builtin_p(stmt, BUILT_IN_UNREACHABLE)
			    && !(callee && selinst_is_instrumented_here(callee, all, nall)))
				noreturns.safe_push(stmt);
		}

	gimple *resx = instrument_eh_exits(descriptor, loc);
	if (resx) {	/* the pad's exit hook, right before its resx */
		gimple_stmt_iterator gsi = gsi_for_stmt(resx);
		gsi_prev(&gsi);
		noreturns.safe_push(resx);
		gsi_remove(&gsi, true);	/* made again below, like the others */
	}
	gcall *enter = hook_call(HOOK_ENTER, descriptor, loc);
	if (!guard) {
		insert_exits(descriptor, returns, NULL_TREE);
		insert_exits(descriptor, noreturns, NULL_TREE);
		gsi_insert_on_edge_immediate(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(cfun)),
					     enter);
		return;
	}
	/* Entry first: the flag it computes dominates every exit. */
	tree flag = insert_guarded_entry(descriptor, enter);
	insert_exits(descriptor, returns, flag);
	insert_exits(descriptor, noreturns, flag);
}

/* Compiling with -flto: FN, chosen by its score with hooks behind the
 * flag test, may be dropped at the link if other units call it deeper
 * than it qualifies at (lto.cc folds the test there; an atomic load under
 * ThreadSanitizer is not folded). */
static void note_for_lto(const struct selinst_function *fn, tree descriptor)
{
	if (!flag_generate_lto || in_lto_p || !selinst_opts.model.refined
	    || !TREE_PUBLIC(fn->decl) || fn->cm.force != CM_FORCE_NONE || fn->cm.recursive
	    || MAIN_NAME_P(DECL_NAME(fn->decl)) || (flag_sanitize & SANITIZE_THREAD))
		return;
	int deepest = cm_deepest_qualifying_depth(&selinst_opts.model, &fn->cm);
	if (deepest >= 0)
		selinst_lto_note_region(fn->decl, fn->name, deepest, descriptor);
}

void selinst_instrument_function(struct selinst_function *fn,
				 const struct selinst_function *all, size_t nall,
				 tree plain)
{
	location_t loc = DECL_SOURCE_LOCATION(fn->decl);
	char *loops = uninstrumented_loop_table(fn);
	tree descriptor = selinst_region_descriptor(SELINST_KIND_FUNCTION, fn->name,
						    fn->file, fn->line, loops,
						    loops ? SELINST_REGION_LOOP_TABLE : 0);
	free(loops);

	/* Where the test cannot be in the body (throttle_test_inline), the
	 * hooks test the flag themselves. */
	if (!throttle_test_inline()) {
		fn->off_copy = "setjmp or a non-local label: the hooks test the flag";
		hook_body(descriptor, loc, false, all, nall);
		return;
	}
	fn->off_copy = not_copyable(fn);
	if (fn->off_copy) {
		hook_body(descriptor, loc, true, all, nall);
		note_for_lto(fn, descriptor);
		return;
	}
	tree full = instrumented_copy();
	bool any_loop = false;
	for (unsigned i = 0; i < fn->nloops; i++)
		any_loop |= fn->loops[i].inserted;
	if (plain && any_loop) {
		insert_dispatch(fn, descriptor, full, plain, loc);
		fn->off_copy = "dispatch over three copies";
	} else {
		insert_call_of_copy(descriptor, full, loc);
		fn->off_copy = "copy";
	}
	/* The copy runs only while the region is on: no tests. */
	push_cfun(DECL_STRUCT_FUNCTION(full));
	hook_body(descriptor, loc, false, all, nall);
	selinst_finish_body();
	pop_cfun();
	note_for_lto(fn, descriptor);	/* after the copy: not on its decl */
}

/* ---- which instrumented bodies GCC may inline ------------------------- */

/* The functions of the unit that control can come back to abnormally
 * (setjmp and the like, non-local labels) and everything they may call:
 * the runtime's resync (__selinst_setjmp_return) drops the frames whose
 * recorded stack pointer lies below the landing frame's, so a region
 * inlined into the landing function itself would share that frame's
 * stack pointer and stay open after the longjmp.  GCC never inlines a
 * landing function elsewhere ("calls setjmp", "receives a non-local
 * goto"), so only inlining INTO one matters: its callees, followed
 * through every call edge (an inlined callee brings its own callees'
 * inlined bodies), and, since an indirect call may become direct and be
 * inlined, every function whose address is taken. */
static hash_set<cgraph_node *> *reach_landing_functions(void)
{
	hash_set<cgraph_node *> *seen = new hash_set<cgraph_node *>;
	auto_vec<cgraph_node *> todo;
	cgraph_node *node;
	bool any = false;
	FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node) {
		function *body = DECL_STRUCT_FUNCTION(node->decl);
		if (body && (body->calls_setjmp || body->has_nonlocal_label)) {
			any = true;
			todo.safe_push(node);
		}
	}
	if (any)
		FOR_EACH_FUNCTION(node)
			if (node->address_taken)
				todo.safe_push(node->ultimate_alias_target());
	while (!todo.is_empty()) {
		node = todo.pop();
		for (cgraph_edge *e = node->callees; e; e = e->next_callee) {
			cgraph_node *callee = e->callee->ultimate_alias_target();
			if (!seen->add(callee))
				todo.safe_push(callee);
		}
	}
	return seen;
}

/* Why FN's hooks must not be inlined into another function, or NULL.
 * REACHED: reach_landing_functions. */
static const char *keep_out_of_line(const struct selinst_function *fn,
				    hash_set<cgraph_node *> *reached)
{
	cgraph_node *node = cgraph_node::get(fn->decl);
	if (node && reached->contains(node->ultimate_alias_target()))
		return "reached from a function that calls setjmp or receives a non-local goto";
	/* A body holding loop regions does enough work per call that the
	 * call costs little, and inlined, its loop hooks (calls) sit in the
	 * host's loop nest, which GCC then optimises worse: mg's rprj3 and
	 * interp inlined into vcycle took 1.27x plain CPU time at threshold
	 * 0, out of line 1.16x (bench/README.md).  Out of line, a body that
	 * its callers' constants would specialise loses that (zstd's
	 * ZSTD_fillDoubleHashTableForCCtx, one call, 1.48 million
	 * instructions more than plain's inlined copy); letting bodies that
	 * a profile measured at 100 calls or fewer inline cost more: mg's
	 * rprj3 and interp (40 calls) and interp's run (1) inlined with
	 * their loop hooks, +1.86% and +1.25% instructions. */
	if (selinst_any_loop_chosen(fn) && selinst_opts.inline_bodies)
		return "holds loop regions: inlined, their hooks slow the host's loops down";
	/* At an -flto link another unit's landing function may inline it:
	 * this unit cannot see those.  Where the hooks are in copies the
	 * function itself could inline safely; measured, it cost more than
	 * it gave: lz4 +0.26% -> +0.88%, Lua +0.52% -> +0.97% instructions
	 * over the plain -flto builds, yaml-cpp no change. */
	if (flag_generate_lto && TREE_PUBLIC(fn->decl))
		return "-flto: another unit's setjmp caller could inline it";
	return NULL;
}

/* After the decisions, before any inlining: which chosen bodies GCC may
 * inline.  With inline=off (selinst_opts.inline_bodies false) every
 * chosen function stays out of line (one call per source call, the
 * region's calls as the source has them).  With inline=on the hooks are
 * already in the body and travel with it, so an inlined copy enters and
 * leaves the same region (one descriptor: one region), except where the
 * runtime's longjmp resync could not tell an inlined region from its
 * host, and bodies holding loop regions (keep_out_of_line).  With
 * inline=off, functions holding chosen loops but no function region stay
 * inlinable, as before inline= existed, except for setjmp callers. */
void selinst_set_inlining(struct selinst_function *fns, size_t n)
{
	hash_set<cgraph_node *> *reached = reach_landing_functions();
	for (size_t i = 0; i < n; i++) {
		struct selinst_function *fn = &fns[i];
		bool loops = selinst_any_loop_chosen(fn);
		if (!fn->cm.instrument && !loops)
			continue;
		const char *why = keep_out_of_line(fn, reached);
		if (fn->cm.instrument && !selinst_opts.inline_bodies)
			DECL_UNINLINABLE(fn->decl) = 1;
		else if (why) {
			DECL_UNINLINABLE(fn->decl) = 1;
			fn->out_of_line_reason = why;
		}
	}
	delete reached;
}

/* __selinst_setjmp_return () where control arrives from a frame below:
 * after returns-twice calls (setjmp, sigsetjmp, vfork ...), after
 * __builtin_setjmp receivers and after non-local goto labels. */
void selinst_insert_resyncs(void)
{
	auto_vec<gimple *> after;
	auto_vec<basic_block> labelled;
	basic_block bb;
	FOR_EACH_BB_FN(bb, cfun)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
		     gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);
			if (glabel *lab = dyn_cast<glabel *>(stmt)) {
				if (DECL_NONLOCAL(gimple_label_label(lab))
				    && (labelled.is_empty() || labelled.last() != bb))
					labelled.safe_push(bb);
				continue;
			}
			if (!is_gimple_call(stmt) || gimple_call_internal_p(stmt))
				continue;
			if ((gimple_call_flags(stmt) & ECF_RETURNS_TWICE)
			    || gimple_call_builtin_p(stmt, BUILT_IN_SETJMP_RECEIVER))
				after.safe_push(stmt);
		}

	unsigned i;
	gimple *stmt;
	FOR_EACH_VEC_ELT(after, i, stmt) {
		basic_block sbb = gimple_bb(stmt);
		gcall *resync = hook_call(HOOK_SETJMP, NULL_TREE, gimple_location(stmt));
		if (stmt == SELINST_LAST_STMT(sbb)) {
			edge e, fallthru = NULL;
			edge_iterator ei;
			FOR_EACH_EDGE(e, ei, sbb->succs)
				if (!(e->flags & (EDGE_EH | EDGE_ABNORMAL)))
					fallthru = e;
			if (fallthru)
				gsi_insert_on_edge_immediate(fallthru, resync);
		} else {
			edge e = split_block(sbb, stmt);
			gimple_stmt_iterator gsi = gsi_after_labels(e->dest);
			gsi_insert_before(&gsi, resync, GSI_SAME_STMT);
		}
	}
	/* A receiver label's block: the receiver call (if any) was handled
	 * above; a plain non-local label gets the hook after its labels. */
	FOR_EACH_VEC_ELT(labelled, i, bb) {
		gimple_stmt_iterator gsi = gsi_after_labels(bb);
		if (!gsi_end_p(gsi)
		    && gimple_call_builtin_p(gsi_stmt(gsi), BUILT_IN_SETJMP_RECEIVER))
			continue;
		location_t loc = gsi_end_p(gsi) ? UNKNOWN_LOCATION
						: gimple_location(gsi_stmt(gsi));
		gsi_insert_before(&gsi, hook_call(HOOK_SETJMP, NULL_TREE, loc),
				  GSI_SAME_STMT);
	}
}

void selinst_finish_body(void)
{
	free_dominance_info(CDI_DOMINATORS);
	free_dominance_info(CDI_POST_DOMINATORS);
	if (current_loops)
		loops_state_set(LOOPS_NEED_FIXUP);
	mark_virtual_operands_for_renaming(cfun);
	update_ssa(TODO_update_ssa_only_virtuals);
	cgraph_edge::rebuild_edges();
	cgraph_edge::rebuild_references();
}
