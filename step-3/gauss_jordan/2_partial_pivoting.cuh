#pragma once
// @sect3{Variant 2: partial pivoting}
//
// The same kernels as variant 1 with the standard rule: the pivot of column k is the
// entry of largest magnitude among A(k, k) ... A(n-1, k), so that the multiplier
// A(i, k) / pivot of every row below k is at most 1 in magnitude, as in LU with partial
// pivoting, and no rounding error is amplified on its way down. (The rows above k get
// multipliers that the rule does not bound, Gauss–Jordan's one difference from LU
// here; on the matrices of the tests it costs nothing measurable.) Finding the pivot
// is a reduction: each thread of one block keeps the largest entry among the rows it
// visits, and the block reduces the 256 candidates pairwise in shared memory, in
// log2(256) = 8 rounds. Ties go to the smaller row, so the choice does not depend on
// the order of the threads and agrees with the CPU reference.
//
// The same reduction, once, over the whole input, gives max|A|, the scale of the
// singularity test (gauss_jordan.h): a pivot of magnitude at most n ε max|A| counts as
// zero. One block reads all n² entries for it: a few milliseconds at n = 8192, where
// the elimination takes seconds. Variant 3 chooses its pivots with the same kernels.

#include "gauss_jordan/gauss_jordan.h"
#include "gauss_jordan/row_operations.cuh"

#include <limits>

namespace step3
{
  // The block size of the reductions: a power of two.
  constexpr int pivot_threads = 256;

  // w[scale_slot] = max |A(i, j)|: the threads read the rows one after the other, each
  // row by consecutive threads, then reduce.
  template <typename T>
  __global__ void largest_magnitude(const T *a, int n, int lda, T *w)
  {
    __shared__ T largest[pivot_threads];
    const int t = threadIdx.x;
    T m = 0;
    for (int r = 0; r < n; ++r)
      for (int c = t; c < n; c += pivot_threads)
        m = fmax(m, fabs(a[static_cast<long>(r) * lda + c]));
    largest[t] = m;
    __syncthreads();
    for (int half = pivot_threads / 2; half > 0; half /= 2)
      {
        if (t < half)
          largest[t] = fmax(largest[t], largest[t + half]);
        __syncthreads();
      }
    if (t == 0)
      w[scale_slot] = largest[0];
  }

  // The pivot of column k: the row p >= k of largest |A(p, k)|. Its value and row go to
  // the workspace; when |A(p, k)| <= tiny · max|A| (tiny = n ε, from the host), info =
  // k + 1 instead.
  template <typename T>
  __global__ void largest_pivot(const T *a, int n, int lda, int k, T tiny, T *w, int *info)
  {
    if (step2::failed_before(info))
      return;
    __shared__ T magnitude[pivot_threads];
    __shared__ int row[pivot_threads];
    const int t = threadIdx.x;
    T best = 0;
    int best_row = n;
    for (int r = k + t; r < n; r += pivot_threads)
      {
        const T m = fabs(a[static_cast<long>(r) * lda + k]);
        if (m > best)
          {
            best = m;
            best_row = r;
          }
      }
    magnitude[t] = best;
    row[t] = best_row;
    __syncthreads();
    for (int half = pivot_threads / 2; half > 0; half /= 2)
      {
        if (t < half && (magnitude[t + half] > magnitude[t] ||
                         (magnitude[t + half] == magnitude[t] && row[t + half] < row[t])))
          {
            magnitude[t] = magnitude[t + half];
            row[t] = row[t + half];
          }
        __syncthreads();
      }
    if (t != 0)
      return;
    if (!(magnitude[0] > tiny * w[scale_slot]))
      {
        *info = k + 1;
        return;
      }
    w[pivot_value_slot] = a[static_cast<long>(row[0]) * lda + k];
    w[pivot_row_slot] = T(row[0]);
  }

  // The host side of the two: the scale once, then one choice per column.
  template <typename T>
  void find_scale(const GaussJordanArgs<T> &g)
  {
    largest_magnitude<<<1, pivot_threads, 0, g.stream>>>(g.a, g.n, g.lda, g.workspace);
    LAB_CHECK_LAUNCH();
  }

  template <typename T>
  void choose_largest_pivot(const GaussJordanArgs<T> &g, int k)
  {
    const T tiny = g.n * std::numeric_limits<T>::epsilon();
    largest_pivot<<<1, pivot_threads, 0, g.stream>>>(g.a, g.n, g.lda, k, tiny, g.workspace, g.info);
    LAB_CHECK_LAUNCH();
  }

  template <typename T>
  void invert_2_partial_pivoting(const GaussJordanArgs<T> &args);
} // namespace step3
