/* SPDX-License-Identifier: MIT */
/*
 * output_pack.c - a long series of iteration rows, packed (issue 15).
 *
 * Written as text, an iteration costs 10-40 bytes of profile (its wall
 * time and its columns' exclusive times, in decimal ns), so 10,000 of them
 * are 40-100 times a typical whole-run profile.  Most of those digits are
 * noise: jitter detection needs each value to about 0.2%, and a steady loop
 * repeats nearly the same values.  So each value becomes a small code, its
 * logarithm against the column's median in steps of 1/256 (the format's
 * facts are in selinst-profile.h), and the codes are compressed with zlib
 * and written in base64: 0.5-2 bytes per iteration on the bench kernels.
 *
 * zlib is dlopen'ed at start-up where SELINST_ITERATE is set, or at the
 * first selinst_phase_begin (like libdw in sample.c, programs that record
 * no series never map it), not at the write, which may run in a signal
 * handler; its state comes from the
 * write's memory (walloc.c), not malloc.  Without it, or in the static
 * library, the rows stay text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output_iterations.h"
#include "selinst-profile.h"

#ifndef SI_STATIC
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <zlib.h>

/* zlib's functions, where it could be loaded. */
static struct {
	int (*init)(z_streamp, int, int, int, int, int, const char *, int);
	int (*deflate)(z_streamp, int);
	int (*end)(z_streamp);
	uLong (*bound)(z_streamp, uLong);
} zl;

static void load_zlib(void)
{
	void *lib = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return;
	*(void **)&zl.init = dlsym(lib, "deflateInit2_");
	*(void **)&zl.deflate = dlsym(lib, "deflate");
	*(void **)&zl.end = dlsym(lib, "deflateEnd");
	*(void **)&zl.bound = dlsym(lib, "deflateBound");
	if (!zl.init || !zl.deflate || !zl.end || !zl.bound)
		memset(&zl, 0, sizeof zl);
}

void si_pack_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, load_zlib);
}

static voidpf zalloc_write(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	return si_wcalloc(items, size);
}

static void zfree_write(voidpf opaque, voidpf p)
{
	(void)opaque;
	si_wfree(p);
}

/* IN (N bytes) compressed at level 9 into OUT (*ON bytes, then those
 * written): 0, or -1. */
static int deflate_all(unsigned char *out, size_t *on, const unsigned char *in, size_t n)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	z.zalloc = zalloc_write;
	z.zfree = zfree_write;
	if (zl.init(&z, 9, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
		    (int)sizeof z) != Z_OK)
		return -1;
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)*on;
	int rc = zl.deflate(&z, Z_FINISH);
	*on = z.total_out;
	zl.end(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* SCALE[j]: the median of column J's nonzero values (1 when none). */
static int column_medians(const uint64_t *vals, size_t nrows, size_t width, uint64_t *scale)
{
	uint64_t *tmp = si_walloc(nrows * sizeof *tmp);
	if (!tmp)
		return -1;
	for (size_t j = 0; j < width; j++) {
		size_t n = 0;
		for (size_t i = 0; i < nrows; i++)
			if (vals[i * width + j])
				tmp[n++] = vals[i * width + j];
		si_wsort(tmp, n, sizeof *tmp, cmp_u64);
		scale[j] = n ? tmp[n / 2] : 1;
	}
	si_wfree(tmp);
	return 0;
}

/* The codes of VALS, row by row, as varints into OUT (3 bytes a value at
 * most: a code stays under 2^21); the bytes written. */
static size_t varint_codes(const uint64_t *vals, size_t n, size_t width, const uint64_t *scale,
			   unsigned char *out)
{
	size_t o = 0;
	for (size_t k = 0; k < n; k++) {
		uint64_t v = vals[k];
		uint64_t c = v ? selinst_iter_code(log((double)v / (double)scale[k % width])) : 0;
		while (c >= 0x80) {
			out[o++] = (unsigned char)(c | 0x80);
			c >>= 7;
		}
		out[o++] = (unsigned char)c;
	}
	return o;
}

/* N bytes of IN as base64, NUL-terminated, into a new string. */
static char *base64(const unsigned char *in, size_t n)
{
	char *s = si_walloc((n + 2) / 3 * 4 + 1), *o = s;
	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t w = (uint32_t)in[i] << 16;
		if (i + 1 < n)
			w |= (uint32_t)in[i + 1] << 8;
		if (i + 2 < n)
			w |= in[i + 2];
		*o++ = selinst_base64_alphabet[w >> 18];
		*o++ = selinst_base64_alphabet[(w >> 12) & 63];
		*o++ = i + 1 < n ? selinst_base64_alphabet[(w >> 6) & 63] : '=';
		*o++ = i + 2 < n ? selinst_base64_alphabet[w & 63] : '=';
	}
	*o = 0;
	return s;
}

int si_pack_rows(const uint64_t *vals, size_t nrows, size_t width, uint64_t *scale,
		 size_t *raw_bytes, char **text)
{
	size_t n = nrows * width;
	if (!zl.init || 3 * n + 1 > UINT32_MAX || column_medians(vals, nrows, width, scale) != 0)
		return -1;
	unsigned char *raw = si_walloc(3 * n + 1);
	size_t zn = raw ? zl.bound(NULL, 3 * n + 1) : 0;
	unsigned char *z = raw ? si_walloc(zn) : NULL;
	int rc = -1;
	if (z) {
		*raw_bytes = varint_codes(vals, n, width, scale, raw);
		if (deflate_all(z, &zn, raw, *raw_bytes) == 0 && (*text = base64(z, zn)))
			rc = 0;
	}
	si_wfree(raw);
	si_wfree(z);
	return rc;
}
#else
void si_pack_init(void)
{
}

int si_pack_rows(const uint64_t *vals, size_t nrows, size_t width, uint64_t *scale,
		 size_t *raw_bytes, char **text)
{
	(void)vals, (void)nrows, (void)width, (void)scale, (void)raw_bytes, (void)text;
	return -1;	/* the static library keeps text rows: no dlopen there */
}
#endif
