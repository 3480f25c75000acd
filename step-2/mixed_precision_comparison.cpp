// The three solves of mixed_precision_comparison.h, one function each, on the same
// system; then the console line and the checks.
#include "mixed_precision_comparison.h"

#include "cusolver_mixed_precision.h"
#include "variants/6_mixed_precision_solve.cuh"

#include <lab/format.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab/timer.h>

#include <cmath>
#include <cstdio>
#include <limits>

namespace step2
{
  namespace
  {
    // The system A x = b: A on the device (DeviceMatrix), b random, x where every
    // solver leaves its solution, and the backward error of that solution.
    struct System
    {
      DeviceMatrix<float> &device;
      lab::Matrix<float> b;
      lab::DeviceBuffer<float> b_device, x_device;

      explicit System(DeviceMatrix<float> &d)
        : device(d), b(lab::random_matrix<float>(d.a.rows(), 1, 3000 + d.a.rows())), b_device(b),
          x_device(d.a.rows())
      {}

      double error() const
      {
        lab::Matrix<float> x(device.a.rows(), 1);
        x_device.download(x);
        return lab::solve_residual(device.a, x, b, 1);
      }
    };

    void time_spotrf_spotrs(System &s, CusolverCholesky<float> &cusolver, int reps, MixedPrecisionComparison &c)
    {
      DeviceMatrix<float> &d = s.device;
      c.spotrf_spotrs_ms = lab::median_gpu_milliseconds(
        reps,
        [&] {
          cusolver.factorize(d.work.data(), d.info.data());
          cusolver.solve(d.work.data(), CusolverCholesky<float>::Factor::as_potrf_left_it, s.x_device.data(), 1,
                         d.a.rows(), d.info.data());
        },
        [&] {
          d.work.copy_from_device(d.pristine);
          s.x_device.copy_from_device(s.b_device);
        });
      c.error_spotrs = s.error();
    }

    // A restored before each run: the solver leaves it as it was only when the
    // refinement converged. Returns cuSOLVER's info.
    int time_irs(System &s, int reps, MixedPrecisionComparison &c)
    {
      DeviceMatrix<float> &d = s.device;
      CusolverMixedPrecision irs(d.a.rows());
      c.irs_ms = lab::median_gpu_milliseconds(
        reps, [&] { c.irs_iterations = irs.solve(d.work.data(), s.b_device.data(), s.x_device.data(), d.info.data()); },
        [&] {
          d.work.copy_from_device(d.pristine);
          d.info.poison();
          s.x_device.poison();
        });
      int info = -1;
      d.info.copy_to_host(&info, 1);
      c.error_irs = info == 0 ? s.error() : not_run;
      return info;
    }

    // Variant 6 reads A where it was uploaded and leaves it alone. Returns its info.
    int time_variant_6(System &s, int reps, lab::Cublas &cublas, int panel_width, MixedPrecisionComparison &c)
    {
      const lab::Matrix<float> &a = s.device.a;
      const float *pristine = s.device.pristine.data();
      MixedPrecisionSolve solver(a.rows(), a.ld(), panel_width, cublas);
      int info = 0;
      c.mixed_ms = lab::median_gpu_milliseconds(
        reps, [&] { info = solver.solve(pristine, s.b_device.data(), s.x_device.data()); },
        [&] { s.x_device.poison(); });
      c.error_mixed = info == 0 ? s.error() : not_run;
      c.rounds = solver.rounds();
      c.tf32_factor_ms = lab::median_gpu_milliseconds(reps, [&] { solver.factorize(pristine); });
      lab::Matrix<float> factor(a.rows(), a.cols(), a.ld());
      solver.factor().download(factor);
      c.residual_tf32_factor = factor_residual(a, factor);
      return info;
    }

    void print(const MixedPrecisionComparison &c)
    {
      std::printf("  variant 6, A x = b: spotrf+spotrs (LOWER) %s ms (error %.1e); cuSOLVER IRS (TF32 LU, %d"
                  " iterations%s) %s ms (error %.1e); TF32 factor %s ms (residual %.1e) + %d rounds: %s ms, %.2fx"
                  " spotrf+spotrs, %.2fx IRS (error %.1e, %.1fx spotrs's)\n",
                  lab::format_milliseconds(c.spotrf_spotrs_ms).c_str(), c.error_spotrs, c.irs_iterations,
                  c.irs_iterations < 0 ? ": fell back to FP32" : "", lab::format_milliseconds(c.irs_ms).c_str(),
                  c.error_irs, lab::format_milliseconds(c.tf32_factor_ms).c_str(), c.residual_tf32_factor,
                  c.rounds, lab::format_milliseconds(c.mixed_ms).c_str(), c.spotrf_spotrs_ms / c.mixed_ms,
                  c.irs_ms / c.mixed_ms, c.error_mixed, c.error_mixed / c.error_spotrs);
    }

    // A solver that reports a failure on a positive definite matrix fails; one that
    // succeeds must meet the bound.
    void check(lab::Checks &checks, const std::string &what, int info, double error, double bound)
    {
      if (info != 0)
        checks.fail(what, "info = " + std::to_string(info) + " on a positive definite matrix");
      else
        checks.at_most(what + " error", error, bound);
    }
  } // namespace

  MixedPrecisionComparison run_mixed_precision(DeviceMatrix<float> &device, CusolverCholesky<float> &cusolver,
                                               int reps, lab::Cublas &cublas, int panel_width,
                                               lab::Checks &checks, const std::string &context)
  {
    System system(device);
    MixedPrecisionComparison c{};
    time_spotrf_spotrs(system, cusolver, reps, c);
    const int irs_info = time_irs(system, reps, c);
    const int info = time_variant_6(system, reps, cublas, panel_width, c);
    print(c);
    const double bound = std::sqrt(double(device.a.rows())) * std::numeric_limits<float>::epsilon();
    check(checks, context + " cuSOLVER IRS", irs_info, c.error_irs, bound);
    check(checks, context + " " + MixedPrecisionSolve::name, info, c.error_mixed, bound);
    return c;
  }
} // namespace step2
