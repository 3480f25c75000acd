#pragma once
// @sect3{The SPD inverse the thesis builds}
//
// The thesis deblurs by forming A^{-1} explicitly. With A = L L^T,
//   A^{-1} = L^{-T} L^{-1} = X^T X,  X = L^{-1},
// so one triangular inverse and one product give it. The product is a triangle (X^T
// is upper triangular) times a triangle; triangle_times skips the zeros of the first
// factor (n³ flops instead of a GEMM's 2n³). LAPACK's potri does less still, n³/3,
// computing only one triangle of the symmetric result (extensions: the same recursion
// on X^T X itself); this step computes the whole matrix, which a product with it
// needs anyway. Step-5 compares this route with the two substitutions.

#include <lab/gemm.h>

namespace step3
{
  // C = X^T X for the lower triangular n×n X (zeros above its diagonal); C must not
  // overlap X.
  template <typename T>
  void inverse_from_factor_inverse(const T *x, int n, int ldx, T *c, int ldc, const lab::Gemm<T> &gemm,
                                   cudaStream_t stream);
} // namespace step3
