#pragma once
// @sect3{The CPU reference}
//
// Column j of X = L^{-1} solves L x = e_j: forward substitution, started at row j
// (x_i = 0 above it). The columns are independent, so the cores take them in turn;
// the columns on the left are the long ones, hence a dynamic schedule. n³/3 flops in
// the working precision, as on the GPU. LAPACK's `trtri` runs beside it where it is
// installed (lab/lapack.h).

#include <lab/matrix.h>

namespace step3
{
  // X = L^{-1} for the lower triangle of @p l; returns 0, or j + 1 for the first zero
  // L(j, j) (X is then all zero).
  template <typename T>
  int invert_lower_cpu(const lab::Matrix<T> &l, lab::Matrix<T> &x);

  // The lower triangle of @p m with zeros above the diagonal.
  template <typename T>
  lab::Matrix<T> lower_triangle(const lab::Matrix<T> &m);
} // namespace step3
