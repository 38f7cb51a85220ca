! SELECT CASE, named loops left by EXIT and CYCLE across nesting levels,
! a BLOCK construct, ASSOCIATE, character functions, and an internal
! recursive function.
program select_prog
  implicit none
  integer :: i, j, k, hits, found_i, found_j
  character(len=32) :: word
  integer :: counts(4)
  counts = 0
  do i = -3, 20
     select case (i)
     case (:-1)
        counts(1) = counts(1) + 1
     case (0)
        counts(2) = counts(2) + 1
     case (1, 3, 5, 7, 9)
        counts(3) = counts(3) + 1
     case default
        counts(4) = counts(4) + 1
     end select
  end do
  print '(a,4(1x,i0))', 'cases', counts
  hits = 0
  found_i = -1
  found_j = -1
  outer: do i = 1, 50
     inner: do j = 1, 50
        if (mod(i * j, 7) == 3) cycle inner
        if (i + j > 60) cycle outer
        do k = 1, 10
           hits = hits + 1
           if (i * j * k == 1000) then
              found_i = i
              found_j = j
              exit outer
           end if
        end do
     end do inner
  end do outer
  print '(a,i0,a,i0,1x,i0)', 'hits ', hits, ' found ', found_i, found_j
  block
    integer :: tmp(5)
    tmp = [(k * k, k = 1, 5)]
    associate (s => sum(tmp), m => maxval(tmp))
      print '(a,i0,1x,i0)', 'block ', s, m
    end associate
  end block
  word = 'Selective Instrumentation'
  print '(a,a,a,i0)', 'upper ', trim(upper(word)), ' vowels ', vowels(trim(word))
  print '(a,i0)', 'digits ', digitsum(987654321)
contains
  function upper(s) result(r)
    character(len=*), intent(in) :: s
    character(len=len(s)) :: r
    integer :: p
    r = s
    do p = 1, len(s)
       select case (s(p:p))
       case ('a':'z')
          r(p:p) = achar(iachar(s(p:p)) - 32)
       end select
    end do
  end function upper
  integer function vowels(s)
    character(len=*), intent(in) :: s
    integer :: p
    vowels = 0
    do p = 1, len(s)
       if (index('aeiouAEIOU', s(p:p)) > 0) vowels = vowels + 1
    end do
  end function vowels
  recursive integer function digitsum(n) result(r)
    integer, intent(in) :: n
    if (n < 10) then
       r = n
    else
       r = mod(n, 10) + digitsum(n / 10)
    end if
  end function digitsum
end program select_prog
! corpus-levels-metrics: differ (gfortran lowers select case differently when optimizing; blocks and statements differ)
