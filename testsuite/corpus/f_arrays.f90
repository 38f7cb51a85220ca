! Array features: assumed-shape arguments, elemental functions,
! corpus-levels: none (gfortran expands matmul into loops only when optimizing)
! allocatable results, intrinsics (sum, matmul, maxloc), where/forall,
! optional arguments and keyword calls.
module arr_mod
  implicit none
contains
  elemental real(8) function clip(x, lo, hi)
    real(8), intent(in) :: x, lo, hi
    clip = min(max(x, lo), hi)
  end function clip
  function running_sum(v) result(r)
    real(8), intent(in) :: v(:)
    real(8), allocatable :: r(:)
    integer :: k
    allocate(r(size(v)))
    r(1) = v(1)
    do k = 2, size(v)
       r(k) = r(k - 1) + v(k)
    end do
  end function running_sum
  real(8) function norm(v, p)
    real(8), intent(in) :: v(:)
    integer, intent(in), optional :: p
    integer :: pp
    pp = 2
    if (present(p)) pp = p
    norm = sum(abs(v)**pp)**(1.0d0 / pp)
  end function norm
end module arr_mod

program arrays
  use arr_mod
  implicit none
  real(8) :: v(20), m(4, 4), mm(4, 4)
  real(8), allocatable :: rs(:)
  integer :: i, j
  do i = 1, 20
     v(i) = sin(dble(i)) * 10
  end do
  v = clip(v, -5.0d0, 5.0d0)
  rs = running_sum(v)
  forall (i = 1:4, j = 1:4) m(i, j) = dble(i - j) / (i + j)
  mm = matmul(m, transpose(m))
  where (mm < 0.1d0) mm = 0
  print '(a,f12.6,1x,f12.6)', 'clip/run ', sum(v), rs(20)
  print '(a,f12.6,1x,f12.6)', 'norms ', norm(v), norm(v, p=1)
  print '(a,f12.6,1x,i0)', 'matmul ', sum(mm), maxloc(mm(:, 1), 1)
end program arrays
