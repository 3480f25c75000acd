#include <lab/lapack.h>

#if LAB_HAVE_LAPACKE
#  include <lapacke.h>
#endif

#include <stdexcept>

namespace lab
{
#if LAB_HAVE_LAPACKE
  namespace
  {
    void require_square(int rows, int cols)
    {
      if (rows != cols)
        throw std::invalid_argument("LAPACK Cholesky needs a square matrix");
    }
  } // namespace

  bool have_lapack() { return true; }

  // LAPACK stores matrices by columns; LAPACK_ROW_MAJOR makes LAPACKE accept our
  // row-major layout (it transposes into a scratch copy and back, a cost of O(n²)
  // beside the O(n³) factorisation).
  std::optional<int> lapack_cholesky(Matrix<float> &a)
  {
    require_square(a.rows(), a.cols());
    return LAPACKE_spotrf(LAPACK_ROW_MAJOR, 'L', a.rows(), a.data(), a.ld());
  }

  std::optional<int> lapack_cholesky(Matrix<double> &a)
  {
    require_square(a.rows(), a.cols());
    return LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', a.rows(), a.data(), a.ld());
  }
#else
  bool have_lapack() { return false; }
  std::optional<int> lapack_cholesky(Matrix<float> &) { return std::nullopt; }
  std::optional<int> lapack_cholesky(Matrix<double> &) { return std::nullopt; }
#endif
} // namespace lab
