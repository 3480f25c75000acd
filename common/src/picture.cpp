#include <lab/pgm.h>
#include <lab/picture.h>
#include <lab/png.h>
#include <lab/program.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace lab
{
  std::string PictureFile::describe() const
  {
    if (format.empty())
      return "a picture not read from a file";
    return std::to_string(bits) + "-bit " + colours + " " + format + (alpha ? " (alpha dropped)" : "");
  }

  // A file's name can lie ("photo.png" saved as a PGM by a careless script), its first
  // bytes cannot: every PNG begins with the same eight-byte signature, whose first byte,
  // 0x89, is not a letter, and every netpbm file with the letter P and a digit. So the
  // first bytes choose the reader, and a file that starts like none of them is refused
  // with those bytes shown, which often say what it is ("GIF8", "\xff\xd8" for a JPEG).
  Picture read_picture(const std::string &path)
  {
    std::ifstream file(path, std::ios::binary);
    if (!file)
      throw bad_input(path + ": cannot open the file");
    unsigned char start[4] = {};
    file.read(reinterpret_cast<char *>(start), sizeof start);
    const std::streamsize got = file.gcount();
    if (got == 0)
      throw bad_input(path + ": the file is empty");
    if (start[0] == 0x89)
      return read_png(path);
    if (got >= 2 && start[0] == 'P' && std::string("2356").find(char(start[1])) != std::string::npos)
      return read_netpbm(path);
    std::string bytes;
    for (std::streamsize i = 0; i < got; ++i)
      {
        char hex[4];
        std::snprintf(hex, sizeof hex, " %02x", start[i]);
        bytes += hex;
      }
    throw bad_input(path + ": not a PNG, PGM or PPM file (it starts with the bytes" + bytes + ")");
  }

  // PNG and binary PGM/PPM store samples the same way: row by row from the top, the
  // channels of a pixel together, 16-bit samples big-endian (the most significant byte
  // first, "network order"). So one function makes the bytes for both writers, and a
  // value is rounded to a level in one place only.
  std::vector<unsigned char> file_samples(const Picture &picture, int bits, const std::string &who)
  {
    if (bits != 8 && bits != 16)
      throw std::invalid_argument(who + ": 8 or 16 bits per sample, not " + std::to_string(bits));
    const std::size_t channels = picture.channels.size();
    if (channels != 1 && channels != 3)
      throw std::invalid_argument(who + ": 1 or 3 channels, not " + std::to_string(channels));
    const int rows = picture.rows(), cols = picture.cols();
    if (rows == 0 || cols == 0)
      throw std::invalid_argument(who + ": an empty image");
    for (std::size_t k = 1; k < channels; ++k)
      if (picture.channels[k].rows() != rows || picture.channels[k].cols() != cols)
        throw std::invalid_argument(who + ": channel " + std::to_string(k) + " is " +
                                    std::to_string(picture.channels[k].rows()) + " x " +
                                    std::to_string(picture.channels[k].cols()) + ", channel 0 is " +
                                    std::to_string(rows) + " x " + std::to_string(cols));
    const long top = bits == 8 ? 255 : 65535;
    std::vector<unsigned char> samples;
    samples.reserve(static_cast<std::size_t>(rows) * cols * channels * (bits / 8));
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        for (std::size_t k = 0; k < channels; ++k)
          {
            const double v = picture.channels[k](r, c);
            if (std::isnan(v))
              throw std::invalid_argument(who + ": pixel (" + std::to_string(r) + ", " + std::to_string(c) +
                                          ") is NaN");
            const long level = std::lround(std::clamp(v, 0.0, 1.0) * top);
            if (bits == 16)
              samples.push_back(static_cast<unsigned char>(level >> 8));
            samples.push_back(static_cast<unsigned char>(level & 0xff));
          }
    return samples;
  }
} // namespace lab
