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
// The rest of the trailing update (step 3) is a symmetric product, of which only the
// lower triangle is wanted. Variant 4 does it as one product per block column: many
// products, the last ones small. Here it is split in halves recursively (a SYRK built
// from GEMMs):
// @f[ \begin{pmatrix} C_{11} & \\ C_{21} & C_{22} \end{pmatrix} \mathrel{-}=
//     \begin{pmatrix} P_1 \\ P_2 \end{pmatrix} \begin{pmatrix} P_1^T & P_2^T \end{pmatrix}:
//     \quad C_{21} \mathrel{-}= P_2 P_1^T \text{ (one product)}, @f]
// and C_11, C_22 the same way, down to diagonal blocks of nb rows, which are computed
// whole (their upper halves are scratch, as in variant 4). Same flops, fewer and larger
// products, which run closer to the GPU's peak.
//
// Each loop step launches a few dozen kernels and products. The program also runs the
// variant captured in a CUDA graph (lab::CudaGraph) and reports both.
//
// Variant 6 (6_mixed_precision_solve.cuh) runs this algorithm with a faster, less
// precise product for the trailing update: CholeskyArgs::update_gemm.

#include "../cholesky_variants.h"

namespace step2
{
  // Rows and columns r ... r + m - 1 lose P P^T, where P is the block of rows
  // r ... r + m - 1 of the panel p (w columns wide); only the lower triangle matters.
  template <typename T>
  void lower_rank_update(const CholeskyArgs<T> &args, int p, int w, int r, int m,
                         const lab::Gemm<T> &gemm, cudaStream_t stream);

  template <typename T>
  void factorize_5_look_ahead(const CholeskyArgs<T> &args);
} // namespace step2
