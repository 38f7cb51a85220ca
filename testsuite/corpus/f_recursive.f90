! Recursive functions and subroutines: factorial, Ackermann, quicksort,
! and mutual recursion between module procedures.
module rec_mod
  implicit none
contains
  recursive integer(8) function fact(n) result(r)
    integer, intent(in) :: n
    if (n <= 1) then
       r = 1
    else
       r = n * fact(n - 1)
    end if
  end function fact
  recursive integer function ack(m, n) result(r)
    integer, intent(in) :: m, n
    if (m == 0) then
       r = n + 1
    else if (n == 0) then
       r = ack(m - 1, 1)
    else
       r = ack(m - 1, ack(m, n - 1))
    end if
  end function ack
  recursive subroutine qsort(a, lo, hi)
    integer, intent(inout) :: a(:)
    integer, intent(in) :: lo, hi
    integer :: i, j, p, t
    if (lo >= hi) return
    p = a((lo + hi) / 2)
    i = lo
    j = hi
    do while (i <= j)
       do while (a(i) < p)
          i = i + 1
       end do
       do while (a(j) > p)
          j = j - 1
       end do
       if (i <= j) then
          t = a(i); a(i) = a(j); a(j) = t
          i = i + 1; j = j - 1
       end if
    end do
    call qsort(a, lo, j)
    call qsort(a, i, hi)
  end subroutine qsort
  recursive logical function is_even(n) result(r)
    integer, intent(in) :: n
    if (n == 0) then
       r = .true.
    else
       r = is_odd(n - 1)
    end if
  end function is_even
  recursive logical function is_odd(n) result(r)
    integer, intent(in) :: n
    if (n == 0) then
       r = .false.
    else
       r = is_even(n - 1)
    end if
  end function is_odd
end module rec_mod

program recursive_prog
  use rec_mod
  implicit none
  integer :: a(500), i, chk
  print '(a,i0)', 'fact(20) ', fact(20)
  print '(a,i0)', 'ack(2,50) ', ack(2, 50)
  do i = 1, 500
     a(i) = mod(i * 7919, 1009)
  end do
  call qsort(a, 1, 500)
  chk = 0
  do i = 1, 500
     chk = mod(chk * 31 + a(i), 1000003)
  end do
  print '(a,i0,1x,i0,1x,i0)', 'sorted ', a(1), a(500), chk
  print '(a,l1,1x,l1)', 'parity ', is_even(1000), is_odd(777)
end program recursive_prog
