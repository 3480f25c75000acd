#pragma once
// @sect3{Variant 1: the 2011 design, four kernels on 16×16 tiles}
//
// The blocked algorithm of the introduction as the 2011 course wrote it. For each
// tile k of the diagonal, four launches:
//  - factorize_diagonal_block: one thread block factorises the diagonal tile
//    A_kk = L_kk L_kk^T in shared memory (the kernel of tiles.cuh, which the 2011 one
//    is, corrected: a square root in the working precision, and `info`);
//  - strip_update: one thread block per tile below it solves L_ik = A_ik L_kk^{-T};
//  - diag_update: one thread block per trailing diagonal tile, A_ii -= L_ik L_ik^T;
//  - lo_update: the trailing tiles below the diagonal, A_ij -= L_ik L_jk^T. One thread
//    block per tile column j, and that block walks down the column, one tile after the
//    other: a column of R tiles takes R serial steps.
// The tile is 16: a thread block of 16×16 threads, one per entry of a tile.

#include "../cholesky_variants.h"
#include "tiles.cuh"

namespace step2
{
  constexpr int tile_2011 = 16;

  // strip_update as published: the block loads L_kk and its tile A_ik (transposed),
  // and then only the 16 threads of the first row work: thread c solves row c of the
  // tile by forward substitution. 240 of the 256 threads wait.
  template <typename T>
  __global__ void strip_update_2011(T *a, int n, int ld, int k, int *info)
  {
    if (failed_before(info))
      return;
    constexpr int tile = tile_2011;
    __shared__ T top_left[tile][tile + 1];
    __shared__ T working[tile][tile + 1];
    const int row = threadIdx.y, col = threadIdx.x;
    const int diagonal = k * tile, rows = (k + 1 + blockIdx.x) * tile;
    top_left[row][col] = padded_load(a, n, ld, diagonal + row, diagonal + col);
    working[col][row] = padded_load(a, n, ld, rows + row, diagonal + col);
    __syncthreads();
    if (row == 0)
      for (int j = 0; j < tile; ++j)
        {
          T sum = 0;
          for (int m = 0; m < j; ++m)
            sum += top_left[j][m] * working[m][col];
          working[j][col] = (working[j][col] - sum) / top_left[j][j];
        }
    __syncthreads();
    clipped_store(a, n, ld, rows + row, diagonal + col, working[col][row]);
  }

  // diag_update: trailing diagonal tile i = k + 1 + blockIdx.x loses L_ik L_ik^T; thread
  // (row, col) of the lower triangle computes its entry's dot product of length 16.
  template <typename T>
  __global__ void diag_update_2011(T *a, int n, int ld, int k, int *info)
  {
    if (failed_before(info))
      return;
    constexpr int tile = tile_2011;
    __shared__ T left[tile][tile + 1];
    const int row = threadIdx.y, col = threadIdx.x;
    const int i = (k + 1 + blockIdx.x) * tile;
    left[row][col] = padded_load(a, n, ld, i + row, k * tile + col);
    __syncthreads();
    if (row >= col && i + row < n)
      {
        T sum = 0;
        for (int m = 0; m < tile; ++m)
          sum += left[row][m] * left[col][m];
        a[static_cast<long>(i + row) * ld + i + col] -= sum;
      }
  }

  // lo_update: thread block y owns tile column j = k + 1 + y of the trailing matrix and
  // walks down it, tile i = j + 1, j + 2, ...: A_ij -= L_ik L_jk^T. L_jk is loaded once;
  // each step loads L_ik. (The published kernel, after its first step, read the tile
  // A_ij instead of L_ik: it kept the column index of the tile it had just written. It
  // gave right results only while no column had more than one tile to walk.)
  template <typename T>
  __global__ void lo_update_2011(T *a, int n, int ld, int k, int tiles, int *info)
  {
    if (failed_before(info))
      return;
    constexpr int tile = tile_2011;
    __shared__ T left[tile][tile + 1];
    __shared__ T up[tile][tile + 1];
    const int row = threadIdx.y, col = threadIdx.x;
    const int panel = k * tile, j = k + 1 + blockIdx.y;
    up[row][col] = padded_load(a, n, ld, j * tile + row, panel + col);
    for (int i = j + 1; i < tiles; ++i)
      {
        left[row][col] = padded_load(a, n, ld, i * tile + row, panel + col);
        __syncthreads();
        T product = 0;
        for (int m = 0; m < tile; ++m)
          product += left[row][m] * up[col][m];
        if (i * tile + row < n && j * tile + col < n)
          a[static_cast<long>(i * tile + row) * ld + j * tile + col] -= product;
        __syncthreads(); // before the next tile overwrites `left`
      }
  }

  template <typename T>
  void factorize_1_four_kernels_2011(const CholeskyArgs<T> &args);
} // namespace step2
