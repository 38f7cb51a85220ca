! Legacy Fortran control flow: ENTRY statements (several entry points
! into one procedure), alternate returns, computed GOTO, a SAVEd counter,
! and ERROR STOP with a fixed code at the end.
subroutine counter_ops(n, r)
  implicit none
  integer :: n, r
  integer, save :: total = 0
  total = total + n
  r = total
  return
  entry counter_reset(r)
  r = total
  total = 0
  return
  entry counter_double(n, r)
  total = total * 2 + n
  r = total
end subroutine counter_ops

subroutine classify(x, *, *)
  implicit none
  integer :: x
  if (x < 0) return 1
  if (x == 0) return 2
end subroutine classify

integer function route(k)
  implicit none
  integer :: k
  go to (10, 20, 30) k
  route = -1
  return
10 route = 100
  return
20 route = 200
  return
30 route = 300
end function route

program entry_prog
  implicit none
  integer :: r, i, neg, zero, pos, s
  integer, external :: route
  do i = 1, 10
     call counter_ops(i, r)
  end do
  print '(a,i0)', 'after adds ', r
  call counter_double(1, r)
  print '(a,i0)', 'after double ', r
  call counter_reset(r)
  call counter_ops(5, r)
  print '(a,i0)', 'after reset ', r
  neg = 0; zero = 0; pos = 0
  do i = -5, 7
     call classify(i, *100, *200)
     pos = pos + 1
     cycle
100  neg = neg + 1
     cycle
200  zero = zero + 1
  end do
  print '(a,3(1x,i0))', 'classify', neg, zero, pos
  s = 0
  do i = 0, 4
     s = s + route(i)
  end do
  print '(a,i0)', 'route ', s
  flush(6)
  error stop 4
end program entry_prog
