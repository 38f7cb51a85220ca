/* SPDX-License-Identifier: MIT */
/*
 * bench/mpi.sh's MPI program: ITERS rounds of small MPI calls
 * (MPI_Allreduce of one double, MPI_Sendrecv of 8 doubles round a ring,
 * MPI_Barrier), timed inside the program so that start-up is left out.
 * Rank 0 prints the slowest rank's nanoseconds per call.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CALLS_PER_ROUND 3

__attribute__((noinline)) static double run_loop(long iters, int rank, int size)
{
	double acc = 0, out[8] = { 0 }, in[8];
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	for (long i = 0; i < iters; i++) {
		double x = (double)(rank + i), y;
		MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		out[0] = y;
		MPI_Sendrecv(out, 8, MPI_DOUBLE, right, 1, in, 8, MPI_DOUBLE, left, 1,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Barrier(MPI_COMM_WORLD);
		acc += in[0];
	}
	return acc;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long iters = argc > 1 ? atol(argv[1]) : 20000;
	run_loop(iters / 10 + 1, rank, size);	/* warm-up */
	double t0 = MPI_Wtime();
	double acc = run_loop(iters, rank, size);
	double dt = MPI_Wtime() - t0, worst;
	MPI_Reduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%.1f ns/call (%g)\n", worst * 1e9 / (double)(iters * CALLS_PER_ROUND), acc);
	MPI_Finalize();
	return 0;
}
