#pragma once
// @sect3{The CPU reference}
//
// Gauss–Jordan with partial pivoting on A and X = I side by side, the algorithm of
// variant 2, in double whatever the input's precision, so that it can judge the GPU's
// float results. Its singularity test is the GPU's (gauss_jordan.h): a largest
// candidate of at most n ε max|A|, with ε the input's machine epsilon, counts as zero;
// so the CPU and variants 2 and 3 report the same column. The rows of each elimination
// are independent and are spread over the cores.

#include <lab/matrix.h>

namespace step3
{
  // X = A^{-1} (rounded to T); returns 0, or k + 1 for the first column without a
  // usable pivot (X is then all zero).
  template <typename T>
  int gauss_jordan_cpu(const lab::Matrix<T> &a, lab::Matrix<T> &x);
} // namespace step3
