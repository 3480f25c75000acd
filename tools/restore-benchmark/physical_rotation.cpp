// A rotation made the way a camera makes it (see physical_rotation.h).
#include "physical_rotation.h"

#include <cmath>

namespace restore_benchmark
{
  namespace
  {
    constexpr double pi = 3.14159265358979323846;

    // The picture at a point between pixels: the four around it, each weighted by how
    // near it is; black beyond the edges.
    double bilinear(const lab::Matrix<double> &image, double y, double x)
    {
      const int r = static_cast<int>(std::floor(y)), c = static_cast<int>(std::floor(x));
      const double dy = y - r, dx = x - c;
      double sum = 0;
      for (int i = 0; i <= 1; ++i)
        for (int j = 0; j <= 1; ++j)
          {
            const int rr = r + i, cc = c + j;
            if (rr >= 0 && rr < image.rows() && cc >= 0 && cc < image.cols())
              sum += (i ? dy : 1 - dy) * (j ? dx : 1 - dx) * image(rr, cc);
          }
      return sum;
    }
  } // namespace

  // Pixel (r, c) of the picture rotated by φ shows the scene at the point the rotation
  // by −φ takes (r, c) to.
  lab::Matrix<double> physically_rotated(const lab::Matrix<double> &sharp, double angle_degrees, int steps)
  {
    const int rows = sharp.rows(), cols = sharp.cols();
    const double centre_r = (rows - 1) / 2.0, centre_c = (cols - 1) / 2.0;
    lab::Matrix<double> sum(rows, cols);
    for (int s = 0; s < steps; ++s)
      {
        const double phi = (angle_degrees * ((s + 0.5) / steps - 0.5)) / 180 * pi;
        const double cosine = std::cos(phi), sine = std::sin(phi);
#pragma omp parallel for schedule(static)
        for (int r = 0; r < rows; ++r)
          for (int c = 0; c < cols; ++c)
            {
              const double y = r - centre_r, x = c - centre_c;
              sum(r, c) += bilinear(sharp, centre_r + cosine * y - sine * x, centre_c + sine * y + cosine * x);
            }
      }
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        sum(r, c) /= steps;
    return sum;
  }
} // namespace restore_benchmark
