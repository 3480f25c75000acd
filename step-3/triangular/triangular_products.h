#pragma once
// @sect3{Products with a triangular factor, through lab::Gemm}
//
// The recursive inverse (variant 4) and the SPD inverse multiply by triangular
// matrices. A GEMM does not know that half of its operand is zero and spends half of
// its flops on it. Cut the triangle in two, T = [T_11 0; T_21 T_22], and the product
// splits into two smaller triangular products and one GEMM on the full block T_21:
//   T B   = [T_11 B_1;  T_21 B_1 + T_22 B_2],
//   T^T B = [T_11^T B_1 + T_21^T B_2;  T_22^T B_2],
//   B T   = [B_1 T_11 + B_2 T_21,  B_2 T_22].
// Recursing until the triangle has at most `triangle_leaf` = 256 rows (then one GEMM,
// zeros and all) computes only the zero halves of the leaves: m²p flops are needed,
// about 256·m·p more are spent, a fraction 256/m (3% at m = 8192). This is what BLAS calls TRMM; here it is written with lab::Gemm, so
// that step-5 runs it on step-4's kernels.
//
// T is m×m and lower triangular with zeros stored above the diagonal (the leaves
// read them). C must not overlap B. All matrices are row-major on the device.

#include <lab/gemm.h>

namespace step3
{
  // Below this many rows a triangle is multiplied as a full matrix: smaller products
  // are too small to run at speed, and their launches would cost more than the flops
  // saved.
  constexpr int triangle_leaf = 256;

  // C = alpha op(T) B, with B and C m×p.
  template <typename T>
  void triangle_times(T alpha, const T *t, int m, int ldt, lab::Op op, const T *b, int ldb, int p, T *c,
                      int ldc, const lab::Gemm<T> &gemm, cudaStream_t stream);

  // C = alpha B T, with B and C p×m.
  template <typename T>
  void times_triangle(T alpha, const T *b, int ldb, int p, const T *t, int m, int ldt, T *c, int ldc,
                      const lab::Gemm<T> &gemm, cudaStream_t stream);
} // namespace step3
