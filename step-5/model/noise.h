#pragma once
// @sect3{Degrading an image}
//
// The program makes its own degraded images: g = H f + noise, the blur of
// blur_model.h and then the noise --noise asks for: "none", "gaussian:SIGMA"
// (standard deviation, in units of the full brightness range) or
// "salt-and-pepper:DENSITY" (the fraction of pixels set to 0 or 1).

#include "model/psf.h"

#include <lab/matrix.h>

#include <cstdint>
#include <string>

namespace step5
{
  struct Noise
  {
    std::string kind = "none";
    double amount = 0;
  };

  // The noise a --noise argument names; anything else is refused (lab::bad_input).
  Noise parse_noise(const std::string &text);

  // H f and the noise, drawn with @p seed.
  lab::Matrix<double> degrade(const lab::Matrix<double> &original, const Psf &psf, const Noise &noise,
                              std::uint64_t seed);

  // The root mean square of the noise in @p degraded: what is left after the blur.
  double noise_level(const Psf &psf, const lab::Matrix<double> &original, const lab::Matrix<double> &degraded);

  // The same two for a blur that is given already blurred (a PSF field's,
  // varying_blur.h): the noise added to @p blurred, and its level.
  lab::Matrix<double> add_noise(const lab::Matrix<double> &blurred, const Noise &noise, std::uint64_t seed);
  double noise_level(const lab::Matrix<double> &blurred, const lab::Matrix<double> &degraded);
} // namespace step5
