! SPDX-License-Identifier: MIT
! The Fortran twin of mpi_imbalance.c (mpif.h bindings), for t-mpi-layer.sh:
! STEPS steps of work (the last rank 24 units, the others 1), MPI_Barrier
! from sync_step, MPI_Allreduce from reduce_step, RING doubles round a
! ring with MPI_Send/MPI_Recv from ring_step (even ranks send first).
module steps
  implicit none
  include 'mpif.h'
  integer, parameter :: ring = 1000
  double precision, volatile :: sink
contains
  subroutine work(units, base)
    integer, intent(in) :: units
    integer(8), intent(in) :: base
    integer(8) :: i
    double precision :: s
    s = 0
    do i = 0, units * base - 1
      s = s + dble(i) * 0.5d0
    end do
    sink = s
  end subroutine
  subroutine sync_step()
    integer :: ierr
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end subroutine
  double precision function reduce_step(x)
    double precision, intent(in) :: x
    integer :: ierr
    call MPI_Allreduce(x, reduce_step, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function
  subroutine ring_step(rank, size, out, in)
    integer, intent(in) :: rank, size
    double precision :: out(ring), in(ring)
    integer :: ierr, right, left, st(MPI_STATUS_SIZE)
    right = mod(rank + 1, size)
    left = mod(rank + size - 1, size)
    if (mod(rank, 2) == 0) then
      call MPI_Send(out, ring, MPI_DOUBLE_PRECISION, right, 7, MPI_COMM_WORLD, ierr)
      call MPI_Recv(in, ring, MPI_DOUBLE_PRECISION, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    else
      call MPI_Recv(in, ring, MPI_DOUBLE_PRECISION, left, 7, MPI_COMM_WORLD, st, ierr)
      call MPI_Send(out, ring, MPI_DOUBLE_PRECISION, right, 7, MPI_COMM_WORLD, ierr)
    end if
  end subroutine
end module

program mpi_imbalance
  use steps
  implicit none
  integer :: ierr, rank, size, units, k
  integer(8) :: base
  double precision :: t, out(ring), in(ring)
  character(len=32) :: arg
  base = 2000000
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) base
  end if
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  units = 1
  if (rank == size - 1) units = 24
  out = 1
  t = 0
  do k = 1, 5
    call work(units, base)
    call sync_step()
    call work(units, base)
    t = t + reduce_step(rank + 1d0)
    call ring_step(rank, size, out, in)
  end do
  call MPI_Finalize(ierr)
  if (rank == 0) print '(a,i0,a,i0)', 'size ', size, ' sum ', nint(t)
end program
