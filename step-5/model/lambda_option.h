#pragma once
// @sect3{Choosing λ for an image}
//
// --lambda is a number, used as it is, or a rule that chooses λ for each degraded
// image (lambda_choice.h): "gcv", which needs nothing else, or "discrepancy", which
// needs the noise's level σ. Where this program made the noise it knows σ exactly:
// the RMS of what it added. For an image degraded elsewhere, --noise gaussian:SIGMA
// says what it was.
//
// The default, "auto", takes the discrepancy principle wherever σ is known and GCV
// where it is not (an image degraded elsewhere, its noise not stated; or no noise at
// all). A fixed λ, such as the thesis' 10⁻³, suits one size of one image: on the
// phantom it gains 0.07 dB at 256² and loses 2.3 dB at 512² and 4.6 dB at 1024², where
// the phantom's shapes are many pixels wide, the blur hardly touches them, and what a
// small λ lets through is mostly noise. A rule looks at each image.

#include "model/lambda_choice.h"
#include "model/psf.h"

#include <lab/matrix.h>

#include <limits>
#include <string>

namespace step5
{
  // Whether @p text names a rule: auto, gcv or discrepancy.
  bool is_lambda_rule(const std::string &text);

  // --lambda as the header of the output and of the tables states it.
  std::string lambda_text(const std::string &lambda);

  // The number of a --lambda that is not a rule, or NaN when the text is not one.
  double lambda_number(const std::string &text);

  // The rule --lambda asks for an image whose noise level is @p sigma (0: not known):
  // "gcv", "discrepancy", or the number itself.
  std::string resolved_lambda_rule(const std::string &lambda, double sigma);

  // The λ of one image, with the rule's name for the line that closes the image's
  // report (report.h) and its own account of the choice for the line before.
  struct ImageLambda
  {
    double lambda;
    std::string rule;   // "by the discrepancy principle", "by GCV", "from --lambda"
    std::string detail; // lambda_choice.h's text, or "given by --lambda"
  };

  // λ as --lambda asks, for solves of unit roundoff @p unit_roundoff (the floor of the
  // range the rules search, lambda_choice.h); @p sigma is the noise's level, 0 where
  // it is not known.
  ImageLambda choose_lambda(const std::string &lambda, const Psf &psf, const lab::Matrix<double> &degraded,
                            double sigma, double unit_roundoff);

  // The same for solves in precision @p T.
  template <typename T>
  ImageLambda choose_lambda(const std::string &lambda, const Psf &psf, const lab::Matrix<double> &degraded,
                            double sigma)
  {
    return choose_lambda(lambda, psf, degraded, sigma, std::numeric_limits<T>::epsilon() / 2);
  }
} // namespace step5
