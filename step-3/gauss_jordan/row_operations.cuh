#pragma once
// @sect3{The thesis' three kernels, without their races}
//
// The thesis keeps A and X = I as two matrices side by side and makes, for each
// column k, three launches on them: one swaps two rows, one divides the pivot row by
// the pivot, one clears column k in every other row. It decides on the swap on the
// host, copying column k back every time; here a fourth launch in front of the three
// chooses the pivot on the GPU (variants 1 and 2 differ only in that launch), so that
// the whole inversion is enqueued at once and nothing waits for the host.
//
// Each launch must read only what earlier launches wrote, because the blocks of one
// launch run in no fixed order (the lesson of GETS). The thesis' kernels did not: its
// normalising kernel read the pivot A(k, k) in every block while one of them was
// dividing it, and its clearing kernel read the multipliers A(i, k) in every block
// while one of them was setting them to zero. Whether a block saw the old value or the
// new one depended on the schedule. Here both are copied aside, into a workspace,
// by a launch before the one that overwrites them:
//  - the pivot value, by the launch that chooses it;
//  - the multipliers A(i, k), by the normalising launch, which does not change them.
// The workspace also carries the pivot row's number from the choosing launch to the
// swapping one (as a number of type T: every row number of a matrix that fits in
// memory is exact in a float, which has 24 bits of mantissa).
//
// Only what changes is touched. Left of column k, A is already the identity, and the
// rows k and p that a swap exchanges hold zeros there, as does row k when it is
// divided; so the launches work on the n - k columns k ... n-1 of A and all n columns
// of X: 2n - k entries per row. (X has structure too, but row swaps scatter it; the
// in-place form of variant 3 uses it.)

#include "gauss_jordan/gauss_jordan.h"
#include "triangular/identity_and_singular_checks.cuh"

#include <lab/host_device.h>
#include <variants/tiles.cuh> // step-2: ceil_div, clear_info, failed_before

#include <cstddef>

namespace step3
{
  // @sect3{The workspace}
  //
  // Three numbers and a column, where every variant starts its workspace (variant 3
  // adds its own parts after them).
  enum GaussJordanSlot
  {
    scale_slot,       // max |A(i, j)| of the input, for the singularity test
    pivot_value_slot, // the pivot A(p, k), before anything overwrites it
    pivot_row_slot,   // p
    multipliers_slot  // n entries: A(i, k), i != k, before column k is cleared
  };

  LAB_HOST_DEVICE constexpr std::size_t row_operations_workspace(int n)
  {
    return multipliers_slot + static_cast<std::size_t>(n);
  }

  // Kernel 1: rows k and p exchange places, in A (columns k and right) and in X (all
  // columns): one thread per column, 2n - k of them. Nothing to do when p = k.
  template <typename T>
  __global__ void swap_rows(T *a, int lda, T *x, int ldx, int n, int k, const T *w, const int *info)
  {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (step2::failed_before(info) || t >= 2 * n - k)
      return;
    const int p = static_cast<int>(w[pivot_row_slot]);
    if (p == k)
      return;
    const bool in_a = t < n - k;
    T *row_k = in_a ? a + static_cast<long>(k) * lda + k + t : x + static_cast<long>(k) * ldx + (t - (n - k));
    T *row_p = in_a ? a + static_cast<long>(p) * lda + k + t : x + static_cast<long>(p) * ldx + (t - (n - k));
    const T kept = *row_k;
    *row_k = *row_p;
    *row_p = kept;
  }

  // Kernel 2: row k divided by the pivot, which is read from the workspace (A(k, k)
  // itself becomes 1 here), and, by other threads of the same launch, the multipliers
  // A(i, k) of the rows i != k copied to the workspace. The two groups touch different
  // entries: row k's entries, and column k's entries outside row k.
  //   threads 0 ... n-1:            multiplier of row t (t != k)
  //   threads n ... 2n-k-1:         A(k, c), c = k + (t - n)
  //   threads 2n-k ... 3n-k-1:      X(k, c), c = t - (2n - k)
  template <typename T>
  __global__ void normalise_pivot_row(T *a, int lda, T *x, int ldx, int n, int k, T *w, const int *info)
  {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (step2::failed_before(info) || t >= 3 * n - k)
      return;
    const T pivot = w[pivot_value_slot];
    if (t < n)
      {
        if (t != k)
          w[multipliers_slot + t] = a[static_cast<long>(t) * lda + k];
      }
    else if (t < 2 * n - k)
      {
        const int c = k + (t - n);
        T &entry = a[static_cast<long>(k) * lda + c];
        entry = c == k ? T(1) : entry / pivot;
      }
    else
      x[static_cast<long>(k) * ldx + (t - (2 * n - k))] /= pivot;
  }

  // Kernel 3: every row i != k loses A(i, k) times row k, over A's columns k ... n-1
  // (column k becomes exactly 0) and all of X. A 2-D grid: threadIdx.y picks the row,
  // and consecutive threads take consecutive columns, so that a warp reads and writes
  // 32 neighbouring entries of one row (the thesis ran its threads down the columns).
  // Row k and the multipliers are only read here; each entry is written by one thread.
  constexpr int eliminate_block_x = 32, eliminate_block_y = 8;

  template <typename T>
  __global__ void eliminate(T *a, int lda, T *x, int ldx, int n, int k, const T *w, const int *info)
  {
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (step2::failed_before(info) || i >= n || i == k || t >= 2 * n - k)
      return;
    const T multiplier = w[multipliers_slot + i];
    if (t < n - k)
      {
        const int c = k + t;
        T &entry = a[static_cast<long>(i) * lda + c];
        entry = c == k ? T(0) : entry - multiplier * a[static_cast<long>(k) * lda + c];
      }
    else
      {
        const int c = t - (n - k);
        x[static_cast<long>(i) * ldx + c] -= multiplier * x[static_cast<long>(k) * ldx + c];
      }
  }

  // @sect3{The loop over the columns}
  //
  // What variants 1 and 2 share: X = I and info = 0 first, then for every column the
  // pivot choice (@p choose_pivot(k) enqueues it; it writes the pivot's value and row
  // to the workspace, or info = k + 1) and the three kernels, and at the end X = 0 if a
  // column had no pivot. After a failure every kernel returns at once (it reads info
  // first), so the rest of the queue costs only the launches.
  template <typename T, typename ChoosePivot>
  void invert_by_row_operations(const GaussJordanArgs<T> &g, ChoosePivot choose_pivot)
  {
    const int n = g.n;
    step2::clear_info(g.info, g.stream);
    set_to_identity(g.x, n, g.ldx, g.stream);
    constexpr int threads = 256;
    const dim3 block(eliminate_block_x, eliminate_block_y);
    for (int k = 0; k < n; ++k)
      {
        const int width = 2 * n - k; // columns k ... n-1 of A, then all of X
        choose_pivot(k);
        swap_rows<<<step2::ceil_div(width, threads), threads, 0, g.stream>>>(g.a, g.lda, g.x, g.ldx, n, k,
                                                                             g.workspace, g.info);
        LAB_CHECK_LAUNCH();
        normalise_pivot_row<<<step2::ceil_div(width + n, threads), threads, 0, g.stream>>>(g.a, g.lda, g.x, g.ldx,
                                                                                            n, k, g.workspace, g.info);
        LAB_CHECK_LAUNCH();
        const dim3 grid(step2::ceil_div(width, eliminate_block_x), step2::ceil_div(n, eliminate_block_y));
        eliminate<<<grid, block, 0, g.stream>>>(g.a, g.lda, g.x, g.ldx, n, k, g.workspace, g.info);
        LAB_CHECK_LAUNCH();
      }
    erase_if_singular(g.x, n, g.ldx, g.info, g.stream);
  }
} // namespace step3
