#include "gauss_jordan/cusolver_inverse.h"
#include "triangular/identity_and_singular_checks.cuh"

#include <lab/cuda_check.h>

#include <algorithm>

namespace step3
{
  namespace
  {
    // The per-type interface, one function per number type, by overloading.
    cusolverStatus_t getrf_size(cusolverDnHandle_t h, int n, float *a, int ld, int *elements)
    {
      return cusolverDnSgetrf_bufferSize(h, n, n, a, ld, elements);
    }
    cusolverStatus_t getrf_size(cusolverDnHandle_t h, int n, double *a, int ld, int *elements)
    {
      return cusolverDnDgetrf_bufferSize(h, n, n, a, ld, elements);
    }
    cusolverStatus_t getrf(cusolverDnHandle_t h, int n, float *a, int ld, float *work, int *pivots, int *info)
    {
      return cusolverDnSgetrf(h, n, n, a, ld, work, pivots, info);
    }
    cusolverStatus_t getrf(cusolverDnHandle_t h, int n, double *a, int ld, double *work, int *pivots, int *info)
    {
      return cusolverDnDgetrf(h, n, n, a, ld, work, pivots, info);
    }
    cusolverStatus_t getrs(cusolverDnHandle_t h, int n, const float *a, int ld, const int *pivots, float *b,
                           int *info)
    {
      return cusolverDnSgetrs(h, CUBLAS_OP_N, n, n, a, ld, pivots, b, ld, info);
    }
    cusolverStatus_t getrs(cusolverDnHandle_t h, int n, const double *a, int ld, const int *pivots, double *b,
                           int *info)
    {
      return cusolverDnDgetrs(h, CUBLAS_OP_N, n, n, a, ld, pivots, b, ld, info);
    }
  } // namespace

  template <typename T>
  CusolverGeneralInverse<T>::CusolverGeneralInverse(int n, int ld)
    : n_(n), ld_(ld), workspace_(0), pivots_(n), solve_info_(1)
  {
    LAB_CHECK(getrf_size(cusolver_.get(), n_, static_cast<T *>(nullptr), ld_, &workspace_elements_));
    workspace_ = lab::DeviceBuffer<T>(std::max(workspace_elements_, 1));
  }

  template <typename T>
  void CusolverGeneralInverse<T>::invert(T *a, T *x, int *info, cudaStream_t stream)
  {
    const cusolverDnHandle_t handle = cusolver_.bind(stream);
    LAB_CHECK(getrf(handle, n_, a, ld_, workspace_.data(), pivots_.data(), info));
    // The right-hand sides, I, in X; getrs overwrites them with the solutions. Its own
    // info reports only bad arguments and must not overwrite getrf's.
    set_to_identity(x, n_, ld_, stream);
    LAB_CHECK(getrs(handle, n_, a, ld_, pivots_.data(), x, solve_info_.data()));
    erase_if_singular(x, n_, ld_, info, stream);
  }

  template class CusolverGeneralInverse<float>;
  template class CusolverGeneralInverse<double>;
} // namespace step3
