/* SPDX-License-Identifier: MIT */
/* Memory, arenas, hash maps and small helpers for selinst-report. */
#include "report.h"
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
	fputs("selinst-report: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

struct achunk { struct achunk *next; size_t used, size; char data[]; };

void *arena_alloc(arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct achunk *c = a->head;
	if (!c || c->size - c->used < n) {
		size_t sz = n > (1u << 20) ? n : (1u << 20);
		c = xmalloc(sizeof *c + sz);
		c->next = a->head;
		c->used = 0;
		c->size = sz;
		a->head = c;
	}
	void *p = c->data + c->used;
	c->used += n;
	return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void arena_free(arena *a)
{
	while (a->head) {
		struct achunk *n = a->head->next;
		free(a->head);
		a->head = n;
	}
}

static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
	const unsigned char *s = p;
	h ^= 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	return h;
}

void u64map_init(u64map *m, size_t hint)
{
	size_t cap = 16;
	while (cap < hint * 2)
		cap *= 2;
	m->cap = cap;
	m->n = 0;
	m->keys = xmalloc(cap * sizeof *m->keys);
	memset(m->keys, 0xff, cap * sizeof *m->keys);
	m->vals = xmalloc(cap * sizeof *m->vals);
}

void u64map_free(u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->n = 0;
}

static void u64map_grow(u64map *m)
{
	u64map o = *m;
	u64map_init(m, o.cap);
	for (size_t i = 0; i < o.cap; i++)
		if (o.keys[i] != UINT64_MAX) {
			bool f;
			*u64map_put(m, o.keys[i], &f) = o.vals[i];
		}
	u64map_free(&o);
}

uint32_t *u64map_put(u64map *m, uint64_t key, bool *fresh)
{
	if ((m->n + 1) * 2 > m->cap)
		u64map_grow(m);
	size_t mask = m->cap - 1, i = mix64(key) & mask;
	while (m->keys[i] != UINT64_MAX) {
		if (m->keys[i] == key) {
			*fresh = false;
			return &m->vals[i];
		}
		i = (i + 1) & mask;
	}
	m->keys[i] = key;
	m->vals[i] = 0;
	m->n++;
	*fresh = true;
	return &m->vals[i];
}

uint32_t *u64map_get(const u64map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1, i = mix64(key) & mask;
	while (m->keys[i] != UINT64_MAX) {
		if (m->keys[i] == key)
			return &m->vals[i];
		i = (i + 1) & mask;
	}
	return NULL;
}

const char *kind_name(int kind)
{
	if (kind == K_SAMPLED)
		return "sampled";
	return selinst_profile_kind_name((unsigned)kind);
}

int trip_bucket_of(uint64_t t)
{
	return (int)selinst_trip_bucket(t);
}

static bool parse_u64(const char *s, const char **end, uint64_t *v)
{
	uint64_t x = 0;
	if (*s < '0' || *s > '9')
		return false;
	if (*s == '0' && s[1] >= '0' && s[1] <= '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++)
		if (!u64_push_digit(&x, (unsigned)(*s - '0')))
			return false;
	*end = s;
	*v = x;
	return true;
}

int trip_bucket_parse(const char *s)
{
	const char *e;
	uint64_t lo, hi;
	if (!parse_u64(s, &e, &lo))
		return -1;
	if (!*e)
		hi = lo;
	else if (*e != '-' || !parse_u64(e + 1, &e, &hi) || *e)
		return -1;
	/* Exactly one bucket's name: its bounds, spelt as the writer does. */
	unsigned b = selinst_trip_bucket(lo);
	uint64_t blo, bhi;
	selinst_trip_bucket_bounds(b, &blo, &bhi);
	if (lo != blo || hi != bhi || (lo == hi) != (*s && !strchr(s, '-')))
		return -1;
	return (int)b;
}

void trip_bucket_name(int b, char *buf, size_t n)
{
	selinst_trip_bucket_name((unsigned)b, buf, n);
}

void fmt_secs(char *buf, size_t n, double s)
{
	if (s >= 1e5)
		snprintf(buf, n, "%.3g", s);
	else if (s >= 100)
		snprintf(buf, n, "%.1f", s);
	else
		snprintf(buf, n, "%.3f", s);
}

void json_str(FILE *out, const char *s)
{
	putc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			putc('\\', out);
			putc(*p, out);
		} else if (*p < 0x20) {
			fprintf(out, "\\u%04x", *p);
		} else {
			putc(*p, out);
		}
	}
	putc('"', out);
}

void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			if ((unsigned char)*s < 0x20)
				putc(' ', out);
			else
				putc(*s, out);
		}
	}
}

void fmt_time(char *buf, size_t n, double ns)
{
	static const char *unit[] = { "ns", "us", "ms", "s" };
	int u = 0;
	while (u < 3 && ns >= 999.5) {
		ns /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%.0f%s", ns, unit[u]);
	else if (ns >= 99999.5)		/* over a day: keep within 8 columns */
		snprintf(buf, n, "%.1e%s", ns, unit[u]);
	else if (ns >= 99.95)
		snprintf(buf, n, "%.0f%s", ns, unit[u]);
	else if (ns >= 9.995)
		snprintf(buf, n, "%.1f%s", ns, unit[u]);
	else
		snprintf(buf, n, "%.2f%s", ns, unit[u]);
}

void fmt_fit(char *buf, size_t n, int width, int prec, double d)
{
	if ((int)snprintf(buf, n, "%.*f", prec, d) <= width)
		return;
	/* Too wide: scientific notation, as precise as WIDTH allows. */
	for (int p = width - 6; p >= 0; p--)
		if ((int)snprintf(buf, n, "%.*e", p, d) <= width)
			return;
	snprintf(buf, n, "%.*s", width, "*********************");
}

void fmt_count(char *buf, size_t n, int width, uint64_t x)
{
	if ((int)snprintf(buf, n, "%llu", (unsigned long long)x) > width)
		fmt_fit(buf, n, width, 0, (double)x);
}

void fmt_pct(char *buf, size_t n, double p)
{
	if (p < 999.95)
		snprintf(buf, n, "%.1f%%", p);
	else if (p < 99999.5)
		snprintf(buf, n, "%.0f%%", p);
	else
		snprintf(buf, n, ">9999%%");
}

void put_name(FILE *out, const opts *o, int used, const char *name)
{
	int room = 80 - used;
	int len = (int)strlen(name);
	if (o->wide || len <= room || room < 8)
		fprintf(out, "%s\n", name);
	else
		fprintf(out, "%.*s+\n", room - 1, name);
}
