/* Helpers a header gives to every unit that includes it. */
#ifndef C_STATIC_INLINE_H
#define C_STATIC_INLINE_H
static inline int hdr_min(int a, int b) { return a < b ? a : b; }
static inline int hdr_max(int a, int b) { return a > b ? a : b; }
static inline int hdr_clamp(int x, int lo, int hi) { return hdr_max(lo, hdr_min(x, hi)); }
static inline unsigned hdr_hash(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}
static inline int hdr_unused(int x) { return x * 42; }	/* never called */
#endif
