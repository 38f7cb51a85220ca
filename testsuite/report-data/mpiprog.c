/* A small MPI program for t-report-mpi.sh: every rank calls compute()
 * 5 times and exchange() 5 times; rank r does (r + 1) units of work so
 * the per-rank min/mean/max differ. */
#include <mpi.h>
#include <stdio.h>

static volatile double sink;

__attribute__((noinline)) static double compute(int units)
{
	double s = 0;
	for (int i = 0; i < units * 2000000; i++)
		s += (double)i * 0.5;
	sink = s;
	return s;
}

__attribute__((noinline)) static double exchange(double x)
{
	double y = 0;
	MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	return y;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	double t = 0;
	for (int k = 0; k < 5; k++)
		t += exchange(compute(rank + 1));
	if (rank == 0)
		printf("size %d result %g\n", size, t);
	MPI_Finalize();
	return 0;
}
