#pragma once
// @sect3{λ for one image, as the program chooses it}
//
// The pieces are in model/ and methods/: the rules on the periodic model
// (lambda_choice.h), the noise's level estimated where nobody gave it
// (noise_estimate.h), --lambda's meaning (lambda_option.h), and the discrepancy
// principle on the exact equations (exact_lambda.h). Every image of the program,
// whether its blur is one PSF or a field, has its λ chosen the same way:
//  1. by the rule --lambda names on the periodic model, σ estimated first where the
//     discrepancy principle needs it and nobody knows it;
//  2. the discrepancy principle's choice is the start of the search on the exact
//     equations, which then decides: by CG with a GPU, by CHOLMOD without one (up to
//     cpu_exact_lambda_limit², in a build that has it); else the periodic choice
//     stands, and the output says why;
//  3. the output says each step in a line: the noise's level where it was estimated,
//     the periodic choice, the exact one, and a λ that ended at an end of the range
//     searched (a rule that found no answer inside it).
//
// A colour picture gets one λ for its three channels, not one each: its dense and band
// pipelines factorise HᵀH + λI once and solve the three channels as three right-hand
// sides (channels_together.h), which needs the same λ for all of them. Each channel's
// σ is known or estimated on its own and each has its periodic choice (a line each);
// the picture's start is their geometric mean, and the exact search then asks the
// discrepancy principle of the three together: the residuals' sum meets the sum of
// the channels' n σ_c². The channels of a photograph are alike (the same scene, the
// same blur, noise of about the same level): on the astronaut photograph their own
// choices lay within a factor 1.8 of one another at 128² and 1.3 at 256², and the
// picture restored with its one λ was as good as with each channel's own, 24.04 and
// 26.68 dB against 24.03 and 26.67 (the results page).

#include "methods/method_runs.h"
#include "model/lambda_option.h"
#include "model/psf.h"
#include "model/psf_field.h"

#include <lab/matrix.h>

#include <optional>
#include <string>
#include <vector>

namespace step5
{
  // The largest side at which the CPU searches λ on the exact equations: CHOLMOD
  // factorises a 256² image in about a second, and the search takes four to six.
  constexpr int cpu_exact_lambda_limit = 256;

  // λ for @p degraded as --lambda (@p lambda) asks, in precision T. @p field is the
  // blur (one PSF as constant_field's, sampled for the image), @p periodic_psf the one
  // PSF the periodic rules use (a field's mean, named by @p periodic_note, e.g. " (the
  // field's mean PSF)"); @p degraded holds the picture's channels (one, or red, green
  // and blue), @p sigmas each one's noise level, none where it is not known;
  // @p problems each channel's problem on the device (one PSF or the field), empty
  // without a GPU. Prints the lines above.
  template <typename T>
  ImageLambda choose_picture_lambda(const std::string &lambda, const SampledField &field, const Psf &periodic_psf,
                                    const std::vector<lab::Matrix<double>> &degraded,
                                    const std::vector<std::optional<double>> &sigmas,
                                    const std::vector<DeviceProblem<T> *> &problems,
                                    const std::string &periodic_note = "");

  // The same for a grey image: @p problem null without a GPU.
  template <typename T>
  ImageLambda choose_image_lambda(const std::string &lambda, const SampledField &field, const Psf &periodic_psf,
                                  const lab::Matrix<double> &degraded, std::optional<double> sigma,
                                  DeviceProblem<T> *problem, const std::string &periodic_note = "")
  {
    std::vector<DeviceProblem<T> *> problems;
    if (problem != nullptr)
      problems.push_back(problem);
    return choose_picture_lambda<T>(lambda, field, periodic_psf, {degraded}, {sigma}, problems, periodic_note);
  }
} // namespace step5
