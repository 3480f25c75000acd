#pragma once
// @sect3{The inverse of a factorised diagonal block}
//
// Variant 4 solves the panel below a diagonal block, L_21 = A_21 L_11^{-T}, as a
// matrix product with the inverse X = L_11^{-1}: a triangular solve runs row after
// row, a product runs at the speed of step-4. Inverting a triangular matrix is step-3's
// subject; here is the small version it needs, for an nb×nb block:
//  - each 64×64 tile on the diagonal of L_11 is inverted by one thread block, in shared
//    memory: X_ii = L_ii^{-1}, row after row, X(r, :) = (e_r - sum_{q<r} L(r, q) X(q, :)) / L(r, r);
//  - then block row after block row, the tiles left of the diagonal by two products:
//    from L X = I, row block i reads L_ii X_ij + sum_{m<i} L_im X_mj = 0 for j < i, so
//    X_i,0:i = -X_ii (L_i,0:i X_0:i,0:i).
// The tile inverses are written either in place of the tiles, on the diagonal of X, or
// stacked one below the other in an n×64 strip (step-3's blocked solves keep only
// them). When the factorisation has failed (info != 0) the tiles are set to zero instead: X
// is then 0, so the panel solve writes zeros below the failed block (and below every
// later one), and the trailing products subtract zero: nothing else changes, and no
// NaN can appear. That is how variant 4 stops after a failure without asking the host.
// Without an info (a null pointer) nothing has failed before: step-3's solves invert
// the tiles first and check the diagonal beside them (a zero pivot then leaves Inf or
// NaN in its tile, which those solves erase at their end).

#include "tiles.cuh"

#include <lab/dependent_launch.h>
#include <lab/gemm.h>

namespace step2
{
  // Where the inverse of diagonal tile t goes: at rows and columns t·tile of X, or at
  // rows t·tile and columns 0 of a strip of tile columns.
  enum class TileLayout
  {
    on_diagonal,
    stacked
  };

  template <typename T, int tile>
  __global__ void invert_diagonal_tiles(const T *l, int n, int ld, T *x, int ldx, TileLayout layout,
                                        const int *info)
  {
    extern __shared__ unsigned char shared_bytes[]; // two_tiles_bytes (tiles.cuh)
    auto inverse = reinterpret_cast<T(*)[tile + 1]>(shared_bytes);
    auto factor = inverse + tile;
    const int thread = threadIdx.x + threadIdx.y * blockDim.x;
    const int threads = blockDim.x * blockDim.y;
    const int origin = blockIdx.x * tile;
    // A kernel launched to overlap this one (step-3's check of the diagonal) may start
    // now: it reads nothing this kernel writes before it waits for it.
    lab::allow_next_kernel_to_start();
    const bool failed = info != nullptr && failed_before(info);
    for (int e = thread; e < tile * tile; e += threads)
      {
        const int r = e / tile, c = e % tile;
        factor[r][c] = failed ? T(0) : padded_load(l, n, ld, origin + r, origin + c);
        inverse[r][c] = r == c && !failed ? T(1) : T(0);
      }
    __syncthreads();
    if (!failed)
      for (int r = 0; r < tile; ++r)
        {
          // Row r is final once divided by the pivot; then it is subtracted from the
          // rows below it, column by column in parallel.
          for (int c = thread; c <= r; c += threads)
            inverse[r][c] /= factor[r][r];
          __syncthreads();
          for (int e = thread; e < (tile - r - 1) * (r + 1); e += threads)
            {
              const int q = r + 1 + e / (r + 1), c = e % (r + 1);
              inverse[q][c] -= factor[q][r] * inverse[r][c];
            }
          __syncthreads();
        }
    const int column = layout == TileLayout::on_diagonal ? origin : 0;
    for (int e = thread; e < tile * tile; e += threads)
      {
        const int r = e / tile, c = e % tile;
        if (origin + r < n && origin + c < n)
          x[static_cast<long>(origin + r) * ldx + column + c] = inverse[r][c];
      }
  }

  // The tile size of the kernel above as used by the course, and its launch: one block
  // of 16×16 threads per diagonal tile.
  constexpr int inverse_tile = 64;

  template <typename T>
  void launch_invert_diagonal_tiles(const T *l, int n, int ld, T *x, int ldx, TileLayout layout,
                                    const int *info, cudaStream_t stream)
  {
    constexpr int bytes = two_tiles_bytes<T, inverse_tile>;
    allow_shared_memory<invert_diagonal_tiles<T, inverse_tile>>(bytes);
    invert_diagonal_tiles<T, inverse_tile><<<ceil_div(n, inverse_tile), dim3(16, 16), bytes, stream>>>(
      l, n, ld, x, ldx, layout, info);
    LAB_CHECK_LAUNCH();
  }

  // X = L^{-1} for the n×n lower triangle L (leading dimension ld) into x (ldx),
  // whose upper triangle must be zero on entry; `scratch` holds n×n entries.
  template <typename T>
  void invert_lower_block(const T *l, int n, int ld, T *x, int ldx, T *scratch,
                          const int *info, const lab::Gemm<T> &gemm, cudaStream_t stream);
} // namespace step2
