/* SPDX-License-Identifier: MIT */
/* Vector collectives on 4 ranks (t-mpi-layer): rank r sends j+1 ints to
 * rank j, so each call's bytes are known exactly.  Then the *w and the
 * neighborhood collectives: MPI_Alltoallw with a datatype per rank, and
 * neighborhood collectives on a non-periodic 1-D Cartesian communicator
 * (the edge ranks have one neighbour, MPI_PROC_NULL the other) and on a
 * distributed graph where rank r sends to every higher rank and receives
 * from every lower one. */
#include <mpi.h>
#include <stdio.h>

/* Rank j's datatype in the *w calls: int for even, double for odd. */
static MPI_Datatype type_of(int j)
{
	return j % 2 ? MPI_DOUBLE : MPI_INT;
}

/* MPI_Alltoallw: to rank j, j+1 elements of type_of(j); from every
 * rank, rank+1 elements of type_of(rank). */
static void alltoallw(int rank, int size)
{
	static char sbuf[256], rbuf[256];
	int sc[4], sd[4], rc[4], rd[4], n = 0;
	MPI_Datatype st[4], rt[4];
	for (int j = 0; j < size; j++) {
		int ts, tr;
		MPI_Type_size(type_of(j), &ts);
		MPI_Type_size(type_of(rank), &tr);
		sc[j] = j + 1, st[j] = type_of(j), sd[j] = n;
		rc[j] = rank + 1, rt[j] = type_of(rank), rd[j] = j * (rank + 1) * tr;
		n += (j + 1) * ts;
	}
	MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, MPI_COMM_WORLD);
}

/* A line of SIZE ranks, not periodic: left and right neighbours. */
static void cart(void)
{
	int dims[1] = { 0 }, periods[1] = { 0 }, size, sbuf[8] = { 0 }, rbuf[8];
	MPI_Comm line;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	dims[0] = size;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
	MPI_Neighbor_allgather(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, line);
	/* 1 int to the left, 2 to the right: 2 from the left, 1 from the right */
	int sc[2] = { 1, 2 }, sd[2] = { 0, 1 }, rc[2] = { 2, 1 }, rd[2] = { 0, 2 };
	MPI_Neighbor_alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, line);
	MPI_Comm_free(&line);
}

/* Rank r sends to every rank above it and receives from every rank
 * below it. */
static void dist_graph(int rank, int size)
{
	int src[4], dst[4], nin = 0, nout = 0, sbuf[64] = { 0 }, rbuf[64];
	for (int j = 0; j < size; j++) {
		if (j < rank)
			src[nin++] = j;
		if (j > rank)
			dst[nout++] = j;
	}
	/* weights, not MPI_UNWEIGHTED: GCC 12 warns of Open MPI's (int *)2 */
	int w[4] = { 1, 1, 1, 1 };
	MPI_Comm g;
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, src, w, nout, dst, w, MPI_INFO_NULL,
				       0, &g);
	MPI_Neighbor_alltoall(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, g);
	MPI_Request req;
	MPI_Ineighbor_allgather(sbuf, 1, MPI_DOUBLE, rbuf, 1, MPI_DOUBLE, g, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	/* to rank j: j+1 of type_of(j); from each lower rank: rank+1 of type_of(rank) */
	int sc[4], rc[4];
	MPI_Aint sdi[4], rdi[4];
	MPI_Datatype st[4], rt[4];
	for (int k = 0; k < nout; k++)
		sc[k] = dst[k] + 1, st[k] = type_of(dst[k]), sdi[k] = 0;
	for (int k = 0; k < nin; k++)
		rc[k] = rank + 1, rt[k] = type_of(rank), rdi[k] = k * 8 * (rank + 1);
	MPI_Neighbor_alltoallw(sbuf, sc, sdi, st, rbuf, rc, rdi, rt, g);
	MPI_Comm_free(&g);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int sc[4], sd[4], rc[4], rd[4], sbuf[16] = { 0 }, rbuf[16], n = 0;
	for (int j = 0; j < size; j++) {
		sc[j] = j + 1;		/* to rank j: j+1 ints */
		rc[j] = rank + 1;	/* from every rank: rank+1 ints */
		sd[j] = n;
		rd[j] = j * (rank + 1);
		n += j + 1;
	}
	MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, MPI_COMM_WORLD);
	int gc[4], gd[4];
	for (int j = 0; j < size; j++) {
		gc[j] = j + 1;
		gd[j] = j * (j + 1) / 2;
	}
	MPI_Gatherv(sbuf, rank + 1, MPI_INT, rbuf, gc, gd, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Scatterv(sbuf, gc, gd, MPI_INT, rbuf, rank + 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Allgatherv(sbuf, rank + 1, MPI_INT, rbuf, gc, gd, MPI_INT, MPI_COMM_WORLD);
	MPI_Reduce_scatter(sbuf, rbuf, gc, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	alltoallw(rank, size);
	cart();
	dist_graph(rank, size);
	MPI_Finalize();
	if (rank == 0)
		printf("ok %d\n", size);
	return 0;
}
