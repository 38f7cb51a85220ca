/* SPDX-License-Identifier: MIT */
/*
 * emit.c - the profile's YAML text (see emit.h): libyaml's layout, written
 * directly.  Every node first asks its parent what goes before it (an
 * indent, "- ", ", ", ": "); a block collection that is a mapping's value
 * writes its line break only with its first member, so an empty one can
 * still become {} or [] on the key's line.
 */
#include "emit.h"
#include <string.h>

enum role { ROOT, KEY, VALUE, ITEM, FLOW };

void em_init(struct em *m, int (*out)(void *data, unsigned char *buf, size_t len), void *data)
{
	memset(m, 0, offsetof(struct em, buf));
	m->ok = 1;
	m->out = out;
	m->data = data;
}

int em_flush(struct em *m)
{
	if (m->ok && m->len && !m->out(m->data, m->buf, m->len))
		m->ok = 0;
	m->len = 0;
	return m->ok;
}

/* Appends N bytes: a memcpy while they fit, the flush when not. */
static inline void put(struct em *m, const void *p, size_t n)
{
	const unsigned char *s = p;
	if (m->len + n <= EM_BUF) {
		/* Most pieces are a few bytes: libc's memcpy costs more
		 * to call than to copy them. */
		unsigned char *d = m->buf + m->len;
		m->len += n;
		if (n > 16)
			memcpy(d, s, n);
		else
			while (n--)
				*d++ = *s++;
		return;
	}
	while (n && m->ok) {
		if (m->len == EM_BUF && !em_flush(m))
			return;
		size_t k = EM_BUF - m->len < n ? EM_BUF - m->len : n;
		memcpy(m->buf + m->len, s, k);
		m->len += k;
		s += k;
		n -= k;
	}
}

static inline void put_c(struct em *m, char c)
{
	if (m->len == EM_BUF && !em_flush(m))
		return;
	m->buf[m->len++] = (unsigned char)c;
}

static __attribute__((noinline)) void spaces(struct em *m, int n)
{
	static const char blank[] = "                                ";
	for (; n > 0; n -= (int)sizeof blank - 1)
		put(m, blank, n < (int)sizeof blank - 1 ? (size_t)n : sizeof blank - 1);
}

/* Before a node in block context: the indent or "- ", its role. */
static __attribute__((noinline)) enum role before_block_node(struct em *m, struct em_level *p,
							   size_t i)
{
	if (p->kind == 'M' && i % 2)
		return VALUE;
	if (p->pending) {
		put_c(m, '\n');
		p->pending = 0;
	}
	if (m->same_line)
		m->same_line = 0;
	else
		spaces(m, p->indent);
	if (p->kind == 'M')
		return KEY;
	put(m, "- ", 2);
	return ITEM;
}

/* Before a node: what its place in the parent writes first; its role.
 * Inline: most nodes are the members of a node's flow mapping. */
static inline enum role before_node(struct em *m)
{
	if (!m->depth)
		return ROOT;
	struct em_level *p = &m->lv[m->depth - 1];
	size_t i = p->n++;
	if (p->kind == 'm' || p->kind == 's') {
		if (i)
			put(m, p->kind == 'm' && i % 2 ? ": " : ", ", 2);
		return FLOW;
	}
	return before_block_node(m, p, i);
}

/* Code point of the valid UTF-8 sequence at S (length *N), or -1. */
static long utf8_at(const unsigned char *s, size_t *n)
{
	unsigned char c = s[0];
	size_t len = c < 0x80 ? 1 : c >= 0xC2 && c < 0xE0 ? 2 : (c & 0xF0) == 0xE0 ? 3 :
		     c >= 0xF0 && c < 0xF5 ? 4 : 0;
	if (!len)
		return -1;
	long v = len == 1 ? c : c & (0x7F >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return -1;
		v = v << 6 | (s[i] & 0x3F);
	}
	static const long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (v < least[len] || (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF)
		return -1;
	*n = len;
	return v;
}

/* What YAML may hold unescaped in a double-quoted scalar (libyaml's
 * printable set less the line breaks, U+2028 and U+2029 included: a
 * reader folds them with the spaces before them; and the byte order
 * mark). */
static int printable(long c)
{
	return (c >= 0x20 && c <= 0x7E) || (c >= 0xA0 && c <= 0xD7FF && c != 0x2028 && c != 0x2029)
		|| (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF) || c >= 0x10000;
}

static void escape(struct em *m, long c)
{
	static const char from[] = "\0\a\b\t\n\v\f\r\x1b\"\\";
	static const char to[] = "0abtnvfre\"\\";
	const char *f = c < 0x80 ? memchr(from, (int)c, sizeof from - 1) : NULL;
	char b[12];
	if (f) {
		b[0] = '\\';
		b[1] = to[f - from];
		put(m, b, 2);
		return;
	}
	int digits = c <= 0xFF ? 2 : c <= 0xFFFF ? 4 : 8;
	b[0] = '\\';
	b[1] = digits == 2 ? 'x' : digits == 4 ? 'u' : 'U';
	for (int i = 0; i < digits; i++)
		b[2 + i] = "0123456789ABCDEF"[(c >> (4 * (digits - 1 - i))) & 0xF];
	put(m, b, (size_t)digits + 2);
}

/* Bytes that are not UTF-8 become '?' (the reader would refuse them). */
static void put_quoted(struct em *m, const unsigned char *s)
{
	put_c(m, '"');
	while (*s) {
		size_t n = 0;
		while (s[n] >= 0x20 && s[n] < 0x7F && s[n] != '"' && s[n] != '\\')
			n++;
		if (n) {	/* printable ASCII, in one piece */
			put(m, s, n);
			s += n;
			continue;
		}
		n = 1;
		long c = utf8_at(s, &n);
		if (c < 0)
			put_c(m, '?');
		else if (c != '"' && c != '\\' && printable(c))
			put(m, s, n);
		else
			escape(m, c);
		s += n;
	}
	put_c(m, '"');
}

/* Bytes plain text may hold and read back as itself: keys, numbers,
 * true/false, ~. */
static const unsigned char plain_byte[256] = {
	['a' ... 'z'] = 1, ['A' ... 'Z'] = 1, ['0' ... '9'] = 1,
	['_'] = 1, ['.'] = 1, ['~'] = 1, ['+'] = 1, ['-'] = 1, ['/'] = 1,
};

/* Writes S plain, as it is scanned, when every byte allows it and it
 * fits the buffer; else writes nothing and returns 0. */
static int put_plain(struct em *m, const char *s)
{
	unsigned char *d = m->buf + m->len, *end = m->buf + EM_BUF;
	const unsigned char *u = (const unsigned char *)s;
	while (d < end && plain_byte[*u])
		*d++ = *u++;
	size_t n = (size_t)(d - (m->buf + m->len));
	if (*u || !n || (n == 1 && s[0] == '-'))
		return 0;	/* not plain, or did not fit: the caller's path */
	m->len += n;
	return 1;
}

/* Length of S when it can be written plain, else 0. */
static size_t plain_length(const char *s)
{
	size_t n = 0;
	while (plain_byte[(unsigned char)s[n]])
		n++;
	if (s[n] || (n == 1 && s[0] == '-'))
		return 0;
	return n;
}

void em_scalar(struct em *m, const char *s, int plain_style)
{
	if (!m->ok)
		return;
	enum role r = before_node(m);
	if (r == VALUE)
		put_c(m, ' ');
	size_t n;
	if (plain_style && put_plain(m, s))
		;
	else if (plain_style && (n = plain_length(s)))
		put(m, s, n);		/* plain, at the buffer's end */
	else
		put_quoted(m, (const unsigned char *)s);
	if (r == KEY)
		put_c(m, ':');
	else if (r != FLOW)
		put_c(m, '\n');
}

void em_open(struct em *m, char kind)
{
	if (!m->ok)
		return;
	if (m->depth == EM_MAX_DEPTH) {
		m->ok = 0;
		return;
	}
	int parent_indent = m->depth ? m->lv[m->depth - 1].indent : 0;
	enum role r = before_node(m);
	if (r == KEY) {		/* collections as keys: not in the format */
		m->ok = 0;
		return;
	}
	struct em_level *l = &m->lv[m->depth++];
	l->n = 0;
	l->pending = 0;
	l->indent = 0;
	if (r == FLOW || kind == 'm' || kind == 's') {
		l->kind = kind == 'M' ? 'm' : kind == 'S' ? 's' : kind;
		if (r == VALUE)
			put_c(m, ' ');
		put_c(m, l->kind == 'm' ? '{' : '[');
		return;
	}
	l->kind = kind;
	if (r == VALUE) {
		l->pending = 1;
		/* A sequence in a mapping is not indented (libyaml's layout). */
		l->indent = kind == 'M' ? parent_indent + 2 : parent_indent;
	} else if (r == ITEM) {
		l->indent = parent_indent + 2;
		m->same_line = 1;
	}
}

void em_close(struct em *m)
{
	if (!m->ok || !m->depth)
		return;
	struct em_level *l = &m->lv[--m->depth];
	int in_flow = m->depth && (m->lv[m->depth - 1].kind == 'm' || m->lv[m->depth - 1].kind == 's');
	int value = m->depth && m->lv[m->depth - 1].kind == 'M';
	if (l->kind == 'm' || l->kind == 's') {
		put_c(m, l->kind == 'm' ? '}' : ']');
		if (!in_flow)
			put_c(m, '\n');
		return;
	}
	if (l->n)
		return;
	/* Empty: {} or [] where its first member would have gone. */
	m->same_line = 0;
	if (value)
		put_c(m, ' ');
	put(m, l->kind == 'M' ? "{}\n" : "[]\n", 3);
}
