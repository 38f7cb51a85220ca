/* SPDX-License-Identifier: MIT */
/*
 * layer.c - libselinst-mpi's hand-written part: the byte queries of the
 * generated wrappers.  Every query goes through PMPI (the layer must not
 * record its own calls) and only after the wrapped call succeeded, whose
 * arguments are then valid ones: a failed query never reaches the
 * program's error handler with an argument the program did not pass.
 * That is also why the queries need no test of MPI_Initialized and
 * MPI_Finalized (two library calls each time, with a lock in Open MPI):
 * a function with bytes to count succeeds only between MPI_Init and
 * MPI_Finalize, where the queries are allowed.
 */
#include "layer.h"

uint64_t si_mpi_type_size(MPI_Datatype t)
{
	int size = 0;
	if (t == MPI_DATATYPE_NULL || PMPI_Type_size(t, &size) != MPI_SUCCESS || size < 0)
		return 0;
	return (uint64_t)size;
}

uint64_t si_mpi_comm_size(MPI_Comm comm)
{
	int size = 0;
	if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &size) != MPI_SUCCESS || size < 0)
		return 0;
	return (uint64_t)size;
}

int si_mpi_comm_rank(MPI_Comm comm)
{
	int rank = -1;
	if (comm == MPI_COMM_NULL || PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
		return -1;
	return rank;
}

static int64_t count_at(const int *counts, const MPI_Fint *fcounts, int i)
{
	return counts ? counts[i] : (int64_t)fcounts[i];
}

uint64_t si_mpi_sum_counts(const int *counts, const MPI_Fint *fcounts, MPI_Comm comm)
{
	uint64_t n = si_mpi_comm_size(comm), sum = 0;
	if (!counts && !fcounts)
		return 0;
	for (uint64_t i = 0; i < n; i++) {
		int64_t c = count_at(counts, fcounts, (int)i);
		sum += c > 0 ? (uint64_t)c : 0;
	}
	return sum;
}

uint64_t si_mpi_at_counts(const int *counts, const MPI_Fint *fcounts, MPI_Comm comm)
{
	int r = si_mpi_comm_rank(comm);
	if (r < 0 || (!counts && !fcounts))
		return 0;
	int64_t c = count_at(counts, fcounts, r);
	return c > 0 ? (uint64_t)c : 0;
}

uint64_t si_mpi_status_bytes(const MPI_Status *status, MPI_Datatype t, int count)
{
	int n = MPI_UNDEFINED;
	if (status != MPI_STATUS_IGNORE &&
	    PMPI_Get_count(status, t, &n) == MPI_SUCCESS && n != MPI_UNDEFINED && n >= 0)
		return (uint64_t)n * si_mpi_type_size(t);
	return (uint64_t)(count > 0 ? count : 0) * si_mpi_type_size(t);
}

uint64_t si_mpi_fstatus_bytes(const void *fstatus, MPI_Datatype t, int count)
{
	MPI_Status st;
	if (fstatus == (const void *)MPI_F_STATUS_IGNORE ||
	    PMPI_Status_f2c((const MPI_Fint *)fstatus, &st) != MPI_SUCCESS)
		return si_mpi_status_bytes(MPI_STATUS_IGNORE, t, count);
	return si_mpi_status_bytes(&st, t, count);
}
