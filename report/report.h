/* SPDX-License-Identifier: MIT */
/*
 * selinst-report: shared types.  One file per purpose:
 *   util.c          memory, arenas, hash maps, small formatting helpers
 *   ydom.c          YAML text -> small document tree (libyaml, plus a fast
 *                   path for the plain block/flow subset the runtime writes)
 *   profile_read.c  document tree -> struct profile, with validation
 *   sample_loops.c  a sample's module file (opened once, build-id checked)
 *                   and its uninstrumented loop there
 *   sample_names.c  a sampled address's function there (DWARF, symbols)
 *   merge.c         profiles (threads, ranks) -> one merged struct view, and
 *                   what views share: sorted listings, call edges
 *   view_text.c     flat, tree, threads and loops text views
 *   view_phases.c   --phases: per-iteration tables of loops and phases
 *                   (export_phases_svg.c: their plots)
 *   view_flow.c     --format=flow, --suggest-phases: the predecessor graph
 *   export_*.c      json, folded, svg, dot, callgrind, chrome
 *   diff.c          --diff BASE NEW and the --fail-above gate
 *   main.c          options
 */
#ifndef SELINST_REPORT_H
#define SELINST_REPORT_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* qsort_r */
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../include/selinst.h"
#include "../include/selinst-profile.h"

#define PROFILE_FORMAT  SELINST_PROFILE_FORMAT
#define PROFILE_VERSION SELINST_PROFILE_VERSION

/* Region kinds: the runtime's numbering (selinst.h). */
enum { K_FUNCTION = SELINST_KIND_FUNCTION, K_LOOP = SELINST_KIND_LOOP,
       K_MANUAL = SELINST_KIND_MANUAL, K_MPI = SELINST_KIND_MPI,
       K_OMP = SELINST_KIND_OMP,
       /* The report's own: a function seen by SELINST_SAMPLE's samples
        * inside a node, named "~function" (profile_read.c). */
       K_SAMPLED = SELINST_PROFILE_KINDS };
/* Trip-count buckets (selinst-profile.h). */
#define NTRIP SELINST_TRIP_BUCKETS

/* ---- util.c ---------------------------------------------------------- */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);	/* the first N bytes of S */

struct achunk;
typedef struct arena { struct achunk *head; } arena;
void *arena_alloc(arena *a, size_t n);
char *arena_strndup(arena *a, const char *s, size_t n);
void arena_free(arena *a);

/* u64 -> u32 open-addressing map (key UINT64_MAX is reserved). */
typedef struct u64map { uint64_t *keys; uint32_t *vals; size_t cap, n; } u64map;
void u64map_init(u64map *m, size_t hint);
void u64map_free(u64map *m);
/* Returns a pointer to the value slot; *fresh tells whether it was added. */
uint32_t *u64map_put(u64map *m, uint64_t key, bool *fresh);
uint32_t *u64map_get(const u64map *m, uint64_t key);
uint64_t hash_bytes(const void *p, size_t n, uint64_t h);

const char *kind_name(int kind);
int trip_bucket_of(uint64_t trips);
/* "0".."15", "16-31", "32-63", ...; -1 when S is no bucket name. */
int trip_bucket_parse(const char *s);
/* *X = *X * 10 + D; false (and *X unchanged) when that passes 2^64 - 1. */
static inline bool u64_push_digit(uint64_t *x, unsigned d)
{
	if (*x > (UINT64_MAX - d) / 10)
		return false;
	*x = *x * 10 + d;
	return true;
}
/* A + B, or 2^64 - 1 when that passes it (counts near 2^64 summed). */
static inline uint64_t u64_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
void trip_bucket_name(int b, char *buf, size_t n);
/* Seconds with 3 significant decimals in at most WIDTH columns. */
void fmt_secs(char *buf, size_t n, double s);

/* D with PREC decimals in at most WIDTH columns (scientific notation when
 * it is too large for that). */
void fmt_fit(char *buf, size_t n, int width, int prec, double d);
/* X in at most WIDTH columns (as fmt_fit when it has too many digits). */
void fmt_count(char *buf, size_t n, int width, uint64_t x);
/* A percentage in at most 6 columns: "12.3%", "1234%", ">9999%". */
void fmt_pct(char *buf, size_t n, double p);

/* ---- ydom.c ---------------------------------------------------------- */
enum { Y_SCALAR = 1, Y_SEQ, Y_MAP };
typedef struct ynode {
	uint8_t type;
	uint8_t plain;		/* scalar was unquoted */
	uint32_t line;		/* 1-based */
	uint32_t n;		/* children (maps: keys + values) */
	const char *s;		/* scalar text, NUL-terminated */
	struct ynode *first, *last, *next;	/* maps: key, value, key, ... */
} ynode;
typedef struct yerr { unsigned line; char msg[200]; } yerr;
/* Parses one YAML document from BUF.  NULL on error with *E filled. */
ynode *ydom_parse(const char *buf, size_t len, arena *a, yerr *e);
ynode *ydom_parse_libyaml(const char *buf, size_t len, arena *a, yerr *e);
/* The fast path: NULL when the text leaves its subset (then use libyaml). */
ynode *ydom_parse_fast(const char *buf, size_t len, arena *a);
ynode *ymap_get(const ynode *map, const char *key);

/* sample_loops.c: the uninstrumented loop that file address AT of module
 * file PATH (GNU build-id BUILD_ID in hex, NULL: none) lies in, as
 * "file:LINE" into OUT: the narrowest of FRANGES (the node's function's
 * loop_lines, in file FFILE; NULL: none) that holds its line, else of the
 * module's loop table; false when none or the file is not usable.  A file
 * not at PATH is looked for beside profile PROF (same base name, same
 * build-id). */
bool sample_loop_name(const char *path, const char *build_id, const char *prof, uint64_t at,
		      const char *ffile, const char *franges, char *out, size_t len);
/* The function at file address AT of module file PATH (version 3; the
 * file found as above): the innermost inlined function there, else its
 * symbol's, else "[BASE]" (the file's base name); SELINST_PROFILE_UNNAMED's
 * name when the file is not usable (said once on stderr).  Kept for the
 * report's run. */
const char *sample_function_name(const char *path, const char *build_id, const char *prof,
				 uint64_t at);
/* sample_names.c: the function at PC of MOD (sample_loops.c's module
 * file) as the runtime named it before version 3; NULL: none known.  *NP:
 * the module's state, made on first use. */
struct sample_names;
struct Dwfl_Module;
const char *sample_function_at(struct sample_names **np, struct Dwfl_Module *mod, uint64_t pc);
/* Tree building, shared by both parsers. */
static inline ynode *ynode_new(arena *a, int type, unsigned line)
{
	ynode *n = arena_alloc(a, sizeof *n);
	*n = (ynode){ .type = (uint8_t)type, .line = line };
	return n;
}
static inline void ynode_append(ynode *parent, ynode *child)
{
	if (parent->last)
		parent->last->next = child;
	else
		parent->first = child;
	parent->last = child;
	parent->n++;
}

/* ---- profile_read.c -------------------------------------------------- */
typedef struct pregion {
	const char *name, *file, *function;
	const char *loop_lines;	/* a function's loops without hooks, "LINE-LAST ..."; or NULL */
	int kind;
	uint32_t line;
	bool counter_folded;	/* loops: "counter: folded" (selinst-profile.h) */
	bool throttled;		/* switched off by SELINST_THROTTLE: */
	uint64_t thr_calls;	/* the region's calls in the deciding thread then */
	double thr_seconds;	/* when, from the runtime's start */
} pregion;
typedef struct trip { uint32_t bucket; uint64_t count; } trip;
typedef struct pnode {
	uint32_t pidx;		/* index of the parent in the thread, UINT32_MAX at top */
	uint32_t region;
	uint32_t trip_off, trip_n;
	uint64_t calls, incl, excl, iters;
	uint64_t samples;	/* K_SAMPLED nodes: the samples their time is estimated from */
	uint64_t sent, received;	/* K_MPI nodes: bytes (absent: 0) */
} pnode;
/* One iterated loop or phase of a thread (the profile's `iterations`). */
typedef struct piter {
	uint32_t node;		/* index of its node in the thread */
	bool phase;		/* a phase (selinst_phase_begin), else a loop */
	uint64_t recorded, dropped;
	uint32_t ncol;
	uint32_t *col;		/* node indexes of the columns */
	uint64_t *calls;	/* recorded x ncol */
	uint64_t *rows;		/* recorded x (1 + ncol): wall ns, exclusive ns */
} piter;
/* One edge of the thread's predecessor graph (the profile's `flow`). */
typedef struct pflow {
	uint32_t node, pred;	/* node indexes; pred UINT32_MAX: the root */
	uint64_t count;
} pflow;
typedef struct pthr {
	uint64_t index, tid;
	int64_t cpu_ns;		/* the thread's CPU time; -1 when not recorded */
	int64_t runq_ns;	/* its time waiting for a CPU; -1 when not recorded */
	uint64_t samples, samples_in_runtime;	/* SELINST_SAMPLE's; 0: none */
	pnode *nodes;
	size_t nnodes;
	piter *iters;
	size_t niters;
	pflow *flow;
	size_t nflow;
} pthr;
typedef struct profile {
	const char *path;
	const char *program, *host, *start_time;
	int64_t rank, size, pid;	/* rank/size -1 when null */
	double wall_seconds;
	bool complete, overflow;
	double hook_pair_ns;		/* 0: not recorded */
	double hook_inside_ns;		/* of that, between the clock reads; 0: not recorded */
	double hook_loop_pair_ns, hook_loop_inside_ns;	/* the same for loops */
	uint64_t compensated_ns;	/* --compensate: hook cost taken out */
	uint64_t compensate_short_ns;	/* ... and what found no time left (clamped) */
	bool compensated;		/* --compensate could apply (the costs recorded) */
	pregion *regions;
	size_t nregions;
	pthr *threads;
	size_t nthreads;
	trip *trips;
	size_t ntrips;
	size_t capregions;	/* regions' room, grown for sampled functions */
	uint64_t sample_hz;	/* SELINST_SAMPLE's rate; 0: not sampled */
	const char **settings;	/* plugin_settings: each distinct text */
	uint64_t *settings_units;	/* and its number of units */
	size_t nsettings;
	arena mem;
} profile;
/* Whether the reader turns samples into sampled children (--no-samples:
 * false, the nodes keep their whole exclusive time). */
extern bool profile_samples;
/* --compensate: take the hooks' calibrated cost out of function and loop
 * nodes' times (profile_read.c, compensate()). */
extern bool profile_compensate;
/* 0 on success; -1 with ERR = "FILE[:LINE]: message". */
int profile_read(const char *path, profile *p, char *err, size_t errlen);
int profile_parse(const char *buf, size_t len, const char *name, profile *p,
		  char *err, size_t errlen);
void profile_free(profile *p);

/* ---- merge.c --------------------------------------------------------- */
typedef struct region {
	const char *name, *file, *function;
	int kind;
	uint32_t line;
	uint64_t calls, incl, excl, iters;
	uint64_t nodes;			/* call-tree nodes over threads and files */
	uint64_t trips[NTRIP];
	uint32_t nthreads;		/* threads that entered it */
	uint32_t nprocs;		/* processes that entered it */
	uint64_t pmin_excl, pmax_excl, pmin_incl, pmax_incl;
	uint64_t samples;		/* K_SAMPLED: samples its estimate rests on */
	uint64_t sent, received;	/* K_MPI: bytes */
	uint32_t thr_procs;		/* processes that throttled it; first one's: */
	uint64_t thr_calls;
	double thr_seconds;
	uint32_t counted_procs;		/* loops: processes whose entry has no
					   "counter: folded"; folded when 0 */
} region;
typedef struct cnode {
	uint32_t region, parent, first, next;	/* child lists; 0 = none */
	uint32_t programs;		/* top-level nodes: bit i = view.programs[i] (31: 32nd and later) */
	uint64_t calls, incl, excl, iters;
	uint64_t samples;		/* K_SAMPLED nodes */
} cnode;
typedef struct tnode { uint32_t region, depth; uint64_t calls, incl; } tnode;
typedef struct thrinfo {
	uint32_t proc;			/* index into view.procs */
	uint64_t index, tid;
	int64_t cpu_ns;			/* -1: not recorded */
	uint64_t total;			/* sum of exclusive */
	uint64_t calls;			/* hook pairs (entries of every region but sampled ones) */
	uint64_t samples, samples_in_runtime;	/* the profile's; 0: not sampled */
	double pair_ns;			/* its file's hook_pair_ns; 0: not recorded */
	uint32_t *reg;			/* sparse per-region times */
	uint64_t *excl, *incl;
	size_t nreg;
	tnode *tree;			/* preorder, kept only for --format=chrome */
	size_t ntree;
} thrinfo;
typedef struct procinfo {
	const char *path, *program, *host;
	int64_t rank, pid;
	double wall_seconds;
} procinfo;
/* One process's part of one call path ending in an MPI call (its threads
 * summed): what the --mpi view and the json's "mpi" object are made of. */
typedef struct mpirec {
	uint32_t node, proc;		/* cnode, procinfo index */
	uint64_t calls, incl, sent, received;
} mpirec;
typedef struct view {
	region *regions;
	size_t nregions, capregions;
	u64map regmap;			/* hash of identity -> region+1 chain head */
	cnode *nodes;			/* [0] is the root */
	size_t nnodes, capnodes;
	u64map cctmap;			/* (parent << 32 | region) -> node */
	procinfo *procs;
	size_t nprocs;
	char **programs;		/* distinct program names (basenames), in load order */
	size_t nprograms;
	thrinfo *threads;
	size_t nthreads;
	uint64_t total;			/* ns: sum of all exclusive times */
	bool incomplete, overflow;
	bool sampled;			/* some node has sampled children */
	bool keep_trees;
	bool omp_trees;			/* keep the trees of profiles with omp regions */
	mpirec *mpi;			/* one per (MPI call path, process) */
	size_t nmpi, capmpi;
	double pair_ns_sum;		/* hook_pair_ns over the files that have it */
	uint32_t pair_ns_files;
	uint64_t compensated_ns;	/* --compensate: hook cost taken out, all files */
	uint64_t compensate_short_ns;	/* ... and what found no time left, all files */
	uint32_t compensated_files, uncompensated_files;
	char **settings;		/* distinct plugin settings over the processes */
	uint64_t *settings_units;	/* units under each (summed over processes) */
	size_t nsettings;
} view;
void view_init(view *v, bool keep_trees);
/* Adds P to V; -1 with ERR = "FILE: message" when a sum of P's times or
 * counts with what V holds overflows 64 bits (V is then unusable). */
int view_add(view *v, const profile *p, char *err, size_t errlen);
void view_finish(view *v);
void view_free(view *v);
/* Index of the region of V with the identity of Q, or -1. */
long view_find_region(const view *v, const region *q);
/* Region indices sorted by exclusive time (ties: name, file, line). */
uint32_t *view_sorted_regions(const view *v, bool by_incl);
/* RANK[r] = position of region r in the order IX (from view_sorted_regions). */
uint32_t *view_region_ranks(const view *v, const uint32_t *ix);
/* One caller -> callee pair of regions, summed over the merged tree. */
typedef struct vedge { uint32_t from, to; uint64_t calls, incl; } vedge;
/* The call edges of V: one per (caller region, callee region) pair in the
 * merged tree, with calls and inclusive time summed over all its call
 * paths; only pairs with both regions in KEEP (NULL: all).  Sorted by
 * RANK of the caller, then of the callee.  Count in *N; free the array. */
vedge *view_edges(const view *v, const bool *keep, const uint32_t *rank, size_t *n);
/* Children of node N sorted by inclusive time, descending. */
uint32_t *view_children(const view *v, uint32_t n, size_t *count);
void view_walk(const view *v,
	       bool (*visit)(const view *, uint32_t, int, const uint32_t *, void *),
	       void *arg);
/* Time in adaptive units ("12.3ms"), at most 8 characters. */
void fmt_time(char *buf, size_t n, double ns);
/* Read and merge FILES; on error prints one line and returns -1. */
int view_load(view *v, char **files, int nfiles);
/* The program's file name without its folder ("" for none). */
const char *program_base(const char *program);
/* "app, other" for the programs of top-level node N's bits, in BUF. */
void node_programs(const view *v, uint32_t n, char *buf, size_t len);

/* ---- options shared by views ------------------------------------------ */
typedef struct opts {
	int top;			/* 0 = all */
	bool top_set;			/* --top was given (--threads: 10 if not) */
	bool wide;			/* do not cut names to 80 columns */
	double prune;			/* percent of total */
	const char *filter;		/* regex on region names */
	void *regex;			/* compiled, NULL when no filter */
} opts;
bool region_selected(const opts *o, const region *r);
/* The regions a listing shows, in view_sorted_regions order: those
 * --filter selects (only loops with LOOPS_ONLY), at most TOP of them
 * (0: all).  Count in *N; free the array. */
uint32_t *view_listed_regions(const view *v, const opts *o, bool by_incl, bool loops_only,
			      int top, size_t *n);
/* Prints NAME and a newline in the columns of an 80-column line left
 * after USED, cut with '+' when needed (whole with --wide). */
void put_name(FILE *out, const opts *o, int used, const char *name);

/* suggest.c: --suggest: per-region hook cost, and a selection file
 * (plugin config=) excluding the costliest functions until the predicted
 * cost is within BUDGET_PCT of the run.  0, or -1 when SEL_PATH cannot be
 * written. */
int suggest(FILE *out, const view *v, const opts *o, double budget_pct, const char *sel_path);

/* The regions SELINST_THROTTLE switched off, if any (WHICH: "base",
 * "new" in a diff, else NULL). */
void view_throttled_note(FILE *out, const view *v, const char *which);
/* The --compensate note (view_text.c). */
void view_compensated_note(FILE *out, const view *v);
void view_flat(FILE *out, const view *v, const opts *o);
void view_tree(FILE *out, const view *v, const opts *o);
void view_threads(FILE *out, const view *v, const opts *o);
void view_loops(FILE *out, const view *v, const opts *o);
/* view_phases.c: --phases, from the NFILES profiles FILES (read here: the
 * merged view has no iterations) in FORMAT; JITTER: the --jitter K.  0,
 * or 2 on bad input (reported). */
enum { PHASES_TEXT, PHASES_JSON, PHASES_SVG };
/* view_flow.c: the predecessor graph of FILES as Graphviz (--format=flow)
 * or, with SUGGEST, its repeating sequences (--suggest-phases).  0, or 2
 * on bad input (reported). */
int view_flow(FILE *out, char **files, int nfiles, bool suggest);
int view_phases(FILE *out, char **files, int nfiles, int format, double jitter);
void view_mpi(FILE *out, const view *v, const opts *o);
/* view_omp.c: --omp, ompP's overhead classes per OpenMP parallel region
 * and thread (the view must keep its trees), and the json's "omp" object
 * (nothing without parallel regions or without the trees). */
void view_omp(FILE *out, const view *v, const opts *o);
void export_json_omp(FILE *out, const view *v);
void export_json(FILE *out, const view *v, const opts *o);
/* view_mpi.c: the json's "mpi" object (nothing without MPI calls). */
void export_json_mpi(FILE *out, const view *v);
void export_folded(FILE *out, const view *v, const opts *o);
void export_svg(FILE *out, const view *v, const opts *o);
void export_dot(FILE *out, const view *v, const opts *o);
void export_callgrind(FILE *out, const view *v, const opts *o);
void export_chrome(FILE *out, const view *v, const opts *o);
int diff_views(FILE *out, const view *base, const view *new_, const opts *o,
	       double fail_above);

/* Writes S as a JSON string (with quotes). */
void json_str(FILE *out, const char *s);
/* S as XML text or attribute value (&, <, >, quotes escaped). */
void xml_text(FILE *out, const char *s);

/* export_trace.c: --format=perfetto (chrome-trace) from OTF2 archives.
 * open_traces reads every archive's definitions first (0, or -1 after a
 * message), export_trace writes the timeline and frees INS. */
struct tin;
int open_traces(struct tin **ins, char **args, int n);
int export_trace(FILE *out, struct tin *ins, int n);
#endif
