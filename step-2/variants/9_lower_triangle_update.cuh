#pragma once
// @sect3{Variant 9: the trailing update in one product}
//
// Variant 8 updates the trailing matrix beyond the next panel in block columns one
// panel wide: C_j ← C_j − P_j P_jᵀ for each column j, one product each. At n = 16384
// in float (panels of 1024 columns) that is fifteen products on the first step, each
// computing its square on the diagonal whole (the upper half is thrown away, 7% more
// flops than the triangle needs), each ending in a partly filled wave of thread blocks.
// Measured on an H200, that part of the update runs at 36–38 TFLOP/s of the triangle's
// flops, where one large product of the same inner dimension runs at 45.
//
// Variant 9 is variant 8 with one change: the rest of the update is one product that
// computes only the lower triangle of C (lab::Output::lower_triangle). How is up to
// the product: cuBLAS's (step-2's own program) runs it as one batched call over the
// triangle's 256 × 256 tiles, 48 TFLOP/s at m = 14336 (lab/cublas_gemm.h); step-4's
// kernels 15 (FP32) and 14 (FP64) in one launch whose tiles above the diagonal
// return at once, its TF32 kernel in block columns 256 wide. The variant does not care
// which: it asks for a triangle. Whatever the product writes above the diagonal stays
// within lab::lower_triangle_overhang of it, so band matrices (step-5) are safe too.

#include "../cholesky_variants.h"

namespace step2
{
  template <typename T>
  void factorize_9_lower_triangle_update(const CholeskyArgs<T> &args);
} // namespace step2
