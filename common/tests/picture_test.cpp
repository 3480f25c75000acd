// Tests of lab/picture.h: the reader chosen by a file's first bytes, whatever its name;
// files that start like no image refused; the samples both writers store.
#include <lab/pgm.h>
#include <lab/picture.h>
#include <lab/png.h>
#include <lab/program.h>
#include <lab_catch.h>

#include "refusal_checks.h"
#include "test_support.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using lab_test::check_refusal;
using lab_test::check_refusals;
using lab_test::message_of;
using lab_test::TempDir;
using lab_test::write_text;

namespace
{
  // A picture of @p channels channels, 2 × 3, every value different.
  lab::Picture small_picture(int channels)
  {
    lab::Picture picture;
    for (int k = 0; k < channels; ++k)
      {
        lab::Matrix<double> m(2, 3);
        for (int r = 0; r < 2; ++r)
          for (int c = 0; c < 3; ++c)
            m(r, c) = (r * 3 + c + 6 * k) / 17.0;
        picture.channels.push_back(m);
      }
    return picture;
  }
} // namespace

TEST_CASE("picture: the first bytes choose the reader, not the file's name")
{
  TempDir dir;
  const std::string pgm = (dir / "grey.png").string(), ppm = (dir / "colour.pgm").string(),
                    png = (dir / "photo.ppm").string();
  lab::write_netpbm(pgm, small_picture(1), 8);
  lab::write_netpbm(ppm, small_picture(3));
  const lab::Picture grey = lab::read_picture(pgm), colour = lab::read_picture(ppm);
  CHECK(grey.file.describe() == "8-bit grey PGM");
  CHECK_FALSE(grey.is_colour());
  CHECK(colour.file.describe() == "16-bit RGB PPM");
  CHECK(colour.is_colour());
  CHECK(colour.rows() == 2);
  CHECK(colour.cols() == 3);
  write_text(pgm, "P2 2 1 4\n1 3\n");
  CHECK(lab::read_picture(pgm).channels[0](0, 1) == 0.75);
  if (lab::have_png())
    {
      lab::write_png(png, small_picture(3), 16);
      const lab::Picture photo = lab::read_picture(png);
      CHECK(photo.file.describe() == "16-bit RGB PNG");
      CHECK(photo.channels[2](1, 2) == std::lround(17 / 17.0 * 65535) / 65535.0);
    }
  else
    {
      write_text(png, "\x89PNG\r\n\x1a\n");
      check_refusal(png, "no libpng", lab::read_picture);
    }
}

TEST_CASE("picture: a file that starts like no image is refused, showing its first bytes")
{
  TempDir dir;
  check_refusals(dir,
                 {
                   {"empty.png", "", "the file is empty"},
                   {"animation.png", "GIF89a", "not a PNG, PGM or PPM file (it starts with the bytes 47 49 46 38)"},
                   {"photo.png", "\xff\xd8\xff\xe0", "(it starts with the bytes ff d8 ff e0)"},
                   {"bitmap.pgm", "P4 1 1\n\x80", "(it starts with the bytes 50 34 20 31)"},
                   {"x.pgm", "P", "(it starts with the bytes 50)"},
                 },
                 lab::read_picture);
  check_refusal((dir / "missing").string(), "cannot open", lab::read_picture);
}

TEST_CASE("picture: samples as the files store them, channels side by side, big-endian")
{
  lab::Picture picture = small_picture(3);
  const std::vector<unsigned char> eight = lab::file_samples(picture, 8, "test");
  const std::vector<unsigned char> sixteen = lab::file_samples(picture, 16, "test");
  REQUIRE(eight.size() == 2 * 3 * 3);
  REQUIRE(sixteen.size() == 2 * 2 * 3 * 3);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k)
        {
          const std::size_t i = (r * 3 + c) * 3 + k;
          const double v = picture.channels[k](r, c);
          INFO("(" << r << ", " << c << ") channel " << k);
          CHECK(eight[i] == std::lround(v * 255));
          CHECK(256 * sixteen[2 * i] + sixteen[2 * i + 1] == std::lround(v * 65535));
        }
}

TEST_CASE("picture: file_samples refuses what no file can hold, naming the caller")
{
  const auto refusal = [](const lab::Picture &picture, int bits) {
    return message_of<std::invalid_argument>([&] { lab::file_samples(picture, bits, "write_x"); });
  };
  CHECK(refusal(small_picture(1), 12) == "write_x: 8 or 16 bits per sample, not 12");
  CHECK(refusal(small_picture(2), 8) == "write_x: 1 or 3 channels, not 2");
  CHECK(refusal(lab::Picture(), 8) == "write_x: 1 or 3 channels, not 0");
  CHECK(refusal(lab::Picture{{lab::Matrix<double>()}, {}}, 8) == "write_x: an empty image");
  lab::Picture ragged = small_picture(3);
  ragged.channels[2] = lab::Matrix<double>(3, 2);
  CHECK(refusal(ragged, 16) == "write_x: channel 2 is 3 x 2, channel 0 is 2 x 3");
  lab::Picture nan = small_picture(3);
  nan.channels[1](1, 2) = std::nan("");
  CHECK(refusal(nan, 8) == "write_x: pixel (1, 2) is NaN");
}

TEST_CASE("picture: a picture the program made says so, and its size")
{
  const lab::Picture none;
  CHECK(none.rows() == 0);
  CHECK(none.cols() == 0);
  CHECK_FALSE(none.is_colour());
  CHECK(none.file.describe() == "a picture not read from a file");
  lab::PictureFile file{"PNG", 16, "RGBA", true};
  CHECK(file.describe() == "16-bit RGBA PNG (alpha dropped)");
}
