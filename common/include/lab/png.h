#pragma once
/// @file
/// @brief PNG in and out, grey and colour, through libpng: the format of the
/// photographs users bring, and of the pictures on the course's web pages.
///
/// PGM (lab/pgm.h) is the course's own image format: simple, 16 bits deep, written and
/// read everywhere. But browsers do not show it, and a photograph a user brings is
/// usually a PNG. PNG is not simple: five colour types (grey, grey + alpha, RGB, RGBA
/// and palette), depths from 1 to 16 bits, an optional transparency chunk (tRNS),
/// interlacing, and every chunk protected by a CRC and the pixels compressed by zlib.
/// The course reads and writes it through libpng, found when the build was configured
/// (optional, like LAPACKE: see have_png()).
///
/// How a PNG becomes a lab::Picture (lab/picture.h):
///  - grey and grey + alpha give one channel; RGB, RGBA and palette give three;
///  - a sample s of a b-bit file becomes s / (2^b − 1): exactly the file's number, 0 for
///    black and 1 for full intensity, without gamma correction;
///  - a palette index becomes its palette colour (8 bits per channel, so / 255);
///  - **alpha is dropped**: an alpha channel, or the transparency a tRNS chunk gives to
///    a palette entry or a grey or RGB value, is ignored, and each pixel keeps the colour
///    stored under it (a fully transparent pixel's colour is whatever the program that
///    saved it left there, often black). lab::PictureFile::alpha says the file had some.
///    Deblurring restores what the camera saw; transparency is not part of it.
///
/// A damaged file is refused, never half read: libpng checks every chunk's CRC (the
/// course makes an error of a bad CRC in any chunk, also the optional ones libpng would
/// skip with a warning), the zlib stream of the pixels, and that the file does not end
/// before its last chunk.
/// @code
///   lab::Picture photo = lab::read_png("photo.png");
///   lab::write_png("look.png", photo);          // 8 bits per sample: for the eye
///   lab::write_png("keep.png", photo, 16);      // 16 bits: for computing with
/// @endcode

#include <lab/matrix.h>
#include <lab/picture.h>

#include <string>

namespace lab
{
  /// Whether this build can read and write PNG files (libpng was found when it was
  /// configured).
  bool have_png();

  /// Reads the PNG in @p path, of any colour type and depth, interlaced or not, as the
  /// file's comment says. Throws lab::bad_input with one line naming the file and the
  /// reason when this build has no libpng, the file cannot be opened, does not start
  /// with the PNG signature, ends early (truncated), is damaged (libpng's reason: a bad
  /// CRC, corrupt compressed data, an invalid header such as a width or height of 0),
  /// or has more than lab::most_picture_pixels pixels (said before any pixel is read).
  Picture read_png(const std::string &path);

  /// Writes @p picture to @p path as a grey (one channel) or RGB (three channels) PNG
  /// with @p bits = 8 or 16 bits per sample, each value rounded as lab::file_samples
  /// says. 8 bits are enough to look at; 16 bits keep a restoration to 1/65535, as the
  /// 16-bit PGM does. No gamma chunk is written: the samples are the values, as read_png
  /// takes them. Throws lab::bad_input when the file cannot be written (a plain file
  /// that was begun is removed), std::invalid_argument for what lab::file_samples refuses, and
  /// std::logic_error when have_png() is false.
  void write_png(const std::string &path, const Picture &picture, int bits = 8);

  /// Writes the grey @p image as an 8-bit grey PNG: write_png(path, a picture of one
  /// channel, 8), for the images step-5 writes for its pages.
  void write_png(const std::string &path, const Matrix<double> &image);
} // namespace lab
