#pragma once
// @sect3{cuSOLVER's general inverse: LU, then a solve against I}
//
// The vendor's way to a general inverse is the LU factorisation with partial pivoting
// (`getrf`, 2n³/3 flops), then `getrs` with the identity as n right-hand sides (4n³/3
// flops where it knows nothing of I's zeros). cuSOLVER has both in two interfaces, the
// per-type one (`cusolverDnSgetrf`, …) and the 64-bit one (`cusolverDnXgetrf`); the
// per-type one was 5–7% faster at n = 4096 on an H200 and as fast at 8192
// (`vendor-configurations`), so it is the one used here. To cuSOLVER,
// which reads by columns, our row-major A is A^T: it factorises A^T and solves
// A^T Y = I, so Y = A^{-T} by columns, which read by rows is A^{-1}, the inverse we
// want, without a transpose anywhere. getrf reports an exactly zero pivot of U in
// `info` as LAPACK does, but a pivot of the LU of A^T: its number is in general not
// the column of A that our variants report (a zero column of A is a zero row of A^T,
// which partial pivoting leaves for last). X is then set to zero: getrs does not look
// at `info` and divides by the zero pivot. The workspace is queried and allocated in
// the constructor, outside every timing.

#include <lab/cusolver.h>
#include <lab/device_buffer.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace step3
{
  template <typename T>
  class CusolverGeneralInverse
  {
  public:
    // Prepares the inversion of n×n matrices with leading dimension ld.
    CusolverGeneralInverse(int n, int ld);

    // X = A^{-1} (both on the device, n×n, leading dimension ld), enqueued on @p stream;
    // A is overwritten by its LU factors, info (device) as getrf's.
    void invert(T *a, T *x, int *info, cudaStream_t stream);

  private:
    int n_, ld_;
    lab::Cusolver cusolver_;
    int workspace_elements_ = 0;
    lab::DeviceBuffer<T> workspace_;
    lab::DeviceBuffer<int> pivots_;
    lab::DeviceBuffer<int> solve_info_;
  };
} // namespace step3
