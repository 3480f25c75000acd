#pragma once
/// @file
/// @brief How wrong is a result? Relative residuals, always computed in double.
///
/// A float result checked in float arithmetic can hide its own errors in the check's
/// rounding. The course therefore converts every result to double and measures the
/// error there, relative to the size of the data, so that one tolerance fits every
/// matrix size and scale.
///
/// Tolerances are `constant * n * ε`, with ε the machine epsilon of the working
/// precision (2⁻²³ for float, 2⁻⁵² for double): rounding errors of an n x n
/// factorisation or product grow at most in proportion to n (the classical backward
/// error bounds; in practice more like √n). Each check states its constant.

#include <lab/matrix.h>

#include <limits>

namespace lab
{
  /// `constant * n * ε` for number type T.
  template <typename T>
  double tolerance(double constant, int n)
  {
    return constant * n * std::numeric_limits<T>::epsilon();
  }

  /// ‖L Lᵀ − A‖_F / ‖A‖_F for a Cholesky factorisation. L is read from the lower
  /// triangle of @p factor (diagonal included; whatever is above it is ignored), A
  /// from the lower triangle of the symmetric matrix @p a. NaN in L gives NaN.
  template <typename T>
  double cholesky_residual(const Matrix<T> &a, const Matrix<T> &factor);

  /// The same ratio estimated from whole rows of L Lᵀ − A and of A: one row in every
  /// band of @p band consecutive rows, where in the band drawn from a fixed @p seed, and
  /// the first and the last row. The rows are alike, so the ratio over the sample
  /// estimates the ratio over all of them; and no band of rows goes unseen, so a tile
  /// row of the factor (band = the tile) that was never written, or written wrong,
  /// cannot hide (a sample of a few random rows missed most of them at large n). It
  /// costs n/band·n²/2 multiply-adds instead of n³/6. With band 1 every row is used
  /// and the result is cholesky_residual's, up to rounding. Where a GPU is there,
  /// lab::cholesky_residual_on_gpu checks every entry instead, in far less time.
  template <typename T>
  double cholesky_residual_sampled(const Matrix<T> &a, const Matrix<T> &factor, int band = 16,
                                   unsigned seed = 1);

  /// ‖A X − I‖_F / (‖A‖_F ‖X‖_F) for a computed inverse X of the n x n matrix A (both
  /// stored whole; for a triangular A, with zeros in the other triangle). The ratio
  /// is small (a few n ε) for an inverse that is the exact inverse of a nearby matrix,
  /// whatever A's condition. Estimated from @p columns columns of X picked at random
  /// (fixed @p seed; the first and last always among them), which costs columns·n²
  /// multiply-adds instead of n³: with columns >= n every column is used.
  template <typename T>
  double inverse_residual(const Matrix<T> &a, const Matrix<T> &x, int columns, unsigned seed = 1);

  /// ‖B − A X‖_F / (‖A‖_F ‖X‖_F) for the solutions X (n x m) of A X = B: the backward
  /// error of a solve. Estimated from @p columns of the m right-hand sides, as
  /// inverse_residual.
  template <typename T>
  double solve_residual(const Matrix<T> &a, const Matrix<T> &x, const Matrix<T> &b, int columns,
                        unsigned seed = 1);

  /// ‖X − R‖_F / ‖R‖_F between a result X and a double-precision reference R of the
  /// same shape. NaN in X gives NaN.
  template <typename T>
  double relative_error(const Matrix<T> &result, const Matrix<double> &reference);
} // namespace lab
