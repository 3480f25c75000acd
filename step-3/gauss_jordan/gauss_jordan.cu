// @sect3{Gauss–Jordan on the GPU: four launches per column}
//
// The thesis' three kernels (swap, normalise, eliminate) and, in front of them, one
// that chooses the pivot, which the thesis did on the host. Each launch reads only
// what an earlier launch wrote, for the reason variant 1 of GETS showed: blocks of one
// launch run in no fixed order. Two things in particular are copied aside first:
//  - the pivot value: the launch that divides row k also overwrites A(k, k);
//  - the multipliers A(i, k): the elimination clears column k while other threads
//    of row i still need A(i, k).
// Workspace (n + 3 entries): max|A|, the pivot value, the pivot row, the multipliers.
#include "gauss_jordan.h"
#include "../triangular/frame.cuh"

#include <variants/tiles.cuh> // step-2: ceil_div, clear_info, failed_before

#include <limits>

namespace step3
{
  using step2::ceil_div;
  using step2::failed_before;

  namespace
  {
    enum Slot
    {
      scale_slot,       // max |A|
      pivot_value_slot, // A(p, k), the pivot
      pivot_row_slot,   // p, as a number
      multipliers_slot  // n entries: A(i, k)
    };

    template <typename T>
    std::size_t workspace_elements(int n)
    {
      return static_cast<std::size_t>(n) + multipliers_slot;
    }

    // The reductions below run in one block of this many threads.
    constexpr int reduction_threads = 256;

    // w[scale_slot] = max |A(i, j)|.
    template <typename T>
    __global__ void largest_magnitude(const T *a, int n, int lda, T *w)
    {
      __shared__ T largest[reduction_threads];
      T m = 0;
      for (long e = threadIdx.x; e < static_cast<long>(n) * n; e += blockDim.x)
        m = max(m, abs(a[(e / n) * lda + e % n]));
      largest[threadIdx.x] = m;
      __syncthreads();
      for (int half = blockDim.x / 2; half > 0; half /= 2)
        {
          if (threadIdx.x < half)
            largest[threadIdx.x] = max(largest[threadIdx.x], largest[threadIdx.x + half]);
          __syncthreads();
        }
      if (threadIdx.x == 0)
        w[scale_slot] = largest[0];
    }

    // The pivot of column k among rows k ... n-1, by the rule; info = k + 1 if none.
    // Each thread keeps its best candidate, then the block reduces them: the larger
    // magnitude wins (partial pivoting; ties to the smaller row), or the first nonzero
    // row (the thesis' rule: A(k, k) itself unless it is zero).
    template <typename T, Pivoting rule>
    __global__ void choose_pivot(const T *a, int n, int lda, int k, T relative_threshold, T *w, int *info)
    {
      if (failed_before(info))
        return;
      __shared__ T magnitude[reduction_threads];
      __shared__ int row[reduction_threads];
      T best = 0;
      int best_row = n;
      for (int r = k + threadIdx.x; r < n; r += blockDim.x)
        {
          const T m = abs(a[static_cast<long>(r) * lda + k]);
          const bool better = rule == Pivoting::partial ? m > best : (m != T(0) && r < best_row);
          if (better)
            {
              best = m;
              best_row = r;
            }
        }
      magnitude[threadIdx.x] = best;
      row[threadIdx.x] = best_row;
      __syncthreads();
      for (int half = blockDim.x / 2; half > 0; half /= 2)
        {
          if (threadIdx.x < half)
            {
              const T m = magnitude[threadIdx.x + half];
              const int r = row[threadIdx.x + half];
              const bool better = rule == Pivoting::partial
                                    ? (m > magnitude[threadIdx.x] || (m == magnitude[threadIdx.x] && r < row[threadIdx.x]))
                                    : r < row[threadIdx.x];
              if (better)
                {
                  magnitude[threadIdx.x] = m;
                  row[threadIdx.x] = r;
                }
            }
          __syncthreads();
        }
      if (threadIdx.x != 0)
        return;
      if (row[0] == n || (rule == Pivoting::partial && magnitude[0] <= relative_threshold * w[scale_slot]))
        {
          *info = k + 1;
          return;
        }
      w[pivot_value_slot] = a[static_cast<long>(row[0]) * lda + k];
      w[pivot_row_slot] = T(row[0]);
    }

    // Kernel 1: rows k and p swap places, in A (columns k and right: to the left both
    // rows are already zero) and in X (all columns).
    template <typename T>
    __global__ void swap_rows(T *a, int lda, T *x, int ldx, int n, int k, const T *w, const int *info)
    {
      const int p = static_cast<int>(w[pivot_row_slot]);
      const int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (failed_before(info) || p == k || t >= 2 * n - k)
        return;
      T *row_k = t < n - k ? a + static_cast<long>(k) * lda + k + t : x + static_cast<long>(k) * ldx + t - (n - k);
      T *row_p = t < n - k ? a + static_cast<long>(p) * lda + k + t : x + static_cast<long>(p) * ldx + t - (n - k);
      const T kept = *row_k;
      *row_k = *row_p;
      *row_p = kept;
    }

    // Kernel 2: the multipliers A(i, k) copied aside (i != k), and row k divided by the
    // pivot (read from the workspace, since A(k, k) itself becomes 1 here).
    template <typename T>
    __global__ void normalise_pivot_row(T *a, int lda, T *x, int ldx, int n, int k, T *w, const int *info)
    {
      const int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (failed_before(info) || t >= 3 * n - k)
        return;
      const T pivot = w[pivot_value_slot];
      if (t < n)
        {
          if (t != k)
            w[multipliers_slot + t] = a[static_cast<long>(t) * lda + k];
        }
      else if (t < 2 * n - k)
        {
          const int c = k + t - n;
          T &entry = a[static_cast<long>(k) * lda + c];
          entry = c == k ? T(1) : entry / pivot;
        }
      else
        x[static_cast<long>(k) * ldx + t - (2 * n - k)] /= pivot;
    }

    // Kernel 3: every row i != k loses A(i, k) times row k, in A (columns k and right;
    // column k becomes exactly 0) and in X. Threads run along the rows (coalesced).
    template <typename T>
    __global__ void eliminate(T *a, int lda, T *x, int ldx, int n, int k, const T *w, const int *info)
    {
      const int i = blockIdx.y * blockDim.y + threadIdx.y;
      const int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (failed_before(info) || i >= n || i == k || t >= 2 * n - k)
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

    template <typename T, Pivoting rule>
    void invert(const GaussJordanArgs<T> &g)
    {
      const int n = g.n;
      T *w = g.workspace;
      step2::clear_info(g.info, g.stream);
      set_to_identity(g.x, n, g.ldx, g.stream);
      largest_magnitude<<<1, reduction_threads, 0, g.stream>>>(g.a, n, g.lda, w);
      LAB_CHECK_LAUNCH();
      constexpr int threads = 256;
      const T relative_threshold = rule == Pivoting::partial ? n * std::numeric_limits<T>::epsilon() : T(0);
      for (int k = 0; k < n; ++k)
        {
          const int width = 2 * n - k; // columns k ... n-1 of A, then all of X
          choose_pivot<T, rule><<<1, reduction_threads, 0, g.stream>>>(g.a, n, g.lda, k, relative_threshold, w, g.info);
          swap_rows<<<ceil_div(width, threads), threads, 0, g.stream>>>(g.a, g.lda, g.x, g.ldx, n, k, w, g.info);
          normalise_pivot_row<<<ceil_div(width + n, threads), threads, 0, g.stream>>>(g.a, g.lda, g.x, g.ldx, n, k,
                                                                                       w, g.info);
          const dim3 block(32, 8), grid(ceil_div(width, 32), ceil_div(n, 8));
          eliminate<<<grid, block, 0, g.stream>>>(g.a, g.lda, g.x, g.ldx, n, k, w, g.info);
          LAB_CHECK_LAUNCH();
        }
      erase_if_singular(g.x, n, g.ldx, g.info, g.stream);
    }
  } // namespace

  template <typename T>
  const std::vector<GaussJordanVariant<T>> &gauss_jordan_variants()
  {
    static const std::vector<GaussJordanVariant<T>> list = {
      {"1_thesis_swap_on_zero", "the thesis' kernels: a row swap only on an exactly zero pivot",
       Pivoting::on_exact_zero, workspace_elements<T>, invert<T, Pivoting::on_exact_zero>},
      {"2_partial_pivoting", "the same kernels, the largest pivot in the column", Pivoting::partial,
       workspace_elements<T>, invert<T, Pivoting::partial>},
    };
    return list;
  }

  template const std::vector<GaussJordanVariant<float>> &gauss_jordan_variants<float>();
  template const std::vector<GaussJordanVariant<double>> &gauss_jordan_variants<double>();
} // namespace step3
