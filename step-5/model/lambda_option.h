#pragma once
// @sect3{Choosing λ for an image}
//
// --lambda is a number, used as it is, or a rule that chooses λ for each degraded
// image (lambda_choice.h): "discrepancy", which needs the noise's level σ, or "gcv",
// which needs nothing else. Where this program made the noise it knows σ exactly:
// the RMS of what it added. For an image degraded elsewhere, --noise gaussian:SIGMA
// says what it was; without it σ is estimated from the image itself
// (noise_estimate.h), and the output says so with the value.
//
// The default, "auto", is the discrepancy principle with σ known or estimated; GCV
// only where the program knows there is no noise at all (--noise none), since the
// discrepancy principle then has nothing to measure. GCV is no longer the default for
// images degraded elsewhere: on the camera photograph blurred with a zero boundary it
// chose λ = 2.4·10⁻⁴ to 9.1·10⁻⁴ and handed back images 1.4 to 4.1 dB *worse* than
// it was given, where the discrepancy principle with the estimated σ gains 4 to 6 dB
// (the results page). GCV's known weaknesses are these: it assumes the errors
// independent from pixel to pixel, and anything else in them (the rim a zero boundary
// leaves, the rounding to a file's levels, a slightly wrong PSF) looks to it like
// detail to keep, so it tends to a λ too small; and its G is often flat over decades,
// so that a small change in the data moves its minimum far. It needs no σ, and stays
// an explicit choice (--lambda gcv), computed on the image without its rim.
//
// A fixed λ, such as the thesis' 10⁻³, suits one size of one image: on the phantom it
// gains 0.07 dB at 256² and loses 2.3 dB at 512² and 4.6 dB at 1024², where the
// phantom's shapes are many pixels wide, the blur hardly touches them, and what a
// small λ lets through is mostly noise. A rule looks at each image.

#include "model/lambda_choice.h"
#include "model/psf.h"

#include <lab/matrix.h>

#include <limits>
#include <optional>
#include <string>

namespace step5
{
  // Whether @p text names a rule: auto, gcv or discrepancy.
  bool is_lambda_rule(const std::string &text);

  // --lambda as the header of the output and of the tables states it.
  std::string lambda_text(const std::string &lambda);

  // The number of a --lambda that is not a rule, or NaN when the text is not one.
  double lambda_number(const std::string &text);

  // The rule --lambda asks for an image whose noise level is @p sigma (none: not
  // known, to be estimated): "gcv", "discrepancy", or the number itself.
  std::string resolved_lambda_rule(const std::string &lambda, std::optional<double> sigma);

  // The λ of one image, with the rule's name for the line that closes the image's
  // report (report.h) and its own account of the choice for the line before.
  struct ImageLambda
  {
    double lambda;
    std::string rule;      // "by the discrepancy principle", "by GCV", "from --lambda"
    std::string detail;    // lambda_choice.h's text, or "given by --lambda"
    std::string range_end; // empty, or why λ is an end of the range searched
    double sigma = 0;      // the σ the discrepancy principle used (known or estimated); 0 for the others
    std::string noise;     // how σ was known: "estimated from the image: ...", or empty
  };

  // λ as --lambda asks, for solves of unit roundoff @p unit_roundoff (the floor of the
  // range the rules search, lambda_choice.h); @p sigma is the noise's level, none
  // where it is not known (then estimated from @p degraded when a rule needs it).
  ImageLambda choose_lambda(const std::string &lambda, const Psf &psf, const lab::Matrix<double> &degraded,
                            std::optional<double> sigma, double unit_roundoff);

  // The same for solves in precision @p T.
  template <typename T>
  ImageLambda choose_lambda(const std::string &lambda, const Psf &psf, const lab::Matrix<double> &degraded,
                            std::optional<double> sigma)
  {
    return choose_lambda(lambda, psf, degraded, sigma, std::numeric_limits<T>::epsilon() / 2);
  }
} // namespace step5
