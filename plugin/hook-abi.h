/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hook-abi.h - the runtime's hook ABI as the plugin emits it, in one table,
 * checked against include/selinst.h when the plugin is compiled.
 *
 * SELINST_HOOKS lists every hook: its enum name, its symbol, its C return
 * type and parameter list (as selinst.h declares them: a static_assert
 * below compares the two, so a change to one without the other does not
 * build) and the codes the plugin uses to build the matching GCC function
 * type.  SELINST_REGION_FIELDS lists struct selinst_region's fields in
 * order, with the type code of each; the plugin's record type is built
 * from it and its layout compared with the header's offsets when it is
 * first built (instrument.cc).  The Makefile rebuilds the plugin when
 * include/selinst.h changes.
 */
#ifndef SELINST_HOOK_ABI_H
#define SELINST_HOOK_ABI_H

#include <stddef.h>
#include <type_traits>
#include "../include/selinst.h"

/* Type codes: what the plugin builds for a return value or a parameter. */
enum hook_abi_type { HT_VOID, HT_REGION_PTR, HT_U64, HT_U64_PTR, HT_U32, HT_CSTR };

/* X(enum, symbol, C return type, C parameters, return code, parameter
 * codes...: at most two, HT_VOID for none). */
#define SELINST_HOOKS(X)							\
	X(HOOK_ENTER, __selinst_enter, void, (const struct selinst_region *),	\
	  HT_VOID, HT_REGION_PTR, HT_VOID)					\
	X(HOOK_EXIT, __selinst_exit, void, (const struct selinst_region *),	\
	  HT_VOID, HT_REGION_PTR, HT_VOID)					\
	X(HOOK_SETJMP, __selinst_setjmp_return, void, (void),			\
	  HT_VOID, HT_VOID, HT_VOID)						\
	X(HOOK_LOOP_ENTER, __selinst_loop_enter, uint64_t *,			\
	  (const struct selinst_region *), HT_U64_PTR, HT_REGION_PTR, HT_VOID)	\
	X(HOOK_LOOP_EXIT, __selinst_loop_exit, void,				\
	  (const struct selinst_region *, uint64_t), HT_VOID, HT_REGION_PTR, HT_U64) \
	X(HOOK_LOOP_ITERATION, __selinst_loop_iteration, void,			\
	  (const struct selinst_region *, uint64_t), HT_VOID, HT_REGION_PTR, HT_U64)

#define SELINST_HOOK_ENUM(e, sym, ret, params, rc, p1, p2) e,
enum selinst_hook { SELINST_HOOKS(SELINST_HOOK_ENUM) HOOK_COUNT };
#undef SELINST_HOOK_ENUM

struct hook_abi {
	const char *symbol;
	enum hook_abi_type ret, params[2];
};

#define SELINST_HOOK_ROW(e, sym, ret, params, rc, p1, p2) { #sym, rc, { p1, p2 } },
static const struct hook_abi selinst_hook_abi[HOOK_COUNT] = {
	SELINST_HOOKS(SELINST_HOOK_ROW)
};
#undef SELINST_HOOK_ROW

/* Each hook as selinst.h declares it: same name, same signature. */
#define SELINST_HOOK_CHECK(e, sym, ret, params, rc, p1, p2)			\
	static_assert(std::is_same<decltype(&sym), ret (*) params>::value,	\
		      #sym " in include/selinst.h differs from plugin/hook-abi.h");
SELINST_HOOKS(SELINST_HOOK_CHECK)
#undef SELINST_HOOK_CHECK

/* X(field, type code), in declaration order. */
#define SELINST_REGION_FIELDS(X)					\
	X(abi_version, HT_U32) X(kind, HT_U32) X(line, HT_U32)		\
	X(reserved, HT_U32) X(name, HT_CSTR) X(file, HT_CSTR)		\
	X(function, HT_CSTR)

struct region_field_abi {
	const char *name;
	enum hook_abi_type type;
	size_t offset;		/* in the header's struct, on this host */
};

#define SELINST_FIELD_ROW(f, t) { #f, t, offsetof(struct selinst_region, f) },
static const struct region_field_abi selinst_region_abi[] = {
	SELINST_REGION_FIELDS(SELINST_FIELD_ROW)
};
#undef SELINST_FIELD_ROW
#define SELINST_REGION_NFIELDS \
	(sizeof selinst_region_abi / sizeof selinst_region_abi[0])

/* The table's fields cover the header's struct: same size, the types the
 * codes say. */
#define SELINST_FIELD_SIZE(f, t) \
	+ (t == HT_U32 ? sizeof(uint32_t) : sizeof(const char *))
static_assert(sizeof(struct selinst_region) == 0 SELINST_REGION_FIELDS(SELINST_FIELD_SIZE),
	      "struct selinst_region in include/selinst.h has fields "
	      "plugin/hook-abi.h does not list");
#undef SELINST_FIELD_SIZE
#define SELINST_FIELD_TYPE(f, t)						\
	static_assert(t == HT_U32							\
		      ? std::is_same<decltype(selinst_region::f), uint32_t>::value	\
		      : std::is_same<decltype(selinst_region::f), const char *>::value, \
		      "selinst_region." #f ": type differs from plugin/hook-abi.h");
SELINST_REGION_FIELDS(SELINST_FIELD_TYPE)
#undef SELINST_FIELD_TYPE

#endif
