#pragma once
// @sect3{Your own general matrix}
//
// `--matrix FILE --general`: A inverted by Gauss–Jordan on the CPU, by every variant,
// and by cuSOLVER's LU; a singular one is reported with its column, and they must
// agree (matrix_file.h).

#include "gauss_jordan/cusolver_inverse.h"
#include "gauss_jordan/gauss_jordan.h"
#include "gauss_jordan/gauss_jordan_cpu.h"
#include "matrix_file.h"
#include "settings.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>

namespace step3
{
  template <typename T>
  void invert_general_file(const Settings &settings, const lab::Matrix<T> &a, lab::Checks &checks)
  {
    const int n = a.rows();
    const int expected = invert_on_cpu(checks, "CPU_Gauss-Jordan", a, gauss_jordan_cpu<T>);
    if (!settings.use_gpu)
      return;
    lab::Cublas cublas;
    lab::DeviceBuffer<T> work(a.size()), inverse(a.size());
    lab::DeviceBuffer<int> info(1);
    // Every computation overwrites its copy of A.
    const auto start = [&] {
      work.upload(a);
      inverse.poison();
      info.poison();
    };
    for (const GaussJordanVariant<T> &variant : gauss_jordan_variants<T>())
      {
        start();
        lab::DeviceBuffer<T> workspace(variant.workspace_elements(n));
        variant.invert(gauss_jordan_args(work.data(), n, n, inverse.data(), info.data(), workspace.data(),
                                         lab::cublas_gemm_exact<T>(cublas)));
        report_device_result(checks, variant.name, a, inverse, info, expected);
      }
    start();
    CusolverGeneralInverse<T>(n, n).invert(work.data(), inverse.data(), info.data(), nullptr);
    report_device_result(checks, "cuSOLVER_getrf+getrs(I)", a, inverse, info, expected);
  }
} // namespace step3
