// Choosing λ for an image (see lambda_option.h).
#include "model/lambda_option.h"

#include "model/noise_estimate.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace step5
{
  bool is_lambda_rule(const std::string &text) { return text == "auto" || text == "gcv" || text == "discrepancy"; }

  std::string lambda_text(const std::string &lambda)
  {
    return lambda == "auto" ? "auto (per image: the discrepancy principle with the noise's level, estimated from the "
                              "image where it is not known; GCV where there is no noise)"
                            : lambda;
  }

  double lambda_number(const std::string &text)
  {
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    const bool whole = !text.empty() && end == text.c_str() + text.size();
    return whole && std::isfinite(value) && value >= 0 ? value : std::numeric_limits<double>::quiet_NaN();
  }

  std::string resolved_lambda_rule(const std::string &lambda, std::optional<double> sigma)
  {
    return lambda != "auto" ? lambda : sigma && *sigma == 0 ? "gcv" : "discrepancy";
  }

  namespace
  {
    // σ where it is known, else estimated from the image, with the words that say
    // which.
    std::pair<double, std::string> noise_for_discrepancy(const lab::Matrix<double> &degraded,
                                                         std::optional<double> sigma)
    {
      if (sigma)
        return {*sigma, ""};
      const NoiseEstimate estimate = estimate_noise_level(degraded);
      char text[200];
      std::snprintf(text, sizeof text,
                    "sigma %.3g estimated from the image (median |second differences| / 0.6745 over %ld pixels%s)",
                    estimate.sigma, estimate.pixels, estimate.clipped_left_out ? ", clipped ones left out" : "");
      return {estimate.sigma, text};
    }
  } // namespace

  ImageLambda choose_lambda(const std::string &lambda, const Psf &psf, const lab::Matrix<double> &degraded,
                            std::optional<double> sigma, double unit_roundoff)
  {
    const LambdaRange range = lambda_range(psf, unit_roundoff);
    const std::string rule = resolved_lambda_rule(lambda, sigma);
    if (rule == "gcv")
      {
        const LambdaChoice choice = choose_lambda_by_gcv(psf, degraded, range);
        return {choice.lambda, "by GCV", choice.how, choice.range_end, 0, ""};
      }
    if (rule == "discrepancy")
      {
        const auto [level, noise] = noise_for_discrepancy(degraded, sigma);
        // An image without a trace of noise (a blur computed and stored in double)
        // gives σ̂ = 0, and no λ can make the residual that small: the smallest.
        if (level == 0)
          return {range.smallest, "by the discrepancy principle", "no noise found in the image",
                  "sigma is 0: the smallest lambda", 0, noise};
        const LambdaChoice choice = choose_lambda_by_discrepancy(psf, degraded, level, range);
        return {choice.lambda, "by the discrepancy principle", choice.how, choice.range_end, level, noise};
      }
    return {lambda_number(lambda), "from --lambda", "given by --lambda", "", 0, ""};
  }
} // namespace step5
