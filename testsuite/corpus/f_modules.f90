! Modules: module variables, module procedures, a generic interface,
! a derived type with type-bound procedures, private helpers.
module stats_mod
  implicit none
  private
  public :: accumulator, mean, push, nvalues, describe
  type :: accumulator
     integer :: n = 0
     real(8) :: s = 0, s2 = 0
   contains
     procedure :: add => acc_add
     procedure :: variance => acc_var
  end type accumulator
  interface describe
     module procedure describe_int, describe_real
  end interface describe
  integer :: nvalues = 0
contains
  subroutine acc_add(self, x)
    class(accumulator), intent(inout) :: self
    real(8), intent(in) :: x
    self%n = self%n + 1
    self%s = self%s + x
    self%s2 = self%s2 + x * x
    call bump()
  end subroutine acc_add
  real(8) function acc_var(self)
    class(accumulator), intent(in) :: self
    acc_var = self%s2 / self%n - (self%s / self%n)**2
  end function acc_var
  real(8) function mean(a)
    type(accumulator), intent(in) :: a
    mean = a%s / a%n
  end function mean
  subroutine push(a, x)
    type(accumulator), intent(inout) :: a
    real(8), intent(in) :: x
    call a%add(x)
  end subroutine push
  subroutine bump()
    nvalues = nvalues + 1
  end subroutine bump
  subroutine describe_int(k)
    integer, intent(in) :: k
    print '(a,i0)', 'int ', k
  end subroutine describe_int
  subroutine describe_real(r)
    real(8), intent(in) :: r
    print '(a,f12.6)', 'real ', r
  end subroutine describe_real
end module stats_mod

program modules
  use stats_mod
  implicit none
  type(accumulator) :: acc
  integer :: i
  do i = 1, 1000
     call push(acc, dble(mod(i * 37, 101)))
  end do
  call describe(nvalues)
  call describe(mean(acc))
  call describe(acc%variance())
end program modules
