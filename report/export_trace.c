/* SPDX-License-Identifier: MIT */
/*
 * --format=perfetto (or chrome-trace): an OTF2 trace (SELINST_MODE=trace
 * or flight) as a Chrome trace-event JSON timeline, for Perfetto UI and
 * chrome://tracing: one track per thread ("tid": the OTF2 location), one
 * process per archive ("pid": the MPI rank, else the process id), "B" and
 * "E" events at their real times in microseconds, counted from the
 * earliest archive's start (archives of one run are aligned by their
 * wall-clock start).  A loop's "E" carries its iteration count.
 *
 * The input is read with libotf2 (any OTF2 archive with enter/leave
 * events will do); a FILE argument is the archive's anchor file
 * (traces.otf2), its folder (PROFILE.trace), or the profile it was
 * written beside (PROFILE.prof).
 */
#include "report.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <otf2/otf2.h>

struct defs {
	uint64_t res, offset, epoch_ns;
	char **str;
	size_t nstr;
	uint32_t *region_name;	/* string ref by region id */
	size_t nreg;
	uint64_t *loc;		/* location refs, in definition order */
	uint32_t *loc_name;
	size_t nloc;
	int64_t iterations;	/* the "iterations" attribute's id, or -1 */
};

struct tin {
	char anchor[4096];
	OTF2_Reader *r;
	struct defs d;
	long long pid;
	const char *label;
};

/* Room for index I in *ARR (elements of SIZE bytes, *N in use). */
static int fit(void *arr, size_t *n, size_t i, size_t size)
{
	if (i < *n)
		return 0;
	void *p = realloc(*(void **)arr, (i + 1) * size);
	if (!p)
		return -1;
	memset((char *)p + *n * size, 0, (i + 1 - *n) * size);
	*(void **)arr = p;
	*n = i + 1;
	return 0;
}

static const char *sref(const struct defs *d, uint32_t s)
{
	return s < d->nstr && d->str[s] ? d->str[s] : "?";
}

static OTF2_CallbackCode on_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t rt)
{
	struct defs *d = u;
	(void)len;
	d->res = res ? res : 1;
	d->offset = off;
	d->epoch_ns = rt == OTF2_UNDEFINED_TIMESTAMP ? 0 : rt;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_string(void *u, OTF2_StringRef self, const char *s)
{
	struct defs *d = u;
	size_t n = d->nstr;
	if (fit(&d->str, &n, self, sizeof *d->str) != 0)
		return OTF2_CALLBACK_INTERRUPT;
	d->nstr = n;
	free(d->str[self]);
	d->str[self] = strdup(s ? s : "");
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_attribute(void *u, OTF2_AttributeRef self, OTF2_StringRef name,
				      OTF2_StringRef desc, OTF2_Type type)
{
	struct defs *d = u;
	(void)desc;
	if (type == OTF2_TYPE_UINT64 && !strcmp(sref(d, name), "iterations"))
		d->iterations = self;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
				     OTF2_LocationType type, uint64_t nev, OTF2_LocationGroupRef g)
{
	struct defs *d = u;
	(void)type; (void)nev; (void)g;
	size_t n = d->nloc, m = d->nloc;
	if (fit(&d->loc, &n, d->nloc, sizeof *d->loc) != 0 ||
	    fit(&d->loc_name, &m, d->nloc, sizeof *d->loc_name) != 0)
		return OTF2_CALLBACK_INTERRUPT;
	d->loc[d->nloc] = self;
	d->loc_name[d->nloc++] = name;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
				   OTF2_StringRef canon, OTF2_StringRef desc, OTF2_RegionRole role,
				   OTF2_Paradigm par, OTF2_RegionFlag flags, OTF2_StringRef file,
				   uint32_t b, uint32_t e)
{
	struct defs *d = u;
	(void)canon; (void)desc; (void)role; (void)par; (void)flags; (void)file; (void)b; (void)e;
	size_t n = d->nreg;
	if (fit(&d->region_name, &n, self, sizeof *d->region_name) != 0)
		return OTF2_CALLBACK_INTERRUPT;
	d->nreg = n;
	d->region_name[self] = name;
	return OTF2_CALLBACK_SUCCESS;
}

/* ARG as an anchor file: itself, ARG/traces.otf2, or PROFILE.prof's trace. */
static int find_anchor(const char *arg, char *out, size_t n)
{
	struct stat st;
	size_t len = strlen(arg);
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(out, n, "%s/traces.otf2", arg);
	else if (len > 5 && !strcmp(arg + len - 5, ".prof"))
		snprintf(out, n, "%.*s.trace/traces.otf2", (int)(len - 5), arg);
	else
		snprintf(out, n, "%s", arg);
	return stat(out, &st) == 0 ? 0 : -1;
}

static long long property(OTF2_Reader *r, const char *name, long long dflt)
{
	char *v = NULL;
	if (OTF2_Reader_GetProperty(r, name, &v) != OTF2_SUCCESS || !v)
		return dflt;
	char *end;
	long long x = strtoll(v, &end, 10);
	int ok = *v && !*end;
	free(v);
	return ok ? x : dflt;
}

/* Opens IN's archive and reads its global definitions. */
static int open_trace(struct tin *in, const char *arg, size_t index)
{
	in->label = arg;
	in->d.iterations = -1;
	in->d.res = 1;
	if (find_anchor(arg, in->anchor, sizeof in->anchor) != 0) {
		fprintf(stderr, "selinst-report: %s: no OTF2 trace there (%s: %s)\n", arg,
			in->anchor, strerror(errno));
		return -1;
	}
	in->r = OTF2_Reader_Open(in->anchor);
	if (!in->r)
		goto bad;
	OTF2_Reader_SetSerialCollectiveCallbacks(in->r);
	OTF2_GlobalDefReader *g = OTF2_Reader_GetGlobalDefReader(in->r);
	OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
	if (!g || !cb)
		goto bad;
	OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
	OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, on_attribute);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
	OTF2_Reader_RegisterGlobalDefCallbacks(in->r, g, cb, &in->d);
	OTF2_GlobalDefReaderCallbacks_Delete(cb);
	uint64_t n;
	if (OTF2_Reader_ReadAllGlobalDefinitions(in->r, g, &n) != OTF2_SUCCESS)
		goto bad;
	OTF2_Reader_CloseGlobalDefReader(in->r, g);
	long long rank = property(in->r, "SELINST::RANK", -1);
	in->pid = rank >= 0 ? rank : property(in->r, "SELINST::PID", (long long)index);
	return 0;
bad:
	fprintf(stderr, "selinst-report: %s: not a readable OTF2 archive\n", in->anchor);
	return -1;
}

struct track {
	FILE *out;
	const struct defs *d;
	long long pid;
	uint64_t tid;
	double base_us;
	bool *first;
};

static void event(struct track *k, char ph, OTF2_TimeStamp t, OTF2_RegionRef reg,
		  OTF2_AttributeList *attrs)
{
	double us = k->base_us + (double)(t - k->d->offset) * 1e6 / (double)k->d->res;
	fprintf(k->out, "%s\n  {\"ph\": \"%c\", \"pid\": %lld, \"tid\": %" PRIu64 ", \"ts\": %.3f, "
		"\"name\": ", *k->first ? "" : ",", ph, k->pid, k->tid, us);
	*k->first = false;
	json_str(k->out, reg < k->d->nreg ? sref(k->d, k->d->region_name[reg]) : "?");
	uint64_t n;
	if (attrs && k->d->iterations >= 0 && OTF2_AttributeList_GetNumberOfElements(attrs) > 0 &&
	    OTF2_AttributeList_GetUint64(attrs, (OTF2_AttributeRef)k->d->iterations, &n) == OTF2_SUCCESS)
		fprintf(k->out, ", \"args\": {\"iterations\": %" PRIu64 "}", n);
	putc('}', k->out);
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
				  OTF2_AttributeList *a, OTF2_RegionRef reg)
{
	(void)l; (void)pos;
	event(u, 'B', t, reg, a);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
				  OTF2_AttributeList *a, OTF2_RegionRef reg)
{
	(void)l; (void)pos;
	event(u, 'E', t, reg, a);
	return OTF2_CALLBACK_SUCCESS;
}

static void meta(FILE *out, bool *first, const char *what, long long pid, int64_t tid,
		 const char *name)
{
	fprintf(out, "%s\n  {\"ph\": \"M\", \"name\": \"%s\", \"pid\": %lld", *first ? "" : ",",
		what, pid);
	if (tid >= 0)
		fprintf(out, ", \"tid\": %lld", (long long)tid);
	fprintf(out, ", \"args\": {\"name\": ");
	json_str(out, name);
	fprintf(out, "}}");
	*first = false;
}

/* IN's tracks: each location's events in its own order. */
static int write_process(FILE *out, struct tin *in, double base_us, bool *first)
{
	char name[4200], *prog = NULL;
	if (OTF2_Reader_GetProperty(in->r, "SELINST::PROGRAM", &prog) != OTF2_SUCCESS)
		prog = NULL;
	snprintf(name, sizeof name, "%s (%s %lld)", prog ? prog : in->label,
		 property(in->r, "SELINST::RANK", -1) >= 0 ? "rank" : "pid", in->pid);
	free(prog);
	meta(out, first, "process_name", in->pid, -1, name);
	for (size_t i = 0; i < in->d.nloc; i++)
		OTF2_Reader_SelectLocation(in->r, in->d.loc[i]);
	if (OTF2_Reader_OpenEvtFiles(in->r) != OTF2_SUCCESS)
		return -1;
	OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
	if (!cb)
		return -1;
	OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
	int rc = 0;
	for (size_t i = 0; i < in->d.nloc && rc == 0; i++) {
		struct track k = { out, &in->d, in->pid, in->d.loc[i], base_us, first };
		meta(out, first, "thread_name", in->pid, (int64_t)k.tid,
		     sref(&in->d, in->d.loc_name[i]));
		OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(in->r, in->d.loc[i]);
		uint64_t n;
		if (!er || OTF2_Reader_RegisterEvtCallbacks(in->r, er, cb, &k) != OTF2_SUCCESS ||
		    OTF2_Reader_ReadAllLocalEvents(in->r, er, &n) != OTF2_SUCCESS)
			rc = -1;
		if (er)
			OTF2_Reader_CloseEvtReader(in->r, er);
	}
	OTF2_EvtReaderCallbacks_Delete(cb);
	OTF2_Reader_CloseEvtFiles(in->r);
	return rc;
}

static void close_trace(struct tin *in)
{
	if (in->r)
		OTF2_Reader_Close(in->r);
	for (size_t i = 0; i < in->d.nstr; i++)
		free(in->d.str[i]);
	free(in->d.str);
	free(in->d.region_name);
	free(in->d.loc);
	free(in->d.loc_name);
}

int open_traces(struct tin **ins, char **args, int n)
{
	*ins = calloc((size_t)n, sizeof **ins);
	if (!*ins)
		return -1;
	for (int i = 0; i < n; i++)
		if (open_trace(&(*ins)[i], args[i], (size_t)i) != 0)
			return -1;
	return 0;
}

/* Every archive named by ARGS (already opened into INS) as one timeline. */
int export_trace(FILE *out, struct tin *ins, int n)
{
	uint64_t min_epoch = UINT64_MAX;
	for (int i = 0; i < n; i++)
		if (ins[i].d.epoch_ns < min_epoch)
			min_epoch = ins[i].d.epoch_ns;
	fprintf(out, "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"creator\": \"selinst-report\"},"
		"\n \"traceEvents\": [");
	bool first = true;
	int rc = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		double base = (double)(ins[i].d.epoch_ns - min_epoch) / 1e3;
		if (write_process(out, &ins[i], base, &first) != 0) {
			fprintf(stderr, "selinst-report: %s: cannot read its events\n", ins[i].anchor);
			rc = -1;
		}
	}
	fprintf(out, "\n]}\n");
	for (int i = 0; i < n; i++)
		close_trace(&ins[i]);
	free(ins);
	return rc;
}
