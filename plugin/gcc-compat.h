/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gcc-compat.h - every GCC header selinst needs, in the order GCC needs
 * them, and every difference between the GCC versions it builds against.
 *
 * Tested: GCC 11 and 12 (both in Debian 12; `make PLUGIN_GCC=gcc-11`).
 * GCC 13/14 differences known from their headers are guarded here and
 * nowhere else.
 */
#ifndef SELINST_GCC_COMPAT_H
#define SELINST_GCC_COMPAT_H

#include "gcc-plugin.h"		/* must come first */
#include "plugin-version.h"
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "context.h"
#include "cgraph.h"
#include "ssa.h"
#include "cfgloop.h"
#include "gimple-iterator.h"
#include "gimple-ssa.h"
#include "tree-cfg.h"
#include "tree-eh.h"
#include "except.h"
#include "stringpool.h"
#include "attribs.h"
#include "langhooks.h"
/* The C family's headers must come before diagnostic-core.h; only
 * pragmas.cc, which runs in cc1 and cc1plus alone, asks for them. */
#ifdef SELINST_C_FAMILY
#include "c-family/c-common.h"
#include "c-family/c-pragma.h"
#endif
#include "diagnostic-core.h"
#include "diagnostic.h"	/* global_dc: selinst_quiet_copies */
#include "tree-into-ssa.h"
#include "cfghooks.h"
#include "dominance.h"
#include "varasm.h"
#include "calls.h"
#include "stor-layout.h"
#include "fold-const.h"
#include "toplev.h"
#include "intl.h"
#include "ggc.h"

/* plugin-version.h defines a static gcc_version that only selinst.cc
 * reads; this keeps other files free of an unused-variable warning. */
static inline const void *selinst_gcc_version_ref(void) { return &gcc_version; }

#if GCCPLUGIN_VERSION_MAJOR < 11
#error "selinst needs GCC 11 or later"
#endif

/* Thunks: a bit field of cgraph_node since GCC 11 (GCC 10's
 * node->thunk.thunk_p is below the minimum). */
#define SELINST_NODE_IS_THUNK(node) ((node)->thunk)

/* GCC 12's system.h added startswith; GCC 11 lacks it. */
#if GCCPLUGIN_VERSION_MAJOR < 12
static inline bool startswith (const char *str, const char *prefix)
{
	return strncmp (str, prefix, strlen (prefix)) == 0;
}
#endif

/* Loop iteration: GCC 12 added loops_list; GCC 11 has FOR_EACH_LOOP_FN. */
#if GCCPLUGIN_VERSION_MAJOR >= 12
#define SELINST_FOR_EACH_LOOP(fn, loop, flags) \
	for (class loop *loop : loops_list ((fn), (flags)))
#else
#define SELINST_FOR_EACH_LOOP(fn, loop, flags) \
	class loop *loop; FOR_EACH_LOOP_FN ((fn), loop, (flags))
#endif

/* EH edges for one statement: GCC 14 has make_eh_edge, earlier versions
 * make_eh_edges; both add the edge to the statement's landing pad. */
#if GCCPLUGIN_VERSION_MAJOR >= 14
#define SELINST_MAKE_EH_EDGES(stmt) make_eh_edge (stmt)
#else
#define SELINST_MAKE_EH_EDGES(stmt) make_eh_edges (stmt)
#endif

/* Warnings off for the whole context (-w): GCC 14 renamed the field. */
#if GCCPLUGIN_VERSION_MAJOR >= 14
#define SELINST_INHIBIT_WARNINGS(dc) ((dc)->m_inhibit_warnings)
#else
#define SELINST_INHIBIT_WARNINGS(dc) ((dc)->dc_inhibit_warnings)
#endif

/* GCC 14 dropped last_stmt (). */
#if GCCPLUGIN_VERSION_MAJOR >= 14
#define SELINST_LAST_STMT(bb) (*gsi_last_bb (bb))
#else
#define SELINST_LAST_STMT(bb) last_stmt (bb)
#endif

#endif
