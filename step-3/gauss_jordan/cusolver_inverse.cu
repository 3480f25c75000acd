#include "gauss_jordan/cusolver_inverse.h"
#include "triangular/frame.cuh"

#include <lab/cuda_check.h>

namespace step3
{
  namespace
  {
    template <typename T>
    constexpr cudaDataType data_type = sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
  } // namespace

  template <typename T>
  CusolverGeneralInverse<T>::CusolverGeneralInverse(int n, int ld)
    : n_(n), ld_(ld), device_workspace_(0), pivots_(n), solve_info_(1)
  {
    LAB_CHECK(cusolverDnCreate(&handle_));
    LAB_CHECK(cusolverDnCreateParams(&params_));
    LAB_CHECK(cusolverDnXgetrf_bufferSize(handle_, params_, n_, n_, data_type<T>, nullptr, ld_, data_type<T>,
                                          &device_bytes_, &host_bytes_));
    device_workspace_ = lab::DeviceBuffer<unsigned char>(device_bytes_);
    host_workspace_.resize(host_bytes_);
  }

  template <typename T>
  CusolverGeneralInverse<T>::~CusolverGeneralInverse()
  {
    cusolverDnDestroyParams(params_);
    cusolverDnDestroy(handle_);
  }

  template <typename T>
  void CusolverGeneralInverse<T>::invert(T *a, T *x, int *info, cudaStream_t stream)
  {
    LAB_CHECK(cusolverDnSetStream(handle_, stream));
    LAB_CHECK(cusolverDnXgetrf(handle_, params_, n_, n_, data_type<T>, a, ld_, pivots_.data(), data_type<T>,
                               device_workspace_.data(), device_bytes_, host_workspace_.data(), host_bytes_,
                               info));
    // The right-hand sides, I, in X; getrs overwrites them with the solutions. Its own
    // info reports only bad arguments and must not overwrite getrf's.
    set_to_identity(x, n_, ld_, stream);
    LAB_CHECK(cusolverDnXgetrs(handle_, params_, CUBLAS_OP_N, n_, n_, data_type<T>, a, ld_, pivots_.data(),
                               data_type<T>, x, ld_, solve_info_.data()));
    erase_if_singular(x, n_, ld_, info, stream);
  }

  template class CusolverGeneralInverse<float>;
  template class CusolverGeneralInverse<double>;
} // namespace step3
