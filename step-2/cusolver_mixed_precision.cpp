#include "cusolver_mixed_precision.h"

#include <lab/cuda_check.h>

#include <type_traits>

namespace step2
{
  template <typename T>
  CusolverMixedPrecision<T>::CusolverMixedPrecision(int n, cusolverIRSRefinement_t refinement)
    : n_(n), workspace_(0)
  {
    LAB_CHECK(cusolverDnIRSParamsCreate(&params_));
    LAB_CHECK(cusolverDnIRSParamsSetSolverPrecisions(
      params_, std::is_same_v<T, float> ? CUSOLVER_R_32F : CUSOLVER_R_64F, CUSOLVER_R_TF32));
    LAB_CHECK(cusolverDnIRSParamsSetRefinementSolver(params_, refinement));
    LAB_CHECK(cusolverDnIRSInfosCreate(&infos_));
    LAB_CHECK(cusolverDnIRSXgesv_bufferSize(cusolver_.get(), params_, n_, 1, &workspace_bytes_));
    workspace_ = lab::DeviceBuffer<unsigned char>(workspace_bytes_);
  }

  template <typename T>
  CusolverMixedPrecision<T>::~CusolverMixedPrecision()
  {
    cusolverDnIRSInfosDestroy(infos_);
    cusolverDnIRSParamsDestroy(params_);
  }

  // cuSOLVER's prototype takes b as a plain pointer; it only reads it.
  template <typename T>
  int CusolverMixedPrecision<T>::solve(T *a, const T *b, T *x, int *info)
  {
    int iterations = 0;
    LAB_CHECK(cusolverDnIRSXgesv(cusolver_.get(), params_, infos_, n_, 1, a, n_, const_cast<T *>(b), n_, x, n_,
                                 workspace_.data(),
                                 workspace_bytes_, &iterations, info));
    return iterations;
  }

  template class CusolverMixedPrecision<float>;
  template class CusolverMixedPrecision<double>;
} // namespace step2
