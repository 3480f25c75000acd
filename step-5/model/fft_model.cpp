// The FFT filters' own equations, on the CPU (see fft_model.h).
#include "model/fft_model.h"

#include "model/blur_model.h"

namespace step5
{
  namespace
  {
    // i mod m in 0 ... m − 1, also for negative i.
    int wrap(int i, int m) { return (i % m + m) % m; }

    // Σ p(u, v) x(r + sign·(c_r − u), c + sign·(c_c − v)), wrapped: sign = +1 the blur,
    // −1 its transpose (every weight sent back where it came from).
    lab::Matrix<double> periodic(const Psf &psf, const lab::Matrix<double> &x, int sign)
    {
      const int rows = x.rows(), cols = x.cols();
      lab::Matrix<double> y(rows, cols);
#pragma omp parallel for schedule(static)
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
          {
            double sum = 0;
            for (int u = 0; u < psf.rows(); ++u)
              for (int v = 0; v < psf.cols(); ++v)
                sum += psf.taps(u, v) * x(wrap(r + sign * (psf.centre_row() - u), rows),
                                          wrap(c + sign * (psf.centre_col() - v), cols));
            y(r, c) = sum;
          }
      return y;
    }
  } // namespace

  lab::Matrix<double> periodic_blur(const Psf &psf, const lab::Matrix<double> &image)
  {
    return periodic(psf, image, +1);
  }

  lab::Matrix<double> periodic_blur_transpose(const Psf &psf, const lab::Matrix<double> &image)
  {
    return periodic(psf, image, -1);
  }

  double periodic_backward_error(const Psf &psf, const lab::Matrix<double> &g, double lambda,
                                 const lab::Matrix<double> &f)
  {
    return backward_error_of(psf, periodic_blur_transpose(psf, g),
                             periodic_blur_transpose(psf, periodic_blur(psf, f)), lambda, f);
  }
} // namespace step5
