// Tests of lab/image_quality.h: MSE and PSNR.
#include <lab/image_quality.h>
#include <lab_catch.h>

#include <cmath>
#include <limits>
#include <stdexcept>

TEST_CASE("image_quality: MSE and PSNR of known differences")
{
  lab::Matrix<double> a(2, 2), b(2, 2);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c)
      a(r, c) = b(r, c) = 0.25 * (r + c);
  CHECK(lab::mean_squared_error(a, b) == 0);
  CHECK(lab::psnr(a, b) == std::numeric_limits<double>::infinity());
  b(0, 1) += 0.2; // one pixel of four off by 0.2: MSE = 0.04 / 4 = 0.01, PSNR = 20 dB
  CHECK(std::abs(lab::mean_squared_error(a, b) - 0.01) < 1e-15);
  CHECK(std::abs(lab::psnr(a, b) - 20) < 1e-12);
  CHECK(lab::psnr(b, a) == lab::psnr(a, b));
}

TEST_CASE("image_quality: images of different sizes are refused")
{
  CHECK_THROWS_AS(lab::mean_squared_error(lab::Matrix<double>(2, 3), lab::Matrix<double>(3, 2)),
                  std::invalid_argument);
  CHECK_THROWS_AS(lab::psnr(lab::Matrix<double>(), lab::Matrix<double>()), std::invalid_argument);
}
