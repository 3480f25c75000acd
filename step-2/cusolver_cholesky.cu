#include "cusolver_cholesky.h"

#include <lab/cuda_check.h>

namespace step2
{
  using lab::cuda_data_type;

  template <typename T>
  CusolverCholesky<T>::CusolverCholesky(int n, int ld) : n_(n), ld_(ld), device_workspace_(0)
  {
    LAB_CHECK(cusolverDnXpotrf_bufferSize(cusolver_.get(), cusolver_.params(), fill_mode, n_, cuda_data_type<T>,
                                          nullptr, ld_, cuda_data_type<T>, &device_bytes_, &host_bytes_));
    device_workspace_ = lab::DeviceBuffer<unsigned char>(device_bytes_);
    host_workspace_.resize(host_bytes_);
  }

  // One block reads the diagonal: each thread finds the first failed pivot among its
  // columns (a diagonal entry that is not > 0: negative, zero or NaN), the block the
  // smallest of them, and info becomes that column + 1 when cuSOLVER reported none or
  // a later one. The diagonal is the same by rows and by columns.
  template <typename T>
  __global__ void correct_info_kernel(const T *a, int n, long ld, int *info)
  {
    __shared__ int first;
    if (threadIdx.x == 0)
      first = n;
    __syncthreads();
    for (int j = threadIdx.x; j < n; j += blockDim.x)
      if (!(a[j * ld + j] > 0))
        {
          atomicMin(&first, j);
          break;
        }
    __syncthreads();
    if (threadIdx.x == 0 && first < n && (*info == 0 || *info > first + 1))
      *info = first + 1;
  }

  template <typename T>
  void CusolverCholesky<T>::factorize(T *a, int *info, cudaStream_t stream)
  {
    LAB_CHECK(cusolverDnXpotrf(cusolver_.bind(stream), cusolver_.params(), fill_mode, n_, cuda_data_type<T>, a, ld_,
                               cuda_data_type<T>, device_workspace_.data(), device_bytes_, host_workspace_.data(),
                               host_bytes_, info));
    if (n_ > 0)
      {
        correct_info_kernel<<<1, 1024, 0, stream>>>(a, n_, ld_, info);
        LAB_CHECK_LAUNCH();
      }
  }

  template <typename T>
  void CusolverCholesky<T>::to_course_layout(T *a, cudaStream_t stream) const
  {
    mirror_upper_to_lower(a, n_, ld_, stream);
  }

  template <typename T>
  void CusolverCholesky<T>::solve(const T *factor, Factor where, T *b, int nrhs, int ldb, int *info,
                                  cudaStream_t stream)
  {
    LAB_CHECK(cusolverDnXpotrs(cusolver_.bind(stream), cusolver_.params(), fill_mode_of(where), n_, nrhs,
                               cuda_data_type<T>,
                               factor, ld_, cuda_data_type<T>, b, ldb, info));
  }

  // One thread per entry; those below the diagonal copy their mirror image. The reads
  // go down a column (strided), but this runs once per factor, outside every timing.
  template <typename T>
  __global__ void mirror_upper_to_lower_kernel(T *a, int n, long ld)
  {
    const int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < i)
      a[i * ld + j] = a[j * ld + i];
  }

  template <typename T>
  void mirror_upper_to_lower(T *a, int n, int ld, cudaStream_t stream)
  {
    if (n == 0)
      return;
    const dim3 threads(32, 32), blocks((n + 31) / 32, (n + 31) / 32);
    mirror_upper_to_lower_kernel<<<blocks, threads, 0, stream>>>(a, n, ld);
    LAB_CHECK_LAUNCH();
  }

  template class CusolverCholesky<float>;
  template class CusolverCholesky<double>;
  template void mirror_upper_to_lower(float *, int, int, cudaStream_t);
  template void mirror_upper_to_lower(double *, int, int, cudaStream_t);
} // namespace step2
