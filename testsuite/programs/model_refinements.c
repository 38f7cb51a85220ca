/* The default model's refinements (README "The cost model"), in the shape
 * that issue 10 found in lz4: a tiny helper and a small loop called at
 * depth 0 inside an always_inline function that runs in a triple loop;
 * an inline loop-free wrapper; a function with a loop called once. */
#include <stdio.h>
#include <stdlib.h>

/* Straight-line: no loop, no instrumented callee (weight 9 or so). */
static int host_is_little_endian(void)
{
	const union { unsigned word; unsigned char bytes[4]; } probe = { 1 };
	return probe.bytes[0];
}

/* Has a loop; its only call site is at depth 0 in run_step. */
static unsigned common_prefix(const unsigned char *a, const unsigned char *b,
			      unsigned limit)
{
	unsigned k = 0;
	while (k < limit && a[k] == b[k])
		k++;
	return k;
}

/* Copied into every caller: its calls run at its caller's depth. */
static inline __attribute__((always_inline)) unsigned
run_step(const unsigned char *p, unsigned limit)
{
	unsigned r = common_prefix(p, p + 1, limit);
	if (host_is_little_endian())
		r++;
	return r;
}

__attribute__((noinline)) unsigned scan_block(const unsigned char *buf, unsigned n)
{
	unsigned total = 0;
	for (unsigned i = 0; i + 4 < n; i++)
		for (unsigned j = 0; j < 4; j++)
			for (unsigned k = 0; k < 4; k++)
				total += run_step(buf + i, j + k);
	return total;
}

/* Straight-line, called outside loops. */
static unsigned size_from_args(int argc, char **argv)
{
	int v = argc > 1 ? atoi(argv[1]) : 0;
	return v > 0 ? (unsigned) v : 1000;
}

/* A loop, called outside loops: a region in every model (small, but main
 * reaches it in view, so its depth is the program's). */
static void print_digits(unsigned v)
{
	char out[16];
	int n = 0;
	do {
		out[n++] = (char) ('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		putchar(out[--n]);
	putchar('\n');
}

/* Recursion: a tree walk, entered once, no loop in its body. */
struct tree_node { int value; const struct tree_node *left, *right; };

static int sum_tree(const struct tree_node *n)
{
	if (!n)
		return 0;
	return n->value + sum_tree(n->left) + sum_tree(n->right);
}

/* Pull-depth: a loop called at depth 0 from a function that runs two
 * loops deep in main.  Both weigh over 64, so small-body leaves them to
 * the refinements they show. */
static int count_bits(unsigned v)
{
	int c = 0, runs = 0, last = 0;
	while (v) {
		int bit = (int) (v & 1);
		c += bit;
		if (bit != last)
			runs++;
		if (bit && (v & 2))
			c += 2;
		else if (!bit && (v & 4))
			runs += 3;
		last = bit;
		v >>= 1;
	}
	return c * 3 + runs;
}

static int row_weight(unsigned row, unsigned col)
{
	int w = 0;
	for (unsigned k = 0; k < 3; k++) {
		if ((row + k) % 3 == 0)
			w += (int) (row ^ col ^ k);
		else if ((col + k) % 5 == 1)
			w -= (int) (row & k);
		else
			w += (int) (col | k);
	}
	return w + count_bits(row * 31 + col);
}

/* Small-body: a small loop that main reaches only through a pointer (as
 * from another unit): a region in the paper's formula, not in the
 * default. */
static unsigned mix_bytes(const unsigned char *p, unsigned n)
{
	unsigned h = 7;
	for (unsigned i = 0; i < n; i++)
		h = h * 31 + p[i];
	return h;
}

static unsigned (*volatile mix_ptr)(const unsigned char *, unsigned) = mix_bytes;

/* Leaf-loop: an innermost loop whose calls are all to small inline
 * helpers (zstd's ZSTD_seqToCodes), in a function main reaches only
 * through a pointer: not a region in the default (its function is); the
 * same loop with a call out of view in it (to_codes_logged) is. */
static inline unsigned high_bit(unsigned v)
{
	return 31u - (unsigned) __builtin_clz(v | 1);
}

static inline unsigned length_code(unsigned v)
{
	static const unsigned char table[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 9, 10, 10, 11, 11 };
	return v > 15 ? high_bit(v) + 8 : table[v];
}

#define TO_CODES_LOOP(log) \
	for (unsigned u = 0; u < n; u++) { \
		unsigned v = seq[2 * u], m = seq[2 * u + 1]; \
		out[3 * u] = (unsigned char) length_code(v); \
		out[3 * u + 1] = (unsigned char) high_bit(m); \
		out[3 * u + 2] = (unsigned char) length_code(m + 3); \
		if (high_bit(m) > 20) \
			longer++; \
		if (v > 1000) \
			longer += 2; \
		else if (m > 500) \
			longer += 3; \
		log; \
	}

static unsigned to_codes(const unsigned *seq, unsigned char *out, unsigned n)
{
	unsigned longer = 0;
	TO_CODES_LOOP((void) 0)
	return longer;
}

static unsigned to_codes_logged(const unsigned *seq, unsigned char *out, unsigned n)
{
	unsigned longer = 0;
	TO_CODES_LOOP(if (out[3 * u] > 200) fputc('!', stderr))
	return longer;
}

static unsigned (*volatile codes_ptr[2])(const unsigned *, unsigned char *, unsigned) = {
	to_codes, to_codes_logged
};

/* Loop-free: a function with no loop whose callees run no loop of
 * weight 64 or more, of weight 64 to 255, reached only through a pointer
 * (yaml-cpp's Emitter methods, called per scalar from another unit): no
 * region in the default (mix_bytes's loop is small).  The same body also
 * calling a function with a bigger loop (classify_logged) is one. */
#define CLASSIFY_BODY(more) \
	unsigned a = seq[0], b = n > 1 ? seq[1] : 0, k = 0; \
	if (a > b) \
		k += a - b; \
	else if (a == b) \
		k += 7; \
	else \
		k += b - a; \
	if (k & 1) \
		k = k * 3 + 1; \
	else if (k & 2) \
		k ^= 0x55u; \
	else if (k & 4) \
		k += high_bit(a); \
	else \
		k -= length_code(b); \
	switch (k % 5) { \
	case 0: k += 11; break; \
	case 1: k ^= a; break; \
	case 2: k |= b; break; \
	case 3: k &= a | b; break; \
	default: k = ~k; break; \
	} \
	out[0] = (unsigned char) k; \
	return k + mix_bytes(out, 2) + more;

static unsigned classify(const unsigned *seq, unsigned char *out, unsigned n)
{
	CLASSIFY_BODY(0)
}

static unsigned classify_logged(const unsigned *seq, unsigned char *out, unsigned n)
{
	CLASSIFY_BODY(to_codes_logged(seq, out, n))
}

static unsigned (*volatile classify_ptr[2])(const unsigned *, unsigned char *, unsigned) = {
	classify, classify_logged
};

/* Indirect-depth: a static function with a loop, reached only through
 * its address, called through a pointer in the inner loop of a sort
 * (SQLite's sorter comparators): scored at depth 0 by the formula (no call
 * site in view), at the indirect call's depth by the default. */
static int digits_cmp(unsigned a, unsigned b)
{
	int diff = 0;
	for (unsigned k = 0; k < 10; k++) {
		unsigned da = a % 10, db = b % 10;
		if (da < db)
			diff = -1;
		else if (da > db)
			diff = 1;
		a /= 10;
		b /= 10;
	}
	if (a > 1000)
		diff += 2;
	else if (b > 1000)
		diff -= 2;
	if (a + b > 77)
		diff *= 3;
	return diff;
}

static int (*volatile digits_cmp_ptr)(unsigned, unsigned) = digits_cmp;

static unsigned sort_digits(unsigned *v, unsigned n)
{
	unsigned moves = 0;
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && digits_cmp_ptr(v[j - 1], v[j]) > 0; j--) {
			unsigned t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
			moves++;
		}
	return moves;
}

/* Whole-body: a byte-code loop that is nearly all of its function (SQLite's
 * sqlite3VdbeExec), reached only through a pointer: the function is a
 * region in the default, its loop is not (the function's region measures
 * it); the formula takes both. */
static unsigned run_codes(const unsigned char *code, unsigned n)
{
	unsigned acc = 1, pc = 0, steps = 0;
	while (pc < n && steps < 4 * n) {
		unsigned char op = code[pc];
		steps++;
		switch (op % 10) {
		case 0: acc += op; pc++; break;
		case 1: acc = acc * 3 + 1; pc++; break;
		case 2: acc ^= (unsigned) code[(pc + 1) % n] << 3; pc += 2; break;
		case 3: if (acc & 1) pc += 3; else pc++; break;
		case 4: acc -= acc >> 2; pc++; break;
		case 5: acc += code[(pc + 2) % n] * 5u; pc++; break;
		case 6: acc = acc & 1 ? acc + 17 : acc / 2; pc++; break;
		case 7: acc |= op & 3; pc += acc & 2 ? 2 : 1; break;
		case 8: acc += steps; pc++; break;
		default: acc = (acc << 1) | (acc >> 31); pc++; break;
		}
		if (acc > 100000)
			acc %= 9973;
		if (acc == 7)	/* a call out of view: no leaf loop */
			fputc('.', stderr);
	}
	return acc + steps;
}

static unsigned (*volatile run_codes_ptr)(const unsigned char *, unsigned) = run_codes;

/* Pull-depth's shallow chain, lz4's per-file functions in small:
 * decode_frame (a loop) is chosen; src_file calls it once, dst_file calls
 * src_file once; main calls dst_file outside any loop and decode_all
 * calls both in its loop over "files", so both run at depth 1 with one
 * chosen callee and a small body.  main reaches them through calls
 * outside loops: both are regions, and decode_frame runs at depth 0
 * below them (without the chain all three were dropped). */
static unsigned decode_frame(const unsigned *seq, unsigned n, unsigned salt)
{
	unsigned h = salt;
	for (unsigned i = 0; i < n; i++)
		h = (h ^ seq[i]) * 16777619u + (seq[i] >> 3);
	return h;
}

static unsigned src_file(const unsigned *seq, unsigned n, unsigned file)
{
	unsigned start = (file * 37u) % (n ? n : 1);
	return decode_frame(seq + start, n - start, file) ^ start;
}

static unsigned dst_file(const unsigned *seq, unsigned n, unsigned file)
{
	return src_file(seq, n, file) + file;
}

static unsigned decode_all(const unsigned *seq, unsigned n, unsigned files)
{
	unsigned h = 0;
	for (unsigned f = 0; f < files; f++)
		h += dst_file(seq, n, f) ^ src_file(seq, n, f + 1);
	return h;
}

/* Small-body and always_inline bodies, zstd's block compressors in small:
 * block_fast (weight under 64) copies in search_generic, whose loop
 * weighs 64 or more, and is called once through a pointer: it is that
 * loop's entry and a region.  block_tiny copies in a body without a loop
 * and stays out (small-body). */
static inline __attribute__((always_inline)) unsigned
search_generic(const unsigned *seq, unsigned n, unsigned min_match)
{
	unsigned best = 0, at = 0, h = 2166136261u;
	for (unsigned i = 1; i + 1 < n; i++) {
		unsigned a = seq[i];
		unsigned b = seq[i - 1];
		unsigned c = seq[i + 1];
		h = h ^ a;
		h = h * 16777619u;
		if (a > min_match) {
			best = best + 1;
			at = i;
		} else if (b > min_match) {
			at = at ^ b;
		} else if (c > min_match) {
			best = best ^ 1u;
		}
		if (h > 1000u)
			h = h - b;
		else if (h > 500u)
			h = h + c;
		else
			h = h + a;
	}
	return best * 65536u + (at ^ (h & 0xffu));
}

static inline __attribute__((always_inline)) unsigned mix3(unsigned a, unsigned b)
{
	return (a * 31u) ^ (b >> 2);
}

static unsigned block_fast(const unsigned *seq, unsigned n)
{
	return search_generic(seq, n, 2);
}

static unsigned block_tiny(const unsigned *seq, unsigned n)
{
	return mix3(seq[0], n);
}

static unsigned (*volatile block_ptr[2])(const unsigned *, unsigned) = { block_fast, block_tiny };

/* Nest-depth, SQLite's sorter in small: run_rows (a region, called
 * through a pointer) interprets row codes in its loop; code 0 sorts the
 * rows collected so far (sort_rows: a bottom-up merge sort, its loops
 * nesting two deep around merge_runs, which has a loop of its own), the
 * others store a row (put_row: a loop over its words with an innermost
 * loop of bounded work, skipping reserved slots).  Both run at depth 1
 * below run_rows; sort_rows's loops nest deeper than that and it is a
 * region, put_row's inner loop counts no level and it is not. */
static unsigned merge_runs(unsigned *dst, const unsigned *a, unsigned na,
			   const unsigned *b, unsigned nb)
{
	unsigned i = 0, j = 0, k = 0;
	for (;;) {
		if (i == na)
			break;
		if (j == nb)
			break;
		if (a[i] <= b[j])
			dst[k++] = a[i++];
		else
			dst[k++] = b[j++];
	}
	for (; i < na; i++)
		dst[k++] = a[i];
	for (; j < nb; j++)
		dst[k++] = b[j];
	return k;
}

static unsigned sort_rows(unsigned *rows, unsigned *tmp, unsigned n)
{
	unsigned passes = 0;
	for (unsigned width = 1; width < n; width *= 2) {
		for (unsigned lo = 0; lo + width < n; lo += 2 * width) {
			unsigned nb = lo + 2 * width <= n ? width : n - lo - width;
			merge_runs(tmp, rows + lo, width, rows + lo + width, nb);
			for (unsigned i = 0; i < width + nb; i++)
				rows[lo + i] = tmp[i];
		}
		passes++;
	}
	return passes;
}

static unsigned put_row(unsigned *slots, unsigned nslots, unsigned at, unsigned v)
{
	unsigned words = 1 + v % 3, sum = 0;
	for (unsigned w = 0; w < words; w++) {
		do
			at = (at + 1) % nslots;
		while (at % 16 == 15);
		unsigned x = v + w;
		if (x % 5 == 0)
			x = x / 5 + sum;
		else if (x % 3 == 0)
			x = x * 7 - w;
		else if (x & 1)
			x ^= sum >> 2;
		else
			x += slots[(at + 7) % nslots];
		slots[at] = x;
		sum += x;
	}
	return at ^ (sum & 1);
}

static unsigned run_rows(const unsigned *codes, unsigned n)
{
	unsigned *rows = malloc(n * sizeof *rows), *tmp = malloc(n * sizeof *tmp);
	unsigned *slots = calloc(64, sizeof *slots);
	unsigned nrows = 0, at = 0, acc = 0;
	for (unsigned pc = 0; pc < n; pc++) {
		switch (codes[pc] % 8) {
		case 0: acc += sort_rows(rows, tmp, nrows); break;
		case 1: acc ^= rows[nrows ? nrows / 2 : 0]; break;
		default:
			rows[nrows++] = codes[pc] * 2654435761u % 1000;
			at = put_row(slots, 64, at, codes[pc]);
			break;
		}
	}
	acc += nrows ? rows[0] + rows[nrows - 1] + slots[at] : 0;
	free(rows); free(tmp); free(slots);
	return acc;
}

static unsigned (*volatile run_rows_ptr)(const unsigned *, unsigned) = run_rows;

/* Inline and loop-free: left out by the default even though it calls an
 * instrumented function; the paper's formula takes it. */
static inline void report_total(unsigned v)
{
	print_digits(v);
}

int main(int argc, char **argv)
{
	unsigned n = size_from_args(argc, argv);
	unsigned char *buf = malloc(n);
	for (unsigned i = 0; i < n; i++)
		buf[i] = (unsigned char) ((i * 7) % 3);
	report_total(scan_block(buf, n));
	static const struct tree_node leaf1 = { 1, 0, 0 }, leaf2 = { 2, 0, 0 };
	static const struct tree_node mid = { 3, &leaf1, &leaf2 };
	static const struct tree_node root = { 4, &mid, &leaf1 };
	int bits = 0;
	for (unsigned r = 0; r < 20; r++)
		for (unsigned c = 0; c < 20; c++)
			bits += row_weight(r, c);
	printf("%d %d %u\n", sum_tree(&root), bits, mix_ptr(buf, n));
	unsigned *seq = malloc(2 * n * sizeof *seq);
	unsigned char *codes = malloc(3 * n);
	for (unsigned i = 0; i < 2 * n; i++)
		seq[i] = (i * 2654435761u) % 2048;
	printf("%u %u\n", codes_ptr[0](seq, codes, n), codes_ptr[1](seq, codes, n));
	printf("%u %u\n", classify_ptr[0](seq, codes, n), classify_ptr[1](seq, codes, n));
	printf("%u %u\n", sort_digits(seq, n < 200 ? n : 200), seq[0]);
	printf("%u\n", run_codes_ptr(codes, 3 * n));
	printf("%u %u\n", dst_file(seq, n, 5), decode_all(seq, n, 3));
	printf("%u %u\n", block_ptr[0](seq, 2 * n), block_ptr[1](seq, 2 * n));
	printf("%u\n", run_rows_ptr(seq, 2 * n));
	free(seq);
	free(codes);
	free(buf);
	return 0;
}
