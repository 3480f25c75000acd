// λ from the exact equations (see exact_lambda.h).
#include "methods/exact_lambda.h"

#include "gpu/blur_gpu.h"
#include "methods/conjugate_gradients.h"
#include "methods/restoration.h"
#include "methods/sparse_cholesky.h"
#include "model/varying_blur.h"

#include <lab/format.h>
#include <lab/image_quality.h>
#include <lab/timer.h>

#include <functional>
#include <limits>
#include <string>

namespace step5
{
  namespace
  {
    // The search of lambda_choice.h for the target n σ², timed, its text saying which
    // solver (@p solver) gave the residuals.
    ResidualSearch timed_search(const std::function<double(double)> &residual_norm2,
                                const lab::Matrix<double> &degraded, double sigma, const LambdaRange &range,
                                double start, const std::string &solver)
    {
      lab::HostTimer timer;
      timer.start();
      ResidualSearch search = find_lambda_where_residual_meets(
        residual_norm2, static_cast<double>(degraded.size()) * sigma * sigma, range, start);
      search.how = "discrepancy principle (the exact equations, " + solver +
                   "): ||H f - g||^2 = n sigma^2 with sigma = " + lab::format_or_dash(sigma, "%.3g") + " " +
                   search.how + " (" + lab::format_milliseconds(timer.milliseconds()) + " ms)";
      return search;
    }
  } // namespace

  // Every trial λ is one CG solve from f = 0 into the problem's f and one blur of it
  // into f_inverse, whose distance from g is measured on the host in double.
  template <typename T>
  ResidualSearch choose_lambda_by_exact_discrepancy(DeviceProblem<T> &problem, const lab::Matrix<double> &degraded,
                                                    double sigma, const LambdaRange &range, double start)
  {
    const int rows = problem.rows, cols = problem.cols;
    ConjugateGradients<T> cg(rows, cols);
    const auto residual_norm2 = [&](double lambda) {
      cg.solve(problem.psf, static_cast<T>(lambda), problem.g.data(), problem.f.data(), iterative_tolerance<T>(),
               cg_iteration_limit(rows, cols));
      blur_on_device(problem.psf, rows, cols, problem.f.data(), problem.f_inverse.data(), nullptr);
      return lab::mean_squared_error(problem.download(problem.f_inverse), degraded) * static_cast<double>(degraded.size());
    };
    return timed_search(residual_norm2, degraded, sigma, range, start, "CG");
  }

  // Every trial λ is one factorisation and solve by CHOLMOD, in double, and one blur
  // on the CPU. A factorisation that fails (λ so small that A is not positive definite
  // in double) counts as an infinite residual: the search then moves to larger λ.
  ResidualSearch choose_lambda_by_exact_discrepancy_on_cpu(const SampledField &field,
                                                           const lab::Matrix<double> &degraded, double sigma,
                                                           const LambdaRange &range, double start)
  {
    const lab::Matrix<double> b = blur_transpose(field, degraded);
    const auto residual_norm2 = [&](double lambda) {
      const SparseCholeskySolution solution = sparse_cholesky_solve(normal_matrix_stencil(field, lambda), b);
      if (solution.f.size() == 0)
        return std::numeric_limits<double>::infinity();
      return lab::mean_squared_error(blur(field, solution.f), degraded) * static_cast<double>(degraded.size());
    };
    return timed_search(residual_norm2, degraded, sigma, range, start, "CHOLMOD");
  }

  template ResidualSearch choose_lambda_by_exact_discrepancy<float>(DeviceProblem<float> &,
                                                                    const lab::Matrix<double> &, double,
                                                                    const LambdaRange &, double);
  template ResidualSearch choose_lambda_by_exact_discrepancy<double>(DeviceProblem<double> &,
                                                                     const lab::Matrix<double> &, double,
                                                                     const LambdaRange &, double);
} // namespace step5
