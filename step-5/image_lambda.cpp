// λ for one image, as the program chooses it (see image_lambda.h).
#include "image_lambda.h"

#include "methods/exact_lambda.h"
#include "methods/sparse_cholesky.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace step5
{
  namespace
  {
    // The channels' names in the output: none for a grey image.
    std::string channel_label(std::size_t c, std::size_t channels)
    {
      static const char *const colours[] = {"red", "green", "blue"};
      return channels == 1 ? "" : std::string(" (") + (c < 3 ? colours[c] : std::to_string(c)) + ")";
    }

    // One λ for the picture from its channels' periodic choices: theirs where they
    // agree (a grey image, or --lambda a number), else their geometric mean, with σ the
    // channels' RMS level (the level whose n σ² over all channels is the sum of theirs).
    ImageLambda picture_choice(const std::vector<ImageLambda> &each)
    {
      ImageLambda chosen = each.front();
      bool alike = true;
      double log_sum = 0, sigma2 = 0;
      for (const ImageLambda &c : each)
        {
          alike = alike && c.lambda == chosen.lambda;
          log_sum += std::log(c.lambda);
          sigma2 += c.sigma * c.sigma;
        }
      chosen.sigma = std::sqrt(sigma2 / double(each.size()));
      if (alike)
        return chosen;
      chosen.lambda = std::exp(log_sum / double(each.size()));
      chosen.detail = "one for the " + std::to_string(each.size()) + " channels: the geometric mean of their choices";
      chosen.range_end.clear();
      return chosen;
    }
  } // namespace

  template <typename T>
  ImageLambda choose_picture_lambda(const std::string &lambda, const SampledField &field, const Psf &periodic_psf,
                                    const std::vector<lab::Matrix<double>> &degraded,
                                    const std::vector<std::optional<double>> &sigmas,
                                    const std::vector<DeviceProblem<T> *> &problems,
                                    const std::string &periodic_note)
  {
    std::vector<ImageLambda> each;
    for (std::size_t c = 0; c < degraded.size(); ++c)
      {
        each.push_back(choose_lambda<T>(lambda, periodic_psf, degraded[c], sigmas[c]));
        const ImageLambda &choice = each.back();
        const std::string name = channel_label(c, degraded.size());
        if (!choice.noise.empty())
          std::printf("    noise%s: %s\n", name.c_str(), choice.noise.c_str());
        std::printf("    lambda%s %g: %s%s\n", name.c_str(), choice.lambda, choice.detail.c_str(), periodic_note.c_str());
      }
    ImageLambda chosen = picture_choice(each);
    if (degraded.size() > 1 && chosen.lambda != each.front().lambda)
      std::printf("    lambda %g: %s\n", chosen.lambda, chosen.detail.c_str());
    if (resolved_lambda_rule(lambda, sigmas.front()) == "discrepancy" && chosen.sigma > 0)
      {
        const LambdaRange range = lambda_range(periodic_psf, std::numeric_limits<T>::epsilon() / 2);
        const int side = std::max(degraded.front().rows(), degraded.front().cols());
        const bool cpu_can = have_cholmod() && side <= cpu_exact_lambda_limit;
        if (problems.empty() && !cpu_can)
          std::printf("    the periodic choice stands: no GPU, and %s for the exact equations\n",
                      have_cholmod() ? "the image is too large for CHOLMOD's search" : "no CHOLMOD");
        else
          {
            const ResidualSearch exact =
              !problems.empty()
                ? choose_lambda_by_exact_discrepancy<T>(problems, degraded, chosen.sigma, range, chosen.lambda)
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

  template ImageLambda choose_picture_lambda<float>(const std::string &, const SampledField &, const Psf &,
                                                    const std::vector<lab::Matrix<double>> &,
                                                    const std::vector<std::optional<double>> &,
                                                    const std::vector<DeviceProblem<float> *> &, const std::string &);
  template ImageLambda choose_picture_lambda<double>(const std::string &, const SampledField &, const Psf &,
                                                     const std::vector<lab::Matrix<double>> &,
                                                     const std::vector<std::optional<double>> &,
                                                     const std::vector<DeviceProblem<double> *> &, const std::string &);
} // namespace step5
