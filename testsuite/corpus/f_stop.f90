! STOP with an exit code from a deep recursive subroutine; the output
! before it must appear and the status must be 3.
module stopper
  implicit none
  integer :: visits = 0
contains
  recursive subroutine descend(d)
    integer, intent(in) :: d
    integer :: k
    do k = 1, 2
       visits = visits + 1
       if (d == 0 .and. k == 2) then
          print '(a,i0)', 'stopping after visits ', visits
          stop 3
       end if
       if (d > 0) call descend(d - 1)
    end do
  end subroutine descend
end module stopper

program stop_prog
  use stopper
  implicit none
  call descend(8)
  print *, 'not reached'
end program stop_prog
! corpus-levels-metrics: differ (gfortran makes one block more and two statements fewer in descend at -O2; cause not analysed)
