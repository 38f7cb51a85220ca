/* SPDX-License-Identifier: MIT */
/* output_iterations.h - the writer's part for per-iteration records. */
#ifndef SELINST_OUTPUT_ITERATIONS_H
#define SELINST_OUTPUT_ITERATIONS_H

#include "internal.h"
#include "emit.h"

/* The thread's `iterations` list (nothing when it has none); OMAP: source
 * node id -> output node id, NOUT output nodes; NPT: ns per tick. */
SI_HIDDEN void si_emit_iterations(struct em *m, const struct si_snap *s, const uint64_t *omap,
			uint64_t nout, double npt);
/* The thread's predecessor graph, `flow` (nothing when not recorded). */
SI_HIDDEN void si_emit_flow(struct em *m, const struct si_snap *s, const uint64_t *omap);
/* SELINST_ITERATE=auto: choose the loop the profile keeps, from the
 * records of the N threads' copies SNAPS (before the header is written). */
SI_HIDDEN void si_iterate_choose(const struct si_snap *const *snaps, size_t n);
/* Packs NROWS rows of WIDTH values (selinst-profile.h, `rows_packed`):
 * SCALE[WIDTH] and the varints' length RAW_BYTES out, and the base64 text
 * (si_walloc'd); -1 when zlib cannot be loaded or memory runs out. */
/* Loads zlib for si_pack_rows, once: at start-up where SELINST_ITERATE
 * is set, at the first phase otherwise. */
SI_HIDDEN void si_pack_init(void);
SI_HIDDEN int si_pack_rows(const uint64_t *vals, size_t nrows, size_t width, uint64_t *scale,
			   size_t *raw_bytes, char **text);
/* SELINST_ITERATE_EXACT=1: every series' rows stay exact text. */
SI_HIDDEN int si_iterate_exact(void);
/* The header's `iterate` entry, when SELINST_ITERATE is set. */
SI_HIDDEN void si_emit_iterate_setting(struct em *m, int final);

#endif
