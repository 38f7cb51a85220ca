/*
 * ft.c - a 3-D FFT workload in the shape of NAS FT.
 *
 * A complex n1*n2*n3 array (powers of two) is transformed forward once,
 * then for each time step multiplied by a decay factor per wave number
 * (evolve) and transformed back, with a checksum of 1024 points per step.
 * The FFT is NAS's radix-2 Stockham scheme: cffts1/2/3 copy every line
 * of one dimension to a scratch vector and call cffz on it; cffz calls
 * ftz2 once per pass; ftz2 is the tiny butterfly loop.  cffz's only
 * callee is ftz2, as in the paper's FT example.
 *
 * Self-check: (1) inverse(forward(x)) == x within 1e-12 (relative);
 * (2) Parseval: sum |X|^2 == N sum |x|^2 within 1e-12 relative; (3) three
 * coefficients of the forward transform agree with a direct DFT sum;
 * (4) the energy of the evolved field decreases every step.  Prints
 * VERIFICATION SUCCESSFUL or FAILED (exit 1).
 *
 * Usage: ft [small|large|LOG2N [STEPS]] (LOG2N: a cube of 2^LOG2N per side).
 * OpenMP: build with -fopenmp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <complex.h>

typedef double complex dcomplex;

static int n1, n2, n3, m1, m2, m3;
static size_t ntotal;
static dcomplex *u1, *u2, *u3;	/* roots of unity per dimension */
#define ALPHA 1.0e-6

#define AT(a, i, j, k) (a)[((size_t)(k) * n2 + (j)) * n1 + (i)]

static int ilog2(int n) { int m = 0; while ((1 << m) < n) m++; return m; }

/* Roots for an n = 2^m point transform, in NAS's layout: u[ku + i] for
 * the pass with li = ku butterfly groups. */
static dcomplex *fft_init(int n)
{
	dcomplex *u = malloc(sizeof(dcomplex) * (n + 1));
	int m = ilog2(n), ku = 1, ln = 1;
	u[0] = m;
	for (int j = 1; j <= m; j++) {
		double t = M_PI / ln;
		for (int i = 0; i < ln; i++)
			u[i + ku] = cos(i * t) + I * sin(i * t);
		ku += ln;
		ln *= 2;
	}
	return u;
}

/* Pass l of the Stockham FFT: the tiny butterflies. */
static void ftz2(int is, int l, int m, int n, const dcomplex *u, const dcomplex *x, dcomplex *y)
{
	int n1h = n / 2, lk = 1 << (l - 1), li = 1 << (m - l), lj = 2 * lk, ku = li;
	for (int i = 0; i < li; i++) {
		int i11 = i * lk, i12 = i11 + n1h, i21 = i * lj, i22 = i21 + lk;
		dcomplex w = is >= 1 ? u[ku + i] : conj(u[ku + i]);
		for (int k = 0; k < lk; k++) {
			dcomplex a = x[i11 + k], b = x[i12 + k];
			y[i21 + k] = a + b;
			y[i22 + k] = w * (a - b);
		}
	}
}

/* One n = 2^m point transform of x in place (y is scratch). */
static void cffz(int is, int m, int n, const dcomplex *u, dcomplex *x, dcomplex *y)
{
	for (int l = 1; l <= m; l += 2) {
		ftz2(is, l, m, n, u, x, y);
		if (l == m) {
			memcpy(x, y, sizeof(dcomplex) * n);
			return;
		}
		ftz2(is, l + 1, m, n, u, y, x);
	}
}

static void cffts1(int is, dcomplex *a)
{
#pragma omp parallel for schedule(static)
	for (int k = 0; k < n3; k++) {
		dcomplex x[1 << 12], y[1 << 12];
		for (int j = 0; j < n2; j++) {
			for (int i = 0; i < n1; i++)
				x[i] = AT(a, i, j, k);
			cffz(is, m1, n1, u1, x, y);
			for (int i = 0; i < n1; i++)
				AT(a, i, j, k) = x[i];
		}
	}
}

static void cffts2(int is, dcomplex *a)
{
#pragma omp parallel for schedule(static)
	for (int k = 0; k < n3; k++) {
		dcomplex x[1 << 12], y[1 << 12];
		for (int i = 0; i < n1; i++) {
			for (int j = 0; j < n2; j++)
				x[j] = AT(a, i, j, k);
			cffz(is, m2, n2, u2, x, y);
			for (int j = 0; j < n2; j++)
				AT(a, i, j, k) = x[j];
		}
	}
}

static void cffts3(int is, dcomplex *a)
{
#pragma omp parallel for schedule(static)
	for (int j = 0; j < n2; j++) {
		dcomplex x[1 << 12], y[1 << 12];
		for (int i = 0; i < n1; i++) {
			for (int k = 0; k < n3; k++)
				x[k] = AT(a, i, j, k);
			cffz(is, m3, n3, u3, x, y);
			for (int k = 0; k < n3; k++)
				AT(a, i, j, k) = x[k];
		}
	}
}

/* is = 1: forward (exp(+i...), as in NAS), is = -1: inverse (unscaled). */
static void fft3d(int is, dcomplex *a)
{
	if (is == 1) {
		cffts1(is, a);
		cffts2(is, a);
		cffts3(is, a);
	} else {
		cffts3(is, a);
		cffts2(is, a);
		cffts1(is, a);
	}
}

static int wave(int i, int n) { return i < n / 2 ? i : i - n; }

static void evolve(const dcomplex *x0, dcomplex *x1, int t)
{
#pragma omp parallel for schedule(static)
	for (int k = 0; k < n3; k++)
		for (int j = 0; j < n2; j++)
			for (int i = 0; i < n1; i++) {
				int kk = wave(k, n3), jj = wave(j, n2), ii = wave(i, n1);
				double e = exp(-4.0 * ALPHA * M_PI * M_PI * t * (double)(ii * ii + jj * jj + kk * kk));
				AT(x1, i, j, k) = AT(x0, i, j, k) * e;
			}
}

static dcomplex checksum(const dcomplex *a)
{
	dcomplex s = 0;
	for (int j = 1; j <= 1024; j++)
		s += AT(a, j % n1, (3 * j) % n2, (5 * j) % n3);
	return s / (double)ntotal;
}

static double energy(const dcomplex *a)
{
	double s = 0;
#pragma omp parallel for reduction(+:s) schedule(static)
	for (size_t p = 0; p < ntotal; p++)
		s += creal(a[p]) * creal(a[p]) + cimag(a[p]) * cimag(a[p]);
	return s;
}

/* A forward coefficient by the definition: NAS FT's forward transform
 * (is = 1) uses exp(+2 pi i k.x / n). */
static dcomplex direct_dft(const dcomplex *x, int ki, int kj, int kk)
{
	dcomplex s = 0;
	for (int k = 0; k < n3; k++)
		for (int j = 0; j < n2; j++)
			for (int i = 0; i < n1; i++) {
				double ph = 2 * M_PI * ((double)ki * i / n1 + (double)kj * j / n2 + (double)kk * k / n3);
				s += AT(x, i, j, k) * (cos(ph) + I * sin(ph));
			}
	return s;
}

int main(int argc, char **argv)
{
	int steps, lg;
	const char *size = argc > 1 ? argv[1] : "small";
	if (!strcmp(size, "small")) {
		lg = 6; steps = 6;
	} else if (!strcmp(size, "large")) {
		lg = 8; steps = 10;
	} else {
		lg = atoi(size); steps = 6;
	}
	if (argc > 2)
		steps = atoi(argv[2]);
	if (lg < 2 || lg > 9 || steps < 1) {
		fprintf(stderr, "usage: ft [small|large|LOG2N(2..9) [STEPS>=1]]\n");
		return 2;
	}
	n1 = n2 = 1 << lg;
	n3 = 1 << (lg > 2 ? lg - 1 : lg);	/* n1 x n2 x n3, like NAS classes */
	m1 = ilog2(n1); m2 = ilog2(n2); m3 = ilog2(n3);
	ntotal = (size_t)n1 * n2 * n3;
	u1 = fft_init(n1); u2 = fft_init(n2); u3 = fft_init(n3);
	dcomplex *x0 = malloc(sizeof(dcomplex) * ntotal), *x1 = malloc(sizeof(dcomplex) * ntotal),
		 *orig = malloc(sizeof(dcomplex) * ntotal);
	unsigned long long seed = 314159265ULL;
	for (size_t p = 0; p < ntotal; p++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		double re = (double)(seed >> 11) / 9007199254740992.0;
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		double im = (double)(seed >> 11) / 9007199254740992.0;
		orig[p] = x0[p] = re + I * im;
	}
	int ok = 1;
	double e0 = energy(x0);
	fft3d(1, x0);
	double e1 = energy(x0);
	if (fabs(e1 - e0 * ntotal) > 1e-12 * e1) {
		printf("Parseval fails: %.17g vs %.17g\n", e1, e0 * ntotal);
		ok = 0;
	}
	int probes[3][3] = { { 1, 0, 0 }, { 3, n2 - 2, 1 }, { n1 / 2, 5 % n2, n3 - 1 } };
	for (int t = 0; t < 3; t++) {
		dcomplex d = direct_dft(orig, probes[t][0], probes[t][1], probes[t][2]);
		dcomplex f = AT(x0, probes[t][0], probes[t][1], probes[t][2]);
		if (cabs(d - f) > 1e-9 * sqrt(e1 / ntotal) + 1e-9 * cabs(d)) {
			printf("coefficient (%d,%d,%d): fft %.12g%+.12gi, direct %.12g%+.12gi\n", probes[t][0],
			       probes[t][1], probes[t][2], creal(f), cimag(f), creal(d), cimag(d));
			ok = 0;
		}
	}
	/* Round trip on a copy. */
	memcpy(x1, x0, sizeof(dcomplex) * ntotal);
	fft3d(-1, x1);
	double worst = 0;
	for (size_t p = 0; p < ntotal; p++) {
		double d = cabs(x1[p] / (double)ntotal - orig[p]);
		if (d > worst)
			worst = d;
	}
	if (worst > 1e-12) {
		printf("round trip error %.3e\n", worst);
		ok = 0;
	}
	double prev = INFINITY;
	for (int t = 1; t <= steps; t++) {
		evolve(x0, x1, t);
		double e = energy(x1);
		if (!(e < prev))
			ok = 0;
		prev = e;
		fft3d(-1, x1);
		dcomplex c = checksum(x1);
		printf("T = %2d checksum %22.14e %22.14e\n", t, creal(c), cimag(c));
	}
	printf("FT-like: %dx%dx%d steps=%d round trip error %.2e\n", n1, n2, n3, steps, worst);
	printf("VERIFICATION %s\n", ok ? "SUCCESSFUL" : "FAILED");
	return ok ? 0 : 1;
}
