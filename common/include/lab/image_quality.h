#pragma once
/// @file
/// @brief How close a restored image is to the original: MSE and PSNR.
///
/// For images with values in [0, 1] (peak value 1):
/// @f[ \mathrm{MSE} = \frac{1}{N}\sum_i (a_i - b_i)^2, \qquad
///     \mathrm{PSNR} = 10 \log_{10} \frac{1}{\mathrm{MSE}} \ \mathrm{dB}. @f]
/// PSNR grows by 10 dB for every factor 10 in MSE; two identical images have MSE 0
/// and an infinite PSNR. 20 dB is a visibly poor image, 30 to 40 dB a good one.

#include <lab/matrix.h>

namespace lab
{
  /// The mean squared difference of two images of the same size (std::invalid_argument
  /// for different sizes or empty images).
  double mean_squared_error(const Matrix<double> &a, const Matrix<double> &b);

  /// The peak signal-to-noise ratio in dB for peak value 1; +infinity for identical
  /// images.
  double psnr(const Matrix<double> &a, const Matrix<double> &b);
} // namespace lab
