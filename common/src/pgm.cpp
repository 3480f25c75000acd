#include <lab/pgm.h>
#include <lab/program.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace lab
{
  namespace
  {
    constexpr long most_pixels = long(1) << 28;

    // A cursor over the bytes of the file, which reports errors in the file's name.
    class Reader
    {
    public:
      Reader(const std::string &path, std::vector<unsigned char> bytes)
        : path_(path), bytes_(std::move(bytes))
      {}

      [[noreturn]] void fail(const std::string &what) const { throw bad_input(path_ + ": " + what); }

      bool at_end() const { return position_ >= bytes_.size(); }

      // Skips whitespace, and comments when they are allowed (in the header).
      void skip_blanks(bool comments)
      {
        while (!at_end())
          {
            if (comments && bytes_[position_] == '#')
              while (!at_end() && bytes_[position_] != '\n' && bytes_[position_] != '\r')
                ++position_;
            else if (std::isspace(bytes_[position_]))
              ++position_;
            else
              return;
          }
      }

      // A decimal number of at most 9 digits (anything longer is out of range here).
      long number(const char *what, bool comments)
      {
        skip_blanks(comments);
        if (at_end())
          fail(std::string("the file ends before the ") + what);
        long value = 0;
        int digits = 0;
        while (!at_end() && std::isdigit(bytes_[position_]))
          {
            if (++digits > 9)
              fail(std::string("the ") + what + " is too large");
            value = 10 * value + (bytes_[position_++] - '0');
          }
        if (digits == 0 || (!at_end() && !std::isspace(bytes_[position_]) && bytes_[position_] != '#'))
          fail(std::string("the ") + what + " is not a number");
        return value;
      }

      std::string magic()
      {
        if (bytes_.size() < 2)
          fail("not a PGM file (too short for the magic number P2 or P5)");
        position_ = 2;
        return std::string(bytes_.begin(), bytes_.begin() + 2);
      }

      // P5: exactly one whitespace character between maxval and the pixels.
      void single_blank()
      {
        if (at_end() || !std::isspace(bytes_[position_]))
          fail("no whitespace after maxval");
        ++position_;
      }

      // The next binary sample of 1 or 2 bytes (most significant first).
      long sample(int bytes)
      {
        if (position_ + bytes > bytes_.size())
          fail("the file ends before the last pixel (truncated)");
        long value = bytes_[position_++];
        if (bytes == 2)
          value = 256 * value + bytes_[position_++];
        return value;
      }

    private:
      std::string path_;
      std::vector<unsigned char> bytes_;
      std::size_t position_ = 0;
    };
  } // namespace

  Matrix<double> read_pgm(const std::string &path)
  {
    std::ifstream file(path, std::ios::binary);
    if (!file)
      throw bad_input(path + ": cannot open the file");
    Reader in(path, std::vector<unsigned char>(std::istreambuf_iterator<char>(file), {}));
    const std::string magic = in.magic();
    if (magic != "P5" && magic != "P2")
      in.fail("not a grayscale PGM file (magic number '" + magic + "', expected P5 or P2)");
    const long width = in.number("width", true);
    const long height = in.number("height", true);
    const long maxval = in.number("maxval", true);
    if (width == 0 || height == 0)
      in.fail("an image of " + std::to_string(width) + " x " + std::to_string(height) + " pixels");
    if (maxval < 1 || maxval > 65535)
      in.fail("maxval " + std::to_string(maxval) + " is outside 1 ... 65535");
    if (width * height > most_pixels)
      in.fail(std::to_string(width) + " x " + std::to_string(height) + " pixels is too large (at most 2^28)");

    Matrix<double> image(static_cast<int>(height), static_cast<int>(width));
    const bool binary = magic == "P5";
    if (binary)
      in.single_blank();
    for (int r = 0; r < image.rows(); ++r)
      for (int c = 0; c < image.cols(); ++c)
        {
          long value;
          if (binary)
            value = in.sample(maxval < 256 ? 1 : 2);
          else
            {
              in.skip_blanks(false);
              if (in.at_end())
                in.fail("the file ends before the last pixel (truncated)");
              value = in.number("pixel", false);
            }
          if (value > maxval)
            in.fail("pixel (" + std::to_string(r) + ", " + std::to_string(c) + ") is " + std::to_string(value) +
                    ", more than maxval " + std::to_string(maxval));
          image(r, c) = double(value) / double(maxval);
        }
    return image;
  }

  void write_pgm(const std::string &path, const Matrix<double> &image, int bits)
  {
    if (bits != 8 && bits != 16)
      throw std::invalid_argument("write_pgm: 8 or 16 bits per pixel, not " + std::to_string(bits));
    if (image.rows() == 0 || image.cols() == 0)
      throw std::invalid_argument("write_pgm: an empty image");
    const long maxval = bits == 8 ? 255 : 65535;
    std::vector<unsigned char> pixels;
    pixels.reserve(static_cast<std::size_t>(image.rows()) * image.cols() * (bits / 8));
    for (int r = 0; r < image.rows(); ++r)
      for (int c = 0; c < image.cols(); ++c)
        {
          const double v = image(r, c);
          if (std::isnan(v))
            throw std::invalid_argument("write_pgm: pixel (" + std::to_string(r) + ", " + std::to_string(c) +
                                        ") is NaN");
          const long level = std::lround(std::clamp(v, 0.0, 1.0) * maxval);
          if (bits == 16)
            pixels.push_back(static_cast<unsigned char>(level >> 8));
          pixels.push_back(static_cast<unsigned char>(level & 0xff));
        }
    std::ofstream file(path, std::ios::binary);
    file << "P5\n" << image.cols() << " " << image.rows() << "\n" << maxval << "\n";
    file.write(reinterpret_cast<const char *>(pixels.data()), static_cast<std::streamsize>(pixels.size()));
    if (!file)
      throw bad_input(path + ": cannot write the file");
  }
} // namespace lab
