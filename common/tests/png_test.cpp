// Tests of lab/png.h: where libpng was found, an image written is read back by libpng
// itself with the expected levels; where it was not, write_png says so.
#include <lab/png.h>
#include <lab/program.h>
#include <lab_catch.h>

#include "test_support.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#if LAB_HAVE_PNG
#include <png.h>
#endif

using lab_test::TempDir;

TEST_CASE("png: written images read back with the nearest of 256 levels")
{
  CHECK(lab::have_png() == bool(LAB_HAVE_PNG));
  TempDir dir;
  const std::string path = (dir / "image.png").string();
  lab::Matrix<double> image(3, 5); // not square: rows and columns kept apart
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c)
      image(r, c) = (r * 5 + c) / 14.0 * 1.2 - 0.1; // some below 0 and above 1
  if (!lab::have_png())
    {
      CHECK_THROWS_AS(lab::write_png(path, image), std::logic_error);
      return;
    }
#if LAB_HAVE_PNG
  lab::write_png(path, image);
  png_image description{};
  description.version = PNG_IMAGE_VERSION;
  REQUIRE(png_image_begin_read_from_file(&description, path.c_str()));
  REQUIRE(description.width == 5);
  REQUIRE(description.height == 3);
  description.format = PNG_FORMAT_GRAY;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(description));
  REQUIRE(png_image_finish_read(&description, nullptr, pixels.data(), 0, nullptr));
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c)
      {
        const double clamped = std::min(1.0, std::max(0.0, image(r, c)));
        CHECK(pixels[r * 5 + c] == std::lround(clamped * 255));
      }
#endif
}

TEST_CASE("png: what cannot be written is refused")
{
  if (!lab::have_png())
    return;
  TempDir dir;
  lab::Matrix<double> image(2, 2);
  CHECK_THROWS_AS(lab::write_png((dir / "no" / "folder.png").string(), image), lab::bad_input);
  CHECK_THROWS_AS(lab::write_png((dir / "empty.png").string(), lab::Matrix<double>()), std::invalid_argument);
  image(0, 1) = std::nan("");
  CHECK_THROWS_AS(lab::write_png((dir / "nan.png").string(), image), std::invalid_argument);
}
