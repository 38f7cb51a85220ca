/* SPDX-License-Identifier: MIT */
/*
 * sample_names.c - the function a sampled address lies in, named here
 * rather than in the sampled process (profile version 3): naming read the
 * modules' symbol tables and DWARF with libdw at the process's exit, which
 * cost a short process most of what sampling added (lz4, 25 ms: +2.7% in
 * instructions, +7% in CPU time).  sample_loops.c opens the module file
 * the profile names; here an address of it is named as the runtime named
 * it before: the innermost inlined function there from the module's own
 * DWARF (a clone such as x_solve.constprop.0 is x_solve, its source name),
 * else the function symbol of its symbol table, else NULL (the caller
 * writes "[module]").  Only the module's own DWARF and symbol tables are
 * read, never separate debug files.
 */
#include "report.h"
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

/* A unit's functions with code, by address range: the top of the scope
 * walk, made once per unit and run of the report.  Each PC walked all the unit's top-level DIEs
 * before (types and declarations too): lz4's lz4.c, about 300,000
 * instructions a PC. */
struct unit_fn { Dwarf_Addr lo, hi; Dwarf_Die die; };
struct unit_index { size_t n, cap; struct unit_fn *f; };
struct unit_entry { void *cu; struct unit_index index; };

/* A module's function symbols: see read_symtab. */
struct sym { GElf_Addr lo, hi; const char *name; int rank; };	/* hi == lo: no size */
struct symtab { size_t n, lookups; struct sym s[]; };

struct sample_names {
	struct unit_entry *units;
	size_t nunits;
	struct symtab *syms;	/* NULL: none */
	bool syms_read;
};

/* Whether DIEs of kind TAG, common in a function's body, never have code
 * of their own: their PC ranges need not be read (about half the scope
 * walk's work in lz4's inlined-heavy lz4.c). */
static int no_code(int tag)
{
	return tag == DW_TAG_formal_parameter || tag == DW_TAG_variable ||
	       tag == DW_TAG_call_site || tag == DW_TAG_GNU_call_site || tag == DW_TAG_label ||
	       tag == DW_TAG_unspecified_parameters;
}

/* The innermost function (subprogram or inlined instance) below PARENT
 * whose code holds PC, into *FN; 0 when none.  Only the scopes that hold
 * PC are entered (and namespaces, which have no code of their own): one
 * DIE's children per lev  dwarf_getscopes, used before, also walks the
 * whole unit again for an inlined instance's abstract origin, to list the
 * scopes outside it that are not needed here: lz4's lz4.c, 20,000 DIEs,
 * about 11 million instructions for each PC named (SELINST_SAMPLE=1000
 * cost a 25 ms lz4 run 27% more CPU time).  Nesting is about 10 deep in
 * real DWARF; 64 bounds the stack a dump uses. */
static int scope_at(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *fn, int depth)
{
	Dwarf_Die c;
	if (depth > 64 || dwarf_child(parent, &c) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&c);
		if (tag == DW_TAG_namespace || tag == DW_TAG_module) {
			if (scope_at(&c, pc, fn, depth + 1))
				return 1;
			continue;
		}
		if (no_code(tag) || dwarf_haspc(&c, pc) != 1)
			continue;
		if (scope_at(&c, pc, fn, depth + 1))
			return 1;
		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			return 0;	/* a block of PC's function: the caller's scope */
		*fn = c;
		return 1;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

static void index_scope(struct unit_index *u, Dwarf_Die *parent, int depth)
{
	Dwarf_Die c;
	if (depth > 64 || dwarf_child(parent, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		if (tag == DW_TAG_namespace || tag == DW_TAG_module)
			index_scope(u, &c, depth + 1);
		if (tag != DW_TAG_subprogram)
			continue;
		Dwarf_Addr base, lo, hi;
		for (ptrdiff_t off = 0; (off = dwarf_ranges(&c, off, &base, &lo, &hi)) > 0;) {
			if (u->n == u->cap) {
				u->cap = u->cap ? 2 * u->cap : 64;
				u->f = xrealloc(u->f, u->cap * sizeof *u->f);
			}
			u->f[u->n++] = (struct unit_fn){ lo, hi, c };
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* CU's index in N (made on first use). */
static const struct unit_index *unit_index(struct sample_names *n, Dwarf_Die *cu)
{
	for (size_t i = 0; i < n->nunits; i++)
		if (n->units[i].cu == cu->addr)
			return &n->units[i].index;
	n->units = xrealloc(n->units, (n->nunits + 1) * sizeof *n->units);
	struct unit_entry *e = &n->units[n->nunits++];
	e->cu = cu->addr;
	e->index = (struct unit_index){ 0, 0, NULL };
	index_scope(&e->index, cu, 0);
	return &e->index;
}

/* The source function whose code PC is, from the module's DWARF: the
 * innermost inlined function there, else the function (its source name:
 * a clone such as x_solve.constprop.0 is x_solve, as its region is).
 * NULL without debug information. */
static const char *dwarf_function(struct sample_names *n, Dwfl_Module *mod, Dwarf_Addr pc)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, pc, &bias);
	const struct unit_index *u = cu ? unit_index(n, cu) : NULL;
	Dwarf_Addr at = (Dwarf_Addr)pc - bias;
	Dwarf_Die fn;
	size_t i = 0;
	while (u && i < u->n && !(u->f[i].lo <= at && at < u->f[i].hi))
		i++;
	if (!u || i == u->n)
		return NULL;
	fn = u->f[i].die;
	if (!scope_at(&u->f[i].die, at, &fn, 1))
		fn = u->f[i].die;	/* in no inlined instance: the function's own code */
	return dwarf_diename(&fn);
}

/* A module's function symbols, for naming PCs without DWARF (libc's, a
 * program built without -g), read once per module from its .symtab,
 * else its .dynsym.  dwfl_module_addrname, used before, walks
 * every symbol of the module for each address (Lua's program, without
 * -g: 21 million instructions for 30 PCs at exit), and
 * dwfl_module_getsym_info costs about 280 instructions a symbol (libc's
 * 3,000: 0.9 million).  A PC is named as dwfl_module_addrname names it:
 * by the function symbol whose extent holds it (of aliases at one
 * address: global, then weak, then local), else by the nearest symbol
 * without a size below it when no symbol starts in between (hand-written
 * assembly); none: NULL.  The first lookups scan the symbols; a module
 * looked up more often is sorted (libc's: 2 million instructions) and
 * searched. */
#define SYM_SCANS 16

static int sym_cmp(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->rank - b->rank;
}

/* The symbols of section SCN (a symbol table) of ELF, BIAS added, into T
 * (room for all). */
static void add_symbols(struct symtab *t, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			GElf_Addr bias)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = d && sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	for (size_t i = 1; i < n && i <= INT32_MAX; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		int type = GELF_ST_TYPE(sym.st_info), bind = GELF_ST_BIND(sym.st_info);
		const char *name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name || sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE))
			continue;
		/* The plugin's copies of a function (off-copy: NAME.selinst.N,
		 * NAME.selinst_off.N, NAME.selinst_loops.N, GCC's clones of
		 * them) are NAME, as DWARF names them: kept for the report's
		 * life, as the module's strings are. */
		const char *copy = strstr(name, ".selinst");
		if (copy)
			name = xstrndup(name, (size_t)(copy - name));
		/* sized symbols first among aliases: rank 0-2, sizeless 3-5 */
		t->s[t->n++] = (struct sym){ sym.st_value + bias, sym.st_value + bias + sym.st_size,
			name, (bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2) +
			(sym.st_size ? 0 : 3) };
	}
}

/* MOD's function symbols; NULL when it has none. */
static struct symtab *read_symtab(Dwfl_Module *mod)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *best = NULL;
	GElf_Shdr sh, bsh = { 0 };
	for (Elf_Scn *scn = NULL; elf && (scn = elf_nextscn(elf, scn)) != NULL;)
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB ||
		    (sh.sh_type == SHT_DYNSYM && !best))) {
			best = scn;
			bsh = sh;
		}
	size_t n = best && bsh.sh_entsize ? bsh.sh_size / bsh.sh_entsize : 0;
	if (!n)
		return NULL;
	struct symtab *t = xmalloc(sizeof *t + n * sizeof t->s[0]);
	t->n = t->lookups = 0;
	add_symbols(t, elf, best, &bsh, bias);
	return t;
}

/* The symbol of T at PC (see above), scanning all of T. */
static const struct sym *sym_scan(const struct symtab *t, Dwarf_Addr pc)
{
	const struct sym *best = NULL, *sizeless = NULL;
	GElf_Addr nearest = 0;	/* the highest start at or below PC */
	for (size_t i = 0; i < t->n; i++) {
		const struct sym *x = &t->s[i];
		if (x->lo > pc)
			continue;
		if (pc < x->hi && (!best || x->lo > best->lo ||
				   (x->lo == best->lo && x->rank < best->rank)))
			best = x;
		if (x->lo > nearest) {
			nearest = x->lo;
			sizeless = NULL;
		}
		if (x->lo == nearest && x->hi == x->lo && (!sizeless || x->rank < sizeless->rank))
			sizeless = x;
	}
	return best ? best : sizeless;
}

/* The same in T sorted: only the symbols starting just below PC. */
static const struct sym *sym_search(const struct symtab *t, Dwarf_Addr pc)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {	/* the first symbol starting above PC */
		size_t mid = (lo + hi) / 2;
		if (t->s[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* A sized symbol that holds PC: the one starting nearest below, or
	 * one of the few before it (PC past a label inside a function). */
	const struct sym *best = NULL;
	for (size_t k = lo; k-- > 0 && lo - k <= 16;)
		if (pc < t->s[k].hi && (!best || t->s[k].lo == best->lo))
			best = &t->s[k];	/* going down: an alias of better rank */
	if (best || !lo)
		return best;
	/* Else a symbol without size that starts nearest below. */
	const struct sym *sizeless = NULL;
	for (size_t i = lo - 1;; i--) {
		if (t->s[i].hi == t->s[i].lo)
			sizeless = &t->s[i];
		if (i == 0 || t->s[i - 1].lo != t->s[i].lo)
			return sizeless;
	}
}

/* The name of MOD's function symbol at PC (see above); NULL when none. */
static const char *symbol_at(struct sample_names *n, Dwfl_Module *mod, Dwarf_Addr pc)
{
	if (!n->syms_read) {
		n->syms = read_symtab(mod);
		n->syms_read = true;
	}
	struct symtab *t = n->syms;
	if (!t)
		return NULL;
	if (++t->lookups == SYM_SCANS)
		qsort(t->s, t->n, sizeof t->s[0], sym_cmp);
	const struct sym *s = t->lookups < SYM_SCANS ? sym_scan(t, pc) : sym_search(t, pc);
	return s ? s->name : NULL;
}

const char *sample_function_at(struct sample_names **np, Dwfl_Module *mod, uint64_t pc)
{
	if (!*np)
		*np = xcalloc(1, sizeof **np);
	const char *d = dwarf_function(*np, mod, pc);
	return d ? d : symbol_at(*np, mod, pc);
}

