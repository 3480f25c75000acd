// Tests of lab/pgm.h: grayscale (PGM) and colour (PPM) images in and out, and every
// malformed file refused.
#include <lab/pgm.h>
#include <lab/program.h>
#include <lab_catch.h>

#include "refusal_checks.h"
#include "test_support.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

using lab_test::check_refusal;
using lab_test::check_refusals;
using lab_test::read_text;
using lab_test::TempDir;
using lab_test::write_text;

namespace
{
  // An image whose pixels are all different and not on any PGM level.
  lab::Matrix<double> gradient(int rows, int cols)
  {
    lab::Matrix<double> image(rows, cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        image(r, c) = (r * cols + c + 0.3) / (rows * cols);
    return image;
  }
} // namespace

TEST_CASE("pgm: 16- and 8-bit binary files round trip to the nearest level")
{
  TempDir dir;
  const lab::Matrix<double> image = gradient(5, 7); // not square: rows and columns kept apart
  for (const int bits : {16, 8})
    {
      INFO(bits << " bits");
      const std::string path = (dir / ("image" + std::to_string(bits) + ".pgm")).string();
      lab::write_pgm(path, image, bits);
      const lab::Matrix<double> back = lab::read_pgm(path);
      REQUIRE(back.rows() == 5);
      REQUIRE(back.cols() == 7);
      const double level = 1.0 / (bits == 8 ? 255 : 65535);
      for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 7; ++c)
          CHECK(std::abs(back(r, c) - image(r, c)) <= level / 2 + 1e-15);
    }
}

TEST_CASE("pgm: values outside [0, 1] are clamped when written")
{
  TempDir dir;
  lab::Matrix<double> image(1, 3);
  image(0, 0) = -0.5;
  image(0, 1) = 0.5;
  image(0, 2) = 7;
  const std::string path = (dir / "clamped.pgm").string();
  lab::write_pgm(path, image);
  const lab::Matrix<double> back = lab::read_pgm(path);
  CHECK(back(0, 0) == 0);
  CHECK(std::abs(back(0, 1) - 0.5) <= 0.5 / 65535);
  CHECK(back(0, 2) == 1);
}

TEST_CASE("pgm: a plain (P2) file with comments and an odd maxval")
{
  TempDir dir;
  const std::string path = (dir / "plain.pgm").string();
  write_text(path, "P2\n# made by hand\n3 # width\n2\n15\n0 5 15\n  10\n7 1\n");
  const lab::Matrix<double> image = lab::read_pgm(path);
  REQUIRE(image.rows() == 2);
  REQUIRE(image.cols() == 3);
  const double expected[2][3] = {{0, 5, 15}, {10, 7, 1}};
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      CHECK(image(r, c) == expected[r][c] / 15);
}

TEST_CASE("pgm: binary samples, one byte below maxval 256, two bytes (big-endian) above")
{
  TempDir dir;
  const std::string eight = (dir / "eight.pgm").string(), sixteen = (dir / "sixteen.pgm").string();
  write_text(eight, std::string("P5 2 1 200\n") + char(100) + char(200));
  write_text(sixteen, std::string("P5\n2 1\n1000\n") + char(1) + char(0) + char(3) + char(232));
  const lab::Matrix<double> a = lab::read_pgm(eight), b = lab::read_pgm(sixteen);
  CHECK(a(0, 0) == 0.5);
  CHECK(a(0, 1) == 1);
  CHECK(b(0, 0) == 256.0 / 1000);
  CHECK(b(0, 1) == 1);
}

TEST_CASE("pgm: every malformed file is refused with one line naming it")
{
  TempDir dir;
  check_refusals(dir,
                 {
                   {"empty.pgm", "", "too short"},
                   {"colour.pgm", "P6 1 1 255\n\x01\x02\x03", "magic number 'P6'"},
                   {"bitmap.pgm", "P1 1 1\n1", "magic number 'P1'"},
                   {"no height.pgm", "P2 3\n", "ends before the height"},
                   {"letters.pgm", "P2 three 2 15\n", "width is not a number"},
                   {"zero width.pgm", "P2 0 2 15\n", "0 x 2"},
                   {"maxval 0.pgm", "P2 1 1 0\n0", "maxval 0"},
                   {"maxval too large.pgm", "P5 1 1 70000\n\x01\x01\x01", "maxval 70000"},
                   {"huge.pgm", "P5 100000 100000 255\n", "too large"},
                   {"truncated binary.pgm", "P5 2 2 255\n\x01\x02\x03", "truncated"},
                   {"truncated plain.pgm", "P2 2 2 255\n1 2 3", "truncated"},
                   {"pixel above maxval.pgm", "P2 2 1 10\n3 11", "more than maxval 10"},
                   {"pixel not a number.pgm", "P2 2 1 10\n3 x", "pixel is not a number"},
                   {"negative pixel.pgm", "P2 2 1 10\n3 -1", "pixel is not a number"},
                   {"no blank after maxval.pgm", "P5 1 1 255", "no whitespace after maxval"},
                 },
                 lab::read_pgm);
  check_refusal((dir / "missing.pgm").string(), "cannot open", lab::read_pgm);
}

TEST_CASE("pgm: writing refuses what it cannot represent")
{
  TempDir dir;
  const std::string path = (dir / "x.pgm").string();
  lab::Matrix<double> image(2, 2);
  CHECK_THROWS_AS(lab::write_pgm(path, image, 12), std::invalid_argument);
  CHECK_THROWS_AS(lab::write_pgm(path, lab::Matrix<double>(), 16), std::invalid_argument);
  image(1, 0) = std::nan("");
  CHECK_THROWS_AS(lab::write_pgm(path, image), std::invalid_argument);
  CHECK_THROWS_AS(lab::write_pgm((dir / "no" / "such" / "folder.pgm").string(), gradient(2, 2)), lab::bad_input);
}

TEST_CASE("pgm: colour PPM (P6) and grey PGM (P5) pictures round trip, 8 and 16 bits")
{
  TempDir dir;
  for (const int channels : {3, 1})
    for (const int bits : {16, 8})
      {
        INFO(channels << " channels, " << bits << " bits");
        lab::Picture picture;
        for (int k = 0; k < channels; ++k)
          {
            lab::Matrix<double> m = gradient(5, 7);
            m(0, k) = -0.25; // clamped to 0
            m(4, k) = 1.5;   // clamped to 1
            picture.channels.push_back(m);
          }
        const std::string path = (dir / "picture").string();
        lab::write_netpbm(path, picture, bits);
        CHECK(read_text(path).substr(0, 2) == (channels == 3 ? "P6" : "P5"));
        const lab::Picture back = lab::read_netpbm(path);
        REQUIRE(back.channels.size() == std::size_t(channels));
        REQUIRE(back.rows() == 5);
        REQUIRE(back.cols() == 7);
        CHECK(back.file.describe() == std::to_string(bits) + "-bit " + (channels == 3 ? "RGB PPM" : "grey PGM"));
        const double top = bits == 8 ? 255 : 65535;
        for (int k = 0; k < channels; ++k)
          for (int r = 0; r < 5; ++r)
            for (int c = 0; c < 7; ++c)
              {
                INFO("(" << r << ", " << c << ") channel " << k);
                const double v = std::min(1.0, std::max(0.0, picture.channels[k](r, c)));
                CHECK(back.channels[k](r, c) == std::lround(v * top) / top);
              }
      }
}

TEST_CASE("pgm: a plain PPM (P3) with an odd maxval, and 16-bit P6 samples big-endian")
{
  TempDir dir;
  const std::string plain = (dir / "plain.ppm").string(), binary = (dir / "binary.ppm").string();
  write_text(plain, "P3\n# red green blue\n2 1\n1000\n0 500 1000\n1 2 3\n");
  write_text(binary, std::string("P6 1 1 65535\n") + char(1) + char(2) + char(0) + char(0) + char(255) + char(255));
  const lab::Picture a = lab::read_netpbm(plain), b = lab::read_netpbm(binary);
  REQUIRE(a.channels.size() == 3);
  CHECK(a.file.bits == 10);
  CHECK(a.file.colours == "RGB");
  const double expected[3][2] = {{0, 1}, {500, 2}, {1000, 3}};
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 2; ++c)
      CHECK(a.channels[k](0, c) == expected[k][c] / 1000);
  CHECK(b.channels[0](0, 0) == 258.0 / 65535);
  CHECK(b.channels[1](0, 0) == 0);
  CHECK(b.channels[2](0, 0) == 1);
}

TEST_CASE("pgm: read_netpbm refuses what it cannot read, naming the colour of a bad sample")
{
  TempDir dir;
  check_refusals(
    dir,
    {
      {"bitmap.ppm", "P1 1 1\n1", "not a PGM or PPM file (magic number 'P1', expected P2, P3, P5 or P6)"},
      {"empty.ppm", "", "too short for the magic number P2, P3, P5 or P6"},
      {"truncated.ppm", "P6 2 1 255\n\x01\x02\x03\x04\x05", "truncated"},
      {"green above maxval.ppm", "P3 2 1 255\n1 2 3 4 300 6", "pixel (0, 1) green is 300, more than maxval 255"},
      {"huge.ppm", "P6 100000 100000 255\n", "too large"},
    },
    lab::read_netpbm);
}
