/*
 * mg.c - a multigrid workload in the shape of NAS MG.
 *
 * Solves the periodic 3-D Poisson problem  -lap u = v  on an n^3 grid
 * (n a power of two), v being +1 at ten points and -1 at ten others (so
 * it has zero mean, as in NAS MG), with V-cycles: damped Jacobi smoothing
 * (psinv), residual (resid), full-weighting restriction (rprj3),
 * trilinear prolongation (interp), periodic ghost-cell exchange (comm3),
 * residual norm (norm2u3), all over 7-point stencils with ghost layers.
 * mg3p is one V-cycle; main runs CYCLES of them.
 *
 * Self-check: every V-cycle must reduce the residual norm by at least a
 * factor 2 (until it reaches round-off, 1e-11 of the first) and the last residual must be below 1e-5 of the first; the
 * solution keeps zero mean (|mean| <= 1e-10 max |u|).  Prints VERIFICATION
 * SUCCESSFUL or FAILED (exit 1).
 *
 * Usage: mg [small|large|LOG2N [CYCLES]].  OpenMP: build with -fopenmp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define MAXLEV 10
#define NU_PRE 2
#define NU_POST 2
#define OMEGA (6.0 / 7.0)

static int lt;				/* finest level: n = 2^lt */
static int nlev[MAXLEV + 1];		/* points per side at each level */
static double *ulev[MAXLEV + 1], *rlev[MAXLEV + 1], *tmp[MAXLEV + 1];

#define D(n) ((n) + 2)
#define A3(a, n, i, j, k) (a)[((size_t)(k) * D(n) + (j)) * D(n) + (i)]

static size_t npoints(int n) { return (size_t)D(n) * D(n) * D(n); }

static void zero3(double *a, int n) { memset(a, 0, sizeof(double) * npoints(n)); }

/* Periodic boundaries: copy the opposite interior faces into the ghosts. */
static void comm3(double *a, int n)
{
#pragma omp parallel for schedule(static)
	for (int k = 1; k <= n; k++)
		for (int j = 1; j <= n; j++) {
			A3(a, n, 0, j, k) = A3(a, n, n, j, k);
			A3(a, n, n + 1, j, k) = A3(a, n, 1, j, k);
		}
#pragma omp parallel for schedule(static)
	for (int k = 1; k <= n; k++)
		for (int i = 0; i <= n + 1; i++) {
			A3(a, n, i, 0, k) = A3(a, n, i, n, k);
			A3(a, n, i, n + 1, k) = A3(a, n, i, 1, k);
		}
#pragma omp parallel for schedule(static)
	for (int j = 0; j <= n + 1; j++)
		for (int i = 0; i <= n + 1; i++) {
			A3(a, n, i, j, 0) = A3(a, n, i, j, n);
			A3(a, n, i, j, n + 1) = A3(a, n, i, j, 1);
		}
}

/* r = v - A u,  A u = (6 u - sum of the 6 neighbours) * n^2. */
static void resid(const double *u, const double *v, double *r, int n)
{
	double h2i = (double)n * n;
#pragma omp parallel for schedule(static)
	for (int k = 1; k <= n; k++)
		for (int j = 1; j <= n; j++)
			for (int i = 1; i <= n; i++) {
				double au = 6 * A3(u, n, i, j, k) - A3(u, n, i - 1, j, k) - A3(u, n, i + 1, j, k)
					    - A3(u, n, i, j - 1, k) - A3(u, n, i, j + 1, k)
					    - A3(u, n, i, j, k - 1) - A3(u, n, i, j, k + 1);
				A3(r, n, i, j, k) = A3(v, n, i, j, k) - au * h2i;
			}
	comm3(r, n);
}

/* Damped Jacobi: u += omega r / diag(A).  r must be the current residual. */
static void psinv(const double *r, double *u, int n)
{
	double f = OMEGA / (6.0 * n * n);
#pragma omp parallel for schedule(static)
	for (int k = 1; k <= n; k++)
		for (int j = 1; j <= n; j++)
			for (int i = 1; i <= n; i++)
				A3(u, n, i, j, k) += f * A3(r, n, i, j, k);
	comm3(u, n);
}

/* Full weighting from fine (nf) to coarse (nf/2): weights 8,4,2,1 / 64. */
static void rprj3(const double *rf, int nf, double *rc)
{
	int nc = nf / 2;
#pragma omp parallel for schedule(static)
	for (int k = 1; k <= nc; k++)
		for (int j = 1; j <= nc; j++)
			for (int i = 1; i <= nc; i++) {
				int fi = 2 * i - 1, fj = 2 * j - 1, fk = 2 * k - 1;
				double s = 0;
				for (int dk = -1; dk <= 1; dk++)
					for (int dj = -1; dj <= 1; dj++)
						for (int di = -1; di <= 1; di++) {
							int w = (di == 0 ? 2 : 1) * (dj == 0 ? 2 : 1) * (dk == 0 ? 2 : 1);
							s += w * A3(rf, nf, fi + di, fj + dj, fk + dk);
						}
				A3(rc, nc, i, j, k) = s / 64.0;
			}
	comm3(rc, nc);
}

/* Trilinear prolongation of the coarse correction, added to the fine u. */
static void interp(const double *uc, int nc, double *uf)
{
	int nf = 2 * nc;
#pragma omp parallel for schedule(static)
	for (int k = 1; k <= nf; k++)
		for (int j = 1; j <= nf; j++)
			for (int i = 1; i <= nf; i++) {
				/* fine point 2c-1 coincides with coarse c; 2c lies between c and c+1 */
				int ci = (i + 1) / 2, cj = (j + 1) / 2, ck = (k + 1) / 2;
				int oi = i % 2 ? 0 : 1, oj = j % 2 ? 0 : 1, ok = k % 2 ? 0 : 1;
				double s = 0;
				for (int a = 0; a <= ok; a++)
					for (int b = 0; b <= oj; b++)
						for (int c = 0; c <= oi; c++)
							s += A3(uc, nc, ci + c, cj + b, ck + a);
				A3(uf, nf, i, j, k) += s / (double)((oi + 1) * (oj + 1) * (ok + 1));
			}
	comm3(uf, nf);
}

static double norm2u3(const double *r, int n)
{
	double s = 0;
#pragma omp parallel for reduction(+:s) schedule(static)
	for (int k = 1; k <= n; k++)
		for (int j = 1; j <= n; j++)
			for (int i = 1; i <= n; i++)
				s += A3(r, n, i, j, k) * A3(r, n, i, j, k);
	return sqrt(s / ((double)n * n * n));
}

/* One V-cycle on level l: u[l] approximates A^-1 v where v is the
 * right-hand side held in rhs (level lt: the problem; coarser: the
 * restricted residual in rlev[l]). */
static void vcycle(int l, const double *rhs)
{
	int n = nlev[l];
	double *u = ulev[l], *t = tmp[l];
	if (l == 1) {
		for (int s = 0; s < 40; s++) {
			resid(u, rhs, t, n);
			psinv(t, u, n);
		}
		return;
	}
	for (int s = 0; s < NU_PRE; s++) {
		resid(u, rhs, t, n);
		psinv(t, u, n);
	}
	resid(u, rhs, t, n);
	rprj3(t, n, rlev[l - 1]);
	zero3(ulev[l - 1], nlev[l - 1]);
	vcycle(l - 1, rlev[l - 1]);
	interp(ulev[l - 1], nlev[l - 1], u);
	for (int s = 0; s < NU_POST; s++) {
		resid(u, rhs, t, n);
		psinv(t, u, n);
	}
}

static void mg3p(const double *v) { vcycle(lt, v); }

int main(int argc, char **argv)
{
	int cycles;
	const char *size = argc > 1 ? argv[1] : "small";
	if (!strcmp(size, "small")) {
		lt = 6; cycles = 8;
	} else if (!strcmp(size, "large")) {
		lt = 7; cycles = 60;
	} else {
		lt = atoi(size); cycles = 8;
	}
	if (argc > 2)
		cycles = atoi(argv[2]);
	if (lt < 3 || lt > MAXLEV || cycles < 1) {
		fprintf(stderr, "usage: mg [small|large|LOG2N(3..%d) [CYCLES>=1]]\n", MAXLEV);
		return 2;
	}
	for (int l = 1; l <= lt; l++) {
		nlev[l] = 1 << l;	/* level l: 2^l points per side */
		ulev[l] = calloc(npoints(nlev[l]), sizeof(double));
		rlev[l] = calloc(npoints(nlev[l]), sizeof(double));
		tmp[l] = calloc(npoints(nlev[l]), sizeof(double));
	}
	int n = nlev[lt];
	double *v = calloc(npoints(n), sizeof(double)), *r = calloc(npoints(n), sizeof(double));
	unsigned long long seed = 314159265ULL;
	for (int p = 0; p < 20; p++) {
		int c[3];
		for (int d = 0; d < 3; d++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			c[d] = 1 + (int)((seed >> 33) % (unsigned)n);
		}
		A3(v, n, c[0], c[1], c[2]) += p < 10 ? 1.0 : -1.0;
	}
	comm3(v, n);
	resid(ulev[lt], v, r, n);
	double first = norm2u3(r, n), prev = first, worst_ratio = 0;
	printf("initial residual %.10e\n", first);
	for (int c = 1; c <= cycles; c++) {
		mg3p(v);
		resid(ulev[lt], v, r, n);
		double now = norm2u3(r, n);
		double ratio = now / prev;
		if (!isfinite(ratio))
			worst_ratio = INFINITY;
		else if (prev > 1e-11 * first && ratio > worst_ratio)	/* not yet at round-off */
			worst_ratio = ratio;
		prev = now;
	}
	double mean = 0, amax = 0;
	for (int k = 1; k <= n; k++)
		for (int j = 1; j <= n; j++)
			for (int i = 1; i <= n; i++) {
				mean += A3(ulev[lt], n, i, j, k);
				if (fabs(A3(ulev[lt], n, i, j, k)) > amax)
					amax = fabs(A3(ulev[lt], n, i, j, k));
			}
	mean /= (double)n * n * n;
	printf("MG-like: n=%d cycles=%d residual %.6e -> %.6e, worst cycle ratio %.3f, mean/max %.1e\n", n, cycles,
	       first, prev, worst_ratio, fabs(mean) / amax);
	int ok = worst_ratio < 0.5 && prev < 1e-5 * first && fabs(mean) <= 1e-10 * amax;
	printf("VERIFICATION %s\n", ok ? "SUCCESSFUL" : "FAILED");
	return ok ? 0 : 1;
}
