#pragma once
// @sect3{cuSOLVER's general inverse: LU, then solves against I}
//
// The vendor's way to a general inverse is the LU factorisation with partial pivoting
// (`cusolverDnXgetrf`), then `cusolverDnXgetrs` with the identity as n right-hand
// sides. To cuSOLVER, which reads by columns, our row-major A is A^T: it factorises
// A^T and solves A^T Y = I, so Y = A^{-T} by columns, which read by rows is A^{-1}.
// A singular matrix (an exactly zero pivot of U) is reported in info like LAPACK's,
// and X is then set to zero. The workspace is allocated in the constructor.

#include <lab/device_buffer.h>

#include <cusolverDn.h>

#include <cstdint>
#include <vector>

namespace step3
{
  template <typename T>
  class CusolverGeneralInverse
  {
  public:
    CusolverGeneralInverse(int n, int ld);
    ~CusolverGeneralInverse();
    CusolverGeneralInverse(const CusolverGeneralInverse &) = delete;
    CusolverGeneralInverse &operator=(const CusolverGeneralInverse &) = delete;

    // X = A^{-1} (both n×n, leading dimension ld); A is overwritten by its LU factors.
    void invert(T *a, T *x, int *info, cudaStream_t stream);

  private:
    int n_, ld_;
    cusolverDnHandle_t handle_ = nullptr;
    cusolverDnParams_t params_ = nullptr;
    std::size_t device_bytes_ = 0, host_bytes_ = 0;
    lab::DeviceBuffer<unsigned char> device_workspace_;
    lab::DeviceBuffer<std::int64_t> pivots_;
    lab::DeviceBuffer<int> solve_info_;
    std::vector<unsigned char> host_workspace_;
  };
} // namespace step3
