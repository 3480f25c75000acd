#pragma once
// @sect3{Table 3: the SPD inverse}
//
// A^{-1} from A's factor L (cuSOLVER's potrf, timed once and printed): X by variant
// 4, then X^T X; cuSOLVER's potri (in place, one triangle); potrs against the
// identity. The residual ‖A C − I‖_F / (‖A‖_F ‖C‖_F); the percent columns are of potri
// and potrs(I).

#include "measurement.h"
#include "problem.h"
#include "result_checks.h"
#include "solve_and_spd_inverse/spd_inverse.h"
#include "triangular/identity_and_singular_checks.cuh"
#include "triangular/triangular_inverse.h"

#include <lab/checks.h>
#include <lab/device_buffer.h>
#include <lab/format.h>
#include <lab/residuals.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace step3
{
  // One size's row of the table.
  struct SpdInverseResults
  {
    int n = 0;
    double potrf_ms = std::nan("");
    Measurement xtx, potri, potrs;
    double tolerance = std::nan("");
  };

  template <typename T>
  SpdInverseResults run_spd_inverse(Problem<T> &p, lab::Checks &checks, const std::string &context)
  {
    const int n = p.n;
    const double tolerance = sweep_tolerance<T>();
    SpdInverseResults r{n, std::nan(""), {"X^T_X_(variant_4)"}, {"cuSOLVER_potri"}, {"cuSOLVER_potrs(I)"}};
    lab::DeviceBuffer<T> c(p.a.size()), factor(p.a.size());
    r.potrf_ms = p.time([&] { p.cholesky->factorize(factor.data(), p.info.data()); },
                        [&] { factor.copy_from_device(p.device_a); });
    std::printf(" SPD inverse A^-1 from the factor (cuSOLVER potrf took %s ms)\n",
                lab::format_milliseconds(r.potrf_ms).c_str());
    print_heading("SPD inverse", "potri", "potrs(I)");
    const auto residual = [&](bool lower_only) {
      lab::Matrix<T> inverse(n, n);
      c.download(inverse);
      if (lower_only) // mirror the lower triangle
        for (int i = 0; i < n; ++i)
          for (int j = i + 1; j < n; ++j)
            inverse(i, j) = inverse(j, i);
      return lab::inverse_residual(p.a, inverse, residual_columns(n));
    };

    const InverseVariant<T> &recursive = inverse_variants<T>().back();
    lab::DeviceBuffer<T> workspace(recursive.workspace_elements(n));
    const InverseArgs<T> args =
      inverse_args(p.device_l.data(), n, n, p.device_x.data(), p.info.data(), workspace.data(), p.gemm());
    r.xtx.ms = p.time(
      [&] {
        recursive.invert(args);
        inverse_from_factor_inverse(p.device_x.data(), n, n, c.data(), n, args.gemm, nullptr);
      },
      [&] {
        c.poison();
        p.device_x.poison();
        p.info.poison();
      });
    r.xtx.info = p.reported_info();
    r.xtx.residual = residual(false);

    r.potri.ms = p.time([&] { p.vendor->potri(c.data(), p.info.data(), nullptr); },
                        [&] { c.copy_from_device(p.device_l); });
    r.potri.residual = residual(true);
    r.potrs.ms = p.time([&] { p.cholesky->solve(p.device_l.data(), p.factor_by_rows, c.data(), n, n, p.info.data()); },
                        [&] { set_to_identity(c.data(), n, n, nullptr); });
    r.potrs.residual = residual(false);

    // 2n³/3 flops: what potri needs (n³/3 for the inverse, n³/3 for one triangle of X^T X).
    const double flops = 2.0 * n * n * n / 3;
    for (const Measurement &m : {r.xtx, r.potri, r.potrs})
      report(checks, context + " SPD", m, flops, tolerance, {r.potri.ms, r.potrs.ms});
    r.tolerance = tolerance;
    return r;
  }
} // namespace step3
