#pragma once
/// @file
/// @brief Pictures in grey or colour, read from PNG, PGM or PPM: what a user brings to
/// step-5.
///
/// A grey image is a lab::Matrix<double> (lab/pgm.h): one row per image row, row 0 at
/// the top, values in [0, 1]. A colour picture is three of them, red, green and blue,
/// and step-5 restores each channel as a grey image of its own. lab::Picture holds one
/// or three channels and says what the file was, so that a program can tell the user
/// what it read ("16-bit RGBA PNG (alpha dropped)") before it works on it.
///
/// **Grey or colour is decided by how the file stores its pixels, not by their
/// values.** A grey file (PGM, a PNG of colour type grey or grey + alpha) gives one
/// channel; a colour file (PPM, a PNG of colour type RGB, RGBA or palette) gives three,
/// even when the three happen to be equal everywhere: a photograph saved as RGB stays
/// RGB, and the user gets back the kind of file they gave. (A palette PNG counts as
/// colour because its palette holds RGB colours; a palette of greys still gives three
/// equal channels.)
///
/// **A value is a sample divided by the largest sample the file can hold**: by 255 in
/// an 8-bit file, by 65535 in a 16-bit one, by 2^b − 1 in a PNG of b bits and by
/// maxval in a PGM or PPM. So 0 is black and 1 full intensity whatever the file's
/// depth, and the values are the file's numbers, without any gamma correction (the
/// gamma, sRGB and colour-profile chunks a PNG may carry are ignored): the course
/// restores the numbers the camera stored, as it does for a PGM.
/// @code
///   lab::Picture photo = lab::read_picture("photo.png");   // PNG, PGM or PPM
///   std::cout << photo.file.describe() << "\n";            // "8-bit RGB PNG"
///   for (lab::Matrix<double> &channel : photo.channels)
///     restore(channel);
///   lab::write_png("restored.png", photo, 16);              // no precision lost
/// @endcode

#include <lab/matrix.h>

#include <string>
#include <vector>

namespace lab
{
  /// The most pixels an image file may have for the course to read it: 2^28 (16384 ×
  /// 16384, twenty times a 12-megapixel photograph). In double, one channel of that size
  /// takes 2 GiB and a colour picture 6 GiB: more than any method of the course
  /// restores, so a larger file is refused before memory is spent on it. (The limit
  /// also keeps every pixel index far below 2^31, where the `int` rows and columns of
  /// lab::Matrix would overflow.) Any width and height whose product is within the limit
  /// are taken.
  constexpr long most_picture_pixels = long(1) << 28;

  /// What an image file held, as it was stored: the line a program prints about its
  /// input, and what the user should get back.
  struct PictureFile
  {
    /// "PNG", "PGM" or "PPM".
    std::string format;
    /// Bits per sample in the file: 1, 2, 4, 8 or 16 for a PNG (for a palette PNG, the
    /// bits of a palette index); for a PGM or PPM the bits its maxval needs (8 for 255,
    /// 16 for 65535, 10 for 1000).
    int bits = 0;
    /// The colour type as stored: "grey", "grey+alpha", "RGB", "RGBA" or "palette".
    std::string colours;
    /// Whether the file had transparency (an alpha channel, or a PNG tRNS chunk), which
    /// reading dropped.
    bool alpha = false;

    /// One phrase, e.g. "8-bit grey PGM" or "16-bit RGBA PNG (alpha dropped)".
    std::string describe() const;
  };

  /// A grey or colour picture: one channel (grey) or three (red, green, blue), all of
  /// the same size, values in [0, 1] (see the file's comment), row 0 at the top.
  struct Picture
  {
    /// The channels: one or three matrices of the same size.
    std::vector<Matrix<double>> channels;
    /// What the picture was read from (empty for a picture the program made itself;
    /// the writers do not use it).
    PictureFile file;

    /// Rows (the image's height); 0 for a picture without channels.
    int rows() const { return channels.empty() ? 0 : channels.front().rows(); }
    /// Columns (the image's width); 0 for a picture without channels.
    int cols() const { return channels.empty() ? 0 : channels.front().cols(); }
    /// True for three channels (red, green, blue), false for one (grey).
    bool is_colour() const { return channels.size() == 3; }
  };

  /// Reads the picture in @p path, choosing the reader by the file's first bytes (not
  /// by its name): the PNG signature → lab::read_png, P2 or P5 → a grey PGM, P3 or P6 →
  /// a colour PPM (lab::read_netpbm). Throws lab::bad_input with one line naming the
  /// file when it cannot be opened, is empty, starts like none of these formats, or
  /// when the reader refuses it (each reader's comment lists why).
  Picture read_picture(const std::string &path);

  /// The samples of @p picture as a PNG or a binary PGM/PPM stores them: row by row from
  /// the top, the channels of a pixel side by side (red, green, blue), each value clamped
  /// to [0, 1] and rounded to the nearest of the 2^@p bits levels, a 16-bit sample with
  /// its most significant byte first. The writers of both formats use it. Throws
  /// std::invalid_argument, starting with @p who, for @p bits other than 8 or 16, a
  /// picture without pixels, a number of channels other than 1 or 3, channels of
  /// different sizes, or a NaN value (naming its pixel).
  std::vector<unsigned char> file_samples(const Picture &picture, int bits, const std::string &who);
} // namespace lab
