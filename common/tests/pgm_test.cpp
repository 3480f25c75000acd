// Tests of lab/pgm.h: grayscale images in and out, and every malformed file refused.
#include <lab/pgm.h>
#include <lab/program.h>
#include <lab_catch.h>

#include "test_support.h"

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

using lab_test::contains;
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

  // The message of the lab::bad_input that reading @p path throws ("" if none).
  std::string refusal(const std::string &path)
  {
    try
      {
        lab::read_pgm(path);
      }
    catch (const lab::bad_input &e)
      {
        return e.what();
      }
    return "";
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
  const struct
  {
    const char *name, *content, *says;
  } cases[] = {
    {"empty", "", "too short"},
    {"colour", "P6 1 1 255\n\x01\x02\x03", "magic number 'P6'"},
    {"bitmap", "P1 1 1\n1", "magic number 'P1'"},
    {"no height", "P2 3\n", "ends before the height"},
    {"letters", "P2 three 2 15\n", "width is not a number"},
    {"zero width", "P2 0 2 15\n", "0 x 2"},
    {"maxval 0", "P2 1 1 0\n0", "maxval 0"},
    {"maxval too large", "P5 1 1 70000\n\x01\x01\x01", "maxval 70000"},
    {"huge", "P5 100000 100000 255\n", "too large"},
    {"truncated binary", "P5 2 2 255\n\x01\x02\x03", "truncated"},
    {"truncated plain", "P2 2 2 255\n1 2 3", "truncated"},
    {"pixel above maxval", "P2 2 1 10\n3 11", "more than maxval 10"},
    {"pixel not a number", "P2 2 1 10\n3 x", "pixel is not a number"},
    {"negative pixel", "P2 2 1 10\n3 -1", "pixel is not a number"},
    {"no blank after maxval", "P5 1 1 255", "no whitespace after maxval"},
  };
  for (const auto &bad : cases)
    {
      INFO(bad.name);
      const std::string path = (dir / (std::string(bad.name) + ".pgm")).string();
      write_text(path, bad.content);
      const std::string message = refusal(path);
      CHECK(contains(message, path));
      CHECK(contains(message, bad.says));
      CHECK(message.find('\n') == std::string::npos);
    }
  CHECK(contains(refusal((dir / "missing.pgm").string()), "cannot open"));
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
