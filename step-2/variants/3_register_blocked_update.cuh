#pragma once
// @sect3{Variant 3: larger tiles, register blocking, only the lower tiles}
//
// Variant 2's update kernel does 2·16 flops per entry for two shared-memory loads: it is
// bound by shared memory, not by arithmetic, like step-4's kernel 2. Step-4's cure
// works here too. The tile grows to 64, and each of the 16×16 threads computes a 4×4
// block of the tile's entries: per step of the inner loop it loads 4 + 4 values from
// shared memory and does 16 multiply-adds with them (step-4's kernel 6, register
// blocking). The inner dimension is the tile, 64, loaded in chunks of 16 columns.
//
// The launch covers only the tiles on or below the diagonal: a 1-D grid of
// R(R+1)/2 blocks for R trailing tile rows, where variant 2 launched R² blocks and let
// half of them return. Block b finds its tile (i, j), j <= i, by inverting
// b = i(i+1)/2 + j.
//
// The diagonal tiles and the tiles below them use the kernels of tiles.cuh with 64×64
// tiles and 256 threads.

#include "../cholesky_variants.h"
#include "tiles.cuh"

namespace step2
{
  constexpr int tile_64 = 64;

  // The tile (i, j), j <= i, of lower-triangle block number b: i is the largest
  // integer with i(i+1)/2 <= b. The square root may be off by one for large b; the
  // loops correct it.
  LAB_HOST_DEVICE inline void lower_tile_of_block(int b, int &i, int &j)
  {
    i = static_cast<int>((sqrt(8.0 * b + 1.0) - 1.0) / 2.0);
    while (i * (i + 1) / 2 > b)
      --i;
    while ((i + 1) * (i + 2) / 2 <= b)
      ++i;
    j = b - i * (i + 1) / 2;
  }

  // A_ij -= L_ik L_jk^T for the trailing tiles (i, j) = (k + 1 + i', k + 1 + j').
  // Thread (tx, ty) owns rows ty + 16 r and columns tx + 16 c, r, c = 0..3: a strided
  // block, so that the 16 threads of a half-warp read 16 consecutive columns of the
  // shared tile (different banks) and the two rows a warp spans are broadcasts.
  template <typename T>
  __global__ void __launch_bounds__(256)
    trailing_update_register_blocked(T *a, int n, int ld, int k, int *info)
  {
    if (failed_before(info))
      return;
    constexpr int tile = tile_64, chunk = 16, per_thread = 4;
    int i, j;
    lower_tile_of_block(blockIdx.x, i, j);
    i += k + 1;
    j += k + 1;
    // Chunks of L_ik and L_jk, stored k-major (transposed): thread rows read along
    // the tile's rows.
    __shared__ T left[chunk][tile + 1];
    __shared__ T up[chunk][tile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y, thread = tx + 16 * ty;
    const int panel = k * tile;
    T sum[per_thread][per_thread] = {};
    for (int c0 = 0; c0 < tile; c0 += chunk)
      {
        for (int e = thread; e < tile * chunk; e += 256)
          {
            const int r = e / chunk, m = e % chunk;
            left[m][r] = padded_load(a, n, ld, i * tile + r, panel + c0 + m);
            up[m][r] = padded_load(a, n, ld, j * tile + r, panel + c0 + m);
          }
        __syncthreads();
        for (int m = 0; m < chunk; ++m)
          {
            T x[per_thread], y[per_thread];
            for (int r = 0; r < per_thread; ++r)
              x[r] = left[m][ty + 16 * r];
            for (int c = 0; c < per_thread; ++c)
              y[c] = up[m][tx + 16 * c];
            for (int r = 0; r < per_thread; ++r)
              for (int c = 0; c < per_thread; ++c)
                sum[r][c] += x[r] * y[c];
          }
        __syncthreads();
      }
    for (int r = 0; r < per_thread; ++r)
      for (int c = 0; c < per_thread; ++c)
        {
          const int row = i * tile + ty + 16 * r, col = j * tile + tx + 16 * c;
          if (row < n && col < n && (i != j || col <= row))
            a[static_cast<long>(row) * ld + col] -= sum[r][c];
        }
  }

  // The tile algorithm with 64×64 tiles on the n×n matrix at @p a: what variant 3 runs
  // on the whole matrix, and variant 4 on each diagonal block (its failing columns are
  // reported counting from @p column_offset).
  template <typename T>
  void factorize_tiles_64(T *a, int n, int ld, int *info, int column_offset, cudaStream_t stream);

  template <typename T>
  void factorize_3_register_blocked_update(const CholeskyArgs<T> &args);
} // namespace step2
