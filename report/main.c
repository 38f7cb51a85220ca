/* SPDX-License-Identifier: MIT */
/* selinst-report: command line.  See doc/report.md. */
#include "report.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
"usage: selinst-report [OPTIONS] FILE...          merge FILEs, print a view\n"
"       selinst-report --diff [OPTIONS] BASE NEW  compare two profiles\n"
"FILE:    a profile, a folder (its *.prof files), a quoted pattern ('app*.prof')\n"
"views:   --flat (default)   --tree   --threads   --loops   --mpi   --omp\n"
"         --top N (0 = all)  --filter REGEX  --prune PCT (tree, default 0.1)\n"
"         --wide (do not cut long names at 80 columns)\n"
"         --no-samples (SELINST_SAMPLE's ~functions left in their parents)\n"
"         --compensate (take the hooks' calibrated cost out of the times)\n"
"         --phases [--jitter K]: per iteration of SELINST_ITERATE's loop and of\n"
"         each phase, flagging times more than K MADs (default 5) from the median\n"
"         (text, --format=json, or --format=svg: time series and heatmap)\n"
"formats: --format=text|json|folded|svg|dot|callgrind|chrome (--diff: text)\n"
"         --format=flow: the predecessor graph (SELINST_FLOW=1) as Graphviz;\n"
"         --suggest-phases: the node sequences that repeat in it\n"
"trace:   --format=perfetto (or chrome-trace) FILE...: the OTF2 trace of\n"
"         SELINST_MODE=trace/flight (PROFILE.trace, its traces.otf2, or\n"
"         PROFILE.prof) as a Chrome/Perfetto JSON timeline\n"
"diff:    --fail-above PCT  exit 1 if a region with >= 1% of BASE's total\n"
"                           got slower by more than PCT percent\n"
"         --force           compare profiles of different programs\n"
"output:  -o FILE (default standard output; FILE is replaced only when the\n"
"         report is complete)\n"
"suggest: --suggest [--budget PCT (default 1)] [--select FILE (default\n"
"         selinst-select.yaml)]: per-region hook cost, and a selection file\n"
"         for -fplugin-arg-selinst-config= keeping the run within PCT%%\n"
"other:   -h, --help   --version\n"
"exit:    0 ok, 1 --fail-above tripped, 2 bad usage or bad input\n";

__attribute__((noreturn, format(printf, 1, 2)))
static void die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("selinst-report: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs(" (try --help)\n", stderr);
	va_end(ap);
	exit(2);
}

static double parse_num(const char *s, const char *opt)
{
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	if (!*s || *end || errno || !(d >= 0) || d > 1e12)
		die_usage("%s wants a non-negative number, not '%s'", opt, s);
	return d;
}

typedef void render_fn(FILE *out, const view *v, const opts *o);

/* --format=NAME; "text" prints the chosen view. */
static const struct { const char *name; render_fn *fn; } formats[] = {
	{ "text", NULL }, { "json", export_json }, { "folded", export_folded },
	{ "svg", export_svg }, { "dot", export_dot }, { "callgrind", export_callgrind },
	{ "chrome", export_chrome }, { "flow", NULL },
};
#define NFORMATS (sizeof formats / sizeof formats[0])

static render_fn *format_fn(const char *name)
{
	char names[200] = "";
	for (size_t i = 0; i < NFORMATS; i++) {
		if (!strcmp(name, formats[i].name))
			return formats[i].fn;
		snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
			 i ? ", " : "", formats[i].name);
	}
	die_usage("unknown format '%s' (%s)", name, names);
}

/*
 * -o FILE: the report goes to a temporary file in FILE's directory that
 * replaces FILE (rename) only once it is complete, so a failed run leaves
 * an existing FILE untouched and no partial file behind.  A FILE that
 * exists and is not a regular file (/dev/null, a FIFO) is written directly.
 */
static char tmp_path[PATH_MAX + 16], dest_path[PATH_MAX];
static volatile sig_atomic_t tmp_live;

static void tmp_remove(void)
{
	if (tmp_live) {
		tmp_live = 0;
		unlink(tmp_path);
	}
}

static void on_signal(int sig)
{
	tmp_remove();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void die_write(const char *path, const char *what, int err)
{
	tmp_remove();
	fprintf(stderr, "selinst-report: %s: %s: %s\n", path, what, strerror(err));
	exit(2);
}

static FILE *open_output(const char *path)
{
	struct stat st;
	bool exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		FILE *f = fopen(path, "w");
		if (!f)
			die_write(path, "cannot write", errno);
		return f;
	}
	/* Through a symbolic link, the file it points to is replaced. */
	struct stat lst;
	if (!(exists && !lstat(path, &lst) && S_ISLNK(lst.st_mode) && realpath(path, dest_path)) &&
	    snprintf(dest_path, sizeof dest_path, "%s", path) >= (int)sizeof dest_path)
		die_write(path, "cannot write", ENAMETOOLONG);
	snprintf(tmp_path, sizeof tmp_path, "%s.tmp.XXXXXX", dest_path);
	atexit(tmp_remove);
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		signal(sigs[i], on_signal);
	int fd = mkstemp(tmp_path);
	if (fd < 0)
		die_write(path, "cannot write", errno);
	tmp_live = 1;
	/* The mode FILE has, or that a new file gets (0666 less the umask). */
	mode_t mode = st.st_mode & 07777;
	if (!exists) {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	FILE *f = fchmod(fd, mode) ? NULL : fdopen(fd, "w");
	if (!f)
		die_write(path, "cannot write", errno);
	return f;
}

/* Flushes and closes OUT (PATH, or standard output when NULL); a temporary
 * file then replaces PATH. */
static void close_output(FILE *out, const char *path)
{
	const char *name = path ? path : "standard output";
	if (fflush(out) || ferror(out))
		die_write(name, "write error", errno ? errno : EIO);
	if (!path)
		return;
	if ((tmp_live && fsync(fileno(out))) || fclose(out))
		die_write(path, "write error", errno);
	if (tmp_live) {
		if (rename(tmp_path, dest_path))
			die_write(path, "cannot write", errno);
		tmp_live = 0;
	}
}

enum { O_TREE = 256, O_THREADS, O_LOOPS, O_MPI, O_OMP, O_FLAT, O_TOP, O_FILTER, O_PRUNE, O_FORMAT,
       O_DIFF, O_FAIL, O_WIDE, O_HELP, O_VERSION, O_FORCE, O_SUGGEST, O_BUDGET, O_SELECT,
       O_NO_SAMPLES, O_COMPENSATE, O_PHASES, O_JITTER, O_SUGGEST_PHASES };

#ifndef SELINST_VERSION
#define SELINST_VERSION "unknown"
#endif

/* The FILE arguments as profiles to read: a folder stands for its *.prof
 * files, a pattern no file is named after (quoted, so the shell left it)
 * for its matches, each sorted.  A file named twice counts twice. */
static char **expand_inputs(char **args, int nargs, int *nout)
{
	int cap = nargs + 16, n = 0;
	char **list = xmalloc((size_t)cap * sizeof *list);
	for (int i = 0; i < nargs; i++) {
		const char *a = args[i];
		struct stat st;
		char pat[PATH_MAX];
		glob_t g = { 0 };
		bool matched = false;
		if (stat(a, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(pat, sizeof pat, "%s/*.prof", a);
			if (glob(pat, 0, NULL, &g) != 0)
				die_usage("%s: a folder without *.prof files", a);
			matched = true;
		} else if (access(a, F_OK) != 0 && strpbrk(a, "*?[")) {
			/* no match: read as a name, which fails naming it */
			matched = glob(a, 0, NULL, &g) == 0;
		}
		size_t m = matched ? g.gl_pathc : 1;
		if (n + (int)m > cap) {
			cap = n + (int)m + 16;
			list = xrealloc(list, (size_t)cap * sizeof *list);
		}
		for (size_t k = 0; k < m; k++)
			list[n++] = xstrdup(matched ? g.gl_pathv[k] : a);
		globfree(&g);
	}
	*nout = n;
	return list;
}

/* --diff compares a program with itself: profiles of different programs
 * (the file names of their `program`) are an error unless --force. */
static int check_same_program(const view *b, const view *n, char **files, bool force)
{
	if (b->nprograms == 1 && n->nprograms == 1 && !strcmp(b->programs[0], n->programs[0]))
		return 0;
	fprintf(stderr, "selinst-report: %s%s: %s is a profile of '%s', %s of '%s': not the same program%s\n",
		force ? "warning" : "error", force ? " (--force)" : "",
		files[0], b->nprograms ? b->programs[0] : "", files[1],
		n->nprograms ? n->programs[0] : "",
		force ? "; compared anyway" : " (--force compares them anyway)");
	return force ? 0 : -1;
}

struct suggest_opts { bool on, budget_set; double budget; const char *path; };

static void check_suggest_usage(const struct suggest_opts *sg, bool diff, bool format)
{
	if (!sg->on && (sg->budget_set || strcmp(sg->path, "selinst-select.yaml")))
		die_usage("--budget and --select need --suggest");
	if (sg->on && (diff || format))
		die_usage("--suggest prints its own table: not with --diff or --format");
	if (sg->budget > 100)
		die_usage("--budget wants a percentage (0..100), not %g", sg->budget);
}

static int run_suggest(FILE *out, const view *v, const opts *o, const struct suggest_opts *sg)
{
	if (suggest(out, v, o, sg->budget, sg->path) == 0)
		return 0;
	fprintf(stderr, "selinst-report: cannot write selection file %s: %s\n", sg->path,
		strerror(errno));
	return 2;
}

/* Everything the command line says. */
struct cli {
	opts o;
	render_fn *view_fn, *format;
	const char *outpath, *format_name;
	bool diff, force, trace;
	struct suggest_opts sg;
	double fail_above;
	bool phases, flow, suggest_phases;
	double jitter;		/* --jitter; < 0: not given */
	regex_t re;
};

/* The options that shape a view: --top, --prune, --filter. */
static void parse_view_option(int c, const char *arg, struct cli *cl)
{
	switch (c) {
	case O_TOP: {
		double d = parse_num(arg, "--top");
		if (d != (int)d || d > 1e9)
			die_usage("--top wants a whole number, not '%s'", arg);
		cl->o.top = (int)d;
		cl->o.top_set = true;
		break;
	}
	case O_PRUNE:
		cl->o.prune = parse_num(arg, "--prune");
		if (cl->o.prune > 100)
			die_usage("--prune wants a percentage (0..100), not '%s'", arg);
		break;
	case O_FILTER: {
		int rc = regcomp(&cl->re, arg, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char msg[200];
			regerror(rc, &cl->re, msg, sizeof msg);
			die_usage("--filter '%s': %s", arg, msg);
		}
		cl->o.filter = arg;
		cl->o.regex = &cl->re;
		break;
	}
	}
}

/* Parses the options into CL (exits on --help, --version and errors);
 * returns the index of the first profile argument. */
static int parse_command_line(int argc, char **argv, struct cli *cl)
{
	static const struct option lo[] = {
		{ "tree", no_argument, 0, O_TREE },
		{ "threads", no_argument, 0, O_THREADS },
		{ "loops", no_argument, 0, O_LOOPS },
		{ "mpi", no_argument, 0, O_MPI },
		{ "omp", no_argument, 0, O_OMP },
		{ "flat", no_argument, 0, O_FLAT },
		{ "top", required_argument, 0, O_TOP },
		{ "filter", required_argument, 0, O_FILTER },
		{ "prune", required_argument, 0, O_PRUNE },
		{ "format", required_argument, 0, O_FORMAT },
		{ "diff", no_argument, 0, O_DIFF },
		{ "fail-above", required_argument, 0, O_FAIL },
		{ "wide", no_argument, 0, O_WIDE },
		{ "no-samples", no_argument, 0, O_NO_SAMPLES },
		{ "compensate", no_argument, 0, O_COMPENSATE },
		{ "help", no_argument, 0, O_HELP },
		{ "version", no_argument, 0, O_VERSION },
		{ "force", no_argument, 0, O_FORCE },
		{ "suggest", no_argument, 0, O_SUGGEST },
		{ "budget", required_argument, 0, O_BUDGET },
		{ "select", required_argument, 0, O_SELECT },
		{ "phases", no_argument, 0, O_PHASES },
		{ "jitter", required_argument, 0, O_JITTER },
		{ "suggest-phases", no_argument, 0, O_SUGGEST_PHASES },
		{ 0, 0, 0, 0 }
	};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case O_TREE: cl->view_fn = view_tree; break;
		case O_THREADS: cl->view_fn = view_threads; break;
		case O_LOOPS: cl->view_fn = view_loops; break;
		case O_MPI: cl->view_fn = view_mpi; break;
		case O_OMP: cl->view_fn = view_omp; break;
		case O_FLAT: cl->view_fn = view_flat; break;
		case O_WIDE: cl->o.wide = true; break;
		case O_NO_SAMPLES: profile_samples = false; break;
		case O_COMPENSATE: profile_compensate = true; break;
		case O_TOP: case O_PRUNE: case O_FILTER: parse_view_option(c, optarg, cl); break;
		case O_FORMAT:
			cl->trace = !strcmp(optarg, "perfetto") || !strcmp(optarg, "chrome-trace");
			cl->format = cl->trace ? NULL : format_fn(optarg);
			cl->format_name = optarg;
			cl->flow = !strcmp(optarg, "flow");
			break;
		case O_DIFF: cl->diff = true; break;
		case O_FAIL: cl->fail_above = parse_num(optarg, "--fail-above"); break;
		case 'o': cl->outpath = optarg; break;
		case 'h':
		case O_HELP: fputs(usage, stdout); exit(0);
		case O_VERSION:
			printf("selinst-report %s (profile format %d)\n", SELINST_VERSION, PROFILE_VERSION);
			exit(0);
		case O_FORCE: cl->force = true; break;
		case O_SUGGEST: cl->sg.on = true; break;
		case O_BUDGET:
			cl->sg.budget = parse_num(optarg, "--budget");
			cl->sg.budget_set = true;
			break;
		case O_SELECT: cl->sg.path = optarg; break;
		case O_PHASES: cl->phases = true; break;
		case O_JITTER: cl->jitter = parse_num(optarg, "--jitter"); break;
		case O_SUGGEST_PHASES: cl->suggest_phases = true; break;
		case ':': die_usage("option %s needs a value", argv[optind - 1]);
		default: die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	return optind;
}

/* Options that make no sense together, once every one is known. */
static void check_combinations(const struct cli *cl, int nfiles)
{
	if (cl->diff && nfiles != 2)
		die_usage("--diff wants exactly two profiles, BASE and NEW");
	if (cl->force && !cl->diff)
		die_usage("--force needs --diff");
	if (cl->fail_above >= 0 && !cl->diff)
		die_usage("--fail-above needs --diff");
	if (cl->diff && cl->format)
		die_usage("--diff prints text only, not --format=%s", cl->format_name);
	check_suggest_usage(&cl->sg, cl->diff, cl->format != NULL || cl->trace);
	if (cl->trace && cl->diff)
		die_usage("--diff prints text only, not --format=%s", cl->format_name);
	if (cl->trace && (cl->phases || cl->suggest_phases))
		die_usage("--format=%s: not with --phases or --suggest-phases", cl->format_name);
	if (cl->jitter >= 0 && !cl->phases)
		die_usage("--jitter needs --phases");
	if (cl->phases && (cl->diff || cl->sg.on))
		die_usage("--phases prints its own tables: not with --diff or --suggest");
	if (cl->phases && cl->format && cl->format != export_json && cl->format != export_svg)
		die_usage("--phases writes text, json or svg, not --format=%s", cl->format_name);
	if ((cl->flow || cl->suggest_phases) && (cl->diff || cl->sg.on || cl->phases))
		die_usage("--format=flow and --suggest-phases: not with --diff, --suggest or --phases");
	if (cl->flow && cl->suggest_phases)
		die_usage("--suggest-phases prints its own text: not with --format=flow");
	if (cl->suggest_phases && cl->format)
		die_usage("--suggest-phases prints text, not --format=%s", cl->format_name);
}

static int run_flow(const struct cli *cl, char **files, int nfiles)
{
	FILE *out = cl->outpath ? open_output(cl->outpath) : stdout;
	int rc = view_flow(out, files, nfiles, cl->suggest_phases);
	if (rc == 0)
		close_output(out, cl->outpath);
	return rc;
}

static int run_phases(const struct cli *cl, char **files, int nfiles)
{
	FILE *out = cl->outpath ? open_output(cl->outpath) : stdout;
	int format = cl->format == export_json ? PHASES_JSON
		     : cl->format == export_svg ? PHASES_SVG : PHASES_TEXT;
	int rc = view_phases(out, files, nfiles, format, cl->jitter >= 0 ? cl->jitter : 5);
	if (rc == 0)
		close_output(out, cl->outpath);
	return rc;
}

/* --format=perfetto: every archive is opened before the output is. */
static int run_trace(const struct cli *cl, char **args, int n)
{
	struct tin *ins;
	if (open_traces(&ins, args, n) != 0)
		return 2;
	FILE *out = cl->outpath ? open_output(cl->outpath) : stdout;
	if (export_trace(out, ins, n) != 0) {
		tmp_remove();
		return 2;
	}
	close_output(out, cl->outpath);
	return 0;
}

static int run_diff(const struct cli *cl, char **files)
{
	view base, nw;
	view_init(&base, false);
	view_init(&nw, false);
	if (view_load(&base, files, 1) < 0 || view_load(&nw, files + 1, 1) < 0)
		return 2;
	if (check_same_program(&base, &nw, files, cl->force) < 0)
		return 2;
	FILE *out = cl->outpath ? open_output(cl->outpath) : stdout;
	int rc = diff_views(out, &base, &nw, &cl->o, cl->fail_above);
	close_output(out, cl->outpath);
	return rc;
}

static int run_view(const struct cli *cl, char **files, int nfiles)
{
	view v;
	/* chrome lays out each thread's tree; --omp and json's omp object
	 * walk them (json: only the trees of profiles with OpenMP regions) */
	view_init(&v, cl->format == export_chrome || cl->view_fn == view_omp);
	v.omp_trees = cl->format == export_json;
	if (view_load(&v, files, nfiles) < 0)
		return 2;
	FILE *out = cl->outpath ? open_output(cl->outpath) : stdout;
	int rc = 0;
	if (cl->sg.on)
		rc = run_suggest(out, &v, &cl->o, &cl->sg);
	else
		(cl->format ? cl->format : cl->view_fn)(out, &v, &cl->o);
	close_output(out, cl->outpath);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli cl = {
		.o = { .prune = 0.1 }, .view_fn = view_flat, .format_name = "text",
		.sg = { false, false, 1.0, "selinst-select.yaml" }, .fail_above = -1,
		.jitter = -1,
	};
	int first = parse_command_line(argc, argv, &cl);
	if (argc - first < 1)
		die_usage("no profile given");
	if (cl.trace) {
		check_combinations(&cl, argc - first);
		return run_trace(&cl, argv + first, argc - first);
	}
	int nfiles;
	char **files = expand_inputs(argv + first, argc - first, &nfiles);
	check_combinations(&cl, nfiles);
	/* Every input is read and checked before the output is opened. */
	if (cl.phases)
		return run_phases(&cl, files, nfiles);
	if (cl.flow || cl.suggest_phases)
		return run_flow(&cl, files, nfiles);
	return cl.diff ? run_diff(&cl, files) : run_view(&cl, files, nfiles);
}
