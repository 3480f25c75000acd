#pragma once
/// @file
/// @brief The LAPACK and BLAS routines the course compares against, where installed.
///
/// LAPACK (here: OpenBLAS's, using every core) is what a careful CPU implementation
/// achieves. The course prints its time beside its own CPU code, so that "the GPU is
/// 50 times faster than the CPU" is never said against a naive loop alone. When the
/// course is built without LAPACKE the functions return nothing (or false) and the
/// tables show NaN.

#include <lab/matrix.h>

#include <optional>

namespace lab
{
  /// True when the course was built with LAPACKE.
  bool have_lapack();

  /// True when BLAS (lab::blas_multiply) is there. The course links BLAS with LAPACK,
  /// so the answer is have_lapack()'s; a program that only multiplies asks this one.
  inline bool have_blas()
  {
    return have_lapack();
  }

  /// Cholesky factorisation (potrf) in place in the lower triangle of @p a. Returns
  /// LAPACK's info (0: success; k > 0: the leading minor of order k is not positive
  /// definite), or nothing without LAPACK.
  std::optional<int> lapack_cholesky(Matrix<float> &a);
  /// Cholesky factorisation (potrf), double precision; see the float version.
  std::optional<int> lapack_cholesky(Matrix<double> &a);

  /// Inverse of a lower triangular matrix (trtri) in place in the lower triangle of
  /// @p a (the upper triangle is not touched). Returns LAPACK's info (0: success; k > 0:
  /// the diagonal entry k - 1 is zero), or nothing without LAPACK.
  std::optional<int> lapack_triangular_inverse(Matrix<float> &a);
  /// Triangular inverse (trtri), double precision; see the float version.
  std::optional<int> lapack_triangular_inverse(Matrix<double> &a);

  /// The product C = A B through BLAS (sgemm), for A m x k and B k x n of any leading
  /// dimensions; @p c becomes the m x n product (it may be the same object as @p a or
  /// @p b). Returns false, and leaves @p c alone, without LAPACK and BLAS. Throws
  /// std::invalid_argument when A.cols() != B.rows(), with or without BLAS.
  bool blas_multiply(const Matrix<float> &a, const Matrix<float> &b, Matrix<float> &c);
  /// The product C = A B through BLAS (dgemm), double precision; see the float version.
  bool blas_multiply(const Matrix<double> &a, const Matrix<double> &b, Matrix<double> &c);
} // namespace lab
