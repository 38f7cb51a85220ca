/* SPDX-License-Identifier: MIT */
/* Four loop shapes for bench/loop-counter.sh: what a loop region's
 * iteration counter costs an iteration, by whether GCC folds it away. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
typedef uint64_t u64;
__attribute__((noinline)) u64 dowhile(const unsigned char *p, const unsigned char *end)
{	/* xxhash-like: pointer, bottom-tested */
	u64 v = 1; const unsigned char *limit = end - 32;
	do { v = v * 31 + *(const u64 *)p; v ^= *(const u64 *)(p + 8); v += *(const u64 *)(p + 16); v ^= *(const u64 *)(p + 24); p += 32; } while (p <= limit);
	return v;
}
__attribute__((noinline)) void fortop(const unsigned *in, unsigned char *out, unsigned n)
{	/* seqToCodes-like */
	for (unsigned u = 0; u < n; u++) out[u] = (unsigned char)(in[u] > 63 ? 20 + (in[u] >> 3) : in[u]);
}
__attribute__((noinline)) u64 whiletop(const unsigned char *p, const unsigned char *end)
{
	u64 v = 0;
	while (p + 4 <= end) { v += p[0] * 3 + p[1] * 5 + p[2] + p[3]; p += 4; }
	return v;
}
__attribute__((noinline)) u64 datadep(const unsigned *a, unsigned n)
{
	u64 v = 0; unsigned i = 0;
	while (a[i] != 0 && i < n) { v += a[i]; i += 1 + (a[i] & 1); }
	return v;
}
int main(int argc, char **argv)
{
	unsigned n = 1 << 20;
	unsigned char *buf = malloc(n * 4 + 64); unsigned *in = (unsigned *)buf;
	for (unsigned i = 0; i < n; i++) in[i] = i * 2654435761u % 1000 + 1;
	unsigned char *out = malloc(n);
	u64 s = 0;
	s += dowhile(buf, buf + n * 4);
	fortop(in, out, n); s += out[n / 2];
	s += whiletop(buf, buf + n * 4);
	s += datadep(in, n);
	printf("%llu\n", (unsigned long long)s);
	return 0;
}
