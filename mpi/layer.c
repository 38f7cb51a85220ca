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
#include <stdbool.h>
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

/* Slots of the per-peer arrays of a collective on COMM whose peers are
 * WHO: COMM's ranks, or the in- or out-neighbours of its virtual topology
 * (a neighborhood collective; none without a topology).  *CART: whether
 * it is Cartesian, whose slots 2d and 2d+1 are dimension d's neighbours
 * at -1 and +1, MPI_PROC_NULL at a non-periodic edge. */
static int peer_slots(MPI_Comm comm, enum si_mpi_peers who, bool *cart)
{
	int topo = MPI_UNDEFINED, n = 0, in = 0, out = 0, weighted = 0;
	*cart = false;
	if (who == SI_MPI_RANKS)
		return (int)si_mpi_comm_size(comm);
	if (comm == MPI_COMM_NULL || PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
		return 0;
	if (topo == MPI_CART && PMPI_Cartdim_get(comm, &n) == MPI_SUCCESS) {
		*cart = true;
		return n > 0 ? 2 * n : 0;
	}
	if (topo == MPI_GRAPH &&
	    PMPI_Graph_neighbors_count(comm, si_mpi_comm_rank(comm), &n) == MPI_SUCCESS)
		return n > 0 ? n : 0;
	if (topo == MPI_DIST_GRAPH &&
	    PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted) == MPI_SUCCESS)
		n = who == SI_MPI_IN ? in : out;
	return n > 0 ? n : 0;
}

/* Slot I's term of a sum over peers: C's count times its datatype's size
 * (C NULL: 1, counting the peers). */
static uint64_t slot_term(const struct si_mpi_counts *c, int i)
{
	if (!c)
		return 1;
	int64_t k = count_at(c->counts, c->fcounts, i);
	if (k <= 0)
		return 0;
	if (c->types)
		return (uint64_t)k * si_mpi_type_size(c->types[i]);
	if (c->ftypes)
		return (uint64_t)k * si_mpi_type_size(PMPI_Type_f2c(c->ftypes[i]));
	return (uint64_t)k;
}

/* The sum of slot_term over the WHO of COMM that are processes: a
 * Cartesian topology's slots 2d and 2d+1 are skipped where
 * PMPI_Cart_shift (one call per dimension) gives MPI_PROC_NULL, to and
 * from which nothing moves. */
static uint64_t sum_peers(const struct si_mpi_counts *c, MPI_Comm comm, enum si_mpi_peers who)
{
	bool cart;
	int n = peer_slots(comm, who, &cart);
	uint64_t sum = 0;
	if (c && !c->counts && !c->fcounts)
		return 0;
	if (!c && !cart)
		return n > 0 ? (uint64_t)n : 0;
	for (int i = 0; i < n && !cart; i++)
		sum += slot_term(c, i);
	for (int d = 0; d < n / 2 && cart; d++) {
		int src = MPI_PROC_NULL, dst = MPI_PROC_NULL;
		if (PMPI_Cart_shift(comm, d, 1, &src, &dst) != MPI_SUCCESS)
			break;
		sum += (src != MPI_PROC_NULL ? slot_term(c, 2 * d) : 0) +
		       (dst != MPI_PROC_NULL ? slot_term(c, 2 * d + 1) : 0);
	}
	return sum;
}

uint64_t si_mpi_peers(MPI_Comm comm, enum si_mpi_peers who)
{
	return sum_peers(NULL, comm, who);
}

uint64_t si_mpi_sum_counts(const struct si_mpi_counts *c, MPI_Comm comm, enum si_mpi_peers who)
{
	return sum_peers(c, comm, who);
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
