#pragma once
// @sect3{Table 4: Gauss–Jordan on a general matrix}
//
// The thesis' contrast: inverting a general matrix by Gauss–Jordan (2n³ flops), on a
// diagonally dominant matrix (invertible, well conditioned, and every pivoting rule
// keeps the diagonal: a fair race), against cuSOLVER's LU, getrf + getrs(I), which the
// percent column is of. The residual ‖A X − I‖_F / (‖A‖_F ‖X‖_F).

#include "gauss_jordan/cusolver_inverse.h"
#include "gauss_jordan/gauss_jordan.h"
#include "measurement.h"
#include "result_checks.h"
#include "settings.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab/timer.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace step3
{
  // The unblocked variants (four launches per column) run up to this size.
  constexpr int gauss_jordan_limit = 8192;

  // One size's row of the table.
  struct GaussJordanResults
  {
    int n = 0;
    Measurement getrf;
    std::vector<Measurement> variants; // gauss_jordan_variants<T>()'s order; NaN for one not run
    double tolerance = std::nan("");
  };

  template <typename T>
  GaussJordanResults run_gauss_jordan(const Settings &settings, int n, lab::Cublas &cublas, lab::Checks &checks,
                                      const std::string &context)
  {
    const double flops = 2.0 * n * n * n, tolerance = sweep_tolerance<T>();
    std::printf(" Gauss-Jordan inverse of a general matrix (%.1f GFLOP)\n", flops / 1e9);
    print_heading("general inverse", "getrf+s", "");
    const lab::Matrix<T> a = lab::random_diagonally_dominant<T>(n, 4000 + n);
    lab::DeviceBuffer<T> pristine(a), work(a.size()), x(a.size());
    lab::DeviceBuffer<int> info(1);
    // X and its info from the device, timed by the median of `reps` runs.
    const auto time = [&](const std::string &name, const std::function<void()> &invert) {
      const double ms = lab::median_gpu_milliseconds(settings.options.reps, invert, [&] {
        work.copy_from_device(pristine);
        x.poison();
        info.poison();
      });
      lab::Matrix<T> inverse(n, n);
      x.download(inverse);
      int status = -1;
      info.copy_to_host(&status, 1);
      return Measurement{name, ms,
                         status == 0 ? lab::inverse_residual(a, inverse, residual_columns(n)) : std::nan(""), status};
    };
    GaussJordanResults r;
    r.n = n;
    CusolverGeneralInverse<T> vendor(n, n);
    r.getrf = time("cuSOLVER_getrf+getrs(I)", [&] { vendor.invert(work.data(), x.data(), info.data(), nullptr); });
    report(checks, context + " general", r.getrf, flops, tolerance, {r.getrf.ms});
    for (const GaussJordanVariant<T> &variant : gauss_jordan_variants<T>())
      {
        Measurement m{variant.name};
        if (n <= gauss_jordan_limit || variant.uses_gemm)
          {
            lab::DeviceBuffer<T> workspace(variant.workspace_elements(n));
            const GaussJordanArgs<T> args = gauss_jordan_args(work.data(), n, n, x.data(), info.data(),
                                                              workspace.data(), lab::cublas_gemm_exact<T>(cublas));
            m = time(variant.name, [&] { variant.invert(args); });
            report(checks, context + " general", m, flops, tolerance, {r.getrf.ms});
          }
        r.variants.push_back(m);
      }
    r.tolerance = tolerance;
    return r;
  }
} // namespace step3
