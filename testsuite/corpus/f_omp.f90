! corpus-flags: -fopenmp
! corpus-env: OMP_NUM_THREADS=2
! OpenMP Fortran: parallel do with reductions, a critical section,
! a subroutine called from a parallel region, sections, tasks.
module omp_work
  implicit none
contains
  pure real(8) function f(i)
    integer, intent(in) :: i
    f = sqrt(dble(i)) + mod(i, 3)
  end function f
  subroutine fill(a, n)
    integer, intent(in) :: n
    real(8), intent(out) :: a(n)
    integer :: i
    !$omp parallel do
    do i = 1, n
       a(i) = f(i)
    end do
    !$omp end parallel do
  end subroutine fill
  recursive integer function tfib(n) result(r)
    integer, intent(in) :: n
    integer :: x, y
    if (n < 10) then
       r = sfib(n)
       return
    end if
    !$omp task shared(x)
    x = tfib(n - 1)
    !$omp end task
    !$omp task shared(y)
    y = tfib(n - 2)
    !$omp end task
    !$omp taskwait
    r = x + y
  end function tfib
  recursive integer function sfib(n) result(r)
    integer, intent(in) :: n
    if (n < 2) then
       r = n
    else
       r = sfib(n - 1) + sfib(n - 2)
    end if
  end function sfib
end module omp_work

program omp_prog
  use omp_work
  implicit none
  integer, parameter :: n = 100000
  real(8), allocatable :: a(:)
  real(8) :: s, mx
  integer :: i, cnt, hist(0:4), fibv, secs(2)
  allocate(a(n))
  call fill(a, n)
  s = 0
  mx = -1
  cnt = 0
  !$omp parallel do reduction(+:s,cnt) reduction(max:mx)
  do i = 1, n
     s = s + a(i)
     if (a(i) > mx) mx = a(i)
     if (mod(i, 7) == 0) cnt = cnt + 1
  end do
  !$omp end parallel do
  hist = 0
  !$omp parallel do
  do i = 1, 1000
     !$omp critical
     hist(mod(i * i, 5)) = hist(mod(i * i, 5)) + 1
     !$omp end critical
  end do
  !$omp end parallel do
  !$omp parallel sections
  !$omp section
  secs(1) = sfib(15)
  !$omp section
  secs(2) = sfib(16)
  !$omp end parallel sections
  !$omp parallel
  !$omp single
  fibv = tfib(22)
  !$omp end single
  !$omp end parallel
  print '(a,f20.6,a,f10.4,a,i0)', 'sum ', s, ' max ', mx, ' cnt ', cnt
  print '(a,5(1x,i0))', 'hist', hist
  print '(a,i0,1x,i0,1x,i0)', 'fib ', secs(1), secs(2), fibv
end program omp_prog
! corpus-levels-metrics: differ (gfortran makes 12 more statements in omp_prog at -O2; cause not analysed)
