#pragma once
/// @file
/// @brief The LAPACK routines the course compares against, where LAPACK is installed.
///
/// LAPACK (here: OpenBLAS's, using every core) is what a careful CPU implementation
/// achieves. The course prints its time beside its own CPU code, so that "the GPU is
/// 50 times faster than the CPU" is never said against a naive loop alone. When the
/// course is built without LAPACKE the functions return nothing and the tables show NaN.

#include <lab/matrix.h>

#include <optional>

namespace lab
{
  /// True when the course was built with LAPACKE.
  bool have_lapack();

  /// Cholesky factorisation (potrf) in place in the lower triangle of @p a. Returns
  /// LAPACK's info (0: success; k > 0: the leading minor of order k is not positive
  /// definite), or nothing without LAPACK.
  std::optional<int> lapack_cholesky(Matrix<float> &a);
  /// Cholesky factorisation (potrf), double precision; see the float version.
  std::optional<int> lapack_cholesky(Matrix<double> &a);
} // namespace lab
