#pragma once
// @sect3{cuSOLVER, the yardstick}
//
// Every variant is timed against cuSOLVER's Cholesky, `cusolverDnXpotrf`, in the same
// run on the same matrix. cuSOLVER, like LAPACK, stores matrices by columns. A
// row-major matrix read by columns is its transpose, so our lower triangle is, to
// cuSOLVER, the upper triangle of the same symmetric matrix: we ask for
// CUBLAS_FILL_MODE_UPPER and get U = L^T back, which, read by rows, is our L. The
// workspace is queried and allocated once, outside the timing.
//
// `solve` is `cusolverDnXpotrs`: A X = B by the two triangular solves with a factor,
// cuSOLVER's or any of ours (they are stored alike). B is column-major to cuSOLVER:
// nrhs columns of ldb entries each, which for one right-hand side is just the vector.

#include <lab/cusolver.h>
#include <lab/device_buffer.h>

#include <cstddef>
#include <vector>

namespace step2
{
  template <typename T>
  class CusolverCholesky
  {
  public:
    // Prepares a factorisation of n×n matrices with leading dimension ld.
    CusolverCholesky(int n, int ld);

    // Factorises a (device) in place on @p stream; info (device) as LAPACK's.
    void factorize(T *a, int *info, cudaStream_t stream = nullptr);

    // Overwrites the nrhs columns of b (device) with A^{-1} b, given A's factor.
    void solve(const T *factor, T *b, int nrhs, int ldb, int *info, cudaStream_t stream = nullptr);

  private:
    int n_, ld_;
    lab::Cusolver cusolver_;
    std::size_t device_bytes_ = 0, host_bytes_ = 0;
    lab::DeviceBuffer<unsigned char> device_workspace_;
    std::vector<unsigned char> host_workspace_;
  };
} // namespace step2
