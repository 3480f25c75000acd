#include "gauss_jordan/1_thesis_swap_on_zero.cuh"
#include "gauss_jordan/row_operations.cuh"

namespace step3
{
  // The pivot of column k by the thesis' rule: the first row r >= k with A(r, k) != 0,
  // which is row k itself unless A(k, k) = 0. One block: each thread walks every 256th
  // row from k on and stops at its first nonzero, and the block agrees on the
  // smallest such row by an atomic minimum in shared memory. No nonzero: info = k + 1.
  template <typename T>
  __global__ void first_nonzero_pivot(const T *a, int n, int lda, int k, T *w, int *info)
  {
    if (step2::failed_before(info))
      return;
    __shared__ int first;
    if (threadIdx.x == 0)
      first = n;
    __syncthreads();
    for (int r = k + threadIdx.x; r < n; r += blockDim.x)
      if (a[static_cast<long>(r) * lda + k] != T(0))
        {
          atomicMin(&first, r);
          break; // this thread's later rows cannot be smaller
        }
    __syncthreads();
    if (threadIdx.x != 0)
      return;
    if (first == n)
      {
        *info = k + 1;
        return;
      }
    w[pivot_value_slot] = a[static_cast<long>(first) * lda + k];
    w[pivot_row_slot] = T(first);
  }

  template <typename T>
  void invert_1_thesis_swap_on_zero(const GaussJordanArgs<T> &g)
  {
    invert_by_row_operations(g, [&](int k) {
      first_nonzero_pivot<<<1, 256, 0, g.stream>>>(g.a, g.n, g.lda, k, g.workspace, g.info);
      LAB_CHECK_LAUNCH();
    });
  }

  template void invert_1_thesis_swap_on_zero(const GaussJordanArgs<float> &);
  template void invert_1_thesis_swap_on_zero(const GaussJordanArgs<double> &);
} // namespace step3
