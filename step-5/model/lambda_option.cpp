// Choosing λ for an image (see lambda_option.h).
#include "model/lambda_option.h"

#include <cmath>
#include <cstdlib>

namespace step5
{
  bool is_lambda_rule(const std::string &text) { return text == "auto" || text == "gcv" || text == "discrepancy"; }

  std::string lambda_text(const std::string &lambda)
  {
    return lambda == "auto" ? "auto (per image: the discrepancy principle where the noise's level is known, else GCV)"
                            : lambda;
  }

  double lambda_number(const std::string &text)
  {
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    const bool whole = !text.empty() && end == text.c_str() + text.size();
    return whole && std::isfinite(value) && value >= 0 ? value : std::numeric_limits<double>::quiet_NaN();
  }

  std::string resolved_lambda_rule(const std::string &lambda, double sigma)
  {
    return lambda != "auto" ? lambda : sigma > 0 ? "discrepancy" : "gcv";
  }

  ImageLambda choose_lambda(const std::string &lambda, const Psf &psf, const lab::Matrix<double> &degraded,
                            double sigma, double unit_roundoff)
  {
    const LambdaRange range = lambda_range(psf, unit_roundoff);
    const std::string rule = resolved_lambda_rule(lambda, sigma);
    if (rule == "gcv")
      {
        const LambdaChoice choice = choose_lambda_by_gcv(psf, degraded, range);
        return {choice.lambda, "by GCV", choice.how};
      }
    if (rule == "discrepancy")
      {
        const LambdaChoice choice = choose_lambda_by_discrepancy(psf, degraded, sigma, range);
        return {choice.lambda, "by the discrepancy principle", choice.how};
      }
    return {lambda_number(lambda), "from --lambda", "given by --lambda"};
  }
} // namespace step5
