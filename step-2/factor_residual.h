#pragma once
// @sect3{The check of a factor}
//
// The residual ‖L Lᵀ − A‖_F / ‖A‖_F, in double, on every entry. Up to n = 2048 on
// the host (lab::cholesky_residual), independent of any library. Beyond, the host
// would take as long as a factorisation, so the GPU computes it where @p gpu allows
// (a device, not --cpu-only): every entry in double by cuBLAS DSYRK
// (lab::cholesky_residual_on_gpu), in milliseconds. Without a GPU, or without the
// free memory for its copies in double, the host estimates it from one row in every
// band of 16 (lab::cholesky_residual_sampled), so that no tile row of the factor
// goes unseen, and says so on the line before the result.
//
// The tolerance is c·n·ε with c = 4, as in step-1.

#include <lab/checks_on_gpu.h>
#include <lab/matrix.h>
#include <lab/residuals.h>

#include <cstdio>
#include <optional>

namespace step2
{
  constexpr int on_host_up_to = 2048;
  constexpr double residual_constant = 4;

  template <typename T>
  double factor_residual(const lab::Matrix<T> &a, const lab::Matrix<T> &factor, bool gpu = true)
  {
    if (a.rows() <= on_host_up_to)
      return lab::cholesky_residual(a, factor);
    if (gpu)
      if (const std::optional<double> r = lab::cholesky_residual_on_gpu(a, factor))
        return *r;
    std::printf("  (the next residual is sampled on the host: one row in every 16)\n");
    return lab::cholesky_residual_sampled(a, factor);
  }
} // namespace step2
