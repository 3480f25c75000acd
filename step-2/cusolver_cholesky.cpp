#include "cusolver_cholesky.h"

#include <lab/cuda_check.h>

namespace step2
{
  namespace
  {
    template <typename T>
    constexpr cudaDataType data_type = sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
  } // namespace

  template <typename T>
  CusolverCholesky<T>::CusolverCholesky(int n, int ld) : n_(n), ld_(ld), device_workspace_(0)
  {
    LAB_CHECK(cusolverDnCreate(&handle_));
    LAB_CHECK(cusolverDnCreateParams(&params_));
    LAB_CHECK(cusolverDnXpotrf_bufferSize(handle_, params_, CUBLAS_FILL_MODE_UPPER, n_,
                                          data_type<T>, nullptr, ld_, data_type<T>,
                                          &device_bytes_, &host_bytes_));
    device_workspace_ = lab::DeviceBuffer<unsigned char>(device_bytes_);
    host_workspace_.resize(host_bytes_);
  }

  template <typename T>
  CusolverCholesky<T>::~CusolverCholesky()
  {
    cusolverDnDestroyParams(params_);
    cusolverDnDestroy(handle_);
  }

  template <typename T>
  void CusolverCholesky<T>::factorize(T *a, int *info, cudaStream_t stream)
  {
    LAB_CHECK(cusolverDnSetStream(handle_, stream));
    LAB_CHECK(cusolverDnXpotrf(handle_, params_, CUBLAS_FILL_MODE_UPPER, n_, data_type<T>, a,
                               ld_, data_type<T>, device_workspace_.data(), device_bytes_,
                               host_workspace_.data(), host_bytes_, info));
  }

  template <typename T>
  void CusolverCholesky<T>::solve(const T *factor, T *b, int nrhs, int ldb, int *info,
                                  cudaStream_t stream)
  {
    LAB_CHECK(cusolverDnSetStream(handle_, stream));
    LAB_CHECK(cusolverDnXpotrs(handle_, params_, CUBLAS_FILL_MODE_UPPER, n_, nrhs, data_type<T>,
                               factor, ld_, data_type<T>, b, ldb, info));
  }

  template class CusolverCholesky<float>;
  template class CusolverCholesky<double>;
} // namespace step2
