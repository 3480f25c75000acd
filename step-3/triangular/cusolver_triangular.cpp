#include "triangular/cusolver_triangular.h"

#include <lab/cuda_check.h>

#include <algorithm>

namespace step3
{
  namespace
  {
    // potri is in cuSOLVER's older, per-type interface only.
    cusolverStatus_t potri_size(cusolverDnHandle_t h, int n, float *a, int ld, int *elements)
    {
      return cusolverDnSpotri_bufferSize(h, CUBLAS_FILL_MODE_UPPER, n, a, ld, elements);
    }
    cusolverStatus_t potri_size(cusolverDnHandle_t h, int n, double *a, int ld, int *elements)
    {
      return cusolverDnDpotri_bufferSize(h, CUBLAS_FILL_MODE_UPPER, n, a, ld, elements);
    }
    cusolverStatus_t potri_run(cusolverDnHandle_t h, int n, float *a, int ld, float *work, int elements, int *info)
    {
      return cusolverDnSpotri(h, CUBLAS_FILL_MODE_UPPER, n, a, ld, work, elements, info);
    }
    cusolverStatus_t potri_run(cusolverDnHandle_t h, int n, double *a, int ld, double *work, int elements,
                               int *info)
    {
      return cusolverDnDpotri(h, CUBLAS_FILL_MODE_UPPER, n, a, ld, work, elements, info);
    }

    // trsm on the column-major view: L X = I by rows is X^T L^T = I by columns, a
    // solve from the right with the upper triangle L^T.
    cublasStatus_t trsm_run(cublasHandle_t h, int n, const float *l, int ld, float *x, int ldx)
    {
      const float one = 1;
      return cublasStrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n,
                         &one, l, ld, x, ldx);
    }
    cublasStatus_t trsm_run(cublasHandle_t h, int n, const double *l, int ld, double *x, int ldx)
    {
      const double one = 1;
      return cublasDtrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n,
                         &one, l, ld, x, ldx);
    }
  } // namespace

  template <typename T>
  VendorTriangular<T>::VendorTriangular(int n, int ld, lab::Cublas &cublas)
    : n_(n), ld_(ld), cublas_(cublas), device_workspace_(0)
  {
    LAB_CHECK(cusolverDnXtrtri_bufferSize(cusolver_.get(), CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT, n_,
                                          lab::cuda_data_type<T>, nullptr, ld_, &trtri_device_bytes_,
                                          &trtri_host_bytes_));
    LAB_CHECK(potri_size(cusolver_.get(), n_, static_cast<T *>(nullptr), ld_, &potri_elements_));
    device_workspace_ = lab::DeviceBuffer<unsigned char>(
      std::max(trtri_device_bytes_, static_cast<std::size_t>(potri_elements_) * sizeof(T)));
    host_workspace_.resize(trtri_host_bytes_);
  }

  template <typename T>
  void VendorTriangular<T>::trtri(T *l, int *info, cudaStream_t stream)
  {
    LAB_CHECK(cusolverDnXtrtri(cusolver_.bind(stream), CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT, n_,
                               lab::cuda_data_type<T>, l, ld_, device_workspace_.data(), trtri_device_bytes_,
                               host_workspace_.data(), trtri_host_bytes_, info));
  }

  template <typename T>
  void VendorTriangular<T>::trsm(const T *l, T *x, cudaStream_t stream)
  {
    cublas_.bind(stream);
    LAB_CHECK(trsm_run(cublas_.get(), n_, l, ld_, x, ld_));
  }

  template <typename T>
  void VendorTriangular<T>::potri(T *factor, int *info, cudaStream_t stream)
  {
    LAB_CHECK(potri_run(cusolver_.bind(stream), n_, factor, ld_, reinterpret_cast<T *>(device_workspace_.data()),
                        potri_elements_, info));
  }

  template class VendorTriangular<float>;
  template class VendorTriangular<double>;
} // namespace step3
