/*
 * bt.c - a block-tridiagonal ADI solver in the shape of NAS BT.
 *
 * Five unknowns per point of an n*n*n grid.  Each time step computes a
 * right-hand side from u (compute_rhs), then solves three systems of
 * block-tridiagonal lines, one direction after the other (x_solve,
 * y_solve, z_solve), each line by block Gaussian elimination with the
 * classic 5x5 helpers:
 *
 *     matvec_sub  b -= A v           (5x5 times 5)
 *     matmul_sub  C -= A B           (5x5 times 5x5)
 *     binvcrhs    solve L [C r] in place (5x5 pivoting-free elimination)
 *     binvrhs     solve L r in place
 *
 * called millions of times at loop depth 3 (k, j, i), and finally adds
 * the correction (add).  adi() drives one step; main calls it STEPS times.  The scheme is implicit
 * ADI for du/dt = -K(u) u with K symmetric positive definite, so |u|
 * decays every step.
 *
 * Self-check: in the last step every line solve of every direction is
 * checked against its block-tridiagonal system (relative residual below
 * 1e-10), and |u| must decrease monotonically and stay finite.  Prints
 * VERIFICATION SUCCESSFUL or FAILED (exit 1).
 *
 * Usage: bt [small|large|N [STEPS]].  OpenMP: build with -fopenmp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define NMAX 96

typedef double block[5][5];
typedef double vec5[5];

static int n;				/* points per dimension */
static double dt = 0.01;
static vec5 *u, *rhs, *rhs_check;	/* n^3 each */

#define IDX(i, j, k) (((size_t)(k) * n + (j)) * n + (i))

/* ---- the 5x5 helpers (NAS BT names) ---------------------------------- */

static void matvec_sub(const block a, const vec5 v, vec5 b)
{
	for (int r = 0; r < 5; r++)
		b[r] = b[r] - a[r][0] * v[0] - a[r][1] * v[1] - a[r][2] * v[2] - a[r][3] * v[3] - a[r][4] * v[4];
}

static void matmul_sub(const block a, const block b, block c)
{
	for (int r = 0; r < 5; r++)
		for (int col = 0; col < 5; col++)
			c[r][col] = c[r][col] - a[r][0] * b[0][col] - a[r][1] * b[1][col] - a[r][2] * b[2][col]
				  - a[r][3] * b[3][col] - a[r][4] * b[4][col];
}

/* In place: lhs := I, c := lhs^-1 c, r := lhs^-1 r (no pivoting; lhs is
 * diagonally dominant). */
static void binvcrhs(block lhs, block c, vec5 r)
{
	for (int p = 0; p < 5; p++) {
		double pivot = 1.0 / lhs[p][p];
		for (int q = p + 1; q < 5; q++)
			lhs[p][q] *= pivot;
		for (int q = 0; q < 5; q++)
			c[p][q] *= pivot;
		r[p] *= pivot;
		lhs[p][p] = 1.0;
		for (int e = 0; e < 5; e++) {
			if (e == p)
				continue;
			double coeff = lhs[e][p];
			for (int q = p + 1; q < 5; q++)
				lhs[e][q] -= coeff * lhs[p][q];
			for (int q = 0; q < 5; q++)
				c[e][q] -= coeff * c[p][q];
			r[e] -= coeff * r[p];
			lhs[e][p] = 0.0;
		}
	}
}

static void binvrhs(block lhs, vec5 r)
{
	for (int p = 0; p < 5; p++) {
		double pivot = 1.0 / lhs[p][p];
		for (int q = p + 1; q < 5; q++)
			lhs[p][q] *= pivot;
		r[p] *= pivot;
		lhs[p][p] = 1.0;
		for (int e = 0; e < 5; e++) {
			if (e == p)
				continue;
			double coeff = lhs[e][p];
			for (int q = p + 1; q < 5; q++)
				lhs[e][q] -= coeff * lhs[p][q];
			r[e] -= coeff * r[p];
			lhs[e][p] = 0.0;
		}
	}
}

/* ---- coefficients ----------------------------------------------------- */

/* K(u) at one point: a fixed SPD coupling plus a small rank-one part in
 * u (keeps it SPD, makes every block different, like BT's flux Jacobians). */
static void kmatrix(const vec5 up, int dir, block k)
{
	static const double base[5] = { 1.0, 1.4, 0.8, 1.2, 1.6 };
	for (int r = 0; r < 5; r++)
		for (int c = 0; c < 5; c++)
			k[r][c] = 0.05 * up[r] * up[c] + (r == c ? base[(r + dir) % 5] : 0.02 * ((r + c + dir) % 3));
}

/* The blocks at one point of a line: A (sub), B (diag), C (super).
 * System: -dt K_i x_{i-1} + (I + 2 dt K_i) x_i - dt K_i x_{i+1} = r_i,
 * with x_{-1} = x_n = 0. */
static void lhs_point(const vec5 up, int dir, block a, block b, block c)
{
	block k;
	kmatrix(up, dir, k);
	for (int r = 0; r < 5; r++)
		for (int q = 0; q < 5; q++) {
			a[r][q] = -dt * k[r][q];
			c[r][q] = -dt * k[r][q];
			b[r][q] = 2 * dt * k[r][q] + (r == q ? 1.0 : 0.0);
		}
}

/* The blocks of one whole line (for the check). */
static void line_blocks(int len, vec5 *const *pts, int dir, block *a, block *b, block *c)
{
	for (int i = 0; i < len; i++)
		lhs_point(*pts[i], dir, a[i], b[i], c[i]);
}

/* ---- verification of one line (last step only) ------------------------ */

static double max_resid;

static void check_line(int len, vec5 *const *upts, vec5 *const *x, vec5 *const *orig, int dir)
{
	block a[NMAX], b[NMAX], c[NMAX];
	line_blocks(len, upts, dir, a, b, c);
	double worst = 0, scale = 1e-300;
	for (int i = 0; i < len; i++)
		for (int r = 0; r < 5; r++) {
			double s = 0;
			for (int q = 0; q < 5; q++) {
				s += b[i][r][q] * (*x[i])[q];
				if (i > 0)
					s += a[i][r][q] * (*x[i - 1])[q];
				if (i < len - 1)
					s += c[i][r][q] * (*x[i + 1])[q];
			}
			double d = fabs(s - (*orig[i])[r]);
			if (d > worst)
				worst = d;
			if (fabs((*orig[i])[r]) > scale)
				scale = fabs((*orig[i])[r]);
		}
#ifdef _OPENMP
#pragma omp critical(bt_resid)
#endif
	if (worst / scale > max_resid)
		max_resid = worst / scale;
}

/* ---- the three directions ---------------------------------------------- */

static int checking;

/* One direction: for every line (k, j) build the blocks, then block
 * Thomas along i.  The helpers are called at loop depth 3 (k, j, i) as
 * in BT.  ID(i, j, k) maps line coordinates to the grid.  A macro, so
 * that x_solve, y_solve and z_solve are each a function with its own
 * loop nest and call sites, as in BT. */
#define SOLVE_DIRECTION(DIR, ID)							\
_Pragma("omp parallel for schedule(static)")						\
	for (int k = 0; k < n; k++) {							\
		block a[NMAX], b[NMAX], c[NMAX];					\
		vec5 *upts[NMAX], *r[NMAX], *orig[NMAX];				\
		for (int j = 0; j < n; j++) {						\
			for (int i = 0; i < n; i++) {					\
				size_t id = ID(i, j, k);				\
				upts[i] = &u[id];					\
				r[i] = &rhs[id];					\
				orig[i] = &rhs_check[id];				\
				if (checking)						\
					memcpy(*orig[i], *r[i], sizeof(vec5));		\
				lhs_point(*upts[i], DIR, a[i], b[i], c[i]);		\
			}								\
			binvcrhs(b[0], c[0], *r[0]);					\
			for (int i = 1; i < n - 1; i++) {				\
				matvec_sub(a[i], *r[i - 1], *r[i]);			\
				matmul_sub(a[i], c[i - 1], b[i]);			\
				binvcrhs(b[i], c[i], *r[i]);				\
			}								\
			matvec_sub(a[n - 1], *r[n - 2], *r[n - 1]);			\
			matmul_sub(a[n - 1], c[n - 2], b[n - 1]);			\
			binvrhs(b[n - 1], *r[n - 1]);					\
			for (int i = n - 2; i >= 0; i--)				\
				matvec_sub(c[i], *r[i + 1], *r[i]);			\
			if (checking)							\
				check_line(n, upts, r, orig, DIR);			\
		}									\
	}

#define ID_X(i, j, k) IDX(i, j, k)
#define ID_Y(i, j, k) IDX(j, i, k)
#define ID_Z(i, j, k) IDX(j, k, i)
static void x_solve(void) { SOLVE_DIRECTION(0, ID_X) }
static void y_solve(void) { SOLVE_DIRECTION(1, ID_Y) }
static void z_solve(void) { SOLVE_DIRECTION(2, ID_Z) }

/* rhs = -dt K(u) L u with L the 7-point Laplacian (zero outside). */
static void compute_rhs(void)
{
#pragma omp parallel for schedule(static)
	for (int k = 0; k < n; k++)
		for (int j = 0; j < n; j++)
			for (int i = 0; i < n; i++) {
				vec5 lap;
				const double *c = u[IDX(i, j, k)];
				for (int m = 0; m < 5; m++) {
					double s = 6 * c[m];
					if (i > 0) s -= u[IDX(i - 1, j, k)][m];
					if (i < n - 1) s -= u[IDX(i + 1, j, k)][m];
					if (j > 0) s -= u[IDX(i, j - 1, k)][m];
					if (j < n - 1) s -= u[IDX(i, j + 1, k)][m];
					if (k > 0) s -= u[IDX(i, j, k - 1)][m];
					if (k < n - 1) s -= u[IDX(i, j, k + 1)][m];
					lap[m] = s;
				}
				block kk;
				kmatrix(c, 0, kk);
				double *r = rhs[IDX(i, j, k)];
				for (int m = 0; m < 5; m++) {
					double s = 0;
					for (int q = 0; q < 5; q++)
						s += kk[m][q] * lap[q];
					r[m] = -dt * s;
				}
			}
}

static void add(void)
{
	size_t total = (size_t)n * n * n;
#pragma omp parallel for schedule(static)
	for (size_t p = 0; p < total; p++)
		for (int m = 0; m < 5; m++)
			u[p][m] += rhs[p][m];
}

static double norm_u(void)
{
	size_t total = (size_t)n * n * n;
	double s = 0;
#pragma omp parallel for reduction(+:s) schedule(static)
	for (size_t p = 0; p < total; p++)
		for (int m = 0; m < 5; m++)
			s += u[p][m] * u[p][m];
	return sqrt(s / (double)total);
}

static void adi(void)
{
	compute_rhs();
	x_solve();
	y_solve();
	z_solve();
	add();
}

static void initialize(void)
{
	unsigned long long seed = 271828183ULL;
	for (int k = 0; k < n; k++)
		for (int j = 0; j < n; j++)
			for (int i = 0; i < n; i++)
				for (int m = 0; m < 5; m++) {
					seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
					double noise = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
					u[IDX(i, j, k)][m] = sin(0.3 * (i + 1) * (m + 1)) * cos(0.2 * (j + 2 * k)) + 0.3 * noise;
				}
}

int main(int argc, char **argv)
{
	int steps;
	const char *size = argc > 1 ? argv[1] : "small";
	if (!strcmp(size, "small")) {
		n = 16;
		steps = 40;
	} else if (!strcmp(size, "large")) {
		n = 48;
		steps = 70;
	} else {
		n = atoi(size);
		steps = 20;
	}
	if (argc > 2)
		steps = atoi(argv[2]);
	if (n < 3 || n > NMAX || steps < 2) {
		fprintf(stderr, "usage: bt [small|large|N(3..%d) [STEPS>=2]]\n", NMAX);
		return 2;
	}
	size_t total = (size_t)n * n * n;
	u = calloc(total, sizeof(vec5));
	rhs = calloc(total, sizeof(vec5));
	rhs_check = calloc(total, sizeof(vec5));
	if (!u || !rhs || !rhs_check) {
		fprintf(stderr, "bt: out of memory\n");
		return 2;
	}
	initialize();
	double first = norm_u(), prev = first;
	int monotone = 1;
	for (int s = 1; s <= steps; s++) {
		checking = s == steps;
		adi();
		double now = norm_u();
		if (!(now < prev) || !isfinite(now))
			monotone = 0;
		prev = now;
	}
	printf("BT-like: n=%d steps=%d |u| %.6e -> %.6e, max relative line residual %.2e\n", n, steps, first, prev,
	       max_resid);
	int ok = monotone && max_resid < 1e-10 && prev > 0 && prev < first;
	printf("VERIFICATION %s\n", ok ? "SUCCESSFUL" : "FAILED");
	free(u);
	free(rhs);
	free(rhs_check);
	return ok ? 0 : 1;
}
