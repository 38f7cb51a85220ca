/*
 * cg.c - a conjugate-gradient workload in the shape of NAS CG.
 *
 * makea() builds a random sparse symmetric positive definite matrix in
 * CSR form (a random symmetric pattern, diagonal shifted to dominate).
 * The outer loop is NAS CG's inverse power iteration: each of NITER
 * outer steps solves A z = x with 25 CG iterations (conj_grad), then
 * sets x = z / |z| and estimates zeta = SHIFT + 1 / (x . z).  The kernels
 * are small functions: spmv, dot, axpy, xpay, scale.
 *
 * Self-check: after every conj_grad the true residual |x - A z| / |x|
 * must be below 1e-7; x . z is a Rayleigh quotient of A^-1, so with
 * accurate solves zeta never increases from one step to the next (1e-10
 * relative slack) and stays above SHIFT + 1 (Gershgorin: every eigenvalue
 * of A is at least 1).  Prints VERIFICATION SUCCESSFUL or FAILED
 * (exit 1).
 *
 * Usage: cg [small|large|N [NITER]].  OpenMP: build with -fopenmp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define CGIT 25
#define SHIFT 20.0

static int n, nnz;
static int *rowptr, *col;
static double *val;

static unsigned long long rng = 314159265ULL;
static double randlc(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* Random symmetric pattern, about PER entries per row above the diagonal,
 * values in (-1, 1), diagonal = sum |off-diagonal| + 1 (so SPD). */
static void makea(int per)
{
	int cap = n * (2 * per + 1);
	int *ri = malloc(sizeof(int) * cap), *ci = malloc(sizeof(int) * cap);
	double *vi = malloc(sizeof(double) * cap);
	int cnt = 0;
	for (int i = 0; i < n; i++)
		for (int e = 0; e < per; e++) {
			int j = (int)(randlc() * n);
			if (j == i)
				continue;
			double v = 2 * randlc() - 1;
			ri[cnt] = i; ci[cnt] = j; vi[cnt++] = v;
			ri[cnt] = j; ci[cnt] = i; vi[cnt++] = v;
		}
	int *count = calloc(n + 1, sizeof(int));
	for (int e = 0; e < cnt; e++)
		count[ri[e] + 1]++;
	rowptr = malloc(sizeof(int) * (n + 1));
	rowptr[0] = 0;
	for (int i = 0; i < n; i++)
		rowptr[i + 1] = rowptr[i] + count[i + 1] + 1;	/* +1: diagonal */
	nnz = rowptr[n];
	col = malloc(sizeof(int) * nnz);
	val = malloc(sizeof(double) * nnz);
	int *fill = calloc(n, sizeof(int));
	double *diag = calloc(n, sizeof(double));
	for (int e = 0; e < cnt; e++) {
		int p = rowptr[ri[e]] + 1 + fill[ri[e]]++;
		col[p] = ci[e];
		val[p] = vi[e];
		diag[ri[e]] += fabs(vi[e]);
	}
	for (int i = 0; i < n; i++) {
		col[rowptr[i]] = i;
		val[rowptr[i]] = diag[i] + 1.0;	/* eigenvalues >= 1 */
	}
	free(ri); free(ci); free(vi); free(count); free(fill); free(diag);
}

static void spmv(const double *x, double *y)
{
#pragma omp parallel for schedule(static)
	for (int i = 0; i < n; i++) {
		double s = 0;
		for (int p = rowptr[i]; p < rowptr[i + 1]; p++)
			s += val[p] * x[col[p]];
		y[i] = s;
	}
}

static double dot(const double *a, const double *b)
{
	double s = 0;
#pragma omp parallel for reduction(+:s) schedule(static)
	for (int i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

static void axpy(double alpha, const double *x, double *y)	/* y += alpha x */
{
#pragma omp parallel for schedule(static)
	for (int i = 0; i < n; i++)
		y[i] += alpha * x[i];
}

static void xpay(const double *x, double beta, double *y)	/* y = x + beta y */
{
#pragma omp parallel for schedule(static)
	for (int i = 0; i < n; i++)
		y[i] = x[i] + beta * y[i];
}

static void scale(double alpha, const double *x, double *y)
{
#pragma omp parallel for schedule(static)
	for (int i = 0; i < n; i++)
		y[i] = alpha * x[i];
}

static double *r, *p, *q;

/* CG_IT iterations of CG on A z = x from z = 0; returns |x - A z|. */
static double conj_grad(const double *x, double *z)
{
	memset(z, 0, sizeof(double) * n);
	memcpy(r, x, sizeof(double) * n);
	memcpy(p, x, sizeof(double) * n);
	double rho = dot(r, r);
	for (int it = 0; it < CGIT; it++) {
		spmv(p, q);
		double alpha = rho / dot(p, q);
		axpy(alpha, p, z);
		axpy(-alpha, q, r);
		double rho0 = rho;
		rho = dot(r, r);
		xpay(r, rho / rho0, p);
	}
	spmv(z, q);
	axpy(-1.0, x, q);
	return sqrt(dot(q, q));
}

int main(int argc, char **argv)
{
	int niter, per;
	const char *size = argc > 1 ? argv[1] : "small";
	if (!strcmp(size, "small")) {
		n = 20000; per = 6; niter = 15;
	} else if (!strcmp(size, "large")) {
		n = 150000; per = 7; niter = 40;
	} else {
		n = atoi(size); per = 6; niter = 15;
	}
	if (argc > 2)
		niter = atoi(argv[2]);
	if (n < 100 || niter < 2) {
		fprintf(stderr, "usage: cg [small|large|N>=100 [NITER>=2]]\n");
		return 2;
	}
	makea(per);
	double *x = malloc(sizeof(double) * n), *z = malloc(sizeof(double) * n);
	r = malloc(sizeof(double) * n);
	p = malloc(sizeof(double) * n);
	q = malloc(sizeof(double) * n);
	for (int i = 0; i < n; i++)
		x[i] = 1.0 / sqrt((double)n);	/* |x| = 1 */
	double zeta = 0, prev = 0, worst = 0;
	int monotone = 1;
	for (int it = 1; it <= niter; it++) {
		double rn = conj_grad(x, z) / sqrt(dot(x, x));
		if (rn > worst || !isfinite(rn))
			worst = isfinite(rn) ? rn : INFINITY;
		double xz = dot(x, z);
		prev = zeta;
		zeta = SHIFT + 1.0 / xz;
		if (it > 1 && zeta > prev * (1 + 1e-10))
			monotone = 0;
		scale(1.0 / sqrt(dot(z, z)), z, x);
	}
	double change = fabs(zeta - prev) / fabs(zeta);
	printf("CG-like: n=%d nnz=%d niter=%d zeta=%.12f last change %.2e worst residual %.2e\n", n, nnz, niter,
	       zeta, change, worst);
	int ok = worst < 1e-7 && monotone && zeta > SHIFT + 1.0 && isfinite(zeta);
	printf("VERIFICATION %s\n", ok ? "SUCCESSFUL" : "FAILED");
	return ok ? 0 : 1;
}
