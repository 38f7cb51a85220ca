/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pragmas.cc - #pragma selinst phase start NAME / end NAME (C and C++).
 *
 * Usage, inside a function body, as a statement of a block:
 *
 *     for (step = 0; step < n; step++) {
 *     #pragma selinst phase start timestep
 *         solve();
 *     #pragma selinst phase end timestep
 *     }
 *
 * Each pragma becomes, where it stands, a call of the runtime's
 * selinst_phase_begin("timestep") or selinst_phase_end("timestep")
 * (include/selinst.h): the front end hands us the pragma while it parses
 * the block, and we add the call to the block's statements.  Without the
 * plugin GCC ignores an unknown pragma (-Wunknown-pragmas warns).  NAME is
 * an identifier or a string literal.
 *
 * The C family's pragma functions exist only in cc1 and cc1plus: the
 * plugin refers to them weakly, so that it still loads into f951 (the
 * Fortran compiler never registers pragmas).  Fortran marks phases with
 * the API (include/selinst.fi).
 */
#define SELINST_C_FAMILY
#include "gcc-compat.h"
#include "selinst-plugin.h"

extern void c_register_pragma(const char *, const char *, pragma_handler_1arg)
	__attribute__((weak));
extern enum cpp_ttype pragma_lex(tree *, location_t *) __attribute__((weak));
extern tree add_stmt(tree) __attribute__((weak));

/* The runtime's void F(const char *), declared once per unit. */
static tree phase_function(const char *name)
{
	tree cstr = build_pointer_type(build_qualified_type(char_type_node, TYPE_QUAL_CONST));
	tree type = build_function_type_list(void_type_node, cstr, NULL_TREE);
	tree decl = build_fn_decl(name, type);
	TREE_PUBLIC(decl) = 1;
	DECL_EXTERNAL(decl) = 1;
	DECL_ARTIFICIAL(decl) = 1;
	TREE_NOTHROW(decl) = 1;
	return decl;
}

/* NAME of "phase start NAME" or "phase end NAME"; NULL after an error. */
static const char *phase_name(location_t *loc)
{
	tree t;
	enum cpp_ttype tok = pragma_lex(&t, loc);
	if (tok == CPP_NAME)
		return IDENTIFIER_POINTER(t);
	if (tok == CPP_STRING)
		return TREE_STRING_POINTER(t);
	error_at(*loc, "%<#pragma selinst phase%>: expected a phase name (an identifier "
		 "or a string) after %<start%> or %<end%>");
	return NULL;
}

static void handle_phase_pragma(cpp_reader *)
{
	static tree begin_fn, end_fn;
	location_t loc = UNKNOWN_LOCATION;
	tree t;
	enum cpp_ttype tok = pragma_lex(&t, &loc);
	bool start = tok == CPP_NAME && !strcmp(IDENTIFIER_POINTER(t), "start");
	if (!start && !(tok == CPP_NAME && !strcmp(IDENTIFIER_POINTER(t), "end"))) {
		error_at(loc, "%<#pragma selinst phase%>: expected %<start%> or %<end%>");
		return;
	}
	const char *name = phase_name(&loc);
	if (!name)
		return;
	if (pragma_lex(&t, &loc) != CPP_EOF)
		warning_at(loc, 0, "%<#pragma selinst phase%>: junk after the phase name ignored");
	if (!current_function_decl) {
		warning_at(loc, 0, "%<#pragma selinst phase%> outside a function body: ignored");
		return;
	}
	if (!begin_fn) {
		begin_fn = phase_function("selinst_phase_begin");
		end_fn = phase_function("selinst_phase_end");
	}
	tree arg = build_string_literal(strlen(name) + 1, name);
	tree call = build_call_expr_loc(loc, start ? begin_fn : end_fn, 1, arg);
	add_stmt(call);
}

void selinst_register_pragmas(void *, void *)
{
	if (c_register_pragma && pragma_lex && add_stmt)
		c_register_pragma("selinst", "phase", handle_phase_pragma);
}
