/* SPDX-License-Identifier: MIT */
/*
 * An MPI program with one slow rank, for t-mpi-layer.sh.  Each of STEPS
 * steps: every rank works (the last rank 24 units, the others 1: its lead
 * must outweigh the scheduling delays of 4 ranks on 2 loaded cores; with
 * 8, CI once saw rank 1 wait less in the barrier than rank 3) and waits
 * in MPI_Barrier called from sync_step(); works again and combines in
 * MPI_Allreduce called from reduce_step(); then passes RING doubles round
 * a ring (MPI_Send and MPI_Recv from ring_step(): even ranks send first).
 * Before MPI_Init and after MPI_Finalize it asks MPI_Initialized and
 * MPI_Finalized, which MPI allows at any time.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 5
#define RING 1000

static volatile double sink;

__attribute__((noinline)) static void work(int units, long base)
{
	double s = 0;
	for (long i = 0; i < units * base; i++)
		s += (double)i * 0.5;
	sink = s;
}

__attribute__((noinline)) static void sync_step(void)
{
	MPI_Barrier(MPI_COMM_WORLD);
}

__attribute__((noinline)) static double reduce_step(double x)
{
	double y = 0;
	MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	return y;
}

__attribute__((noinline)) static void ring_step(int rank, int size, double *out, double *in)
{
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	if (rank % 2 == 0) {
		MPI_Send(out, RING, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
		MPI_Recv(in, RING, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Status st;
		MPI_Recv(in, RING, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &st);
		MPI_Send(out, RING, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
	}
}

int main(int argc, char **argv)
{
	int flag = -1, rank, size;
	MPI_Initialized(&flag);		/* allowed before MPI_Init */
	long base = argc > 1 ? atol(argv[1]) : 2000000;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int units = rank == size - 1 ? 24 : 1;
	static double out[RING], in[RING];
	double t = 0;
	for (int k = 0; k < STEPS; k++) {
		work(units, base);
		sync_step();
		work(units, base);
		t += reduce_step(rank + 1.0);
		ring_step(rank, size, out, in);
	}
	MPI_Finalize();
	MPI_Finalized(&flag);		/* allowed after MPI_Finalize */
	if (rank == 0)
		printf("size %d sum %g finalized %d\n", size, t, flag);
	return 0;
}
