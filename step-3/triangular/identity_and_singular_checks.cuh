#pragma once
// @sect3{What every variant does first and last}
//
// Before: find the first zero on the diagonal (the matrix is singular there) and set
// `info`; and give X its starting value, the identity or zero. After: if L was
// singular, overwrite X with zeros. In between, a variant may divide by the zero it
// was warned about and fill X with Inf or NaN: the last step erases that, so the
// variants themselves need not test `info` in every kernel (the tile kernel of
// step-2, which they borrow, does anyway). The checks are enqueued like everything
// else, so no variant waits for the host.
//
// Both checks are short kernels on a chain of short kernels, and both may overlap the
// kernel before them (lab/dependent_launch.h): the erase waits for it before it reads
// anything; the diagonal check, where its caller says that the kernel before does not
// write L (the substitutions' tile inverses), reads the diagonal beside it and waits
// only before it writes info.

#include <lab/cuda_check.h>
#include <lab/dependent_launch.h>

#include <cuda_runtime.h>

namespace step3
{
  // info = j + 1 for the first j with L(j, j) == 0, else 0. One block of 1024 threads:
  // each thread scans every 1024th diagonal entry, and the block agrees on the
  // smallest j by an atomic minimum in shared memory. The entries lie a row apart, each
  // a trip to memory of its own, so a thread reads 8 of them before it looks at any:
  // one at a time, waiting for each before the next, the check took 20 µs at n =
  // 16384 and 33 µs at 32768 on the H200 (with 256 threads); 8 at a time, 15 and 24 µs.
  constexpr int diagonal_check_threads = 1024;

  template <typename T>
  __global__ void __launch_bounds__(diagonal_check_threads) find_zero_on_diagonal(const T *l, int n, int ld, int *info)
  {
    constexpr int in_flight = 8;
    __shared__ int first;
    if (threadIdx.x == 0)
      first = n;
    __syncthreads();
    for (int j0 = threadIdx.x; j0 < n; j0 += in_flight * blockDim.x)
      {
        T entry[in_flight];
#pragma unroll
        for (int u = 0; u < in_flight; ++u)
          {
            const int j = j0 + u * blockDim.x;
            entry[u] = j < n ? l[static_cast<long>(j) * ld + j] : T(1);
          }
        int zero = n;
#pragma unroll
        for (int u = in_flight - 1; u >= 0; --u)
          if (entry[u] == T(0))
            zero = j0 + u * blockDim.x;
        if (zero < n)
          {
            atomicMin(&first, zero);
            break; // this thread's later entries cannot be smaller
          }
      }
    __syncthreads();
    // The kernels after this one may rely on the one before it having finished.
    lab::wait_for_previous_kernel();
    if (threadIdx.x == 0)
      *info = first < n ? first + 1 : 0;
  }

  // Sets entry (j, j) to one, for j < n.
  template <typename T>
  __global__ void set_diagonal_to_one(T *x, int n, int ldx)
  {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n)
      x[static_cast<long>(j) * ldx + j] = T(1);
  }

  // Every entry of the rows×cols matrix X set to zero when info != 0.
  template <typename T>
  __global__ void zero_if_singular(T *x, int rows, int cols, int ldx, const int *info)
  {
    lab::wait_for_previous_kernel(); // for info and for X
    if (*info == 0)
      return;
    for (long e = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; e < static_cast<long>(rows) * cols;
         e += static_cast<long>(gridDim.x) * blockDim.x)
      x[(e / cols) * ldx + e % cols] = T(0);
  }

  // The host side: the checks enqueued on a stream. @p beside_previous_kernel: the
  // kernel before this one on the stream does not write L, and the check may run
  // beside it.
  template <typename T>
  void check_diagonal(const T *l, int n, int ld, int *info, cudaStream_t stream, bool beside_previous_kernel = false)
  {
    if (beside_previous_kernel)
      lab::launch_overlapping_previous<find_zero_on_diagonal<T>>(1, diagonal_check_threads, 0, stream, l, n, ld, info);
    else
      find_zero_on_diagonal<<<1, diagonal_check_threads, 0, stream>>>(l, n, ld, info);
    LAB_CHECK_LAUNCH();
  }

  // X = 0 (n×n, leading dimension ldx): a strided memset, whatever ldx is.
  template <typename T>
  void set_to_zero(T *x, int n, int ldx, cudaStream_t stream)
  {
    LAB_CHECK(cudaMemset2DAsync(x, ldx * sizeof(T), 0, n * sizeof(T), n, stream));
  }

  template <typename T>
  void set_to_identity(T *x, int n, int ldx, cudaStream_t stream)
  {
    set_to_zero(x, n, ldx, stream);
    set_diagonal_to_one<<<(n + 255) / 256, 256, 0, stream>>>(x, n, ldx);
    LAB_CHECK_LAUNCH();
  }

  // X (rows×cols; n×n by default) = 0 if info != 0.
  template <typename T>
  void erase_if_singular(T *x, int rows, int ldx, const int *info, cudaStream_t stream, int cols = -1)
  {
    lab::launch_overlapping_previous<zero_if_singular<T>>(256, 256, 0, stream, x, rows, cols < 0 ? rows : cols, ldx,
                                                          info);
    LAB_CHECK_LAUNCH();
  }
} // namespace step3
