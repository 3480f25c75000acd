// Tests of lab/test_images.h: the phantom and the two kinds of noise.
#include <lab/image_quality.h>
#include <lab/test_images.h>
#include <lab_catch.h>

#include <cmath>
#include <set>
#include <stdexcept>

TEST_CASE("test_images: the Shepp-Logan phantom")
{
  const lab::Matrix<double> image = lab::shepp_logan(256);
  REQUIRE(image.rows() == 256);
  REQUIRE(image.cols() == 256);
  std::set<double> levels;
  for (int r = 0; r < 256; ++r)
    for (int c = 0; c < 256; ++c)
      {
        CHECK((image(r, c) >= 0 && image(r, c) <= 1));
        levels.insert(std::round(image(r, c) * 1000) / 1000);
      }
  // Outside the head: black. Just inside the skull (x = 0, y = 0.9): the skull, 1. At
  // the centre: head and brain, 1 - 0.8 = 0.2. In the ventricle on the right
  // (x = 0.22, y = 0): 0.2 - 0.2 = 0.
  const auto at = [&](double x, double y) { // the pixel whose centre is nearest (x, y)
    return image(static_cast<int>((1 - y) * 128), static_cast<int>((x + 1) * 128));
  };
  CHECK(image(0, 0) == 0);
  CHECK(at(0, 0.9) == 1);
  CHECK(std::abs(at(0.01, 0.01) - 0.2) < 1e-12);
  CHECK(std::abs(at(0.22, 0.0)) < 1e-12);
  // The levels of the modified phantom: 0, 0.1, 0.2, 0.3, 0.4 (overlaps) and 1.
  CHECK(levels.count(0.0) == 1);
  CHECK(levels.count(0.2) == 1);
  CHECK(levels.count(0.3) == 1);
  CHECK(levels.count(1.0) == 1);
  // Orientation: y points up (the small bright ellipse at y0 = 0.35 is in the upper
  // half), x to the right (the larger dark ellipse is on the left, x0 = -0.22).
  CHECK(std::abs(at(0.0, 0.35) - 0.3) < 1e-12);
  CHECK(std::abs(at(0.0, -0.35) - 0.2) < 1e-12);
  CHECK(std::abs(at(-0.22, 0.3)) < 1e-12);
  CHECK(std::abs(at(0.22, 0.3) - 0.2) < 1e-12);
  // A size of 1, and odd sizes, sample the centre (x = 0, y = 0) exactly.
  CHECK(std::abs(lab::shepp_logan(1)(0, 0) - 0.2) < 1e-12);
  CHECK(std::abs(lab::shepp_logan(33)(16, 16) - 0.2) < 1e-12);
  CHECK_THROWS_AS(lab::shepp_logan(0), std::invalid_argument);
}

TEST_CASE("test_images: Gaussian noise has the standard deviation asked for")
{
  const lab::Matrix<double> clean = lab::shepp_logan(256);
  const lab::Matrix<double> noisy = lab::add_gaussian_noise(clean, 0.05, 1);
  double sum = 0;
  for (int r = 0; r < 256; ++r)
    for (int c = 0; c < 256; ++c)
      sum += noisy(r, c) - clean(r, c);
  CHECK(std::abs(sum / (256 * 256)) < 0.001);
  CHECK(std::abs(std::sqrt(lab::mean_squared_error(clean, noisy)) - 0.05) < 0.001);
  CHECK(lab::mean_squared_error(noisy, lab::add_gaussian_noise(clean, 0.05, 1)) == 0); // same seed
  CHECK(lab::mean_squared_error(noisy, lab::add_gaussian_noise(clean, 0.05, 2)) > 0);
  CHECK(lab::mean_squared_error(clean, lab::add_gaussian_noise(clean, 0, 3)) == 0);
  CHECK_THROWS_AS(lab::add_gaussian_noise(clean, -1, 1), std::invalid_argument);
}

TEST_CASE("test_images: salt and pepper hits the density asked for, with 0 and 1 only")
{
  lab::Matrix<double> grey(200, 300);
  for (int r = 0; r < 200; ++r)
    for (int c = 0; c < 300; ++c)
      grey(r, c) = 0.5;
  const lab::Matrix<double> noisy = lab::add_salt_and_pepper(grey, 0.1, 5);
  int salt = 0, pepper = 0;
  for (int r = 0; r < 200; ++r)
    for (int c = 0; c < 300; ++c)
      {
        const double v = noisy(r, c);
        CHECK((v == 0 || v == 0.5 || v == 1));
        salt += v == 1;
        pepper += v == 0;
      }
  CHECK(std::abs((salt + pepper) / 60000.0 - 0.1) < 0.005);
  CHECK(std::abs(salt - pepper) < 0.1 * (salt + pepper));
  CHECK_THROWS_AS(lab::add_salt_and_pepper(grey, 1.5, 1), std::invalid_argument);
}
