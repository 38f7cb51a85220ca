/* bt_shape.c - the call structure of NAS BT and FT (Hernandez et al.,
 * Table 1 and section 6), small enough to run in a test.
 *   leaves (matvec_sub, matmul_sub, binvcrhs, binvrhs, lhsinit) called at
 *   loop depth 3 from the solvers; exact_solution at depth 4;
 *   x/y/z_solve called at depth 0 from adi; adi at depth 1 from main;
 *   cffz calls only ftz2 (a leaf at depth 3), cffz itself at depth 1.
 * Usage: bt_shape [STEPS]   (default 20 time steps)
 * Expected at threshold 204800: leaves, exact_solution, ftz2 and cffz are
 * not instrumented (nor fft: small, at depth 1, its only callee cffz not
 * instrumented); the solvers, adi, compute_rhs, initialize and main are. */
#include <stdio.h>
#include <stdlib.h>

#define N 6
static double u[N][N][N][5], rhs[N][N][N][5], lhs[N][N][N][5][5];

static void matvec_sub(double a[5][5], double b[5], double c[5])
{
	for (int i = 0; i < 5; i++)
		c[i] -= a[i][0]*b[0] + a[i][1]*b[1] + a[i][2]*b[2] + a[i][3]*b[3] + a[i][4]*b[4];
}

static void matmul_sub(double a[5][5], double b[5][5], double c[5][5])
{
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 5; j++)
			c[i][j] -= a[i][0]*b[0][j] + a[i][1]*b[1][j] + a[i][2]*b[2][j];
}

static void binvcrhs(double a[5][5], double c[5][5], double r[5])
{
	double p = 1.0 / (a[0][0] + 10.0);
	for (int i = 0; i < 5; i++) {
		r[i] *= p;
		for (int j = 0; j < 5; j++)
			c[i][j] *= p;
	}
}

static void binvrhs(double a[5][5], double r[5])
{
	double p = 1.0 / (a[1][1] + 10.0);
	for (int i = 0; i < 5; i++)
		r[i] *= p;
}

static void lhsinit(double l[5][5])
{
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 5; j++)
			l[i][j] = (i == j) ? 1.0 : 0.01;
}

static void exact_solution(double x, double y, double z, double out[5])
{
	for (int m = 0; m < 5; m++)
		out[m] = 1.0 + m * x + y * y * 0.5 + z * 0.25;
}

void initialize(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				for (int m = 0; m < 1; m++)
					exact_solution(i * 0.1, j * 0.1, k * 0.1, u[i][j][k]);
}

void compute_rhs(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				for (int m = 0; m < 5; m++)
					rhs[i][j][k][m] = u[i][j][k][m] * 0.5 + 0.1;
}

/* One solver; the three directions differ only in the index order. */
#define SOLVER(NAME, A, B, C)                                              \
void NAME(void)                                                            \
{                                                                          \
	for (int i = 0; i < N; i++)                                        \
		for (int j = 0; j < N; j++)                                \
			for (int k = 1; k < N; k++) {                      \
				lhsinit(lhs[A][B][C]);                     \
				matvec_sub(lhs[A][B][C], rhs[A][B][C], rhs[A][B][C]); \
				matmul_sub(lhs[A][B][C], lhs[A][B][C], lhs[A][B][C]); \
				binvcrhs(lhs[A][B][C], lhs[A][B][C], rhs[A][B][C]); \
				binvrhs(lhs[A][B][C], rhs[A][B][C]);       \
			}                                                  \
}
SOLVER(x_solve, i, j, k)
SOLVER(y_solve, j, k, i)
SOLVER(z_solve, k, i, j)

void adi(void)
{
	compute_rhs();
	x_solve();
	y_solve();
	z_solve();
}

/* FT: cffz's only callee is the leaf ftz2. */
static double fftbuf[64];
static void ftz2(int l, int m)
{
	for (int k = 0; k < 4; k++)
		fftbuf[(l * 4 + k + m) % 64] = 0.5 * (fftbuf[(l * 4 + k + m) % 64] + fftbuf[(l + k) % 64]);
}

static void cffz(int is)
{
	for (int l = 0; l < 3; l++)
		for (int m = 0; m < 2; m++)
			for (int k = 0; k < 2; k++)
				ftz2(l + is, m + k);
}

void fft(void)
{
	for (int i = 0; i < 4; i++)
		cffz(i);
}

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 20;
	initialize();
	for (int i = 0; i < 64; i++)
		fftbuf[i] = i * 0.01;
	for (int step = 0; step < steps; step++) {
		adi();
		fft();
	}
	double s = 0;
	for (int i = 0; i < N; i++)
		for (int m = 0; m < 5; m++)
			s += rhs[i][i][i][m];
	for (int i = 0; i < 64; i++)
		s += fftbuf[i] * 1e-6;
	printf("checksum %.6f\n", s);
	return 0;
}
