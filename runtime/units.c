/* SPDX-License-Identifier: MIT */
/*
 * units.c - the settings every instrumented unit was compiled under.
 *
 * The plugin leaves in each unit an ELF note (selinst.h, SELINST_NOTE_NAME)
 * that names the settings its decisions were made under.  Units compiled
 * with different settings and linked together (one built at threshold=0,
 * the rest at the default; a different selection file) make a profile
 * whose regions were chosen by different rules; the issue asks for that to
 * be detected and reported, not silently mixed.  At each profile write the
 * runtime reads the notes of every loaded object (dl_iterate_phdr, the
 * PT_NOTE segments: nothing costs anything while the program runs), writes
 * the distinct settings with their unit counts in the profile's header,
 * and says once on stderr when there is more than one.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "emit.h"
#include "units.h"

#define MAX_SETTINGS 16

struct setting { const char *text; uint64_t units; };
struct scan { struct setting s[MAX_SETTINGS]; size_t n; uint64_t other; };

static void add_setting(struct scan *sc, const char *text)
{
	for (size_t i = 0; i < sc->n; i++)
		if (!strcmp(sc->s[i].text, text)) {
			sc->s[i].units++;
			return;
		}
	if (sc->n < MAX_SETTINGS)
		sc->s[sc->n++] = (struct setting){ text, 1 };
	else
		sc->other++;
}

/* The selinst notes of one PT_NOTE segment at P, LEN bytes. */
static void scan_notes(struct scan *sc, const unsigned char *p, size_t len)
{
	const size_t namelen = sizeof SELINST_NOTE_NAME;
	while (len >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *nh = (const void *)p;
		size_t name_room = (nh->n_namesz + 3) & ~(size_t)3;
		size_t desc_room = (nh->n_descsz + 3) & ~(size_t)3;
		size_t size = sizeof *nh + name_room + desc_room;
		if (size > len)
			return;
		const char *name = (const char *)(nh + 1), *desc = name + name_room;
		if (nh->n_type == SELINST_NOTE_SETTINGS && nh->n_namesz == namelen &&
		    !memcmp(name, SELINST_NOTE_NAME, namelen) && nh->n_descsz > 0 &&
		    desc[nh->n_descsz - 1] == 0)
			add_setting(sc, desc);
		p += size;
		len -= size;
	}
}

static int scan_object(struct dl_phdr_info *info, size_t n, void *arg)
{
	(void)n;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_NOTE && ph->p_align >= 4)
			scan_notes(arg, (const unsigned char *)(info->dlpi_addr + ph->p_vaddr),
				   ph->p_memsz);
	}
	return 0;
}

/* A program linked with the runtime in which no region ran and no unit
 * carries a note was most likely compiled without the plugin, or with
 * -flto and the plugin given only at the link (where it does nothing). */
static void say_no_units(void)
{
	fprintf(stderr, "selinst: no region ran, and no unit of this program was compiled with "
		"the plugin (-fplugin=selinst.so); with -flto give the plugin when compiling the "
		"units: at link time it does nothing\n");
}

void si_emit_unit_settings(struct em *m, int final, size_t regions)
{
	static int said;
	struct scan sc = { .n = 0 };
	dl_iterate_phdr(scan_object, &sc);
	if (!sc.n) {
		if (final && !regions && !si_sample_hz() &&
		    !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
			say_no_units();
		return;
	}
	plain(m, "plugin_settings");
	flow_seq_start(m);
	for (size_t i = 0; i < sc.n; i++) {
		map_start(m, 1);
		kint(m, "units", sc.s[i].units);
		kstr(m, "settings", sc.s[i].text);
		map_end(m);
	}
	seq_end(m);
	if (sc.n > 1 && final && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED)) {
		fprintf(stderr, "selinst: units compiled with different plugin settings are linked "
			"together; their regions were chosen by different rules:\n");
		for (size_t i = 0; i < sc.n; i++)
			fprintf(stderr, "selinst:   %llu unit%s: %s\n",
				(unsigned long long)sc.s[i].units, sc.s[i].units == 1 ? "" : "s",
				sc.s[i].text);
		if (sc.other)
			fprintf(stderr, "selinst:   %llu more units under yet other settings\n",
				(unsigned long long)sc.other);
	}
}
