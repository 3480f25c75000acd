// λ from the field's own equations (see field_lambda.h).
#include "methods/field_lambda.h"

#include "gpu/blur_gpu.h"
#include "methods/conjugate_gradients.h"
#include "methods/restoration.h"

#include <lab/format.h>
#include <lab/image_quality.h>
#include <lab/timer.h>

#include <string>

namespace step5
{
  // Every trial λ is one CG solve from f = 0 into the problem's f and one blur of it
  // into f_inverse, whose distance from g is measured on the host in double.
  template <typename T>
  ResidualSearch choose_field_lambda_by_discrepancy(DeviceProblem<T> &problem, const lab::Matrix<double> &degraded,
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
    lab::HostTimer timer;
    timer.start();
    ResidualSearch search = find_lambda_where_residual_meets(
      residual_norm2, static_cast<double>(degraded.size()) * sigma * sigma, range, start);
    search.how = "discrepancy principle (the field's own equations, CG): ||H f - g||^2 = n sigma^2 with sigma = " +
                 lab::format_or_dash(sigma, "%.3g") + " " + search.how + " (" +
                 lab::format_milliseconds(timer.milliseconds()) + " ms)";
    return search;
  }

  template ResidualSearch choose_field_lambda_by_discrepancy<float>(DeviceProblem<float> &,
                                                                    const lab::Matrix<double> &, double,
                                                                    const LambdaRange &, double);
  template ResidualSearch choose_field_lambda_by_discrepancy<double>(DeviceProblem<double> &,
                                                                     const lab::Matrix<double> &, double,
                                                                     const LambdaRange &, double);
} // namespace step5
