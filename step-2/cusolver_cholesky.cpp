#include "cusolver_cholesky.h"

#include <lab/cuda_check.h>

namespace step2
{
  using lab::cuda_data_type;

  template <typename T>
  CusolverCholesky<T>::CusolverCholesky(int n, int ld) : n_(n), ld_(ld), device_workspace_(0)
  {
    LAB_CHECK(cusolverDnXpotrf_bufferSize(cusolver_.get(), cusolver_.params(), CUBLAS_FILL_MODE_UPPER, n_,
                                          cuda_data_type<T>, nullptr, ld_, cuda_data_type<T>,
                                          &device_bytes_, &host_bytes_));
    device_workspace_ = lab::DeviceBuffer<unsigned char>(device_bytes_);
    host_workspace_.resize(host_bytes_);
  }

  template <typename T>
  void CusolverCholesky<T>::factorize(T *a, int *info, cudaStream_t stream)
  {
    LAB_CHECK(cusolverDnXpotrf(cusolver_.bind(stream), cusolver_.params(), CUBLAS_FILL_MODE_UPPER, n_,
                               cuda_data_type<T>, a, ld_, cuda_data_type<T>, device_workspace_.data(),
                               device_bytes_, host_workspace_.data(), host_bytes_, info));
  }

  template <typename T>
  void CusolverCholesky<T>::solve(const T *factor, T *b, int nrhs, int ldb, int *info,
                                  cudaStream_t stream)
  {
    LAB_CHECK(cusolverDnXpotrs(cusolver_.bind(stream), cusolver_.params(), CUBLAS_FILL_MODE_UPPER, n_, nrhs,
                               cuda_data_type<T>, factor, ld_, cuda_data_type<T>, b, ldb, info));
  }

  template class CusolverCholesky<float>;
  template class CusolverCholesky<double>;
} // namespace step2
