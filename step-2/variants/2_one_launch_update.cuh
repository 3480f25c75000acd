#pragma once
// @sect3{Variant 2: the trailing update in one launch}
//
// The fix the 2011 thesis asked for. In variant 1, lo_update gives each tile column of
// the trailing matrix one thread block, which walks down the column tile by tile: with
// R trailing tiles, R - 1 blocks, the longest doing R - 1 steps in a row, while an H100
// has 132 SMs that could hold over a thousand blocks. Here every trailing tile on or
// below the diagonal gets its own thread block, in one 2-D launch: block (x, y) updates
// tile (i, j) = (k + 1 + y, k + 1 + x), A_ij -= L_ik L_jk^T, and blocks above the
// diagonal (x > y) return at once. diag_update and lo_update become one kernel; the
// diagonal factorisation and the strip solve stay as in variant 1, tile 16.

#include "../cholesky_variants.h"
#include "1_four_kernels_2011.cuh"

namespace step2
{
  template <typename T>
  __global__ void trailing_update_one_launch(T *a, int n, int ld, int k, int *info)
  {
    // @exercise{one_launch_update, 2}
    // The trailing update of the tiled Cholesky factorisation as one 2-D launch, one
    // thread block per tile. Block (blockIdx.x, blockIdx.y), of tile x tile threads
    // with tile = `tile_2011`, updates tile (i, j) = (k + 1 + blockIdx.y, k + 1 +
    // blockIdx.x) of the trailing matrix: A_ij -= L_ik L_jk^T, where L_ik is the
    // tile of tile-row i in tile-column k. A block above the diagonal (j > i), or in a
    // launch after a failed diagonal tile (`failed_before(info)`), returns at once. Load
    // L_ik and L_jk into shared memory with `padded_load` (zero past the edge of the
    // matrix), one entry per thread, padding each row by one against bank conflicts;
    // on a diagonal tile (i == j) update only the lower triangle, and write no entry
    // outside the n x n matrix.
    const int i = k + 1 + blockIdx.y, j = k + 1 + blockIdx.x;
    if (j > i || failed_before(info))
      return;
    constexpr int tile = tile_2011;
    __shared__ T left[tile][tile + 1];
    __shared__ T up[tile][tile + 1];
    const int row = threadIdx.y, col = threadIdx.x;
    const int panel = k * tile;
    left[row][col] = padded_load(a, n, ld, i * tile + row, panel + col);
    up[row][col] = padded_load(a, n, ld, j * tile + row, panel + col);
    __syncthreads();
    // On a diagonal tile only the lower triangle is part of L.
    if (i == j && col > row)
      return;
    T product = 0;
    for (int m = 0; m < tile; ++m)
      product += left[row][m] * up[col][m];
    if (i * tile + row < n && j * tile + col < n)
      a[static_cast<long>(i * tile + row) * ld + j * tile + col] -= product;
    // @end-exercise
  }

  template <typename T>
  void factorize_2_one_launch_update(const CholeskyArgs<T> &args);
} // namespace step2
