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
    // The pixels of all channels: the n of the target n σ².
    double pixels(const std::vector<lab::Matrix<double>> &degraded)
    {
      double n = 0;
      for (const lab::Matrix<double> &channel : degraded)
        n += static_cast<double>(channel.size());
      return n;
    }

    // The search of lambda_choice.h for the target n σ², timed, its text saying which
    // solver (@p solver) gave the residuals.
    ResidualSearch timed_search(const std::function<double(double)> &residual_norm2,
                                const std::vector<lab::Matrix<double>> &degraded, double sigma,
                                const LambdaRange &range, double start, const std::string &solver)
    {
      lab::HostTimer timer;
      timer.start();
      ResidualSearch search = find_lambda_where_residual_meets(residual_norm2, pixels(degraded) * sigma * sigma, range,
                                                               start);
      const std::string channels =
        degraded.size() > 1 ? ", summed over " + std::to_string(degraded.size()) + " channels, sigma their RMS" : "";
      search.how = "discrepancy principle (the exact equations, " + solver + channels +
                   "): ||H f - g||^2 = n sigma^2 with sigma = " + lab::format_or_dash(sigma, "%.3g") + " " +
                   search.how + " (" + lab::format_milliseconds(timer.milliseconds()) + " ms)";
      return search;
    }
  } // namespace

  // Every trial λ is one CG solve per channel from f = 0 into the problem's f and one
  // blur of it into f_inverse, whose distance from g is measured on the host in double.
  template <typename T>
  ResidualSearch choose_lambda_by_exact_discrepancy(const std::vector<DeviceProblem<T> *> &problems,
                                                    const std::vector<lab::Matrix<double>> &degraded, double sigma,
                                                    const LambdaRange &range, double start)
  {
    const int rows = problems.front()->rows, cols = problems.front()->cols;
    ConjugateGradients<T> cg(rows, cols);
    const auto residual_norm2 = [&](double lambda) {
      double sum = 0;
      for (std::size_t c = 0; c < problems.size(); ++c)
        {
          DeviceProblem<T> &problem = *problems[c];
          cg.solve(problem.psf, static_cast<T>(lambda), problem.g.data(), problem.f.data(), iterative_tolerance<T>(),
                   cg_iteration_limit(rows, cols));
          blur_on_device(problem.psf, rows, cols, problem.f.data(), problem.f_inverse.data(), nullptr);
          sum += lab::mean_squared_error(problem.download(problem.f_inverse), degraded[c]) *
                 static_cast<double>(degraded[c].size());
        }
      return sum;
    };
    return timed_search(residual_norm2, degraded, sigma, range, start, "CG");
  }

  // Every trial λ is one factorisation by CHOLMOD for all channels, in double, a solve
  // and a blur on the CPU per channel. A factorisation that fails (λ so small that A is not
  // positive definite in double) counts as an infinite residual: the search then
  // moves to larger λ.
  ResidualSearch choose_lambda_by_exact_discrepancy_on_cpu(const SampledField &field,
                                                           const std::vector<lab::Matrix<double>> &degraded,
                                                           double sigma, const LambdaRange &range, double start)
  {
    std::vector<lab::Matrix<double>> b;
    for (const lab::Matrix<double> &channel : degraded)
      b.push_back(blur_transpose(field, channel));
    const auto residual_norm2 = [&](double lambda) {
      const SparseCholeskySolutions solution = sparse_cholesky_solve(normal_matrix_stencil(field, lambda), b);
      if (solution.f.empty())
        return std::numeric_limits<double>::infinity();
      double sum = 0;
      for (std::size_t c = 0; c < degraded.size(); ++c)
        sum += lab::mean_squared_error(blur(field, solution.f[c]), degraded[c]) * static_cast<double>(degraded[c].size());
      return sum;
    };
    return timed_search(residual_norm2, degraded, sigma, range, start, "CHOLMOD");
  }

  template ResidualSearch choose_lambda_by_exact_discrepancy<float>(const std::vector<DeviceProblem<float> *> &,
                                                                    const std::vector<lab::Matrix<double>> &, double,
                                                                    const LambdaRange &, double);
  template ResidualSearch choose_lambda_by_exact_discrepancy<double>(const std::vector<DeviceProblem<double> *> &,
                                                                     const std::vector<lab::Matrix<double>> &, double,
                                                                     const LambdaRange &, double);
} // namespace step5
