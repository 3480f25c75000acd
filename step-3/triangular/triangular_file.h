#pragma once
// @sect3{Your own lower triangular matrix}
//
// `--matrix FILE`: L inverted on the CPU, by trtri and by every variant (or the one
// --variant names); a zero on the diagonal is reported with its column by each, and
// they must agree (matrix_file.h).

#include "matrix_file.h"
#include "settings.h"
#include "triangular/cusolver_triangular.h"
#include "triangular/triangular_cpu.h"
#include "triangular/triangular_inverse.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/program.h>

#include <string>

namespace step3
{
  template <typename T>
  void invert_triangular_file(const Settings &settings, const lab::Matrix<T> &l, lab::Checks &checks)
  {
    const int n = l.rows();
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (l(i, j) != T(0))
          throw lab::bad_input(settings.matrix_file + ": entry (" + std::to_string(i + 1) + ", " +
                               std::to_string(j + 1) + ") is above the diagonal and not zero: the matrix is "
                               "not lower triangular (use --general for Gauss-Jordan)");
    const int expected = invert_on_cpu(checks, "CPU_OpenMP", l, invert_lower_cpu<T>);
    if (!settings.use_gpu)
      return;
    lab::Cublas cublas;
    lab::DeviceBuffer<T> device_l(l), device_x(l.size());
    lab::DeviceBuffer<int> info(1);
    device_x.copy_from_device(device_l);
    info.poison();
    VendorTriangular<T>(n, n, cublas).trtri(device_x.data(), info.data(), nullptr);
    report_device_result(checks, "cuSOLVER_trtri", l, device_x, info, expected, true);
    for (const InverseVariant<T> &variant : inverse_variants<T>())
      if (settings.variant.empty() || find_inverse_variant<T>(settings.variant) == &variant)
        {
          lab::DeviceBuffer<T> workspace(variant.workspace_elements(n));
          device_x.poison();
          info.poison();
          variant.invert(inverse_args(device_l.data(), n, n, device_x.data(), info.data(), workspace.data(),
                                      lab::cublas_gemm_exact<T>(cublas)));
          report_device_result(checks, variant.name, l, device_x, info, expected);
        }
  }
} // namespace step3
