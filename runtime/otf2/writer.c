/* SPDX-License-Identifier: MIT */
/*
 * writer.c - libselinst-otf2.so: writes the runtime's trace buffers as an
 * OTF2 archive (DIR/traces.otf2), one location per thread.  The runtime
 * dlopen's it only when a trace is written (runtime/trace.c), so programs
 * that do not trace never map libotf2.
 *
 * Events are made to nest here, whatever the buffers hold: a leave whose
 * region is not open on the thread (its enter was before recording
 * started, or overwritten in the flight ring, or lost) is dropped; a leave
 * of a region below the top closes the ones above it first; regions still
 * open at the end close at the write's time.  Timestamps never go back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>
#include "../trace.h"

/* Region descriptor -> OTF2 region id: open addressing on the address. */
struct rmap {
	const struct selinst_region **key;
	uint32_t *id;
	size_t mask, n;
};

static int rmap_grow(struct rmap *m)
{
	size_t cap = m->mask ? (m->mask + 1) * 2 : 1024;
	const struct selinst_region **k = calloc(cap, sizeof *k);
	uint32_t *v = calloc(cap, sizeof *v);
	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	for (size_t i = 0; m->mask && i <= m->mask; i++) {
		if (!m->key[i])
			continue;
		size_t j = ((uintptr_t)m->key[i] >> 4) * 0x9E3779B97F4A7C15ull & (cap - 1);
		while (k[j])
			j = (j + 1) & (cap - 1);
		k[j] = m->key[i];
		v[j] = m->id[i];
	}
	free(m->key);
	free(m->id);
	m->key = k;
	m->id = v;
	m->mask = cap - 1;
	return 0;
}

/* R's id, made on first sight; UINT32_MAX when out of memory. */
static uint32_t region_id(struct rmap *m, const struct selinst_region *r)
{
	if ((m->n + 1) * 2 > m->mask + 1 && rmap_grow(m) != 0)
		return UINT32_MAX;
	size_t j = ((uintptr_t)r >> 4) * 0x9E3779B97F4A7C15ull & m->mask;
	while (m->key[j] && m->key[j] != r)
		j = (j + 1) & m->mask;
	if (!m->key[j]) {
		m->key[j] = r;
		m->id[j] = (uint32_t)m->n++;
	}
	return m->id[j];
}

struct wstate {
	OTF2_Archive *ar;
	struct rmap regions;
	OTF2_AttributeList *attrs;
	uint32_t *stack;	/* open region ids of the location being written */
	size_t depth, cap;
	uint64_t last;		/* the location's last timestamp */
};

#define ATTR_ITERATIONS 0

static int push(struct wstate *w, uint32_t id)
{
	if (w->depth == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 256;
		uint32_t *s = realloc(w->stack, cap * sizeof *s);
		if (!s)
			return -1;
		w->stack = s;
		w->cap = cap;
	}
	w->stack[w->depth++] = id;
	return 0;
}

/* A leave of ID at TS (COUNT: a loop's iterations, or UINT64_MAX). */
static void leave(struct wstate *w, OTF2_EvtWriter *ew, uint32_t id, uint64_t ts, uint64_t count)
{
	size_t i = w->depth;
	while (i > 0 && w->stack[i - 1] != id)
		i--;
	if (i == 0)
		return;		/* not open: its enter was not recorded */
	while (w->depth > i)
		OTF2_EvtWriter_Leave(ew, NULL, ts, w->stack[--w->depth]);
	if (count != UINT64_MAX)
		OTF2_AttributeList_AddUint64(w->attrs, ATTR_ITERATIONS, count);
	OTF2_EvtWriter_Leave(ew, count != UINT64_MAX ? w->attrs : NULL, ts, id);
	w->depth--;
}

static int write_events(struct wstate *w, OTF2_EvtWriter *ew, const struct si_trace_loc *l)
{
	for (size_t s = 0; s < l->nseg; s++) {
		for (size_t k = 0; k < l->seg[s].n; k++) {
			const struct si_tev *e = &l->seg[s].ev[k];
			unsigned kind = SI_TEV_KIND(e->w);
			if (kind == SI_TEV_COUNT)
				continue;	/* read with its leave */
			uint64_t ts = e->ts > w->last ? e->ts : w->last;
			w->last = ts;
			uint32_t id = region_id(&w->regions, SI_TEV_REGION(e->w));
			if (id == UINT32_MAX)
				return -1;
			if (kind == SI_TEV_ENTER) {
				if (push(w, id) != 0)
					return -1;
				OTF2_EvtWriter_Enter(ew, NULL, ts, id);
				continue;
			}
			uint64_t count = UINT64_MAX;
			if (kind == SI_TEV_LOOP_LEAVE) {
				count = SI_TEV_SMALL(e->w);
				const struct si_tev *nx = k + 1 < l->seg[s].n ? e + 1 :
					s + 1 < l->nseg && l->seg[s + 1].n ? l->seg[s + 1].ev : NULL;
				if (count == SI_TEV_BIG && nx && SI_TEV_KIND(nx->w) == SI_TEV_COUNT)
					count = nx->ts;
			}
			leave(w, ew, id, ts, count);
		}
	}
	return 0;
}

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *c, bool final)
{
	(void)u; (void)ft; (void)l; (void)c; (void)final;
	return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l)
{
	(void)u; (void)ft; (void)l;
	return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = { pre_flush, post_flush };

/* Strings are numbered as they are written. */
static OTF2_StringRef str(OTF2_GlobalDefWriter *g, uint32_t *next, const char *s)
{
	OTF2_GlobalDefWriter_WriteString(g, *next, s ? s : "");
	return (*next)++;
}

/* In id order: readers want definitions numbered as they come. */
static void write_regions(OTF2_GlobalDefWriter *g, uint32_t *ns, const struct rmap *m)
{
	const struct selinst_region **by_id = calloc(m->n ? m->n : 1, sizeof *by_id);
	if (!by_id)
		return;
	for (size_t i = 0; m->mask && i <= m->mask; i++)
		if (m->key[i])
			by_id[m->id[i]] = m->key[i];
	for (uint32_t id = 0; id < m->n; id++) {
		const struct selinst_region *r = by_id[id];
		const char *desc = r->kind == SELINST_KIND_LOOP ? "loop" :
			r->kind == SELINST_KIND_MANUAL ? "manual region" : "function";
		OTF2_StringRef name = str(g, ns, r->name);
		OTF2_GlobalDefWriter_WriteRegion(g, id, name, name, str(g, ns, desc),
			r->kind == SELINST_KIND_LOOP ? OTF2_REGION_ROLE_LOOP :
			r->kind == SELINST_KIND_MANUAL ? OTF2_REGION_ROLE_CODE :
			OTF2_REGION_ROLE_FUNCTION,
			r->kind == SELINST_KIND_MANUAL ? OTF2_PARADIGM_USER : OTF2_PARADIGM_COMPILER,
			OTF2_REGION_FLAG_NONE, str(g, ns, r->file), r->line, r->line);
	}
	free(by_id);
}

static void write_globals(struct wstate *w, const struct si_trace_out *o, const uint64_t *nev)
{
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(w->ar);
	uint32_t ns = 0;
	OTF2_GlobalDefWriter_WriteClockProperties(g, (uint64_t)(o->ticks_per_second + 0.5), o->t0,
						  w->last > o->t_end ? w->last - o->t0 : o->t_end - o->t0,
						  o->epoch_ns);
	OTF2_GlobalDefWriter_WriteAttribute(g, ATTR_ITERATIONS, str(g, &ns, "iterations"),
					    str(g, &ns, "loop iterations in this entry"),
					    OTF2_TYPE_UINT64);
	write_regions(g, &ns, &w->regions);
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, str(g, &ns, o->host), str(g, &ns, "node"),
						 OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	char name[96];
	if (o->rank >= 0)
		snprintf(name, sizeof name, "rank %d (%s, pid %d)", o->rank, o->program, (int)o->pid);
	else
		snprintf(name, sizeof name, "%s (pid %d)", o->program, (int)o->pid);
	OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, str(g, &ns, name),
						OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
						OTF2_UNDEFINED_LOCATION_GROUP);
	for (size_t i = 0; i < o->nloc; i++) {
		snprintf(name, sizeof name, "thread %u (tid %d)", o->loc[i].index, (int)o->loc[i].tid);
		OTF2_GlobalDefWriter_WriteLocation(g, o->loc[i].index, str(g, &ns, name),
						   OTF2_LOCATION_TYPE_CPU_THREAD, nev[i], 0);
	}
}

/* Each location's events, then its (empty) local definitions. */
static int write_locations(struct wstate *w, const struct si_trace_out *o, uint64_t *nev)
{
	uint64_t t_last = 0;
	OTF2_Archive_OpenEvtFiles(w->ar);
	for (size_t i = 0; i < o->nloc; i++) {
		OTF2_EvtWriter *ew = OTF2_Archive_GetEvtWriter(w->ar, o->loc[i].index);
		if (!ew)
			return -1;
		w->depth = 0;
		w->last = o->t0;
		if (write_events(w, ew, &o->loc[i]) != 0)
			return -1;
		uint64_t end = o->t_end > w->last ? o->t_end : w->last;
		while (w->depth > 0)
			OTF2_EvtWriter_Leave(ew, NULL, end, w->stack[--w->depth]);
		OTF2_EvtWriter_GetNumberOfEvents(ew, &nev[i]);
		OTF2_Archive_CloseEvtWriter(w->ar, ew);
		if (w->last > t_last)
			t_last = w->last;
	}
	OTF2_Archive_CloseEvtFiles(w->ar);
	w->last = t_last;
	OTF2_Archive_OpenDefFiles(w->ar);
	for (size_t i = 0; i < o->nloc; i++) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(w->ar, o->loc[i].index);
		if (dw)
			OTF2_Archive_CloseDefWriter(w->ar, dw);
	}
	OTF2_Archive_CloseDefFiles(w->ar);
	return 0;
}

static void set_properties(OTF2_Archive *ar, const struct si_trace_out *o)
{
	uint64_t lost = 0;
	for (size_t i = 0; i < o->nloc; i++)
		lost += o->loc[i].lost;
	char v[32];
	snprintf(v, sizeof v, "%llu", (unsigned long long)lost);
	OTF2_Archive_SetProperty(ar, "SELINST::LOST_EVENTS", v, true);
	OTF2_Archive_SetProperty(ar, "SELINST::MODE", o->flight ? "flight" : "trace", true);
	snprintf(v, sizeof v, "%d", (int)o->pid);
	OTF2_Archive_SetProperty(ar, "SELINST::PID", v, true);
	snprintf(v, sizeof v, "%d", o->rank);
	OTF2_Archive_SetProperty(ar, "SELINST::RANK", v, true);
	OTF2_Archive_SetProperty(ar, "SELINST::PROGRAM", o->program, true);
	OTF2_Archive_SetCreator(ar, "selinst");
	OTF2_Archive_SetMachineName(ar, o->host);
}

__attribute__((visibility("default"))) int selinst_otf2_write(struct si_trace_out *o)
{
	struct wstate w;
	memset(&w, 0, sizeof w);
	uint64_t *nev = calloc(o->nloc ? o->nloc : 1, sizeof *nev);
	w.attrs = OTF2_AttributeList_New();
	w.ar = OTF2_Archive_Open(o->dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
				 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	int rc = -1;
	if (!nev || !w.attrs || !w.ar) {
		snprintf(o->err, sizeof o->err, "cannot create the OTF2 archive");
		goto out;
	}
	OTF2_Archive_SetFlushCallbacks(w.ar, &flush_callbacks, NULL);
	OTF2_Archive_SetSerialCollectiveCallbacks(w.ar);
	set_properties(w.ar, o);
	if (write_locations(&w, o, nev) != 0) {
		snprintf(o->err, sizeof o->err, "out of memory, or an OTF2 writer failed");
		goto out;
	}
	write_globals(&w, o, nev);
	rc = 0;
out:
	if (w.ar && OTF2_Archive_Close(w.ar) != OTF2_SUCCESS && rc == 0) {
		snprintf(o->err, sizeof o->err, "OTF2 could not close the archive (disk full?)");
		rc = -1;
	}
	if (w.attrs)
		OTF2_AttributeList_Delete(w.attrs);
	free(w.regions.key);
	free(w.regions.id);
	free(w.stack);
	free(nev);
	return rc;
}
