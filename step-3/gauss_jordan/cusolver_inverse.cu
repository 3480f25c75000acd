#include "gauss_jordan/cusolver_inverse.h"
#include "triangular/frame.cuh"

#include <lab/cuda_check.h>

namespace step3
{
  using lab::cuda_data_type;

  template <typename T>
  CusolverGeneralInverse<T>::CusolverGeneralInverse(int n, int ld)
    : n_(n), ld_(ld), device_workspace_(0), pivots_(n), solve_info_(1)
  {
    LAB_CHECK(cusolverDnXgetrf_bufferSize(cusolver_.get(), cusolver_.params(), n_, n_, cuda_data_type<T>, nullptr,
                                          ld_, cuda_data_type<T>, &device_bytes_, &host_bytes_));
    device_workspace_ = lab::DeviceBuffer<unsigned char>(device_bytes_);
    host_workspace_.resize(host_bytes_);
  }

  template <typename T>
  void CusolverGeneralInverse<T>::invert(T *a, T *x, int *info, cudaStream_t stream)
  {
    const cusolverDnHandle_t handle = cusolver_.bind(stream);
    LAB_CHECK(cusolverDnXgetrf(handle, cusolver_.params(), n_, n_, cuda_data_type<T>, a, ld_, pivots_.data(),
                               cuda_data_type<T>, device_workspace_.data(), device_bytes_, host_workspace_.data(),
                               host_bytes_, info));
    // The right-hand sides, I, in X; getrs overwrites them with the solutions. Its own
    // info reports only bad arguments and must not overwrite getrf's.
    set_to_identity(x, n_, ld_, stream);
    LAB_CHECK(cusolverDnXgetrs(handle, cusolver_.params(), CUBLAS_OP_N, n_, n_, cuda_data_type<T>, a, ld_,
                               pivots_.data(), cuda_data_type<T>, x, ld_, solve_info_.data()));
    erase_if_singular(x, n_, ld_, info, stream);
  }

  template class CusolverGeneralInverse<float>;
  template class CusolverGeneralInverse<double>;
} // namespace step3
