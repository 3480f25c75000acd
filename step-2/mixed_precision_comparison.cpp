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
#include <iterator>
#include <limits>

namespace step2
{
  namespace
  {
    // The system A x = b: A on the device (DeviceMatrix), b random, x where every
    // solver leaves its solution, and the backward error of that solution.
    template <typename T>
    struct System
    {
      DeviceMatrix<T> &device;
      lab::Matrix<T> b;
      lab::DeviceBuffer<T> b_device, x_device;

      explicit System(DeviceMatrix<T> &d)
        : device(d), b(lab::random_matrix<T>(d.a.rows(), 1, 3000 + d.a.rows())), b_device(b), x_device(d.a.rows())
      {}

      double error() const
      {
        lab::Matrix<T> x(device.a.rows(), 1);
        x_device.download(x);
        return lab::solve_residual(device.a, x, b, 1);
      }
    };

    template <typename T>
    void time_potrf_potrs(System<T> &s, CusolverCholesky<T> &cusolver, int reps, MixedPrecisionComparison &c)
    {
      DeviceMatrix<T> &d = s.device;
      c.potrf_potrs_ms = lab::median_gpu_milliseconds(
        reps,
        [&] {
          cusolver.factorize(d.work.data(), d.info.data());
          cusolver.solve(d.work.data(), CusolverCholesky<T>::Factor::as_potrf_left_it, s.x_device.data(), 1,
                         d.a.rows(), d.info.data());
        },
        [&] {
          d.work.copy_from_device(d.pristine);
          s.x_device.copy_from_device(s.b_device);
        });
      c.error_potrs = s.error();
    }

    // Each refinement method in turn (irs_refinements, numbered from 1 in the table's
    // irs_refinement column), A restored before each run (the solver leaves it as it
    // was only when the refinement converged). Kept: the fastest that succeeded, with
    // its iterations and error, or the first if none did. Returns cuSOLVER's info of
    // the one kept.
    template <typename T>
    int time_irs(System<T> &s, int reps, MixedPrecisionComparison &c)
    {
      DeviceMatrix<T> &d = s.device;
      int kept_info = -1;
      c.irs_ms = std::numeric_limits<double>::infinity();
      for (int method = 0; method < int(std::size(irs_refinements)); ++method)
        {
          CusolverMixedPrecision<T> irs(d.a.rows(), irs_refinements[method].method);
          int iterations = 0;
          const double ms = lab::median_gpu_milliseconds(
            reps, [&] { iterations = irs.solve(d.work.data(), s.b_device.data(), s.x_device.data(), d.info.data()); },
            [&] {
              d.work.copy_from_device(d.pristine);
              d.info.poison();
              s.x_device.poison();
            });
          int info = -1;
          d.info.copy_to_host(&info, 1);
          const bool better = kept_info != 0 ? info == 0 || method == 0 : info == 0 && ms < c.irs_ms;
          if (!better)
            continue;
          c.irs_ms = ms;
          c.irs_iterations = iterations;
          c.irs_refinement = method + 1;
          c.error_irs = info == 0 ? s.error() : not_run;
          kept_info = info;
        }
      return kept_info;
    }

    // Variant 6 reads A where it was uploaded, stored whole, and leaves it alone.
    // Returns its info.
    template <typename T>
    int time_variant_6(System<T> &s, int reps, lab::Cublas &cublas, int panel_width, MixedPrecisionComparison &c)
    {
      const lab::Matrix<T> &a = s.device.a;
      const T *pristine = s.device.pristine.data();
      MixedPrecisionSolve<T> solver(a.rows(), a.ld(), panel_width, cublas, MixedPrecisionSolve<T>::Stored::whole);
      int info = 0;
      c.mixed_ms = lab::median_gpu_milliseconds(
        reps, [&] { info = solver.solve(pristine, s.b_device.data(), s.x_device.data()); },
        [&] { s.x_device.poison(); });
      c.error_mixed = info == 0 ? s.error() : not_run;
      c.rounds = solver.rounds();
      c.tf32_factor_ms = lab::median_gpu_milliseconds(reps, [&] { solver.factorize(pristine); });
      lab::Matrix<float> factor(a.rows(), a.cols(), a.ld());
      solver.factor().download(factor);
      c.residual_tf32_factor = factor_residual(a, lab::convert<T>(factor));
      return info;
    }

    template <typename T>
    void print(const MixedPrecisionComparison &c)
    {
      const std::string potrf = std::is_same_v<T, float> ? "spotrf" : "dpotrf";
      const std::string potrs = std::is_same_v<T, float> ? "spotrs" : "dpotrs";
      std::printf("  variant 6, A x = b: %s+%s (LOWER) %s ms (error %.1e); cuSOLVER IRS (TF32 LU, %s, %d"
                  " iterations%s) %s ms (error %.1e); TF32 factor %s ms (residual %.1e) + %d rounds: %s ms, %.2fx"
                  " %s+%s, %.2fx IRS (error %.1e, %.1fx %s's)\n",
                  potrf.c_str(), potrs.c_str(), lab::format_milliseconds(c.potrf_potrs_ms).c_str(), c.error_potrs,
                  irs_refinements[c.irs_refinement - 1].name, c.irs_iterations, c.irs_iterations < 0 ? ": fell back" : "",
                  lab::format_milliseconds(c.irs_ms).c_str(), c.error_irs,
                  lab::format_milliseconds(c.tf32_factor_ms).c_str(), c.residual_tf32_factor, c.rounds,
                  lab::format_milliseconds(c.mixed_ms).c_str(), c.potrf_potrs_ms / c.mixed_ms, potrf.c_str(),
                  potrs.c_str(), c.irs_ms / c.mixed_ms, c.error_mixed, c.error_mixed / c.error_potrs, potrs.c_str());
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

  template <typename T>
  MixedPrecisionComparison run_mixed_precision(DeviceMatrix<T> &device, CusolverCholesky<T> &cusolver, int reps,
                                               lab::Cublas &cublas, int panel_width, lab::Checks &checks,
                                               const std::string &context)
  {
    System<T> system(device);
    MixedPrecisionComparison c{};
    time_potrf_potrs(system, cusolver, reps, c);
    const int irs_info = time_irs(system, reps, c);
    const int info = time_variant_6(system, reps, cublas, panel_width, c);
    print<T>(c);
    const int n = device.a.rows();
    check(checks, context + " cuSOLVER IRS", irs_info, c.error_irs, irs_error_bound<T>(n));
    check(checks, context + " " + MixedPrecisionSolve<T>::name, info, c.error_mixed,
          std::sqrt(double(n)) * std::numeric_limits<T>::epsilon());
    return c;
  }

  template MixedPrecisionComparison run_mixed_precision(DeviceMatrix<float> &, CusolverCholesky<float> &, int,
                                                        lab::Cublas &, int, lab::Checks &, const std::string &);
  template MixedPrecisionComparison run_mixed_precision(DeviceMatrix<double> &, CusolverCholesky<double> &, int,
                                                        lab::Cublas &, int, lab::Checks &, const std::string &);
} // namespace step2
