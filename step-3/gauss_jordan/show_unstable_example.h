#pragma once
// @sect3{Partial pivoting, shown on one matrix}
//
// The thesis swaps rows only when a pivot is exactly zero. On a matrix whose first
// pivot is tiny but not zero, that keeps the tiny pivot, the multipliers become huge
// and the rounding errors they carry swamp the result; partial pivoting swaps the
// large entry up and loses nothing. Every variant runs on the same matrix, into a
// poisoned inverse and info: the check is that pivoting meets the tolerance and the
// thesis' rule fails by the finite error the example predicts (result_checks.h).

#include "gauss_jordan/gauss_jordan.h"
#include "gauss_jordan/unstable_example.h"
#include "result_checks.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/precision.h>
#include <lab/residuals.h>

#include <cstdio>
#include <string>

namespace step3
{
  template <typename T>
  void show_unstable_example(lab::Cublas &cublas, lab::Checks &checks)
  {
    const lab::Matrix<T> a = unstable_example<T>();
    const int n = a.rows();
    std::printf("\nthe thesis' pivoting (swap only on an exact zero) against partial pivoting, %d x %d:\n", n, n);
    lab::DeviceBuffer<T> work(a.size()), x(a.size());
    lab::DeviceBuffer<int> info(1);
    for (const GaussJordanVariant<T> &variant : gauss_jordan_variants<T>())
      {
        work.upload(a);
        x.poison();
        info.poison();
        lab::DeviceBuffer<T> workspace(variant.workspace_elements(n));
        variant.invert(gauss_jordan_args(work.data(), n, n, x.data(), info.data(), workspace.data(),
                                         lab::cublas_gemm_exact<T>(cublas)));
        lab::Matrix<T> inverse(n, n);
        x.download(inverse);
        int status = -1;
        info.copy_to_host(&status, 1);
        const double r = lab::inverse_residual(a, inverse, n);
        std::printf("  %-30s residual %.2e (info %d)\n", variant.name.c_str(), r, status);
        const std::string what = std::string("unstable example ") + lab::precision_name<T>() + " " + variant.name;
        const double tolerance = sweep_tolerance<T>();
        if (variant.pivoting == Pivoting::partial)
          judge(checks, what, status, r, tolerance);
        else
          judge_unstable(checks, what + " (expected to fail)", status, r, 1e3 * tolerance);
      }
  }
} // namespace step3
