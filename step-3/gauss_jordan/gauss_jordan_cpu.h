#pragma once
// @sect3{The CPU reference for Gauss–Jordan}
//
// Gauss–Jordan with partial pivoting on [A | I] in the working precision, with the
// singularity test of the GPU variants (gauss_jordan.h); the elimination of each
// column is spread over the cores by rows.

#include <lab/matrix.h>

namespace step3
{
  // X = A^{-1}; returns 0, or k + 1 for the first column without a usable pivot (X is
  // then all zero).
  template <typename T>
  int gauss_jordan_cpu(const lab::Matrix<T> &a, lab::Matrix<T> &x);
} // namespace step3
