// Degrading an image (see noise.h).
#include "model/noise.h"

#include "model/blur_model.h"

#include <lab/image_quality.h>
#include <lab/program.h>
#include <lab/test_images.h>

#include <cmath>
#include <stdexcept>

namespace step5
{
  Noise parse_noise(const std::string &text)
  {
    const std::string forms = "none, gaussian:SIGMA (SIGMA >= 0) or salt-and-pepper:DENSITY (0 <= DENSITY <= 1)";
    if (text == "none")
      return {};
    const std::size_t colon = text.find(':');
    Noise noise;
    noise.kind = text.substr(0, colon);
    try
      {
        std::size_t used = 0;
        const std::string number = colon == std::string::npos ? "" : text.substr(colon + 1);
        noise.amount = std::stod(number, &used);
        if (used != number.size())
          throw std::invalid_argument(number);
      }
    catch (const std::logic_error &)
      {
        throw lab::bad_input("--noise: '" + text + "' is not one of " + forms);
      }
    const bool valid = std::isfinite(noise.amount) && ((noise.kind == "gaussian" && noise.amount >= 0) ||
                                                       (noise.kind == "salt-and-pepper" && noise.amount >= 0 &&
                                                        noise.amount <= 1));
    if (!valid)
      throw lab::bad_input("--noise: '" + text + "' is not one of " + forms);
    return noise;
  }

  lab::Matrix<double> degrade(const lab::Matrix<double> &original, const Psf &psf, const Noise &noise,
                              std::uint64_t seed)
  {
    return add_noise(blur(psf, original), noise, seed);
  }

  lab::Matrix<double> add_noise(const lab::Matrix<double> &blurred, const Noise &noise, std::uint64_t seed)
  {
    if (noise.kind == "gaussian")
      return lab::add_gaussian_noise(blurred, noise.amount, seed);
    if (noise.kind == "salt-and-pepper")
      return lab::add_salt_and_pepper(blurred, noise.amount, seed);
    return blurred;
  }

  double noise_level(const Psf &psf, const lab::Matrix<double> &original, const lab::Matrix<double> &degraded)
  {
    return noise_level(blur(psf, original), degraded);
  }

  double noise_level(const lab::Matrix<double> &blurred, const lab::Matrix<double> &degraded)
  {
    return std::sqrt(lab::mean_squared_error(blurred, degraded));
  }
} // namespace step5
