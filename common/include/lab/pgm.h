#pragma once
/// @file
/// @brief Grayscale images in the PGM format and colour pictures in its sister PPM
/// (netpbm): what step-5 deblurs.
///
/// PGM is the simplest image format there is, which is why the course uses it: a short
/// text header, then the pixels. The header is the magic number (`P5`: the pixels in
/// binary; `P2`: "plain", the pixels as decimal numbers), the width, the height and
/// `maxval`, the value of white (1 to 65535), separated by whitespace, with comments
/// from `#` to the end of a line allowed between them. In P5, exactly one whitespace
/// character follows maxval, then the pixels row by row from the top, one byte each
/// when maxval < 256, else two bytes, the most significant first. In P2 the pixels are
/// decimal numbers separated by whitespace. Every pixel is at most maxval.
///
/// In memory an image is a lab::Matrix<double> with one row per image row (row 0 at
/// the top) and values in [0, 1] (pixel / maxval): 0 is black, 1 white, whatever the
/// file's maxval was.
///
/// PPM is the same format in colour: magic number `P6` (binary) or `P3` (plain), the
/// same header, then three samples per pixel, red, green and blue. A colour picture in
/// memory is a lab::Picture (lab/picture.h) of three such matrices.
/// @code
///   lab::Matrix<double> image = lab::read_pgm("photo.pgm");   // height × width
///   lab::write_pgm("out.pgm", image);                          // 16-bit P5
///   lab::Picture photo = lab::read_netpbm("photo.ppm");       // PGM or PPM
///   lab::write_netpbm("out.ppm", photo);                       // 16-bit P6
/// @endcode

#include <lab/matrix.h>
#include <lab/picture.h>

#include <string>

namespace lab
{
  /// Reads the P2 or P5 image in @p path. Throws lab::bad_input (lab/program.h) with one
  /// line naming the file when it cannot be opened, the magic number is not P2 or P5,
  /// the header is malformed (a missing or non-numeric field, a width or height of 0,
  /// maxval outside 1 ... 65535), the image is too large to hold (more than 2^28
  /// pixels), a pixel exceeds maxval or is not a number, or the file ends before the
  /// last pixel.
  Matrix<double> read_pgm(const std::string &path);

  /// Writes @p image (values clamped to [0, 1]) to @p path as a binary P5 file with
  /// @p bits = 16 (maxval 65535) or 8 (maxval 255) bits per pixel, each pixel rounded
  /// to the nearest level. Throws lab::bad_input when the file cannot be written, and
  /// std::invalid_argument for an empty image, a NaN pixel or another number of bits.
  void write_pgm(const std::string &path, const Matrix<double> &image, int bits = 16);

  /// Reads the PGM (P2, P5: one channel) or PPM (P3, P6: three channels) in @p path, and
  /// what it was (lab::PictureFile). Refuses what read_pgm refuses, with the same
  /// lines, and a magic number other than P2, P3, P5 or P6.
  Picture read_netpbm(const std::string &path);

  /// Writes @p picture as a binary PGM (P5, one channel) or PPM (P6, three channels)
  /// with @p bits = 16 or 8 bits per sample, rounded as lab::file_samples says. Throws
  /// lab::bad_input when the file cannot be written, and std::invalid_argument for
  /// what lab::file_samples refuses.
  void write_netpbm(const std::string &path, const Picture &picture, int bits = 16);
} // namespace lab
