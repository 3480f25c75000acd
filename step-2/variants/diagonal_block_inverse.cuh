#pragma once
// @sect3{The inverse of a factorised diagonal block}
//
// Variant 4 solves the panel below a diagonal block, L_21 = A_21 L_11^{-T}, as a
// matrix product with the inverse X = L_11^{-1}: a triangular solve runs row after
// row, a product runs at the speed of step-4. Inverting a triangular matrix is step-3's
// subject; here is the small version it needs, for an nb×nb block:
//  - each 64×64 tile on the diagonal of L_11 is inverted by one thread block, in shared
//    memory, X_ii = L_ii^{-1}: each column of X_ii a forward substitution of its own
//    (the kernel says how);
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

#include <cuda/std/type_traits>

namespace step2
{
  // Where the inverse of diagonal tile t goes: at rows and columns t·tile of X, or at
  // rows t·tile and columns 0 of a strip of tile columns.
  enum class TileLayout
  {
    on_diagonal,
    stacked
  };

  // How a tile is inverted. Column c of X = L_ii^{-1} is the solution of L_ii x = e_c,
  // a forward substitution of its own: the 64 columns are independent, and no thread
  // block barrier is needed once the tile is in shared memory. Four threads work on a
  // column (256 per tile), and the rows go in blocks of 8:
  //  - one thread of the column solves the block's 8×8 diagonal part for its 8 x, in
  //    registers: x_r = s_r · (1 / L(r, r)), then s_j −= L(j, r) x_r for the rows j of the
  //    block below r (s_r: e_c minus what the x of earlier blocks contributed);
  //  - then all four update the sums of every row below the block, a quarter of the
  //    rows each: s_q −= L(q, block) x_block, dot products of length 8.
  // The chain is 8 steps of a warp. The first version went row by row, each row a
  // division and an update of every row below by all 256 threads, with two block
  // barriers: 64 dependent steps of about 1000 cycles each (measured with clock64() in
  // the kernel), 33 µs for any n up to 4096 on the H200; this one takes 9 µs (float)
  // and 12 µs (double) there, and 13 instead of 38 µs at n = 16384 in float.
  constexpr int tile_inverse_columns_per_thread_group = 4, tile_inverse_row_block = 8;

  template <int tile>
  constexpr int tile_inverse_stride = tile + 4; // rows start on 16 bytes, banks spread

  template <typename T, int tile>
  constexpr int tile_inverse_bytes = 2 * tile * tile_inverse_stride<tile> * sizeof(T) + tile * sizeof(T);

  template <typename T, int tile>
  __global__ void __launch_bounds__(tile_inverse_columns_per_thread_group * tile)
    invert_diagonal_tiles(const T *l, int n, int ld, T *x, int ldx, TileLayout layout, const int *info)
  {
    constexpr int parts = tile_inverse_columns_per_thread_group, threads = parts * tile;
    constexpr int rows = tile_inverse_row_block, stride = tile_inverse_stride<tile>;
    static_assert(tile % rows == 0 && tile % 32 == 0, "whole row blocks, whole warps");
    extern __shared__ __align__(16) unsigned char shared_bytes[]; // tile_inverse_bytes
    auto factor = reinterpret_cast<T(*)[stride]>(shared_bytes);   // L_ii, zero above the diagonal
    auto sums = factor + tile;  // row c: column c of X, first the sums s, then the x
    T *reciprocal = &sums[tile][0]; // 1 / L(r, r)
    const int origin = blockIdx.x * tile;
    // A kernel launched to overlap this one (step-3's check of the diagonal) may start
    // now: it reads nothing this kernel writes before it waits for it.
    lab::allow_next_kernel_to_start();
    const bool failed = info != nullptr && failed_before(info);
    {
      // Every load in flight before the first is used: a fixed count per thread.
      constexpr int per_thread = tile * tile / threads;
      T entry[per_thread];
#pragma unroll
      for (int k = 0; k < per_thread; ++k)
        {
          const int e = k * threads + threadIdx.x, r = e / tile, c = e % tile;
          entry[k] = c <= r && !failed ? padded_load(l, n, ld, origin + r, origin + c) : T(0);
        }
#pragma unroll
      for (int k = 0; k < per_thread; ++k)
        {
          const int e = k * threads + threadIdx.x, r = e / tile, c = e % tile;
          factor[r][c] = entry[k];
          sums[r][c] = r == c ? T(1) : T(0); // s = e_c
          if (r == c)
            reciprocal[r] = T(1) / entry[k];
        }
    }
    __syncthreads();
    const int c = threadIdx.x / parts, part = threadIdx.x % parts;
    // 8 entries of a row of shared memory, 16 bytes at a time.
    using Load = cuda::std::conditional_t<sizeof(T) == 4, float4, double2>;
    constexpr int per_load = 16 / sizeof(T);
    const auto load_row_block = [](const T *from, T (&to)[rows]) {
#pragma unroll
      for (int u = 0; u < rows / per_load; ++u)
        {
          const Load v = reinterpret_cast<const Load *>(from)[u];
#pragma unroll
          for (int k = 0; k < per_load; ++k)
            to[u * per_load + k] = reinterpret_cast<const T *>(&v)[k];
        }
    };
    if (!failed)
      for (int b = 0; b < tile; b += rows)
        {
          if (part == 0)
            { // the block's 8 x of column c
              T s[rows];
              load_row_block(&sums[c][b], s);
#pragma unroll
              for (int k = 0; k < rows; ++k)
                {
                  s[k] *= reciprocal[b + k];
#pragma unroll
                  for (int j = k + 1; j < rows; ++j)
                    s[j] -= factor[b + j][b + k] * s[k];
                }
#pragma unroll
              for (int k = 0; k < rows; ++k)
                sums[c][b + k] = s[k];
            }
          __syncwarp(); // a column's four threads are in one warp
          T x_block[rows];
          load_row_block(&sums[c][b], x_block);
          for (int q = b + rows + part; q < tile; q += parts)
            {
              T a[rows];
              load_row_block(&factor[q][b], a);
              T even = sums[c][q], odd = T(0); // two chains of dependent additions
#pragma unroll
              for (int k = 0; k < rows; k += 2)
                {
                  even -= a[k] * x_block[k];
                  odd -= a[k + 1] * x_block[k + 1];
                }
              sums[c][q] = even + odd;
            }
          __syncwarp();
        }
    // Column c of the inverse, zero above the diagonal (and all zero after a failure).
    const int column = layout == TileLayout::on_diagonal ? origin : 0;
#pragma unroll
    for (int k = 0; k < tile / parts; ++k)
      {
        const int r = k * parts + part;
        if (origin + r < n && origin + c < n)
          x[static_cast<long>(origin + r) * ldx + column + c] = r < c || failed ? T(0) : sums[c][r];
      }
  }

  // The tile size of the kernel above as used by the course, and its launch: one block
  // of 4 threads per column per diagonal tile.
  constexpr int inverse_tile = 64;

  template <typename T>
  void launch_invert_diagonal_tiles(const T *l, int n, int ld, T *x, int ldx, TileLayout layout,
                                    const int *info, cudaStream_t stream)
  {
    constexpr int bytes = tile_inverse_bytes<T, inverse_tile>;
    allow_shared_memory<invert_diagonal_tiles<T, inverse_tile>>(bytes);
    invert_diagonal_tiles<T, inverse_tile>
      <<<ceil_div(n, inverse_tile), tile_inverse_columns_per_thread_group * inverse_tile, bytes, stream>>>(
        l, n, ld, x, ldx, layout, info);
    LAB_CHECK_LAUNCH();
  }

  // X = L^{-1} for the n×n lower triangle L (leading dimension ld) into x (ldx),
  // whose upper triangle must be zero on entry; `scratch` holds n×n entries.
  template <typename T>
  void invert_lower_block(const T *l, int n, int ld, T *x, int ldx, T *scratch,
                          const int *info, const lab::Gemm<T> &gemm, cudaStream_t stream);
} // namespace step2
