/* SPDX-License-Identifier: MIT */
/*
 * emit.h - the profile writer's libyaml emitter helpers (output.c,
 * output_iterations.c): events in, the first failure remembered in `ok`.
 */
#ifndef SELINST_EMIT_H
#define SELINST_EMIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct em { yaml_emitter_t e; int ok; };

static inline void ev(struct em *m, yaml_event_t *e)
{
	if (m->ok && !yaml_emitter_emit(&m->e, e))
		m->ok = 0;
}

static inline void scal(struct em *m, const char *s, yaml_scalar_style_t style)
{
	yaml_event_t e;
	if (!m->ok)
		return;
	if (!yaml_scalar_event_initialize(&e, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
					  1, 1, style)) {
		m->ok = 0;
		return;
	}
	ev(m, &e);
}

/* Length of the valid UTF-8 sequence at S, or 0. */
static inline size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 :
		   (s[0] & 0xF8) == 0xF0 ? 4 : 0;
	if (n == 2 && s[0] < 0xC2)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

static inline void plain(struct em *m, const char *s) { scal(m, s, YAML_PLAIN_SCALAR_STYLE); }

/* A string value, double-quoted; bytes that are not UTF-8 (libyaml would
 * refuse the whole document) become '?'. */
static inline void quoted(struct em *m, const char *s)
{
	if (!s)
		s = "";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;
	while (u[i] && (n = utf8_len(u + i)))
		i += n;
	if (!u[i]) {
		scal(m, s, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
		return;
	}
	char *c = strdup(s);
	if (!c) {
		m->ok = 0;
		return;
	}
	for (i = 0; c[i];) {
		n = utf8_len((unsigned char *)c + i);
		if (!n) {
			c[i] = '?';
			n = 1;
		}
		i += n;
	}
	scal(m, c, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	free(c);
}
static inline void kstr(struct em *m, const char *k, const char *v) { plain(m, k); quoted(m, v); }
static inline void kraw(struct em *m, const char *k, const char *v) { plain(m, k); plain(m, v); }
/* V in decimal into B (at least 21 bytes): snprintf costs about 700
 * instructions a number, a tenth of the profile write's per-value cost. */
static inline const char *u64_decimal(char *b, uint64_t v)
{
	char *p = b + 20;
	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return p;
}
static inline void kint(struct em *m, const char *k, uint64_t v)
{
	char b[24];
	kraw(m, k, u64_decimal(b, v));
}

static inline void map_start(struct em *m, int flow)
{
	yaml_event_t e;
	yaml_mapping_start_event_initialize(&e, NULL, NULL, 1,
		flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	ev(m, &e);
}
static inline void map_end(struct em *m) { yaml_event_t e; yaml_mapping_end_event_initialize(&e); ev(m, &e); }
static inline void seq_start(struct em *m)
{
	yaml_event_t e;
	yaml_sequence_start_event_initialize(&e, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	ev(m, &e);
}
static inline void seq_end(struct em *m) { yaml_event_t e; yaml_sequence_end_event_initialize(&e); ev(m, &e); }
static inline void flow_seq_start(struct em *m)
{
	yaml_event_t e;
	yaml_sequence_start_event_initialize(&e, NULL, NULL, 1, YAML_FLOW_SEQUENCE_STYLE);
	ev(m, &e);
}
static inline void uint_scalar(struct em *m, uint64_t v)
{
	char b[24];
	plain(m, u64_decimal(b, v));
}

#endif
