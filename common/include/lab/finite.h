#pragma once
/// @file
/// @brief Refusing NaN and infinity in an input matrix.
///
/// A factorisation fed a NaN cannot say where it failed: every number the NaN touches
/// becomes NaN, and comparisons with NaN are false, so a pivot test `d > 0` fails at
/// some column that has nothing to do with the real problem. The course refuses such
/// input before any work, naming the first bad entry.

#include <lab/matrix.h>

#include <string>

namespace lab
{
  /// Throws lab::bad_input ("<what>(3, 5) is nan") for the first entry of @p m (row by
  /// row) that is NaN or infinite.
  template <typename T>
  void require_finite(const Matrix<T> &m, const std::string &what);
} // namespace lab
