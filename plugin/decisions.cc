/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * decisions.cc - the decision file and the verbose score table.
 *
 * The decision file is YAML (written with libyaml), one document per unit:
 *
 *   unit: app.c
 *   threshold: 204800
 *   constants: {block_weight: 5, loop_base: 100, loop_unit: 2048, call_unit: 2048}
 *   feedback: {profiles: app.prof, budget: 1, hook_pair_ns: 19.5,   # profile= only;
 *              predicted_all: 4.2, predicted_kept: 0.8,             # percent of the run
 *              predicted_added: 0.1, hook_pair_in_run_ns: 21.6,
 *              run_ms: 52.3, profile_base: fb.prof,                 # profile-base= only
 *              run_at_floor: true,            # run_ms a tenth of the run: the hooks
 *                                             # were 90% or more (profile-base= helps)
 *              predicted_kept_instructions: 1200000,                # absolute
 *              predicted_added_instructions: 0,
 *              predicted_not_chosen: 0.1,                          # this unit's, see
 *              predicted_not_chosen_instructions: 9000,            # selinst-plugin.h
 *              bottleneck: main}
 *   functions:
 *     - {name: main, file: app.c, line: 3, basic_blocks: ..., score: ...,
 *        instrument: true, reason: "score >= threshold"}
 *
 * Several units must not clobber each other: if the path holds "%u" it
 * becomes the unit's source path as given, '/' made '_' (src/util.c ->
 * src_util.c; one file per unit, rewritten each time; two util.c in two
 * directories do not collide);
 * otherwise each unit appends its document ("---") while holding an
 * exclusive lock on the file.  Scores are plain YAML integers of any size.
 */
#include "gcc-compat.h"
#include "selinst-plugin.h"

#include <yaml.h>
#include <sys/file.h>

/* The unit's source path as given, as one visible file name: its
 * components joined by '_', "." components dropped, ".." written "up"
 * and a leading '.' dropped (../common/wtime.c -> up_common_wtime.c). */
static char *unit_name(const char *given)
{
	char *unit = XNEWVEC(char, 2 * strlen(given) + 8);
	char *o = unit;
	for (const char *p = given; *p; ) {
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			o = stpcpy(o, o == unit ? "up" : "_up");
		} else if (n && !(n == 1 && p[0] == '.')) {
			if (o != unit)
				*o++ = '_';
			const char *c = p;
			while (o == unit && c < p + n - 1 && *c == '.')
				c++;
			o = stpncpy(o, c, p + n - c);
		}
		p += n + (p[n] == '/');
	}
	*o = '\0';
	if (!*unit)
		strcpy(unit, "unit");
	return unit;
}

/* The path for UNIT (NULL: this unit, the main input file): "%u" ->
 * its unit_name. */
static char *unit_path(const char *pattern, const char *given = NULL)
{
	if (!given)
		given = main_input_filename ? main_input_filename : "unit";
	char *unit = unit_name(given);
	size_t len = strlen(pattern) + 1;
	for (const char *p = pattern; (p = strstr(p, "%u")); p += 2)
		len += strlen(unit);
	char *out = XNEWVEC(char, len);
	char *o = out;
	for (const char *p = pattern; *p; ) {
		if (p[0] == '%' && p[1] == 'u') {
			strcpy(o, unit);
			o += strlen(unit);
			p += 2;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	XDELETEVEC(unit);
	return out;
}

/* At argument time: fail early, naming the path, if it cannot be written. */
bool selinst_decisions_file_check(const char *pattern)
{
	/* In lto1 (arguments are read before in_lto_p is set) the link's
	 * document is the only one written, named after its output, which
	 * is known only then: a failure is reported there. */
	if (strcmp(lang_hooks.name, "GNU GIMPLE") == 0)
		return true;
	char *path = unit_path(pattern);
	FILE *f = fopen(path, "a");
	if (!f) {
		error("selinst: cannot write decision file %qs given by "
		      "%<-fplugin-arg-selinst-decisions%>: %s", path, xstrerror(errno));
		XDELETEVEC(path);
		return false;
	}
	fclose(f);
	XDELETEVEC(path);
	return true;
}

struct emitter {
	yaml_emitter_t e;
	bool ok;
};

static void scalar(emitter *em, const char *s, bool plain = true)
{
	yaml_event_t ev;
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *) s, (int) strlen(s),
				     plain, 1,	/* quoted: implicit */
				     plain ? YAML_ANY_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	em->ok = em->ok && yaml_emitter_emit(&em->e, &ev);
}

static void str(emitter *em, const char *s)
{
	scalar(em, s ? s : "", false);
}

static void num_ul(emitter *em, unsigned long v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%lu", v);
	scalar(em, buf);
}

static void num_mpz(emitter *em, const mpz_t v)
{
	char *s = mpz_get_str(NULL, 10, v);
	scalar(em, s);
	free(s);
}

static void num_pct(emitter *em, double v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%.4g", v);
	scalar(em, buf);
}

/* A count as a plain YAML integer (%g's 1e+06 would read as a string). */
static void num_count(emitter *em, double v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%.0f", v);
	scalar(em, buf);
}

static void event(emitter *em, yaml_event_t *ev)
{
	em->ok = em->ok && yaml_emitter_emit(&em->e, ev);
}

static void begin_map(emitter *em, bool flow = false)
{
	yaml_event_t ev;
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
		flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	event(em, &ev);
}

static void end_map(emitter *em)
{
	yaml_event_t ev;
	yaml_mapping_end_event_initialize(&ev);
	event(em, &ev);
}

static void begin_seq(emitter *em)
{
	yaml_event_t ev;
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	event(em, &ev);
}

static void end_seq(emitter *em)
{
	yaml_event_t ev;
	yaml_sequence_end_event_initialize(&ev);
	event(em, &ev);
}

/* A document whose top mapping the caller fills. */
static void begin_document(emitter *em)
{
	yaml_event_t ev;
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
	event(em, &ev);
	begin_map(em);
}

static void end_document(emitter *em)
{
	end_map(em);
	yaml_event_t ev;
	yaml_document_end_event_initialize(&ev, 0);
	event(em, &ev);
}

static int write_to_file(void *data, unsigned char *buffer, size_t size)
{
	return fwrite(buffer, 1, size, (FILE *) data) == size;
}

/* feedback: {profiles, budget, hook_pair_ns, predicted_*} with profile=. */
static void emit_feedback(emitter *em)
{
	struct selinst_feedback_summary s;
	if (!selinst_feedback_get_summary(&s))
		return;
	scalar(em, "feedback");
	begin_map(em, true);
	scalar(em, "profiles");      str(em, s.profiles);
	scalar(em, "budget");        num_pct(em, s.budget_pct);
	scalar(em, "hook_pair_ns");  num_pct(em, s.hook_pair_ns);
	scalar(em, "predicted_all"); num_pct(em, s.predicted_all_pct);
	scalar(em, "predicted_kept"); num_pct(em, s.predicted_kept_pct);
	scalar(em, "predicted_added"); num_pct(em, s.predicted_added_pct);
	scalar(em, "hook_pair_in_run_ns"); num_pct(em, s.hook_pair_in_run_ns);
	scalar(em, "run_ms");        num_pct(em, s.run_ms);
	if (s.base_profiles) {
		scalar(em, "profile_base"); str(em, s.base_profiles);
	}
	if (s.run_at_floor) {
		/* The hooks were 90% of the run or more: its length without
		 * them is not measured; give profile-base=. */
		scalar(em, "run_at_floor"); scalar(em, "true");
	}
	scalar(em, "predicted_kept_instructions"); num_count(em, s.predicted_kept_insns);
	scalar(em, "predicted_added_instructions"); num_count(em, s.predicted_added_insns);
	scalar(em, "predicted_not_chosen"); num_pct(em, s.predicted_not_chosen_pct);
	scalar(em, "predicted_not_chosen_instructions");
	num_count(em, s.predicted_not_chosen_insns);
	scalar(em, "bottleneck");    str(em, s.bottleneck);
	end_map(em);
}

/* One function's entry of the decision file: its metrics, score and
 * decision. */
static void emit_function(emitter *em, const selinst_function *fn)
{
	begin_map(em);
	scalar(em, "name");       str(em, fn->name);
	scalar(em, "symbol");     str(em, fn->symbol);
	scalar(em, "file");       str(em, fn->file);
	scalar(em, "line");       num_ul(em, fn->line);
	scalar(em, "basic_blocks"); num_ul(em, fn->cm.basic_blocks);
	scalar(em, "statements"); num_ul(em, fn->cm.statements);
	scalar(em, "call_sites"); num_ul(em, fn->cm.call_sites);
	scalar(em, "weight");     num_mpz(em, fn->cm.weight);
	scalar(em, "loop_depth"); num_ul(em, fn->cm.loop_depth);
	scalar(em, "called_in_view"); scalar(em, fn->cm.deepest_call_depth >= 0 ? "true" : "false");
	if (fn->cm.pointer_depth >= 0) {
		scalar(em, "pointer_call_depth");
		num_ul(em, fn->cm.pointer_depth);
	}
	if (fn->cm.stored_handler && fn->cm.deepest_call_depth < 0) {
		scalar(em, "stored_handler");
		scalar(em, "true");
	}
	if (fn->cm.external_depth >= 0) {
		scalar(em, "other_units_depth");
		num_ul(em, fn->cm.external_depth);
	}
	if (fn->cm.other_unit_callees) {
		scalar(em, "other_unit_callees");
		num_ul(em, fn->cm.other_unit_callees);
	}
	scalar(em, "has_loops");  scalar(em, fn->cm.has_loops ? "true" : "false");
	if (fn->cm.has_loops) {
		scalar(em, "loop_nest"); num_ul(em, fn->cm.loop_nest);
	}
	scalar(em, "declared_inline"); scalar(em, fn->cm.declared_inline ? "true" : "false");
	scalar(em, "context_depth"); num_ul(em, fn->cm.context_depth);
	scalar(em, "recursive");  scalar(em, fn->cm.recursive ? "true" : "false");
	scalar(em, "from_main");  scalar(em, fn->cm.from_main ? "true" : "false");
	scalar(em, "shallow_caller"); scalar(em, fn->cm.shallow_caller ? "true" : "false");
	scalar(em, "loop_score"); num_mpz(em, fn->cm.loop_score);
	scalar(em, "instrumented_call_sites"); num_ul(em, fn->cm.instrumented_call_sites);
	scalar(em, "callsite_score"); num_mpz(em, fn->cm.callsite_score);
	scalar(em, "score");      num_mpz(em, fn->cm.score);
	scalar(em, "instrument"); scalar(em, fn->cm.instrument ? "true" : "false");
	scalar(em, "reason");     str(em, fn->cm.reason);
	/* inline=on, yet kept out of line (instrument.cc). */
	if (fn->out_of_line_reason) {
		scalar(em, "out_of_line"); str(em, fn->out_of_line_reason);
	}
	if (fn->off_copy) {	/* switched-off copies (instrument.cc) */
		scalar(em, "off_copy"); str(em, fn->off_copy);
	}
	end_map(em);
}

static void emit_document(emitter *em, const selinst_function *fns, size_t n)
{
	begin_document(em);
	scalar(em, "unit");
	str(em, main_input_filename);
	scalar(em, "threshold");
	num_mpz(em, selinst_opts.model.threshold);
	scalar(em, "model");
	scalar(em, selinst_opts.model.refined ? CM_MODEL_DEFAULT_NAME : CM_MODEL_PAPER_NAME);
	scalar(em, "constants");
	begin_map(em, true);
	scalar(em, "block_weight"); num_mpz(em, selinst_opts.model.block_weight);
	scalar(em, "loop_base");    num_mpz(em, selinst_opts.model.loop_base);
	scalar(em, "loop_unit");    num_mpz(em, selinst_opts.model.loop_unit);
	scalar(em, "call_unit");    num_mpz(em, selinst_opts.model.call_unit);
	end_map(em);
	emit_feedback(em);
	scalar(em, "functions");
	begin_seq(em);
	for (size_t i = 0; i < n; i++)
		emit_function(em, &fns[i]);
	end_seq(em);

	scalar(em, "loop_threshold");
	num_mpz(em, selinst_opts.loop_threshold);
	scalar(em, "loops_enabled");
	scalar(em, selinst_opts.loops ? "true" : "false");
	scalar(em, "loops");
	begin_seq(em);
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k < fns[i].nloops; k++) {
			const selinst_loop *l = &fns[i].loops[k];
			begin_map(em);
			scalar(em, "name");       str(em, l->name);
			scalar(em, "function");   str(em, fns[i].name);
			scalar(em, "file");       str(em, l->file);
			scalar(em, "line");       num_ul(em, l->line);
			scalar(em, "nest");       num_ul(em, l->nest);
			scalar(em, "top_tested"); scalar(em, l->test_header ? "true" : "false");
			scalar(em, "basic_blocks"); num_ul(em, l->basic_blocks);
			scalar(em, "statements"); num_ul(em, l->statements);
			scalar(em, "call_sites"); num_ul(em, l->call_sites);
			scalar(em, "weight");     num_mpz(em, l->weight);
			scalar(em, "loop_depth"); num_ul(em, l->depth);
			scalar(em, "loop_score"); num_mpz(em, l->loop_score);
			scalar(em, "instrumented_call_sites"); num_ul(em, l->instrumented_call_sites);
			scalar(em, "callsite_score"); num_mpz(em, l->callsite_score);
			scalar(em, "score");      num_mpz(em, l->score);
			scalar(em, "instrument"); scalar(em, l->instrument ? "true" : "false");
			scalar(em, "reason");     str(em, l->reason);
			end_map(em);
		}
	end_seq(em);
	end_document(em);
}

/* Writes the document EMIT makes to the decision file: the path for
 * UNIT (see unit_path), appended under a lock unless the path is per
 * unit. */
static void write_document(const char *unit, void (*emit)(emitter *, const void *),
			   const void *arg)
{
	const char *pattern = selinst_opts.decisions_path;
	char *path = unit_path(pattern, unit);
	bool per_unit = strstr(pattern, "%u") != NULL;
	FILE *f = fopen(path, per_unit ? "w" : "a");
	if (!f) {
		error("selinst: cannot write decision file %qs: %s", path, xstrerror(errno));
		XDELETEVEC(path);
		return;
	}
	/* Appends from parallel compilations must not interleave. */
	if (!per_unit)
		flock(fileno(f), LOCK_EX);

	emitter em;
	em.ok = yaml_emitter_initialize(&em.e);
	yaml_emitter_set_output(&em.e, write_to_file, f);
	yaml_emitter_set_unicode(&em.e, 1);
	yaml_emitter_set_width(&em.e, -1);
	yaml_event_t ev;
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	event(&em, &ev);
	emit(&em, arg);
	yaml_stream_end_event_initialize(&ev);
	event(&em, &ev);
	if (em.ok)
		em.ok = yaml_emitter_flush(&em.e);
	const char *yaml_error = em.e.problem;
	yaml_emitter_delete(&em.e);

	fflush(f);
	if (!em.ok)
		error("selinst: writing decision file %qs failed: %s", path,
		      yaml_error ? yaml_error : xstrerror(errno));
	else if (ferror(f))
		error("selinst: writing decision file %qs failed: %s", path,
		      xstrerror(errno));
	if (!per_unit)
		flock(fileno(f), LOCK_UN);
	if (fclose(f) != 0)
		error("selinst: closing decision file %qs failed: %s", path,
		      xstrerror(errno));
	XDELETEVEC(path);
}

struct unit_functions {
	const selinst_function *fns;
	size_t n;
};

static void emit_unit(emitter *em, const void *arg)
{
	const unit_functions *u = (const unit_functions *) arg;
	emit_document(em, u->fns, u->n);
}

void selinst_write_decisions(const selinst_function *fns, size_t n)
{
	unit_functions u = { fns, n };
	write_document(NULL, emit_unit, &u);
}

/* The -flto link's document (lto.cc):
 *   lto_link: {output: prog, regions_considered: N}
 *   dropped:
 *     - {name: f, symbol: f, called_at_depth: 3, qualifies_down_to: 1,
 *        reason: "..."}
 * Unit "lto-link-OUTPUT" where the path is per unit (one file a linked
 * program or library). */
struct link_drops {
	const struct selinst_lto_drop *drops;
	size_t n;
	unsigned considered;
	const char *output;
};

static void emit_link(emitter *em, const void *arg)
{
	const link_drops *l = (const link_drops *) arg;
	begin_document(em);
	scalar(em, "lto_link");
	begin_map(em, true);
	scalar(em, "output");             str(em, l->output);
	scalar(em, "regions_considered"); num_ul(em, l->considered);
	end_map(em);
	scalar(em, "dropped");
	begin_seq(em);
	for (size_t i = 0; i < l->n; i++) {
		const selinst_lto_drop *d = &l->drops[i];
		begin_map(em);
		scalar(em, "name");              str(em, d->name);
		scalar(em, "kind");              scalar(em, d->loop ? "loop" : "function");
		scalar(em, "symbol");            str(em, d->symbol);
		scalar(em, "called_at_depth");   num_ul(em, d->depth);
		scalar(em, "qualifies_down_to"); num_ul(em, d->deepest);
		scalar(em, "reason");
		str(em, "-flto link: its call sites put it deeper than it qualifies at; "
			"its hooks' tests folded away");
		end_map(em);
	}
	end_seq(em);
	end_document(em);
}

void selinst_write_link_decisions(const struct selinst_lto_drop *drops, size_t n,
				  unsigned considered, const char *output)
{
	link_drops l = { drops, n, considered, output };
	char *unit = concat("lto-link-", output, NULL);
	write_document(unit, emit_link, &l);
	free(unit);
}

/* The paper's Table 1 layout, plus the decision. */
void selinst_print_table(const selinst_function *fns, size_t n)
{
	char *thr = mpz_get_str(NULL, 10, selinst_opts.model.threshold);
	fprintf(stderr, "selinst: %s, threshold %s, model %s\n",
		main_input_filename ? main_input_filename : "?", thr,
		selinst_opts.model.refined ? CM_MODEL_DEFAULT_NAME : CM_MODEL_PAPER_NAME);
	free(thr);
	fprintf(stderr, "%-32s %8s %20s %24s %16s  %s\n", "Proc.", "Weight",
		"Loop Score (level)", "Callsite Score (sites)", "Inst. Score",
		"Instrumented");
	for (size_t i = 0; i < n; i++) {
		const cm_function *c = &fns[i].cm;
		char *w = mpz_get_str(NULL, 10, c->weight);
		char *l = mpz_get_str(NULL, 10, c->loop_score);
		char *cs = mpz_get_str(NULL, 10, c->callsite_score);
		char *s = mpz_get_str(NULL, 10, c->score);
		char lcol[64], ccol[64];
		snprintf(lcol, sizeof lcol, "%s(%d)", l, c->loop_depth);
		snprintf(ccol, sizeof ccol, "%s(%lu)", cs, c->instrumented_call_sites);
		fprintf(stderr, "%-32s %8s %20s %24s %16s  %s%s%s\n", fns[i].name, w,
			lcol, ccol, s, c->instrument ? "yes" : "no",
			c->reason ? " - " : "", c->reason ? c->reason : "");
		free(w); free(l); free(cs); free(s);
	}
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k < fns[i].nloops; k++) {
			const selinst_loop *lp = &fns[i].loops[k];
			char *w = mpz_get_str(NULL, 10, lp->weight);
			char *l = mpz_get_str(NULL, 10, lp->loop_score);
			char *cs = mpz_get_str(NULL, 10, lp->callsite_score);
			char *s = mpz_get_str(NULL, 10, lp->score);
			char name[96], lcol[64], ccol[64];
			snprintf(name, sizeof name, "  loop %s", lp->name);
			snprintf(lcol, sizeof lcol, "%s(%d)", l, lp->depth);
			snprintf(ccol, sizeof ccol, "%s(%lu)", cs, lp->instrumented_call_sites);
			fprintf(stderr, "%-32s %8s %20s %24s %16s  %s - %s\n", name, w, lcol,
				ccol, s, lp->instrument ? "yes" : "no", lp->reason);
			free(w); free(l); free(cs); free(s);
		}
}
