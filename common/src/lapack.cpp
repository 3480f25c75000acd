#include <lab/lapack.h>

#if LAB_HAVE_LAPACKE
#  include <lapacke.h>
#endif

namespace lab
{
#if LAB_HAVE_LAPACKE
  bool have_lapack() { return true; }

  // LAPACK stores matrices by columns; LAPACK_ROW_MAJOR makes LAPACKE handle our
  // row-major layout (for a symmetric matrix, the lower triangle by rows is the upper
  // triangle by columns, so no copy is needed).
  std::optional<int> lapack_cholesky(Matrix<float> &a)
  {
    return LAPACKE_spotrf(LAPACK_ROW_MAJOR, 'L', a.rows(), a.data(), a.ld());
  }

  std::optional<int> lapack_cholesky(Matrix<double> &a)
  {
    return LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', a.rows(), a.data(), a.ld());
  }
#else
  bool have_lapack() { return false; }
  std::optional<int> lapack_cholesky(Matrix<float> &) { return std::nullopt; }
  std::optional<int> lapack_cholesky(Matrix<double> &) { return std::nullopt; }
#endif
} // namespace lab
