#include <lab/image_quality.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace lab
{
  double mean_squared_error(const Matrix<double> &a, const Matrix<double> &b)
  {
    if (a.rows() != b.rows() || a.cols() != b.cols())
      throw std::invalid_argument("mean_squared_error: images of different sizes");
    if (a.rows() == 0 || a.cols() == 0)
      throw std::invalid_argument("mean_squared_error: empty images");
    double sum = 0;
    for (int r = 0; r < a.rows(); ++r)
      for (int c = 0; c < a.cols(); ++c)
        sum += (a(r, c) - b(r, c)) * (a(r, c) - b(r, c));
    return sum / (double(a.rows()) * a.cols());
  }

  double psnr(const Matrix<double> &a, const Matrix<double> &b)
  {
    const double mse = mean_squared_error(a, b);
    return mse == 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(1 / mse);
  }
} // namespace lab
