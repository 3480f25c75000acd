// @sect3{The CPU reference}
//
// The reference every GPU result in this step is compared with, and the time every GPU
// time is compared with: the loop of cholesky_loop.h on one CPU core.
#pragma once

#include <lab/matrix.h>

namespace step1
{
  // Factorises the symmetric matrix @p a in place: on return its lower triangle holds
  // L with L Lᵀ = A. Returns 0, or LAPACK's info k > 0 when the leading k x k block is
  // not positive definite (column k - 1 failed; the factor is then incomplete).
  template <typename T>
  int cholesky_cpu(lab::Matrix<T> &a);
} // namespace step1
