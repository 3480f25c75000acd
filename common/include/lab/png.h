#pragma once
/// @file
/// @brief Grayscale images as PNG, for web pages and the course's docs.
///
/// PGM (lab/pgm.h) is the course's image format: simple, 16 bits deep, written and
/// read everywhere. Browsers do not show it, so step-5 also writes its images as PNG
/// where the build found libpng (optional, like LAPACKE): 8 bits of gray per pixel,
/// enough to look at, not to compute with.

#include <lab/matrix.h>

#include <string>

namespace lab
{
  /// Whether this build can write PNG files (libpng was found when it was configured).
  bool have_png();

  /// Writes @p image (values clamped to [0, 1], each rounded to the nearest of 256
  /// levels) to @p path as an 8-bit grayscale PNG. Throws lab::bad_input when the file
  /// cannot be written, std::invalid_argument for an empty image or a NaN pixel, and
  /// std::logic_error when have_png() is false.
  void write_png(const std::string &path, const Matrix<double> &image);
} // namespace lab
