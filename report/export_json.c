/* SPDX-License-Identifier: MIT */
/* --format=json: the machine-readable view (schema in doc/report.md). */
#include "report.h"
#include <stdlib.h>

static void stats(FILE *out, const char *key, uint64_t mn, double mean, uint64_t mx)
{
	fprintf(out, "\"%s\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f}", key,
		(double)mn / 1e9, mean / 1e9, (double)mx / 1e9);
}

void export_json(FILE *out, const view *v, const opts *o)
{
	fprintf(out, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n",
		SELINST_REPORT_JSON_FORMAT, SELINST_REPORT_JSON_VERSION);
	fprintf(out, "  \"processes\": %zu,\n  \"threads\": %zu,\n", v->nprocs, v->nthreads);
	fprintf(out, "  \"total_seconds\": %.9f,\n", (double)v->total / 1e9);
	fprintf(out, "  \"complete\": %s,\n  \"overflow\": %s,\n",
		v->incomplete ? "false" : "true", v->overflow ? "true" : "false");
	fprintf(out, "  \"call_paths\": %zu,\n", v->nnodes - 1);
	if (v->compensated_files) {	/* --compensate: times are estimates without hooks */
		fprintf(out, "  \"hook_cost_compensated_seconds\": %.9f,\n",
			(double)v->compensated_ns / 1e9);
		fprintf(out, "  \"hook_cost_short_seconds\": %.9f,\n",
			(double)v->compensate_short_ns / 1e9);
	}
	fprintf(out, "  \"plugin_settings\": [");
	for (size_t i = 0; i < v->nsettings; i++) {
		fprintf(out, "%s{\"units\": %llu, \"settings\": ", i ? ", " : "",
			(unsigned long long)v->settings_units[i]);
		json_str(out, v->settings[i]);
		fputc('}', out);
	}
	fprintf(out, "],\n");
	fprintf(out, "  \"files\": [");
	for (size_t i = 0; i < v->nprocs; i++) {
		const procinfo *p = &v->procs[i];
		fprintf(out, "%s\n    {\"path\": ", i ? "," : "");
		json_str(out, p->path);
		fprintf(out, ", \"program\": ");
		json_str(out, p->program);
		fprintf(out, ", \"host\": ");
		json_str(out, p->host);
		if (p->rank >= 0)
			fprintf(out, ", \"rank\": %lld", (long long)p->rank);
		else
			fprintf(out, ", \"rank\": null");
		fprintf(out, ", \"pid\": %lld}", (long long)p->pid);
	}
	fprintf(out, "\n  ],\n  \"regions\": [");
	size_t n;
	uint32_t *ix = view_listed_regions(v, o, false, false, o->top, &n);
	for (size_t i = 0; i < n; i++) {
		const region *r = &v->regions[ix[i]];
		fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
		json_str(out, r->name);
		fprintf(out, ", \"kind\": \"%s\", \"file\": ", kind_name(r->kind));
		json_str(out, r->file);
		fprintf(out, ", \"line\": %u, \"calls\": %llu, \"inclusive_seconds\": %.9f, "
			"\"exclusive_seconds\": %.9f, \"threads\": %u, \"processes\": %u",
			r->line, (unsigned long long)r->calls, (double)r->incl / 1e9,
			(double)r->excl / 1e9, r->nthreads, r->nprocs);
		fprintf(out, ", \"per_process\": {");
		stats(out, "exclusive_seconds", r->pmin_excl, (double)r->excl / (double)v->nprocs,
		      r->pmax_excl);
		fprintf(out, ", ");
		stats(out, "inclusive_seconds", r->pmin_incl, (double)r->incl / (double)v->nprocs,
		      r->pmax_incl);
		fprintf(out, "}");
		if (r->kind == K_LOOP) {
			fprintf(out, ", \"function\": ");
			if (r->function)
				json_str(out, r->function);
			else
				fprintf(out, "null");
			fprintf(out, ", \"entries\": %llu, \"iterations\": %llu, \"trip_counts\": {",
				(unsigned long long)r->calls, (unsigned long long)r->iters);
			bool first = true;
			for (int b = 0; b < NTRIP; b++) {
				if (!r->trips[b])
					continue;
				char nm[48];
				trip_bucket_name(b, nm, sizeof nm);
				fprintf(out, "%s\"%s\": %llu", first ? "" : ", ", nm,
					(unsigned long long)r->trips[b]);
				first = false;
			}
			fprintf(out, "}");
		}
		if (r->kind == K_MPI)
			fprintf(out, ", \"bytes_sent\": %llu, \"bytes_received\": %llu",
				(unsigned long long)r->sent, (unsigned long long)r->received);
		if (r->kind == K_SAMPLED)	/* its times are estimates from these */
			fprintf(out, ", \"samples\": %llu, \"estimated\": true",
				(unsigned long long)r->samples);
		if (r->kind == K_LOOP && !r->counted_procs)
			fprintf(out, ", \"%s\": \"%s\"", SELINST_PROFILE_COUNTER,
				SELINST_PROFILE_COUNTER_FOLDED);
		if (r->thr_procs)
			fprintf(out, ", \"throttled\": {\"calls\": %llu, \"seconds\": %.9f, "
				"\"processes\": %u}", (unsigned long long)r->thr_calls,
				r->thr_seconds, r->thr_procs);
		fprintf(out, "}");
	}
	fprintf(out, "\n  ]");
	export_json_mpi(out, v);
	export_json_omp(out, v);
	fprintf(out, "\n}\n");
	free(ix);
}
