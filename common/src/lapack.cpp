#include <lab/lapack.h>

#if LAB_HAVE_LAPACKE
#  include <lapacke.h>
#endif

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#if LAB_HAVE_LAPACKE
// The matrix product of the Fortran BLAS, which LAPACKE does not wrap. OpenBLAS (the
// library behind LAPACK here) exports it under Fortran's name, with every argument
// passed by address and the transposes as the letters "N" or "T".
extern "C"
{
  void sgemm_(const char *transa, const char *transb, const int *m, const int *n,
              const int *k, const float *alpha, const float *a, const int *lda,
              const float *b, const int *ldb, const float *beta, float *c,
              const int *ldc);
  void dgemm_(const char *transa, const char *transb, const int *m, const int *n,
              const int *k, const double *alpha, const double *a, const int *lda,
              const double *b, const int *ldb, const double *beta, double *c,
              const int *ldc);
}
#endif

namespace lab
{
  namespace
  {
    // A product whose factors do not fit is an error with or without BLAS: a program
    // must not pass its tests on a machine without BLAS and fail on one with it.
    template <typename T>
    void require_fitting_factors(const Matrix<T> &a, const Matrix<T> &b)
    {
      if (a.cols() != b.rows())
        throw std::invalid_argument(
          "BLAS product C = A B needs A.cols() == B.rows(), but A is " +
          std::to_string(a.rows()) + " x " + std::to_string(a.cols()) + " and B is " +
          std::to_string(b.rows()) + " x " + std::to_string(b.cols()));
    }
  } // namespace

#if LAB_HAVE_LAPACKE
  namespace
  {
    void require_square(int rows, int cols)
    {
      if (rows != cols)
        throw std::invalid_argument("LAPACK Cholesky and trtri need a square matrix");
    }

    // BLAS stores matrices by columns, and has no row-major switch like LAPACKE's.
    // None is needed: a row-major matrix read by columns is its transpose, with the
    // same leading dimension. So BLAS sees Aᵀ (k x m), Bᵀ (n x k) and Cᵀ (n x m), and
    // the row-major C = A B is the column-major Cᵀ = Bᵀ Aᵀ: the same call with A and
    // B swapped and m and n swapped, no copy and no transpose.
    template <typename T, typename Gemm>
    bool multiply(Gemm gemm, const Matrix<T> &a, const Matrix<T> &b, Matrix<T> &c)
    {
      require_fitting_factors(a, b);
      const int m = a.rows();
      const int n = b.cols();
      const int k = a.cols();
      // BLAS overwrites C (β = 0), so a C that already has the product's shape is
      // reused as it is: no allocation and no zeroing inside a timed call. A C that is
      // also a factor, or of another shape, gets a fresh product.
      const bool reuse = &c != &a && &c != &b && c.rows() == m && c.cols() == n;
      Matrix<T> product = reuse ? std::move(c) : Matrix<T>(m, n);
      // k = 0 is a product of zeros; an empty product has nothing to compute. BLAS is
      // not called for either: it would refuse the leading dimension 0 of an empty
      // matrix.
      if (k == 0)
        std::fill(product.data(), product.data() + product.size(), T(0));
      else if (m > 0 && n > 0)
        {
          const T one = 1;
          const T zero = 0;
          const int lda = a.ld();
          const int ldb = b.ld();
          const int ldc = product.ld();
          gemm("N", "N", &n, &m, &k, &one, b.data(), &ldb, a.data(), &lda, &zero,
               product.data(), &ldc);
        }
      c = std::move(product);
      return true;
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

  std::optional<int> lapack_triangular_inverse(Matrix<float> &a)
  {
    require_square(a.rows(), a.cols());
    return LAPACKE_strtri(LAPACK_ROW_MAJOR, 'L', 'N', a.rows(), a.data(), a.ld());
  }

  std::optional<int> lapack_triangular_inverse(Matrix<double> &a)
  {
    require_square(a.rows(), a.cols());
    return LAPACKE_dtrtri(LAPACK_ROW_MAJOR, 'L', 'N', a.rows(), a.data(), a.ld());
  }

  bool blas_multiply(const Matrix<float> &a, const Matrix<float> &b, Matrix<float> &c)
  {
    return multiply(sgemm_, a, b, c);
  }

  bool blas_multiply(const Matrix<double> &a, const Matrix<double> &b, Matrix<double> &c)
  {
    return multiply(dgemm_, a, b, c);
  }
#else
  bool have_lapack() { return false; }
  std::optional<int> lapack_cholesky(Matrix<float> &) { return std::nullopt; }
  std::optional<int> lapack_cholesky(Matrix<double> &) { return std::nullopt; }
  std::optional<int> lapack_triangular_inverse(Matrix<float> &) { return std::nullopt; }
  std::optional<int> lapack_triangular_inverse(Matrix<double> &) { return std::nullopt; }
  bool blas_multiply(const Matrix<float> &a, const Matrix<float> &b, Matrix<float> &)
  {
    require_fitting_factors(a, b);
    return false;
  }
  bool blas_multiply(const Matrix<double> &a, const Matrix<double> &b, Matrix<double> &)
  {
    require_fitting_factors(a, b);
    return false;
  }
#endif
} // namespace lab
