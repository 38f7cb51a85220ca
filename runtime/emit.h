/* SPDX-License-Identifier: MIT */
/*
 * emit.h - the profile writer's YAML emitter (emit.c), used by output.c
 * and output_iterations.c: block and flow collections and scalars in, the
 * text out through a buffer, the first failure remembered in `ok`.
 *
 * It writes the layout libyaml's emitter wrote for the same events (block
 * mappings indented by 2, sequences in a mapping not indented, flow
 * collections on one line, no line folding, UTF-8 as is), at about 35
 * instructions a byte instead of about 200: the write at exit was most of
 * what a default build cost over the plain one on small runs (zstd: 6 of
 * 9 million instructions; bench/README.md, "Real projects").
 */
#ifndef SELINST_EMIT_H
#define SELINST_EMIT_H

#include "internal.h"
#include <stddef.h>
#include <stdint.h>

#define EM_MAX_DEPTH 32
#define EM_BUF 16384

struct em_level {
	char kind;		/* 'M' block mapping, 'S' block sequence,
				   'm' flow mapping, 's' flow sequence */
	char pending;		/* block collection as a mapping's value,
				   nothing of it written yet */
	int indent;		/* of its keys or its "- " */
	size_t n;		/* scalars and collections in it so far */
};

struct em {
	int ok;
	int (*out)(void *data, unsigned char *buf, size_t len);
	void *data;
	int same_line;		/* the next key or item follows "- " */
	unsigned depth;
	struct em_level lv[EM_MAX_DEPTH];
	size_t len;
	unsigned char buf[EM_BUF];
};

SI_HIDDEN void em_init(struct em *m, int (*out)(void *data, unsigned char *buf, size_t len),
		       void *data);
SI_HIDDEN int em_flush(struct em *m);
/* A scalar: plain when PLAIN and the text needs no quotes, else
 * double-quoted (bytes that are not UTF-8 become '?'). */
SI_HIDDEN void em_scalar(struct em *m, const char *s, int plain);
SI_HIDDEN void em_open(struct em *m, char kind);
SI_HIDDEN void em_close(struct em *m);

static inline void plain(struct em *m, const char *s) { em_scalar(m, s, 1); }
static inline void quoted(struct em *m, const char *s) { em_scalar(m, s ? s : "", 0); }
static inline void kstr(struct em *m, const char *k, const char *v) { plain(m, k); quoted(m, v); }
static inline void kraw(struct em *m, const char *k, const char *v) { plain(m, k); plain(m, v); }

/* V in decimal into B (at least 21 bytes): snprintf costs about 700
 * instructions a number. */
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
	plain(m, k);
	plain(m, u64_decimal(b, v));
}
static inline void uint_scalar(struct em *m, uint64_t v)
{
	char b[24];
	plain(m, u64_decimal(b, v));
}

static inline void map_start(struct em *m, int flow) { em_open(m, flow ? 'm' : 'M'); }
static inline void map_end(struct em *m) { em_close(m); }
static inline void seq_start(struct em *m) { em_open(m, 'S'); }
static inline void flow_seq_start(struct em *m) { em_open(m, 's'); }
static inline void seq_end(struct em *m) { em_close(m); }

#endif
