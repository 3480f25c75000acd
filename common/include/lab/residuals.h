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

  /// ‖X − R‖_F / ‖R‖_F between a result X and a double-precision reference R of the
  /// same shape. NaN in X gives NaN.
  template <typename T>
  double relative_error(const Matrix<T> &result, const Matrix<double> &reference);
} // namespace lab
