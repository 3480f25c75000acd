#pragma once
/// @file
/// @brief Test images and the ways step-5 degrades them, from fixed seeds.
///
/// An image is a lab::Matrix<double>, one row per image row (row 0 at the top), values
/// in [0, 1] (0 black, 1 white), as lab/pgm.h reads and writes them.

#include <lab/matrix.h>

#include <cstdint>

namespace lab
{
  /// The Shepp–Logan phantom of @p size × @p size pixels, in the modified form with
  /// better contrast (Toft, 1996): ten ellipses, each adding its intensity inside it, a
  /// large bright head (1), a darker brain (0.2), and small features down to 2.3 % of
  /// the width, some of which a blur erases. The ellipses are given in coordinates
  /// x, y in [-1, 1] (x to the right, y up); pixel (r, c) is sampled at its centre,
  /// x = (2c + 1 − size)/size, y = (size − 2r − 1)/size. The standard test image of
  /// tomography and deblurring: sharp edges, flat regions, no file needed.
  Matrix<double> shepp_logan(int size);

  /// @p image plus Gaussian noise of standard deviation @p sigma, independent per
  /// pixel. Not clamped to [0, 1]: the degraded image g = H f + n of the model, as a
  /// camera's values would be before they are stored.
  Matrix<double> add_gaussian_noise(const Matrix<double> &image, double sigma, std::uint64_t seed);

  /// @p image with salt-and-pepper noise: each pixel, with probability @p density, set
  /// to 0 or to 1 (equally likely), the rest unchanged.
  Matrix<double> add_salt_and_pepper(const Matrix<double> &image, double density, std::uint64_t seed);
} // namespace lab
