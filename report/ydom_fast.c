/* SPDX-License-Identifier: MIT */
/*
 * Fast path of ydom.c: a parser for the plain YAML subset that profiles
 * use, building the same ynode tree libyaml's events would.  Accepted:
 *   - block mappings and sequences by indentation ("key:" then a nested
 *     block, or a sequence at the key's own indentation, as libyaml's
 *     emitter writes it; "- key: v" items continuing on later lines);
 *   - one-line flow mappings of scalars: {a: 1, "b": x};
 *   - plain scalars and double-quoted scalars without escapes;
 *   - whole-line comments and blank lines.
 * Anything else (tabs, CR, non-ASCII bytes, escapes, anchors, tags, flow
 * sequences, multi-line scalars, document markers, odd indentation...)
 * makes it return NULL, and the caller parses with libyaml, so this code
 * never has to produce an error message or decide a hard case.
 */
#include "report.h"
#include <setjmp.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct fp {
	const char *buf, *end;
	const char *next;	/* start of the line after the current one */
	const char *c;		/* current content position */
	const char *eol;	/* end of the current line (at '\n' or end) */
	int ind;		/* indentation of the current (virtual) line; -1 at EOF */
	unsigned line;		/* 1-based number of the current line */
	unsigned nextline;
	int depth;
	arena *a;
	jmp_buf jb;
} fp;

__attribute__((noreturn)) static void bail(fp *f) { longjmp(f->jb, 1); }

static ynode *mk(fp *f, int type) { return ynode_new(f->a, type, f->line); }

/* Advance to the next line with content; skips blank and comment lines. */
static void next_line(fp *f)
{
	for (;;) {
		if (f->next >= f->end) {
			f->ind = -1;
			f->c = f->eol = f->end;
			return;
		}
		const char *s = f->next, *e = memchr(s, '\n', (size_t)(f->end - s));
		if (!e)
			e = f->end;
		f->line = f->nextline++;
		f->next = e < f->end ? e + 1 : f->end;
		const char *q = s;
		for (const char *k = s; k < e; k++) {
			unsigned char ch = (unsigned char)*k;
			if (ch < 0x20 || ch >= 0x7f)
				bail(f);	/* tab, CR, control, non-ASCII */
		}
		while (q < e && *q == ' ')
			q++;
		if (q == e || *q == '#')
			continue;
		if (q == s && e - s >= 3 && (!memcmp(s, "---", 3) || !memcmp(s, "...", 3)))
			bail(f);
		if (*q == '%' && q == s)
			bail(f);
		f->ind = (int)(q - s);
		f->c = q;
		f->eol = e;
		return;
	}
}

static bool is_dash(const fp *f)
{
	return f->c < f->eol && f->c[0] == '-' && (f->c + 1 == f->eol || f->c[1] == ' ');
}

/* A scalar at P (not past END).  FLOW: stop at ',' or '}'.  Returns the
 * position after it (trailing spaces skipped). */
static const char *scalar(fp *f, const char *p, const char *end, bool flow, ynode **out)
{
	ynode *n = mk(f, Y_SCALAR);
	if (p < end && *p == '"') {
		const char *q = p + 1;
		while (q < end && *q != '"') {
			if (*q == '\\')
				bail(f);
			q++;
		}
		if (q >= end)
			bail(f);
		n->s = arena_strndup(f->a, p + 1, (size_t)(q - p - 1));
		n->plain = 0;
		p = q + 1;
	} else {
		if (p < end && strchr("-?:,[]{}#&*!|>'%@`", *p))
			bail(f);
		const char *q = p;
		while (q < end) {
			if (*q == ':' && (q + 1 == end || q[1] == ' '))
				break;
			if (*q == ':' && flow)
				bail(f);	/* libyaml rejects "a:b" in flow context */
			if (*q == '#' && q > p && q[-1] == ' ')
				bail(f);
			if (flow && (*q == ',' || *q == '}' || *q == '{' || *q == '[' || *q == ']'))
				break;
			q++;
		}
		const char *e = q;
		while (e > p && e[-1] == ' ')
			e--;
		n->s = arena_strndup(f->a, p, (size_t)(e - p));
		n->plain = 1;
		p = q;
	}
	while (p < end && *p == ' ')
		p++;
	*out = n;
	return p;
}

static ynode *block(fp *f, int ind);

/* "{k: v, ...}" starting at P (on '{'), values scalars or nested flow
 * maps, all before END; returns the position after the closing brace. */
static const char *flow_items(fp *f, const char *p, const char *end, ynode **out)
{
	if (++f->depth > MAX_DEPTH)
		bail(f);
	ynode *m = mk(f, Y_MAP);
	p++;
	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '}') {
		p++;
	} else {
		for (;;) {
			ynode *k, *v;
			if (p < end && *p == '{')
				bail(f);
			p = scalar(f, p, end, true, &k);
			if (p >= end || *p != ':' || !k->s[0])
				bail(f);
			p++;
			if (p >= end || *p != ' ')
				bail(f);
			while (p < end && *p == ' ')
				p++;
			if (p >= end || *p == ',' || *p == '}' || *p == '[')
				bail(f);
			if (*p == '{') {
				p = flow_items(f, p, end, &v);
				while (p < end && *p == ' ')
					p++;
			} else {
				p = scalar(f, p, end, true, &v);
			}
			ynode_append(m, k);
			ynode_append(m, v);
			if (p < end && *p == ',') {
				p++;
				while (p < end && *p == ' ')
					p++;
				if (p < end && *p == '}')
					bail(f);
				continue;
			}
			if (p < end && *p == '}') {
				p++;
				break;
			}
			bail(f);
		}
	}
	f->depth--;
	*out = m;
	return p;
}

/* A one-line flow map at f->c; moves to the next line. */
static ynode *flow_map(fp *f)
{
	ynode *m;
	const char *p = flow_items(f, f->c, f->eol, &m);
	while (p < f->eol && *p == ' ')
		p++;
	if (p != f->eol)
		bail(f);
	next_line(f);
	return m;
}

/* Content at f->c that is not a block collection start: a flow map or a
 * scalar filling the rest of the line.  Moves to the next line. */
static ynode *inline_value(fp *f)
{
	if (*f->c == '{')
		return flow_map(f);
	ynode *s;
	const char *p = scalar(f, f->c, f->eol, false, &s);
	if (p != f->eol)
		bail(f);
	next_line(f);
	return s;
}

/* Does the content at f->c start with "key:" (then space or end)? */
static bool looks_like_key(const fp *f)
{
	const char *p = f->c, *e = f->eol;
	if (p < e && *p == '"') {
		const char *q = memchr(p + 1, '"', (size_t)(e - p - 1));
		return q && q + 1 < e && q[1] == ':' && (q + 2 == e || q[2] == ' ');
	}
	for (; p < e; p++)
		if (*p == ':' && (p + 1 == e || p[1] == ' '))
			return true;
	return false;
}

static ynode *map(fp *f, int ind)
{
	ynode *m = mk(f, Y_MAP);
	while (f->ind == ind) {
		if (is_dash(f) || !looks_like_key(f))
			bail(f);
		ynode *k, *v;
		const char *p = scalar(f, f->c, f->eol, false, &k);
		if (p >= f->eol || *p != ':' || !k->s[0])
			bail(f);
		p++;
		while (p < f->eol && *p == ' ')
			p++;
		if (p == f->eol) {
			unsigned kl = f->line;
			next_line(f);
			if (f->ind > ind) {
				v = block(f, f->ind);
			} else if (f->ind == ind && is_dash(f)) {
				v = block(f, ind);
			} else {
				v = mk(f, Y_SCALAR);
				v->s = "";
				v->plain = 1;
				v->line = kl;
			}
		} else {
			f->c = p;
			v = inline_value(f);
			if (f->ind > ind)
				bail(f);	/* a continuation line or bad indentation */
		}
		ynode_append(m, k);
		ynode_append(m, v);
	}
	if (f->ind > ind)
		bail(f);
	return m;
}

static ynode *seq(fp *f, int ind)
{
	ynode *s = mk(f, Y_SEQ);
	while (f->ind == ind && is_dash(f)) {
		const char *p = f->c + 1;
		while (p < f->eol && *p == ' ')
			p++;
		ynode *item;
		if (p == f->eol) {
			next_line(f);
			if (f->ind > ind)
				item = block(f, f->ind);
			else
				bail(f);	/* "-" alone: a null item, rare: libyaml */
		} else {
			/* The item's content becomes a virtual line at its column. */
			int col = ind + (int)(p - f->c);
			f->c = p;
			f->ind = col;
			if (is_dash(f) || ++f->depth > MAX_DEPTH)
				bail(f);
			if (*p != '{' && looks_like_key(f))
				item = map(f, col);
			else
				item = inline_value(f);
			f->depth--;
		}
		ynode_append(s, item);
	}
	if (f->ind > ind)
		bail(f);
	return s;
}

static ynode *block(fp *f, int ind)
{
	if (++f->depth > MAX_DEPTH)
		bail(f);
	ynode *n;
	if (is_dash(f))
		n = seq(f, ind);
	else if (*f->c == '{' || !looks_like_key(f))
		n = inline_value(f);	/* a lone scalar or flow map as the value */
	else
		n = map(f, ind);
	f->depth--;
	return n;
}

ynode *ydom_parse_fast(const char *buf, size_t len, arena *a)
{
	fp f;
	memset(&f, 0, sizeof f);
	f.buf = buf;
	f.end = buf + len;
	f.next = buf;
	f.nextline = 1;
	f.a = a;
	if (setjmp(f.jb))
		return NULL;
	next_line(&f);
	if (f.ind != 0 || is_dash(&f) || !looks_like_key(&f))
		bail(&f);
	ynode *root = map(&f, 0);
	if (f.ind != -1)
		bail(&f);
	return root;
}
