/* SPDX-License-Identifier: MIT */
/*
 * MPI_THREAD_MULTIPLE for t-mpi-layer.sh: THREADS threads each make
 * CALLS MPI_Sendrecv of 8 ints to their own rank (one tag per thread), at
 * the same time.  Prints "multiple" when the library gave
 * MPI_THREAD_MULTIPLE, "fewer" (and makes no thread) when not.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define THREADS 2
#define CALLS 100

__attribute__((noinline)) static void *worker(void *arg)
{
	int tag = (int)(long)arg, rank, out[8] = { 0 }, in[8];
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i < CALLS; i++)
		MPI_Sendrecv(out, 8, MPI_INT, rank, tag, in, 8, MPI_INT, rank, tag,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		puts("fewer");
		MPI_Finalize();
		return 0;
	}
	pthread_t t[THREADS];
	for (long i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	puts("multiple");
	MPI_Finalize();
	return 0;
}
