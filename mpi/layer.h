/* SPDX-License-Identifier: MIT */
/*
 * layer.h - what libselinst-mpi's generated wrappers (mpi/gen-wrappers.py)
 * use: the region descriptor of an MPI function and the byte queries.
 */
#ifndef SELINST_MPI_LAYER_H
#define SELINST_MPI_LAYER_H
#include <stddef.h>
#include <stdint.h>
#include <mpi.h>
#include "selinst.h"

/* A hand-made descriptor (reserved 0: never switched off by the
 * throttle, never written).  File "": the call site is the calling
 * context's parent region. */
#define SI_MPI_REGION(name) \
	{ SELINST_ABI_VERSION, SELINST_KIND_MPI, 0, 0, name, "", NULL }

/* The wrappers' symbols (the library is built with -fvisibility=hidden). */
#define SI_MPI_EXPORT __attribute__((visibility("default")))

/* Bytes of one element of T (0 for MPI_DATATYPE_NULL or on error). */
uint64_t si_mpi_type_size(MPI_Datatype t);
/* Ranks in / rank of this process in COMM (0 / -1 on error). */
uint64_t si_mpi_comm_size(MPI_Comm comm);
int si_mpi_comm_rank(MPI_Comm comm);
/* The peers of a collective on a communicator: its ranks, or for a
 * neighborhood collective the in- or out-neighbours of its topology. */
enum si_mpi_peers { SI_MPI_RANKS, SI_MPI_IN, SI_MPI_OUT };
/* How many WHO of COMM are processes (a Cartesian topology's
 * MPI_PROC_NULL neighbours are left out). */
uint64_t si_mpi_peers(MPI_Comm comm, enum si_mpi_peers who);
/* The per-peer counts of a vector collective, C's COUNTS or Fortran's
 * FCOUNTS, and for the *w ones the datatype of each peer, C's TYPES or
 * Fortran's FTYPES (both NULL: elements counted as one byte each). */
struct si_mpi_counts {
	const int *counts;
	const MPI_Fint *fcounts;
	const MPI_Datatype *types;
	const MPI_Fint *ftypes;
};
/* Sum over the WHO of COMM of count[i] (* type_size(types[i])). */
uint64_t si_mpi_sum_counts(const struct si_mpi_counts *c, MPI_Comm comm, enum si_mpi_peers who);
/* COUNTS at this rank of COMM (C's COUNTS, or Fortran's FCOUNTS). */
uint64_t si_mpi_at_counts(const int *counts, const MPI_Fint *fcounts, MPI_Comm comm);
/* Bytes a receive got: PMPI_Get_count of STATUS in elements of T, or
 * COUNT elements when STATUS is MPI_STATUS_IGNORE or undefined. */
uint64_t si_mpi_status_bytes(const MPI_Status *status, MPI_Datatype t, int count);
/* The same for a Fortran status (MPI_F_STATUS_IGNORE: COUNT elements). */
uint64_t si_mpi_fstatus_bytes(const void *fstatus, MPI_Datatype t, int count);
#endif
