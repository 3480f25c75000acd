#pragma once
// @sect3{Variant 4: the blocked right-looking algorithm at the speed of products}
//
// Variants 1 to 3 take tiles of 16 or 64 columns: every step of the loop over the
// diagonal is a few small launches, and the trailing update, where almost all flops
// are, is a product with an inner dimension of only one tile. Variant 4 takes panels
// of nb columns (a few hundred; `--panel-width`) and does each of the three block
// equations with the tool that suits it:
//  1. A_11 = L_11 L_11^T, the nb×nb diagonal block: variant 3's tile algorithm on the
//     block (serial, but only nb/64 tile steps);
//  2. L_21 = A_21 L_11^{-T}: X = L_11^{-1} (diagonal_block_inverse.cuh), then the
//     product L_21 = A_21 X^T; A_21 is first copied aside, since a product cannot
//     overwrite its own input;
//  3. A_22 -= L_21 L_21^T, the trailing update: one product per block column of nb
//     columns, from its diagonal block down, so that the tiles above the diagonal are
//     not computed (only the upper half of each diagonal block is, and thrown away).
// Steps 2 and 3 are products through lab::Gemm: in this step's program cuBLAS's, in
// step-5 step-4's kernels. The strict upper triangle of the diagonal blocks is used
// as scratch by step 3 (the lower triangle, L, is all the algorithm reads).
//
// Steps 1 and 2 together are "the panel"; variant 5 reorders the same pieces, so they
// are functions of their own.
//
// A band matrix, whose entries are zero more than b rows below the diagonal
// (CholeskyArgs::bandwidth = b), needs nothing but other limits: Cholesky creates no
// fill outside the band, so the panel of columns p ... p + w − 1 has nonzeros only
// down to row p + w − 1 + b, and step 3 updates only the trailing block columns and
// rows up to there. The work falls from n³/3 to about n·b² flops. Step-5 factorises
// its banded HᵀH + λI this way, in a storage that keeps only the band (its
// band_matrix.h), with these same functions.

#include "../cholesky_variants.h"

namespace step2
{
  template <typename T>
  std::size_t right_looking_workspace(int n, int panel_width);

  // How a diagonal block is factorised: the w×w block at a, in place; a failing pivot
  // at column j of the block is reported as column column_offset + j.
  template <typename T>
  using DiagonalBlockFactorization = void (*)(T *a, int w, int ld, int *info, int column_offset,
                                              cudaStream_t stream);

  // Steps 1 and 2 for the panel of columns p ... p + w - 1 (w = min(nb, n - p)): its
  // diagonal block factorised by @p diagonal (variant 4: variant 3's tile algorithm,
  // factorize_tiles_64), the block below it solved. Uses the workspace.
  template <typename T>
  void factorize_panel(const CholeskyArgs<T> &args, int p, DiagonalBlockFactorization<T> diagonal,
                       cudaStream_t stream);

  // Where the panel at column p keeps X = L_11^{-1} (w×w, its upper triangle zero): at
  // the start of the workspace, leading dimension w, where the next panel's overwrites
  // it; or, when the caller keeps every panel's (CholeskyArgs::panel_inverses, variant
  // 10), at row p of that strip, leading dimension nb.
  template <typename T>
  struct PanelInverse
  {
    T *x;
    int ld;
  };
  template <typename T>
  PanelInverse<T> panel_inverse(const CholeskyArgs<T> &args, int p);

  // The second half of step 2: L_21 = A_21 X^T below the diagonal block of the panel at
  // p, with X = L_11^{-1} already where panel_inverse says.
  template <typename T>
  void solve_panel_below(const CholeskyArgs<T> &args, int p, cudaStream_t stream);

  // Part of step 3: columns q ... q + wq - 1, from row q down, lose the product of the
  // panel p (w columns wide) with itself.
  template <typename T>
  void update_block_column(const CholeskyArgs<T> &args, int p, int w, int q, int wq,
                           const lab::Gemm<T> &gemm, cudaStream_t stream);

  // Step 3 from column q on in one product (variant 9): the lower triangle of the
  // trailing matrix from row and column q loses the product of the panel p (w columns
  // wide) with itself, and nothing above the diagonal is computed but the product's
  // overhang (lab::Output::lower_triangle).
  template <typename T>
  void update_lower_triangle(const CholeskyArgs<T> &args, int p, int w, int q, const lab::Gemm<T> &gemm,
                             cudaStream_t stream);

  template <typename T>
  void factorize_4_right_looking_gemm(const CholeskyArgs<T> &args);
} // namespace step2
