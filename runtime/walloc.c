/* SPDX-License-Identifier: MIT */
/*
 * walloc.c - the memory of one profile write: blocks from mmap, given
 * back together when the write ends.
 *
 * A write may run where malloc must not: in the handler of a fatal signal
 * (SIGTERM, SIGINT) that interrupted malloc in a program with threads,
 * where the arena's lock is held by the interrupted code and every
 * allocation waits for it forever (9 SIGTERMs of 10 to a malloc-heavy
 * program with threads lost their profile to that), or in a single-
 * threaded one, whose lists may be half updated.  And at a normal exit
 * the first large malloc of the exiting thread consolidates every small
 * chunk the program freed, work the plain program never does.  So the
 * write takes its memory here, and sorts without qsort (glibc's mallocs
 * a copy).  Nothing here is shared between threads: each write has its
 * own arena (si_wbegin, on its stack), the thread's current one in TLS,
 * nested when a signal handler writes during a write.
 *
 * Outside a write (a thread's copy kept at its exit, snapshot.c) the
 * same calls fall back to malloc and free.
 */
#include "internal.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct si_wblock {
	struct si_wblock *prev;
	size_t size, used;	/* bytes, this header included */
};

static __thread struct si_warena *current __attribute__((tls_model("initial-exec")));

#define WBLOCK_BYTES ((size_t)256 * 1024)
#define WALIGN 16

void si_wbegin(struct si_warena *a)
{
	a->top = NULL;
	a->outer = current;
	current = a;
}

/* The blocks are unlinked before they are unmapped: a handler that
 * writes meanwhile looks through the arenas it finds (si_wfree) and must
 * not meet one half gone. */
void si_wend(struct si_warena *a)
{
	struct si_wblock *b = a->top;
	a->top = NULL;
	current = a->outer;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	for (struct si_wblock *prev; b; b = prev) {
		prev = b->prev;
		munmap(b, b->size);
	}
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

void *si_walloc(size_t n)
{
	struct si_warena *a = current;
	if (!a)
		return malloc(n);
	if (n > SIZE_MAX / 2)
		return NULL;
	size_t need = round_up(n ? n : 1, WALIGN) + WALIGN;	/* its size first */
	struct si_wblock *b = a->top;
	size_t head = round_up(sizeof *b, WALIGN);
	if (!b || b->size - b->used < need) {
		size_t size = round_up(head + need, 4096);
		if (size < WBLOCK_BYTES)
			size = WBLOCK_BYTES;
		struct si_wblock *nb = si_mmap(size);
		if (!nb)
			return NULL;	/* si_mmap kept errno; the caller says ENOMEM */
		nb->size = size;
		nb->used = head;
		nb->prev = b;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* linked whole */
		a->top = nb;
		b = nb;
	}
	char *p = (char *)b + b->used;
	b->used += need;
	*(size_t *)p = n;	/* for si_wrealloc */
	return p + WALIGN;
}

/* Fresh blocks from mmap are zero; a block's free tail has never been
 * used, or was cleared by si_wrelease: both read as zeros already. */
void *si_wcalloc(size_t n, size_t size)
{
	if (!current)
		return calloc(n, size);
	if (size && n > SIZE_MAX / size)
		return NULL;
	return si_walloc(n * size);
}

static int in_arena(const struct si_warena *a, const void *p)
{
	for (const struct si_wblock *b = a->top; b; b = b->prev)
		if ((const char *)p >= (const char *)b && (const char *)p < (const char *)b + b->size)
			return 1;
	return 0;
}

static int from_a_write(const void *p)
{
	for (const struct si_warena *a = current; a; a = a->outer)
		if (in_arena(a, p))
			return 1;
	return 0;
}

/* Memory of a write goes back at its end (or at si_wrelease); what
 * malloc gave outside any write, to free.  Inside a write everything
 * freed is the write's (exited threads' copies are never freed there):
 * no search through the blocks, whose number grows with the write. */
void si_wfree(void *p)
{
	if (p && !current)
		free(p);
}

/* A point to go back to (si_wrelease): what a write allocated after it,
 * for one thread's tables or one series, is given back before the next
 * one's, so the write's peak is its largest part, not their sum. */
void si_wmark(struct si_wspot *m)
{
	struct si_warena *a = current;
	m->block = a ? a->top : NULL;
	m->used = m->block ? m->block->used : 0;
}

void si_wrelease(const struct si_wspot *m)
{
	struct si_warena *a = current;
	if (!a)
		return;
	struct si_wblock *b = a->top;
	while (b && b != m->block) {
		struct si_wblock *prev = b->prev;
		a->top = prev;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* unlinked, then unmapped */
		munmap(b, b->size);
		b = prev;
	}
	if (b && b->used > m->used) {
		/* si_wcalloc counts on memory never handed out being zero. */
		memset((char *)b + m->used, 0, b->used - m->used);
		b->used = m->used;
	}
}

/* A block of a write grows by a copy (the old one stays until the end of
 * the write); one from malloc by realloc. */
void *si_wrealloc(void *p, size_t n)
{
	if (!p)
		return si_walloc(n);
	if (!from_a_write(p))
		return realloc(p, n);
	size_t old = *(const size_t *)((const char *)p - WALIGN);
	void *q = si_walloc(n);
	if (q)
		memcpy(q, p, old < n ? old : n);
	return q;
}

char *si_wstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = si_walloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* ---- sorting without memory: heapsort --------------------------------- */

static void swap_bytes(char *x, char *y, size_t size)
{
	while (size--) {
		char t = *x;
		*x++ = *y;
		*y++ = t;
	}
}

static void sift_down(char *base, size_t root, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t child = 2 * root + 1;
		if (child >= n)
			return;
		if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0)
			child++;
		if (cmp(base + root * size, base + child * size) >= 0)
			return;
		swap_bytes(base + root * size, base + child * size, size);
		root = child;
	}
}

void si_wsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char *b = base;
	if (n < 2)
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(b, i, n, size, cmp);
	for (size_t end = n - 1; end > 0; end--) {
		swap_bytes(b, b + end * size, size);
		sift_down(b, 0, end, size, cmp);
	}
}
