#pragma once
// @sect3{Variant 5: fewer stalls, by looking ahead}
//
// Variant 4 runs its pieces one after the other, and two of them leave most of the GPU
// idle: the factorisation of a diagonal block (a chain of small launches, one thread
// block for each 64×64 tile on the diagonal) and its inverse. While they run, the
// trailing update waits, although almost all of it does not depend on them. Only the
// next panel does: it must have lost the current panel's product before it can be
// factorised. Variant 5 reorders the same pieces around that dependence:
//  1. the next panel's columns are updated first (one product, nb columns wide);
//  2. the next panel is then factorised on a second stream ...
//  3. ... while the rest of the trailing matrix is updated on the first;
//  4. the first stream waits for the panel before the loop moves on.
// The panel now hides behind the products, except near the end, where the trailing
// matrix is small. The second stream has the higher priority: when both streams have
// blocks waiting, the GPU starts the panel's first, so the panel is not starved by the
// thousands of blocks of a product.
//
// The rest of the trailing update (step 3) is done as in variant 4, but in block
// columns 2nb wide: half as many products, each with twice as many blocks of threads
// to spread over the SMs, for a few more flops (each diagonal square is computed
// whole, its upper half thrown away). Measured on an H100 at n = 16384, nb = 512, FP32:
// 41 ms for all updates, against 44 ms with nb-wide columns. A recursive split into
// halves (C_21 -= P_2 P_1^T by one large product, then C_11 and C_22 the same way),
// which wastes no flops, measured 46 ms: its smallest products, the nb×nb diagonal
// blocks, keep only 16 of the 132 SMs busy, one after the other.
//
// The panel itself is shortened too: its diagonal block is factorised by one kernel
// (diagonal_block_one_kernel.cuh) instead of variant 3's chain of launches.
//
// Each loop step launches a few dozen kernels and products. The program runs the last
// variant, 8, which shares this loop, also captured in a CUDA graph (lab::CudaGraph),
// and reports both.
//
// Variants 7 and 8 (7_panel_by_halves.cuh, 8_base_block_in_registers.cuh) run this
// loop with a shorter panel, variant 9 (9_lower_triangle_update.cuh) with the rest of
// the update in one product; variant 6 (6_mixed_precision_solve.cuh) runs variant 8
// with a faster, less precise product (TF32) as CholeskyArgs::gemm.

#include "../cholesky_variants.h"

namespace step2
{
  // How a look-ahead factorisation does the panel at column p (steps 1 and 2 of
  // variant 4), on a stream.
  template <typename T>
  using PanelFactorization = void (*)(const CholeskyArgs<T> &args, int p, cudaStream_t stream);

  // The width of block columns that stands for "the rest of the trailing update in one
  // lower-triangle product" (variant 9).
  inline constexpr int one_lower_triangle_product = 0;

  // The look-ahead loop over panels of args.panel_width columns, each panel by @p panel,
  // the rest of the trailing update in block columns @p update_width wide, or in one
  // product if that is one_lower_triangle_product. Variant 5 and variants 7, 8 and 9
  // (7_panel_by_halves.cuh) differ only in these two.
  template <typename T>
  void factorize_looking_ahead(const CholeskyArgs<T> &args, PanelFactorization<T> panel, int update_width);

  template <typename T>
  void factorize_5_look_ahead(const CholeskyArgs<T> &args);
} // namespace step2
