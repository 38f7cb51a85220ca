/* SPDX-License-Identifier: MIT */
/* bench/mpi.sh's neighborhood collective: N calls of MPI_Neighbor_alltoall
 * of one int on a 2-D Cartesian communicator of one process (periodic in
 * the first dimension: 2 neighbours there, itself; MPI_PROC_NULL in the
 * second), in run_loop, which callgrind counts alone. */
#include <mpi.h>
#include <stdlib.h>

__attribute__((noinline)) void run_loop(MPI_Comm c, int n, int *s, int *r);
void run_loop(MPI_Comm c, int n, int *s, int *r)
{
	for (int i = 0; i < n; i++)
		MPI_Neighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, c);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int n = argc > 1 ? atoi(argv[1]) : 2000, dims[2] = { 1, 1 }, periods[2] = { 1, 0 };
	int s[4] = { 0 }, r[4];
	MPI_Comm cart;
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
	run_loop(cart, n, s, r);
	MPI_Comm_free(&cart);
	MPI_Finalize();
	return 0;
}
