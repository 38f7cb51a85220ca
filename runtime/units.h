/* SPDX-License-Identifier: MIT */
/* units.h - the plugin settings of the loaded units (units.c). */
#ifndef SELINST_UNITS_H
#define SELINST_UNITS_H

#include "internal.h"
#include "emit.h"

/* The header's `plugin_settings`: each distinct settings text of the
 * loaded units' notes with its unit count (nothing when no unit has a
 * note); at the FINAL write, more than one is said once on stderr, and so
 * is a program without notes in which none of the REGIONS ran (and
 * nothing was sampled). */
SI_HIDDEN void si_emit_unit_settings(struct em *m, int final, size_t regions);

#endif
