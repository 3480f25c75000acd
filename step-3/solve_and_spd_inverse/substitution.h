#pragma once
// @sect3{Solving instead of inverting: blocked substitution}
//
// Most of the time an inverse is wanted only to multiply by it: x = L^{-1} b. Forward
// substitution gets x without X: x_i = (b_i - sum_{j<i} L(i, j) x_j) / L(i, i), from
// the top, n² flops for one right-hand side where the inverse cost n³/3 before its
// product could even start. With L^T (an upper triangle) the same runs from the
// bottom: back substitution. Together they solve A x = b with A = L L^T: step-5's
// deblurring, through solve_with_cholesky_factor, which does the work that both share
// once: the tile inverses, the check of the diagonal and the erasing of B after a
// singular L (done before each triangle, the first two took 4% of a two-triangle
// solve at n = 32768 in float on the H200).
//
// On the GPU the substitution is blocked like variant 3, with the same tile inverses:
// for each block row k of 64 rows, from the top,
//   X_k = L_kk^{-1} B_k  (a small product with the tile inverse),
//   B_i -= L_ik X_k for all i > k  (one product for all the block rows below).
// For op = transpose, from the bottom, with L_kk^{-T} and L_ki^T. B holds nrhs
// right-hand sides as columns (n × nrhs, row-major); X, in the workspace, is copied
// over it at the end. Two products per block, each waiting for the one before: for
// one right-hand side the substitution is a chain of small launches, and its time is
// their latency (step-4's kernel 15 runs such small products on small tiles). The diagonal test and the all-zero result on a singular L are as for
// the inverses (info = j + 1 for the first zero L(j, j)).
//
// A band factor, zero more than b rows below its diagonal (step-5's band path), gives
// shorter products: block row k reaches only the b rows below it (forward) or the b
// columns left of it (backward), so the solve costs about 2·n·b flops per right-hand
// side instead of n². It reads L in whole 64-row blocks: the zeros down to b + 63 rows
// below the diagonal must be stored, nothing further down is read.
//
// For one right-hand side there is a faster way: the chained substitution
// (chained_substitution.cuh), one kernel that reads L once at close to the speed of
// memory. solve_lower takes it for one right-hand side and the blocked products for
// more, where the products, reading L once for all of them, win.

#include <lab/gemm.h>

#include <cstddef>

namespace step3
{
  // The rows of a block: those of the tile inverses (step-2's inverse_tile).
  inline constexpr int substitution_block = 64;

  // Workspace of solve_lower and solve_with_cholesky_factor: the chained kernel's (a
  // ticket and a mailbox of n entries for each direction), the stacked tile inverses
  // (n × 64) and the solution (n × nrhs).
  std::size_t substitution_workspace(int n, int nrhs);

  // The two ways to substitute; `fastest` picks the chained kernel for one right-hand
  // side and the blocked products for more (step-3's solve table measures both). The
  // chained kernel runs in thread block clusters where the GPU has them; the tests
  // also run it without, as on older GPUs.
  enum class Substitution
  {
    fastest,
    blocked,
    chained,                 // one right-hand side only
    chained_without_clusters // the same kernel as GPUs before Hopper run it
  };

  // B = op(L)^{-1} B, for the n×n lower triangle L; @p bandwidth b ≥ 0 says that L(i, j)
  // = 0 for i − j > b (−1: L is dense). Refuses (std::invalid_argument) the chained
  // substitution for nrhs ≠ 1.
  template <typename T>
  void solve_lower(const T *l, int n, int ld, lab::Op op, T *b, int ldb, int nrhs, T *workspace, int *info,
                   const lab::Gemm<T> &gemm, cudaStream_t stream, int bandwidth = -1,
                   Substitution method = Substitution::fastest);

  // B = (L L^T)^{-1} B: both triangles of a Cholesky factor, forward then back, with
  // the same arguments as solve_lower. The diagonal's check, the tile inverses and the
  // erasing of B after a singular L are done once for the two (L^T's diagonal tiles
  // are those of L, transposed): two solve_lower calls would do each twice.
  template <typename T>
  void solve_with_cholesky_factor(const T *l, int n, int ld, T *b, int ldb, int nrhs, T *workspace, int *info,
                                  const lab::Gemm<T> &gemm, cudaStream_t stream, int bandwidth = -1,
                                  Substitution method = Substitution::fastest);
} // namespace step3
