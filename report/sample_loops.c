/* SPDX-License-Identifier: MIT */
/*
 * sample_loops.c - the function (sample_names.c) and the uninstrumented
 * loop a sample's address lies in, named here rather than in the sampled
 * process (profile versions 2 and 3): finding an address's source line
 * means reading the line table of its whole unit, which cost a short
 * process most of its profile write (lz4's lz4.c: 17 million
 * instructions, +16% of a 25 ms run), and naming its function loaded
 * libdw and read the module's DWARF (+2.7%).  The profile says which
 * module file (path and GNU build-id) and which file address; the file is
 * opened with libdw (elfutils), its build-id checked, the address's line
 * looked up (the innermost inlined code's) and matched against the node's
 * function's loop lines or the module's loop table (SELINST_LOOP_SECTION),
 * as doc/runtime.md "Sampling" says.  Each module file is opened once per
 * run of the report, each address named once; reads of several profiles
 * at once (merge.c's workers) take turns.
 */
#include "report.h"
#include <elfutils/libdwfl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <link.h>

/* One module file's loop table: ranges of lines, each with its file's
 * base name (pointing into the text that follows the ranges in the same
 * block). */
struct loop_range { const char *base; int line, last; };
struct loop_table { size_t n; struct loop_range r[]; };

struct lmodule {
	struct lmodule *next;
	char *path, *build_id;	/* as the profile names it; build_id NULL: none */
	Dwfl *dwfl;		/* NULL: not usable (said once on stderr) */
	Dwfl_Module *mod;
	GElf_Addr bias;
	struct loop_table *table;	/* NULL: none */
	struct sample_names *names;	/* sample_names.c's state; NULL: none yet */
	u64map named;			/* address -> index in name + 1 */
	char **name;
	size_t nname;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct lmodule *modules;

/* Only the module file's own DWARF: never separate debug files (the
 * runtime named functions the same way). */
static int no_debuginfo(Dwfl_Module *mod, void **user, const char *modname, Dwarf_Addr base,
			const char *file, const char *debuglink, GElf_Word crc, char **path)
{
	(void)mod, (void)user, (void)modname, (void)base, (void)file, (void)debuglink;
	(void)crc, (void)path;
	return -1;
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* The lines "LINE LAST FILE\n" of TEXT (LEN bytes) as a table; lines it
 * cannot read are left out. */
static struct loop_table *parse_table(const char *text, size_t len)
{
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	struct loop_table *t = xmalloc(sizeof *t + lines * sizeof t->r[0] + len + 1);
	char *copy = (char *)&t->r[lines];
	memcpy(copy, text, len);
	copy[len] = 0;
	t->n = 0;
	for (char *p = copy, *nl; t->n < lines && (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = 0;
		char *e1, *e2;
		long a = strtol(p, &e1, 10), b = strtol(e1, &e2, 10);
		if (e1 == p || e2 == e1 || *e2 != ' ' || a <= 0 || b < a || b > 0x7fffffff)
			continue;
		const char *file = e2 + 1, *slash = strrchr(file, '/');
		t->r[t->n++] = (struct loop_range){ slash ? slash + 1 : file, (int)a, (int)b };
	}
	return t;
}

/* The module's loop table from its file's sections; NULL when none. */
static struct loop_table *read_table(Elf *elf)
{
	size_t shstr;
	if (!elf || elf_getshdrstrndx(elf, &shstr) != 0)
		return NULL;
	char *text = NULL;
	size_t len = 0;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstr, sh.sh_name) : NULL;
		if (!name || strcmp(name, SELINST_LOOP_SECTION))
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || !d->d_size)
			continue;
		text = xrealloc(text, len + d->d_size);
		memcpy(text + len, d->d_buf, d->d_size);
		len += d->d_size;
	}
	struct loop_table *t = text ? parse_table(text, len) : NULL;
	free(text);
	return t;
}

static void hex(const unsigned char *bits, int n, char *out)
{
	for (int k = 0; k < n; k++)
		snprintf(out + 2 * k, 3, "%02x", bits[k]);
	out[2 * (n > 0 ? n : 0)] = 0;
}

/* A file holding this process's vDSO image (SELINST_PROFILE_VDSO: the
 * sampled process's had no file; on the same kernel it is the same, which
 * the build-id check tells); -1 when none.  The image is the ELF up to
 * its section headers. */
static int vdso_fd(void)
{
	const ElfW(Ehdr) *e = (const ElfW(Ehdr) *)getauxval(AT_SYSINFO_EHDR);
	if (!e || memcmp(e->e_ident, ELFMAG, SELFMAG))
		return -1;
	size_t len = e->e_shoff + (size_t)e->e_shnum * e->e_shentsize;
	int fd = len <= (1u << 20) ? memfd_create("vdso", MFD_CLOEXEC) : -1;
	if (fd >= 0 && write(fd, e, len) != (ssize_t)len) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* FILE (FD: the vDSO's image, else -1 to open FILE) into M's Dwfl, its
 * build-id in hex into FOUND, checked against the profile's; NULL when
 * usable (M's dwfl, mod and bias set, *ELF its ELF), else why not (M's
 * dwfl NULL). */
static const char *try_file(struct lmodule *m, const char *file, int fd, char *found,
			    Elf **elf)
{
	/* Only a regular file (a profile could name /dev/stdin). */
	struct stat st;
	found[0] = 0;
	*elf = NULL;
	m->mod = NULL;
	m->dwfl = fd >= 0 || (stat(file, &st) == 0 && S_ISREG(st.st_mode)) ?
		dwfl_begin(&callbacks) : NULL;
	if (m->dwfl) {
		dwfl_report_begin(m->dwfl);
		m->mod = dwfl_report_elf(m->dwfl, file, file, fd, 0, false);
		dwfl_report_end(m->dwfl, NULL, NULL);
	}
	if (fd >= 0 && !m->mod)
		close(fd);	/* consumed only on success */
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = m->mod ? dwfl_module_build_id(m->mod, &bits, &vaddr) : 0;
	if (n > 0 && n <= 64)
		hex(bits, n, found);
	const char *why = NULL;
	if (!m->mod)
		why = "cannot be read";
	else if (m->build_id && strcmp(found, m->build_id))
		why = "is not the file the samples were taken in";
	else if (!(*elf = dwfl_module_getelf(m->mod, &m->bias)))
		why = "cannot be read";
	if (why && m->dwfl) {
		dwfl_end(m->dwfl);
		m->dwfl = NULL;
	}
	return why;
}

/* M's file opened, its build-id checked against the profile's.  A file
 * not there or another one (the profile and its programs copied from
 * another machine) is looked for beside the profile PROF too, by its base
 * name, and taken when its build-id is the profile's.  On a failure one
 * line on stderr and M stays unusable (its samples are named by address,
 * without loops). */
static void open_module(struct lmodule *m, const char *prof)
{
	char found[2 * 64 + 1], other[2 * 64 + 1];
	Elf *elf;
	int fd = strcmp(m->path, SELINST_PROFILE_VDSO) ? -1 : vdso_fd();
	const char *why = try_file(m, m->path, fd, found, &elf);
	const char *slash = strrchr(m->path, '/'), *pslash = prof ? strrchr(prof, '/') : NULL;
	if (why && m->build_id && slash && prof) {
		int dir = pslash ? (int)(pslash - prof + 1) : 0;
		char *beside = xmalloc((size_t)dir + strlen(slash) + 1);
		sprintf(beside, "%.*s%s", dir, prof, slash + 1);
		if (strcmp(beside, m->path) && !try_file(m, beside, -1, other, &elf))
			why = NULL;
		free(beside);
	}
	if (why) {
		fprintf(stderr, "selinst-report: %s %s (build-id %s in the profile, %s in the file): "
			"the functions and loops of its samples are not named from it\n", m->path, why,
			m->build_id ? m->build_id : "none", found[0] ? found : "none");
		return;
	}
	if (!m->build_id)	/* nothing to check the file against: say so */
		fprintf(stderr, "selinst-report: %s has no build-id in the profile: its samples "
			"are named from the file as it is now (a rebuilt file would name them "
			"wrongly; link with --build-id)\n", m->path);
	m->table = read_table(elf);
}

/* The module PATH with BUILD_ID, opened on first use (for profile PROF). */
static struct lmodule *module(const char *path, const char *build_id, const char *prof)
{
	for (struct lmodule *m = modules; m; m = m->next)
		if (!strcmp(m->path, path) && !strcmp(m->build_id ? m->build_id : "",
						      build_id ? build_id : ""))
			return m;
	struct lmodule *m = xcalloc(1, sizeof *m);
	m->path = xstrdup(path);
	m->build_id = build_id ? xstrdup(build_id) : NULL;
	m->next = modules;
	modules = m;
	open_module(m, prof);
	return m;
}

/* The narrowest of RANGES ("LINE-LAST ...", in file FBASE) that holds
 * LINE of file BASE, as "file:LINE" into OUT; false when none. */
static bool function_loop(const char *franges, const char *ffile, const char *base, int line,
			  char *out, size_t len)
{
	const char *fbase = strrchr(ffile, '/');
	fbase = fbase ? fbase + 1 : ffile;
	if (strcmp(base, fbase))
		return false;
	long best = 0, best_len = -1;
	for (const char *p = franges; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (end == p)
			break;	/* not a table this report reads */
		if (a <= line && line <= b && (best_len < 0 || b - a < best_len)) {
			best = a;
			best_len = b - a;
		}
		p = end + strspn(end, " ");
	}
	if (best_len < 0)
		return false;
	snprintf(out, len, "%s:%ld", fbase, best);
	return true;
}

/* The narrowest loop of table T that holds LINE of file BASE. */
static bool module_loop(const struct loop_table *t, const char *base, int line, char *out,
			size_t len)
{
	const struct loop_range *best = NULL;
	for (size_t i = 0; t && i < t->n; i++) {
		const struct loop_range *r = &t->r[i];
		if (r->line <= line && line <= r->last && !strcmp(r->base, base) &&
		    (!best || r->last - r->line < best->last - best->line))
			best = r;
	}
	if (!best)
		return false;
	snprintf(out, len, "%s:%d", best->base, best->line);
	return true;
}

bool sample_loop_name(const char *path, const char *build_id, const char *prof, uint64_t at,
		      const char *ffile, const char *franges, char *out, size_t len)
{
	pthread_mutex_lock(&lock);
	struct lmodule *m = module(path, build_id, prof);
	Dwfl_Line *l = m->dwfl && m->table ?
		dwfl_module_getsrc(m->mod, (Dwarf_Addr)(at + m->bias)) : NULL;
	int line = 0;
	const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
	bool named = false;
	if (file && line > 0) {
		const char *slash = strrchr(file, '/');
		const char *base = slash ? slash + 1 : file;
		named = (franges && function_loop(franges, ffile, base, line, out, len)) ||
			module_loop(m->table, base, line, out, len);
	}
	pthread_mutex_unlock(&lock);
	return named;
}

/* The name of address AT of module M (see sample_function_name). */
static char *name_address(struct lmodule *m, uint64_t at)
{
	const char *slash = strrchr(m->path, '/'), *base = slash ? slash + 1 : m->path;
	const char *fn = m->dwfl ? sample_function_at(&m->names, m->mod, (Dwarf_Addr)(at + m->bias))
				 : NULL;
	if (fn)
		return xstrdup(fn);
	size_t len = strlen(base) + 32;
	char *n = xmalloc(len);
	if (m->dwfl)
		snprintf(n, len, "[%s]", base);
	else
		snprintf(n, len, SELINST_PROFILE_UNNAMED, base, (unsigned long long)at);
	return n;
}

const char *sample_function_name(const char *path, const char *build_id, const char *prof,
				 uint64_t at)
{
	pthread_mutex_lock(&lock);
	struct lmodule *m = module(path, build_id, prof);
	if (!m->named.cap)
		u64map_init(&m->named, 64);
	bool fresh;
	uint32_t *slot = u64map_put(&m->named, at, &fresh);
	if (fresh) {
		m->name = xrealloc(m->name, (m->nname + 1) * sizeof *m->name);
		m->name[m->nname++] = name_address(m, at);
		*slot = (uint32_t)m->nname;
	}
	const char *n = m->name[*slot - 1];
	pthread_mutex_unlock(&lock);
	return n;
}
