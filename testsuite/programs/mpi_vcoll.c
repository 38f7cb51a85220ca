/* Vector collectives on 4 ranks (t-mpi-layer): rank r sends j+1 ints to
 * rank j, so each call's bytes are known exactly. */
#include <mpi.h>
#include <stdio.h>

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
	MPI_Finalize();
	if (rank == 0)
		printf("ok %d\n", size);
	return 0;
}
