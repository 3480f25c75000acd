#include <lab/pgm.h>
#include <lab/program.h>

#include <cctype>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

namespace lab
{
  namespace
  {
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

      // The first two bytes; @p format and @p expected name what the caller takes.
      std::string magic(const std::string &format, const std::string &expected)
      {
        if (bytes_.size() < 2)
          fail("not a " + format + " file (too short for the magic number " + expected + ")");
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
    // How many bits @p maxval needs: 8 for 255, 16 for 65535, 10 for 1000.
    int bits_of(long maxval)
    {
      int bits = 0;
      while ((long(1) << bits) <= maxval)
        ++bits;
      return bits;
    }

    // The one reader of the four kinds of file: P2 and P5 hold one sample per pixel,
    // P3 and P6 three; P2 and P3 write them as decimal numbers, P5 and P6 as bytes.
    // read_pgm takes only the grey ones (@p grey_only) and says so when it refuses.
    Picture read_file(const std::string &path, bool grey_only)
    {
      std::ifstream file(path, std::ios::binary);
      if (!file)
        throw bad_input(path + ": cannot open the file");
      Reader in(path, std::vector<unsigned char>(std::istreambuf_iterator<char>(file), {}));
      const std::string expected = grey_only ? "P5 or P2" : "P2, P3, P5 or P6";
      const std::string magic = in.magic(grey_only ? "PGM" : "PGM or PPM", expected);
      const bool grey = magic == "P5" || magic == "P2";
      const bool colour = !grey_only && (magic == "P6" || magic == "P3");
      if (!grey && !colour)
        in.fail(std::string(grey_only ? "not a grayscale PGM file" : "not a PGM or PPM file") +
                " (magic number '" + magic + "', expected " + expected + ")");
      const long width = in.number("width", true);
      const long height = in.number("height", true);
      const long maxval = in.number("maxval", true);
      if (width == 0 || height == 0)
        in.fail("an image of " + std::to_string(width) + " x " + std::to_string(height) + " pixels");
      if (maxval < 1 || maxval > 65535)
        in.fail("maxval " + std::to_string(maxval) + " is outside 1 ... 65535");
      if (width * height > most_picture_pixels)
        in.fail(std::to_string(width) + " x " + std::to_string(height) + " pixels is too large (at most 2^28)");

      Picture picture;
      picture.file = {grey ? "PGM" : "PPM", bits_of(maxval), grey ? "grey" : "RGB", false};
      picture.channels.assign(grey ? 1 : 3, Matrix<double>(static_cast<int>(height), static_cast<int>(width)));
      const bool binary = magic == "P5" || magic == "P6";
      if (binary)
        in.single_blank();
      // The samples of a pixel follow each other (red, green, blue in a PPM), so the
      // channel is the innermost loop.
      const char *const colour_names[] = {"red", "green", "blue"};
      for (int r = 0; r < static_cast<int>(height); ++r)
        for (int c = 0; c < static_cast<int>(width); ++c)
          for (std::size_t k = 0; k < picture.channels.size(); ++k)
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
                in.fail("pixel (" + std::to_string(r) + ", " + std::to_string(c) + ")" +
                        (grey ? "" : std::string(" ") + colour_names[k]) + " is " + std::to_string(value) +
                        ", more than maxval " + std::to_string(maxval));
              picture.channels[k](r, c) = double(value) / double(maxval);
            }
      return picture;
    }

    // The one writer: a P5 or P6 header, then the samples lab::file_samples makes.
    // write_pgm passes its own name as @p who, for the errors.
    void write_file(const std::string &path, const Picture &picture, int bits, const std::string &who)
    {
      const std::vector<unsigned char> samples = file_samples(picture, bits, who);
      std::ofstream file(path, std::ios::binary);
      file << (picture.is_colour() ? "P6\n" : "P5\n") << picture.cols() << " " << picture.rows() << "\n"
           << (bits == 8 ? 255 : 65535) << "\n";
      file.write(reinterpret_cast<const char *>(samples.data()), static_cast<std::streamsize>(samples.size()));
      if (!file)
        throw bad_input(path + ": cannot write the file");
    }
  } // namespace

  Matrix<double> read_pgm(const std::string &path) { return std::move(read_file(path, true).channels.front()); }

  Picture read_netpbm(const std::string &path) { return read_file(path, false); }

  void write_pgm(const std::string &path, const Matrix<double> &image, int bits)
  {
    write_file(path, Picture{{image}, {}}, bits, "write_pgm");
  }

  void write_netpbm(const std::string &path, const Picture &picture, int bits)
  {
    write_file(path, picture, bits, "write_netpbm");
  }
} // namespace lab
