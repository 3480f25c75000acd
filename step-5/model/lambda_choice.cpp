// Choosing λ by generalised cross-validation or by the discrepancy principle (see
// lambda_choice.h).
#include "model/lambda_choice.h"

#include <lab/program.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>

namespace step5
{
  namespace
  {
    using Complex = std::complex<double>;

    constexpr double pi = 3.14159265358979323846;

    // Numbers in messages the way people write them: 0.01, 1e-10.
    std::string text_of(double value)
    {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.3g", value);
      return buffer;
    }

    // @sect3{The discrete Fourier transform, by its definition}
    //
    // The transform of N numbers is x̂_k = Σ_j x_j w^{jk} with w = e^{−2πi/N}. Since
    // w^N = 1, the power w^{jk} is w^{(jk mod N)}, so the N values w^m are computed
    // once (each from its own angle, not as repeated products, which would let the
    // rounding errors grow with m), and the sum for frequency k steps through them k
    // at a time.
    std::vector<Complex> twiddles(int length)
    {
      std::vector<Complex> w(length);
      for (int m = 0; m < length; ++m)
        w[m] = std::polar(1.0, -2 * pi * m / length);
      return w;
    }

    // One transform of the length of @p w, N² products. They are written out in real
    // and imaginary parts: std::complex's own product also handles infinities as the
    // C standard asks, through a function call that would make this loop several
    // times slower.
    void dft_1d(const std::vector<Complex> &w, const Complex *x, Complex *x_hat)
    {
      const int length = static_cast<int>(w.size());
      for (int k = 0; k < length; ++k)
        {
          double real = 0, imag = 0;
          int m = 0;
          for (int j = 0; j < length; ++j)
            {
              real += x[j].real() * w[m].real() - x[j].imag() * w[m].imag();
              imag += x[j].real() * w[m].imag() + x[j].imag() * w[m].real();
              m += k;
              if (m >= length)
                m -= length;
            }
          x_hat[k] = {real, imag};
        }
    }
  } // namespace

  // The 2-D transform's exponential splits into a factor for the rows and one for the
  // columns, so it is two passes of 1-D transforms: every row, then every column of
  // the result. That costs R·C² + C·R² = n(R + C) products, O(n^1.5) for a square
  // image, where a fast Fourier transform (FFT) costs O(n log n). We do not need the
  // FFT here: the transform is made twice per image (the PSF's and g's), once, before
  // a restoration that costs far more, and 1024 × 1024 pixels take seconds. A
  // definition that fits in a screen is easier to check than an FFT, and the FFT
  // computes the very same numbers: cuFFT does so on the GPU for the FFT filter
  // (fft_filter.cu). The rows of a pass are independent, so they are shared among
  // the CPU's cores.
  std::vector<Complex> dft_2d(const lab::Matrix<double> &image)
  {
    const int rows = image.rows(), cols = image.cols();
    std::vector<Complex> result(static_cast<std::size_t>(rows) * cols);
    const std::vector<Complex> along_rows = twiddles(cols), along_cols = twiddles(rows);
#pragma omp parallel
    {
      std::vector<Complex> in(std::max(rows, cols)), out(std::max(rows, cols));
#pragma omp for schedule(static)
      for (int r = 0; r < rows; ++r)
        {
          for (int c = 0; c < cols; ++c)
            in[c] = image(r, c);
          dft_1d(along_rows, in.data(), result.data() + static_cast<std::size_t>(r) * cols);
        }
#pragma omp for schedule(static)
      for (int c = 0; c < cols; ++c)
        {
          for (int r = 0; r < rows; ++r)
            in[r] = result[static_cast<std::size_t>(r) * cols + c];
          dft_1d(along_cols, in.data(), out.data());
          for (int r = 0; r < rows; ++r)
            result[static_cast<std::size_t>(r) * cols + c] = out[r];
        }
    }
    return result;
  }

  // @sect3{The eigenvalues of the periodic blur}
  //
  // With wrap-around, the blur of blur_model.h reads f at ((r − u + c_r) mod R,
  // (c − v + c_c) mod C): a circular convolution of f with the PSF moved so that its
  // centre sits at (0, 0) and its other taps wrap to the far edges. The transform
  // turns a circular convolution into a product, frequency by frequency, so the
  // transform of that moved PSF holds H's eigenvalues.
  std::vector<Complex> periodic_blur_eigenvalues(const Psf &psf, int rows, int cols)
  {
    lab::Matrix<double> placed(rows, cols);
    for (int u = 0; u < psf.rows(); ++u)
      for (int v = 0; v < psf.cols(); ++v)
        {
          const int r = ((u - psf.centre_row()) % rows + rows) % rows;
          const int c = ((v - psf.centre_col()) % cols + cols) % cols;
          placed(r, c) += psf.taps(u, v);
        }
    return dft_2d(placed);
  }

  // @sect3{The residual, the trace and G as sums over frequencies}
  //
  // The spectrum keeps only the squared magnitudes: the filter factor
  // λ/(|p̂_k|² + λ) multiplies ĝ_k, and ‖r‖² needs |r̂_k|², so the phases never enter.
  PeriodicSpectrum::PeriodicSpectrum(const Psf &psf, const lab::Matrix<double> &g)
  {
    if (g.rows() == 0 || g.cols() == 0)
      throw lab::bad_input("cannot choose lambda for an empty image");
    check_psf(psf, g.rows(), g.cols());
    for (int r = 0; r < g.rows(); ++r)
      for (int c = 0; c < g.cols(); ++c)
        if (!std::isfinite(g(r, c)))
          throw lab::bad_input("cannot choose lambda: the degraded image has a non-finite pixel at (" +
                               std::to_string(r) + ", " + std::to_string(c) + ")");
    const std::vector<Complex> p_hat = periodic_blur_eigenvalues(psf, g.rows(), g.cols());
    const std::vector<Complex> g_hat = dft_2d(g);
    psf_power_.resize(p_hat.size());
    image_power_.resize(g_hat.size());
    for (std::size_t k = 0; k < p_hat.size(); ++k)
      {
        psf_power_[k] = std::norm(p_hat[k]);
        image_power_[k] = std::norm(g_hat[k]);
      }
  }

  // The transform is not normalised, so its squared values sum to n times the
  // squared pixels (Parseval): the sum over frequencies is divided by n to give the
  // residual of the pixels.
  double PeriodicSpectrum::residual_norm2(double lambda) const
  {
    double sum = 0;
    for (std::size_t k = 0; k < psf_power_.size(); ++k)
      {
        const double filter = lambda / (psf_power_[k] + lambda);
        sum += filter * filter * image_power_[k];
      }
    return sum / pixels();
  }

  // The eigenvalues of A(λ) are |p̂_k|²/(|p̂_k|² + λ), those of I − A(λ) one minus
  // them, and a trace is the sum of the eigenvalues.
  double PeriodicSpectrum::residual_trace(double lambda) const
  {
    double sum = 0;
    for (double power : psf_power_)
      sum += lambda / (power + lambda);
    return sum;
  }

  double PeriodicSpectrum::gcv(double lambda) const
  {
    const double trace = residual_trace(lambda);
    return pixels() * residual_norm2(lambda) / (trace * trace);
  }

  // @sect3{The range, and the mirrored image}
  LambdaRange lambda_range(const Psf &psf, double unit_roundoff)
  {
    const double h_norm2 = absolute_sum(psf) * absolute_sum(psf); // the bound on ‖H‖²
    return {std::sqrt(unit_roundoff) * h_norm2, 100 * h_norm2};
  }

  lab::Matrix<double> mirrored(const lab::Matrix<double> &g)
  {
    const int rows = g.rows(), cols = g.cols();
    lab::Matrix<double> extended(2 * rows, 2 * cols);
    for (int r = 0; r < 2 * rows; ++r)
      for (int c = 0; c < 2 * cols; ++c)
        extended(r, c) = g(r < rows ? r : 2 * rows - 1 - r, c < cols ? c : 2 * cols - 1 - c);
    return extended;
  }

  namespace
  {
    // The spectrum both rules use, after the checks that concern the image as given
    // (the mirrored image is twice as large, so a PSF too large for g could pass
    // check_psf there).
    PeriodicSpectrum mirrored_spectrum(const Psf &psf, const lab::Matrix<double> &g)
    {
      if (g.rows() == 0 || g.cols() == 0)
        throw lab::bad_input("cannot choose lambda for an empty image");
      check_psf(psf, g.rows(), g.cols());
      return PeriodicSpectrum(psf, mirrored(g));
    }

    std::string range_text(const LambdaRange &range)
    {
      return "[" + text_of(range.smallest) + ", " + text_of(range.largest) + "]";
    }
  } // namespace

  // @sect3{GCV: a grid, then golden-section search}
  //
  // G is not convex in λ: it is often flat over decades of small λ and can have more
  // than one local minimum. A local search started anywhere could settle in the
  // wrong one, so we first evaluate G on a grid over the whole range, 8 points per
  // decade (at most 97 values of λ, each a sum over 4n frequencies: little next to
  // the transforms). The best grid point and its two neighbours bracket a minimum. Inside
  // that bracket golden-section search narrows it without derivatives: it compares G
  // at two inner points and drops the part beyond the worse one, and it places the
  // inner points at the golden ratio so that the point it keeps is one of the next
  // pair, one new evaluation per step, the bracket shrinking by 0.618 each time. 26
  // steps take it from a quarter of a decade to 10⁻⁶ decades. Everything runs in log λ,
  // the scale on which λ matters.
  LambdaChoice choose_lambda_by_gcv(const Psf &psf, const lab::Matrix<double> &g, const LambdaRange &range)
  {
    const PeriodicSpectrum spectrum = mirrored_spectrum(psf, g);
    const auto gcv_at = [&](double exponent) { return spectrum.gcv(std::pow(10.0, exponent)); };

    const double low = std::log10(range.smallest), high = std::log10(range.largest);
    constexpr int points_per_decade = 8;
    const int steps = static_cast<int>(std::lround((high - low) * points_per_decade));
    const auto grid = [&](int i) { return low + (high - low) * i / steps; };
    int best = 0;
    double best_value = gcv_at(low);
    for (int i = 1; i <= steps; ++i)
      {
        const double value = gcv_at(grid(i));
        if (value < best_value)
          {
            best = i;
            best_value = value;
          }
      }

    const double golden = (std::sqrt(5.0) - 1) / 2;
    double a = grid(std::max(best - 1, 0)), b = grid(std::min(best + 1, steps));
    double x1 = b - golden * (b - a), x2 = a + golden * (b - a);
    double g1 = gcv_at(x1), g2 = gcv_at(x2);
    while (b - a > 1e-6)
      if (g1 < g2)
        {
          b = x2;
          x2 = x1;
          g2 = g1;
          x1 = b - golden * (b - a);
          g1 = gcv_at(x1);
        }
      else
        {
          a = x1;
          x1 = x2;
          g1 = g2;
          x2 = a + golden * (b - a);
          g2 = gcv_at(x2);
        }
    // The search assumes one minimum inside its bracket; should it end above the grid's
    // best point after all, that point is the answer.
    double exponent = (a + b) / 2;
    if (!(gcv_at(exponent) <= best_value))
      exponent = grid(best);

    const double lambda = std::pow(10.0, exponent);
    std::string how = "generalised cross-validation (periodic model, mirrored image): G smallest at lambda = " +
                      text_of(lambda) + " in " + range_text(range);
    if (best == 0 || best == steps)
      how += ", at the end of the range: G may fall further beyond it";
    return {lambda, how};
  }

  // @sect3{The discrepancy principle: bisection}
  //
  // At every frequency the filter factor λ/(|p̂_k|² + λ) grows with λ, so the
  // residual ‖r(λ)‖² grows with λ: the more a restoration is regularised, the worse
  // it fits the data. It therefore crosses the target τ² n σ² at most once, and
  // bisection finds the crossing: whether the residual at the middle of the bracket
  // is below or above the target says which half holds it. Halving in log λ, at most 45 steps
  // take the bracket from the range's 12 decades or fewer to a relative width of 10⁻¹²; and since no
  // filter factor grows faster than λ itself, the residual grows at most like λ²,
  // so it then meets the target to about 2·10⁻¹².
  //
  // The target may lie outside what the range can reach. A σ so large that even
  // the largest λ (the restoration nearly zero, the residual nearly g itself) fits better
  // than the noise allows means that the noise is as strong as the image; a σ so
  // small that even the smallest λ fits worse means that the data disagree with the model
  // by more than σ (a wrong σ, or a wrong PSF). Either way the end of the range is
  // the nearest answer, and the text says so instead of failing.
  LambdaChoice choose_lambda_by_discrepancy(const Psf &psf, const lab::Matrix<double> &g, double sigma,
                                            const LambdaRange &range, double tau)
  {
    if (!(std::isfinite(sigma) && sigma > 0))
      throw lab::bad_input("the discrepancy principle needs the noise's standard deviation sigma > 0, not " +
                           text_of(sigma));
    if (!(std::isfinite(tau) && tau > 0))
      throw lab::bad_input("the discrepancy principle needs a factor tau > 0, not " + text_of(tau));
    const PeriodicSpectrum spectrum = mirrored_spectrum(psf, g);
    const double target = tau * tau * spectrum.pixels() * sigma * sigma;

    const std::string rule = "discrepancy principle (periodic model, mirrored image): ||H f - g||^2 = " +
                             std::string(tau == 1 ? "" : "tau^2 ") + "n sigma^2 with " +
                             (tau == 1 ? "" : "tau = " + text_of(tau) + ", ") + "sigma = " + text_of(sigma);
    if (spectrum.residual_norm2(range.largest) < target)
      return {range.largest, rule + " cannot hold: even lambda = " + text_of(range.largest) +
                               " fits better (the noise is as strong as the image); the end of the range"};
    if (spectrum.residual_norm2(range.smallest) > target)
      return {range.smallest, rule + " cannot hold: even lambda = " + text_of(range.smallest) +
                                " fits worse (is sigma, or the PSF, right?); the end of the range"};

    double low = std::log(range.smallest), high = std::log(range.largest);
    while (high - low > 1e-12)
      {
        const double middle = (low + high) / 2;
        if (spectrum.residual_norm2(std::exp(middle)) < target)
          low = middle;
        else
          high = middle;
      }
    const double lambda = std::exp((low + high) / 2);
    return {lambda, rule + " at lambda = " + text_of(lambda)};
  }

  // @sect3{The search with few evaluations}
  ResidualSearch find_lambda_where_residual_meets(const std::function<double(double)> &residual_norm2,
                                                  double target, const LambdaRange &range, double start,
                                                  int most_evaluations)
  {
    if (!(std::isfinite(target) && target > 0))
      throw lab::bad_input("the discrepancy principle needs a target residual > 0, not " + text_of(target));
    const double tolerance = 0.01, longest_step = 2 * std::log(10.0);
    const double low_end = std::log(range.smallest), high_end = std::log(range.largest);
    int evaluations = 0;
    // x = log λ, y = log(‖r‖² / target): the crossing is y = 0, y grows with x.
    auto y_at = [&](double x) {
      ++evaluations;
      return std::log(residual_norm2(std::exp(x)) / target);
    };
    auto found = [&](double x, const std::string &note) {
      return ResidualSearch{std::exp(x), evaluations,
                            "at lambda = " + text_of(std::exp(x)) + " after " + std::to_string(evaluations) +
                              " solves" + note};
    };
    const std::string unmet = ", the last of the most allowed (the target not met to 1 %)";

    // 1. Secant steps until the target is bracketed.
    double x = std::clamp(std::log(start), low_end, high_end), y = y_at(x);
    double slope = 1;
    while (std::abs(y) > tolerance)
      {
        if (evaluations >= most_evaluations)
          return found(x, unmet);
        const double next_x = std::clamp(x - std::clamp(y / slope, -longest_step, longest_step), low_end, high_end);
        if (next_x == x)
          return found(x, ", the end of the range: " +
                            std::string(y < 0 ? "even the largest lambda fits better than the noise allows"
                                              : "even the smallest lambda fits worse (is sigma, or the blur, right?)"));
        const double next_y = y_at(next_x);
        const bool bracketed = (next_y > 0) != (y > 0);
        const double secant = (next_y - y) / (next_x - x);
        if (!bracketed)
          {
            slope = secant > 0 ? secant : 1;
            x = next_x;
            y = next_y;
            continue;
          }

        // 2. Regula falsi with the Illinois rule between low (y < 0) and high (y > 0).
        double low = y < 0 ? x : next_x, low_y = std::min(y, next_y);
        double high = y < 0 ? next_x : x, high_y = std::max(y, next_y);
        x = next_x;
        y = next_y;
        int kept = 0; // +1: high kept on the last step, −1: low kept
        while (std::abs(y) > tolerance)
          {
            if (evaluations >= most_evaluations)
              return found(x, unmet);
            x = (low * high_y - high * low_y) / (high_y - low_y);
            y = y_at(x);
            if (y < 0)
              {
                low = x;
                low_y = y;
                if (kept == +1)
                  high_y /= 2;
                kept = +1;
              }
            else
              {
                high = x;
                high_y = y;
                if (kept == -1)
                  low_y /= 2;
                kept = -1;
              }
          }
      }
    return found(x, "");
  }
} // namespace step5
