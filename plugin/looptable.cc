/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * looptable.cc - the unit's loop table for SELINST_SAMPLE: every loop
 * without hooks of every function compiled here, instrumented or not, as
 * lines "LINE LAST FILE\n" (the loop keyword's line, the body's last line,
 * the file as given to the compiler) in a section SELINST_LOOP_SECTION
 * that is not loaded at run time (no flags: like debug information).  The
 * linker concatenates the units' tables; when the runtime writes a
 * profile with samples it reads the table from each module's file (libelf,
 * through libdw) and names a sample whose source line lies in such a loop
 * "~loop FILE:LINE" under its function.  No code, no data in memory, no
 * registration at start-up: the cost is the bytes in the file.
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"
#include "../include/selinst.h"
#include "output.h"	/* asm_out_file */

/* S as the body of an assembler string: quotes, backslashes and bytes
 * outside printable ASCII as octal escapes. */
static void put_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\' || c < 32 || c > 126)
			fprintf(out, "\\%03o", c);
		else
			fputc(c, out);
	}
}

void selinst_emit_loop_table(const struct selinst_function *fns, size_t n)
{
	bool open = false;
	if (!asm_out_file)
		return;
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k < fns[i].nloops; k++) {
			const struct selinst_loop *l = &fns[i].loops[k];
			if (l->instrument || l->made_by_openmp || !l->file || l->line <= 0)
				continue;
			if (!open)
				fprintf(asm_out_file, "\t.pushsection %s,\"\",@progbits\n",
					SELINST_LOOP_SECTION);
			open = true;
			fprintf(asm_out_file, "\t.ascii \"%d %d ", l->line,
				l->last_line >= l->line ? l->last_line : l->line);
			put_escaped(asm_out_file, l->file);
			fputs("\\n\"\n", asm_out_file);
		}
	if (open)
		fputs("\t.popsection\n", asm_out_file);
}
