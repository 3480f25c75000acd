#include <lab/random.h>
#include <lab/test_images.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lab
{
  namespace
  {
    // One ellipse: the intensity it adds, its semi-axes a (along x) and b (along y),
    // its centre and its angle in degrees (counter-clockwise from the x axis).
    struct Ellipse
    {
      double intensity, a, b, x0, y0, degrees;
    };

    // The modified Shepp–Logan phantom (Toft's contrast), the table of the literature.
    constexpr Ellipse phantom[] = {
      {1.0, 0.69, 0.92, 0, 0, 0},           {-0.8, 0.6624, 0.874, 0, -0.0184, 0},
      {-0.2, 0.11, 0.31, 0.22, 0, -18},     {-0.2, 0.16, 0.41, -0.22, 0, 18},
      {0.1, 0.21, 0.25, 0, 0.35, 0},        {0.1, 0.046, 0.046, 0, 0.1, 0},
      {0.1, 0.046, 0.046, 0, -0.1, 0},      {0.1, 0.046, 0.023, -0.08, -0.605, 0},
      {0.1, 0.023, 0.023, 0, -0.606, 0},    {0.1, 0.023, 0.046, 0.06, -0.605, 0},
    };

    bool inside(const Ellipse &e, double x, double y)
    {
      const double phi = e.degrees * 3.14159265358979323846 / 180;
      // The point in the ellipse's own axes: shifted to its centre, rotated by -phi.
      const double u = (x - e.x0) * std::cos(phi) + (y - e.y0) * std::sin(phi);
      const double v = -(x - e.x0) * std::sin(phi) + (y - e.y0) * std::cos(phi);
      return (u * u) / (e.a * e.a) + (v * v) / (e.b * e.b) <= 1;
    }

    void require(bool condition, const char *what)
    {
      if (!condition)
        throw std::invalid_argument(what);
    }
  } // namespace

  Matrix<double> shepp_logan(int size)
  {
    require(size >= 1, "shepp_logan: the size must be at least 1");
    Matrix<double> image(size, size);
    for (int r = 0; r < size; ++r)
      for (int c = 0; c < size; ++c)
        {
          const double x = double(2 * c + 1 - size) / size, y = double(size - 2 * r - 1) / size;
          double value = 0;
          for (const Ellipse &e : phantom)
            if (inside(e, x, y))
              value += e.intensity;
          image(r, c) = std::clamp(value, 0.0, 1.0);
        }
    return image;
  }

  Matrix<double> add_gaussian_noise(const Matrix<double> &image, double sigma, std::uint64_t seed)
  {
    require(sigma >= 0, "add_gaussian_noise: sigma must not be negative");
    Random random(seed);
    Matrix<double> noisy = image;
    for (int r = 0; r < image.rows(); ++r)
      for (int c = 0; c < image.cols(); ++c)
        noisy(r, c) += sigma * random.normal();
    return noisy;
  }

  Matrix<double> add_salt_and_pepper(const Matrix<double> &image, double density, std::uint64_t seed)
  {
    require(density >= 0 && density <= 1, "add_salt_and_pepper: the density must lie in [0, 1]");
    Random random(seed);
    Matrix<double> noisy = image;
    for (int r = 0; r < image.rows(); ++r)
      for (int c = 0; c < image.cols(); ++c)
        {
          // Two numbers per pixel, used or not, so that a pixel's fate does not depend
          // on its neighbours'.
          const double hit = random.uniform(), colour = random.uniform();
          if (hit < density)
            noisy(r, c) = colour < 0.5 ? 0.0 : 1.0;
        }
    return noisy;
  }
} // namespace lab
