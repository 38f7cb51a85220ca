! Internal procedures using host association, an internal procedure
! passed as an actual argument (needs a trampoline or static chain),
! and an internal function called from a loop in its host.
module integrate_mod
  implicit none
  abstract interface
     real(8) function fun(x)
       real(8), intent(in) :: x
     end function fun
  end interface
contains
  real(8) function simpson(f, a, b, n)
    procedure(fun) :: f
    real(8), intent(in) :: a, b
    integer, intent(in) :: n
    real(8) :: h
    integer :: k
    h = (b - a) / n
    simpson = f(a) + f(b)
    do k = 1, n - 1
       if (mod(k, 2) == 1) then
          simpson = simpson + 4 * f(a + k * h)
       else
          simpson = simpson + 2 * f(a + k * h)
       end if
    end do
    simpson = simpson * h / 3
  end function simpson
end module integrate_mod

program internal
  use integrate_mod
  implicit none
  real(8) :: k
  integer :: evals, i
  real(8) :: r
  evals = 0
  k = 2.0d0
  r = simpson(shifted, 0.0d0, 1.0d0, 100)
  print '(a,f12.8,a,i0)', 'integral ', r, ' evals ', evals
  k = 3.0d0
  r = 0
  do i = 1, 10
     r = r + shifted(dble(i))
  end do
  print '(a,f12.4,a,i0)', 'sum ', r, ' evals ', evals
  call tally(5)
  print '(a,i0)', 'after tally ', evals
contains
  real(8) function shifted(x)
    real(8), intent(in) :: x
    evals = evals + 1
    shifted = x**k + 1
  end function shifted
  subroutine tally(n)
    integer, intent(in) :: n
    integer :: j
    do j = 1, n
       evals = evals + j
    end do
  end subroutine tally
end program internal
