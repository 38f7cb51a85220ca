! Subroutines and functions in a plain program: intent in/out/inout,
! array arguments (explicit shape), optional arguments, early return.
program subroutines
  implicit none
  integer :: a(10), i, s, m
  real(8) :: x
  do i = 1, 10
     a(i) = mod(i * 7, 11)
  end do
  call sum_max(a, 10, s, m)
  print '(a,i0,a,i0)', 'sum ', s, ' max ', m
  x = 2.0d0
  call scale(x, 3)
  print '(a,f8.3)', 'scaled ', x
  print '(a,i0,1x,i0)', 'first ', first_over(a, 10, 6), first_over(a, 10, 100)
  print '(a,f10.4)', 'poly ', horner((/ 1.0d0, -2.0d0, 0.5d0, 3.0d0 /), 4, 1.5d0)
contains
  subroutine sum_max(v, n, total, vmax)
    integer, intent(in) :: n, v(n)
    integer, intent(out) :: total, vmax
    integer :: k
    total = 0
    vmax = -huge(0)
    do k = 1, n
       total = total + v(k)
       if (v(k) > vmax) vmax = v(k)
    end do
  end subroutine sum_max
  subroutine scale(y, times)
    real(8), intent(inout) :: y
    integer, intent(in) :: times
    integer :: k
    do k = 1, times
       y = y * 1.5d0 + 0.25d0
    end do
  end subroutine scale
  integer function first_over(v, n, lim)
    integer, intent(in) :: n, v(n), lim
    integer :: k
    do k = 1, n
       if (v(k) > lim) then
          first_over = k
          return
       end if
    end do
    first_over = -1
  end function first_over
  real(8) function horner(c, n, t)
    integer, intent(in) :: n
    real(8), intent(in) :: c(n), t
    integer :: k
    horner = c(n)
    do k = n - 1, 1, -1
       horner = horner * t + c(k)
    end do
  end function horner
end program subroutines
! corpus-levels-metrics: differ (gfortran makes one statement fewer in the main program at -O2; cause not analysed)
