! Phases from Fortran through include/selinst.fi (issue 15).
program phases_f
   use, intrinsic :: iso_c_binding
   implicit none
   include 'selinst.fi'
   integer :: step
   real(8) :: s
   s = 0
   do step = 1, 12
      call selinst_phase_begin('timestep'//c_null_char)
      call work(step, s)
      call selinst_phase_end('timestep'//c_null_char)
   end do
   if (selinst_dump(c_null_ptr) /= 0) stop 3
   print '(a,f0.1)', 'done ', s
contains
   subroutine work(step, s)
      integer, intent(in) :: step
      real(8), intent(inout) :: s
      integer :: i
      do i = 1, 1000 * step
         s = s + 1d0 / i
      end do
   end subroutine work
end program phases_f
