// λ for one image, as the program chooses it (see image_lambda.h).
#include "image_lambda.h"

#include "methods/exact_lambda.h"
#include "methods/sparse_cholesky.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace step5
{
  template <typename T>
  ImageLambda choose_image_lambda(const std::string &lambda, const SampledField &field, const Psf &periodic_psf,
                                  const lab::Matrix<double> &degraded, std::optional<double> sigma,
                                  DeviceProblem<T> *problem, const std::string &periodic_note)
  {
    ImageLambda chosen = choose_lambda<T>(lambda, periodic_psf, degraded, sigma);
    if (!chosen.noise.empty())
      std::printf("    noise: %s\n", chosen.noise.c_str());
    std::printf("    lambda %g: %s%s\n", chosen.lambda, chosen.detail.c_str(), periodic_note.c_str());
    if (resolved_lambda_rule(lambda, sigma) == "discrepancy" && chosen.sigma > 0)
      {
        const LambdaRange range = lambda_range(periodic_psf, std::numeric_limits<T>::epsilon() / 2);
        const bool cpu_can = have_cholmod() && std::max(degraded.rows(), degraded.cols()) <= cpu_exact_lambda_limit;
        if (problem == nullptr && !cpu_can)
          std::printf("    the periodic choice stands: no GPU, and %s for the exact equations\n",
                      have_cholmod() ? "the image is too large for CHOLMOD's search" : "no CHOLMOD");
        else
          {
            const ResidualSearch exact =
              problem != nullptr
                ? choose_lambda_by_exact_discrepancy<T>(*problem, degraded, chosen.sigma, range, chosen.lambda)
                : choose_lambda_by_exact_discrepancy_on_cpu(field, degraded, chosen.sigma, range, chosen.lambda);
            std::printf("    lambda %g: %s\n", exact.lambda, exact.how.c_str());
            chosen.lambda = exact.lambda;
            chosen.detail = exact.how;
            chosen.range_end = exact.range_end;
          }
      }
    if (!chosen.range_end.empty())
      std::printf("    lambda %g is an end of the range searched: %s\n", chosen.lambda, chosen.range_end.c_str());
    return chosen;
  }

  template ImageLambda choose_image_lambda<float>(const std::string &, const SampledField &, const Psf &,
                                                  const lab::Matrix<double> &, std::optional<double>,
                                                  DeviceProblem<float> *, const std::string &);
  template ImageLambda choose_image_lambda<double>(const std::string &, const SampledField &, const Psf &,
                                                   const lab::Matrix<double> &, std::optional<double>,
                                                   DeviceProblem<double> *, const std::string &);
} // namespace step5
