// Choosing λ by generalised cross-validation or by the discrepancy principle (see
// lambda_choice.h).
#include "model/lambda_choice.h"

#include <lab/program.h>

#include <fftw3.h>
#include <omp.h>

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

    void check_finite(const lab::Matrix<double> &g)
    {
      for (int r = 0; r < g.rows(); ++r)
        for (int c = 0; c < g.cols(); ++c)
          if (!std::isfinite(g(r, c)))
            throw lab::bad_input("cannot choose lambda: the degraded image has a non-finite pixel at (" +
                                 std::to_string(r) + ", " + std::to_string(c) + ")");
    }

    // Numbers in messages the way people write them: 0.01, 1e-10.
    std::string text_of(double value)
    {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.3g", value);
      return buffer;
    }
  } // namespace

  // @sect3{The discrete Fourier transform, by a library}
  //
  // The 2-D transform's exponential splits into a factor for the rows and one for the
  // columns, so it could be written as two passes of 1-D transforms by their
  // definition: R·C² + C·R² products, O(n^1.5). An earlier version of the course did
  // that, and it is the honest first version: short, and easy to check against the
  // definition. It does not scale: a 12-megapixel photograph, mirrored (below), is
  // 48 million pixels, and the definition would take hours where a fast Fourier
  // transform (FFT) takes O(n log n), about a second. We use FFTW, the FFT library of
  // the CPU, as the course uses cuFFT on the GPU for the FFT filter (fft_filter.cu):
  // a plan is made for the size (FFTW_ESTIMATE: chosen from the size alone, without
  // timing trial runs), executed once and destroyed, on every core (FFTW's OpenMP
  // threads: the mirrored 12-megapixel image's transform took seconds on one). The tests
  // still compare its result with the defining sum.
  namespace
  {
    // Once per program, before the first plan: plans made after it use every core.
    void use_every_core()
    {
      static const bool ready = [] {
        fftw_init_threads();
        fftw_plan_with_nthreads(omp_get_max_threads());
        return true;
      }();
      (void)ready;
    }
  } // namespace

  std::vector<Complex> dft_2d(const lab::Matrix<double> &image)
  {
    use_every_core();
    const int rows = image.rows(), cols = image.cols();
    std::vector<Complex> result(static_cast<std::size_t>(rows) * cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        result[static_cast<std::size_t>(r) * cols + c] = image(r, c);
    // std::complex<double> and fftw_complex are laid out alike (two doubles), which
    // the C++ standard guarantees and FFTW's manual relies on.
    auto *data = reinterpret_cast<fftw_complex *>(result.data());
    const fftw_plan plan = fftw_plan_dft_2d(rows, cols, data, data, FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
    return result;
  }

  namespace
  {
    // The squared magnitudes |x̂_k|² of a real image's transform, without the complex
    // numbers themselves. The transform of a real image is Hermitian,
    // x̂(−k, −l) = conj(x̂(k, l)), so half of it holds all of it: FFTW's real-to-complex
    // transform computes rows × (cols/2 + 1) values, half the work and half the
    // memory of the full one. Column l of the half stands for itself and for column
    // cols − l, except l = 0 and, for even cols, l = cols/2, which stand for
    // themselves only: @p multiplicity says how often each value counts in a sum
    // over all frequencies.
    std::vector<double> half_power_spectrum(const lab::Matrix<double> &image)
    {
      use_every_core();
      const int rows = image.rows(), cols = image.cols(), half = cols / 2 + 1;
      std::vector<double> pixels(image.data(), image.data() + image.size());
      std::vector<Complex> spectrum(static_cast<std::size_t>(rows) * half);
      const fftw_plan plan = fftw_plan_dft_r2c_2d(rows, cols, pixels.data(),
                                                  reinterpret_cast<fftw_complex *>(spectrum.data()), FFTW_ESTIMATE);
      fftw_execute(plan);
      fftw_destroy_plan(plan);
      std::vector<double> power(spectrum.size());
      for (std::size_t k = 0; k < spectrum.size(); ++k)
        power[k] = std::norm(spectrum[k]);
      return power;
    }

    std::vector<double> multiplicity(int rows, int cols)
    {
      const int half = cols / 2 + 1;
      std::vector<double> counts(static_cast<std::size_t>(rows) * half);
      for (int r = 0; r < rows; ++r)
        for (int l = 0; l < half; ++l)
          counts[static_cast<std::size_t>(r) * half + l] = (l == 0 || 2 * l == cols) ? 1 : 2;
      return counts;
    }

    // The PSF placed on a rows × cols grid with its centre at (0, 0): tap (u, v) at
    // ((u − c_r) mod rows, (v − c_c) mod cols).
    lab::Matrix<double> placed_at_origin(const Psf &psf, int rows, int cols)
    {
      lab::Matrix<double> placed(rows, cols);
      for (int u = 0; u < psf.rows(); ++u)
        for (int v = 0; v < psf.cols(); ++v)
          {
            const int r = ((u - psf.centre_row()) % rows + rows) % rows;
            const int c = ((v - psf.centre_col()) % cols + cols) % cols;
            placed(r, c) += psf.taps(u, v);
          }
      return placed;
    }
  } // namespace

  // @sect3{The eigenvalues of the periodic blur}
  //
  // With wrap-around, the blur of blur_model.h reads f at ((r − u + c_r) mod R,
  // (c − v + c_c) mod C): a circular convolution of f with the PSF moved so that its
  // centre sits at (0, 0) and its other taps wrap to the far edges. The transform
  // turns a circular convolution into a product, frequency by frequency, so the
  // transform of that moved PSF holds H's eigenvalues.
  std::vector<Complex> periodic_blur_eigenvalues(const Psf &psf, int rows, int cols)
  {
    return dft_2d(placed_at_origin(psf, rows, cols));
  }

  // @sect3{The residual, the trace and G as sums over frequencies}
  //
  // The spectrum keeps only the squared magnitudes: the filter factor
  // λ/(|p̂_k|² + λ) multiplies ĝ_k, and ‖r‖² needs |r̂_k|², so the phases never enter.
  // And it keeps only half of the frequencies, each with its multiplicity
  // (half_power_spectrum above): the image and the PSF are real.
  PeriodicSpectrum::PeriodicSpectrum(const Psf &psf, const lab::Matrix<double> &g)
  {
    if (g.rows() == 0 || g.cols() == 0)
      throw lab::bad_input("cannot choose lambda for an empty image");
    check_psf(psf, g.rows(), g.cols());
    check_finite(g);
    pixels_ = static_cast<double>(g.size());
    psf_power_ = half_power_spectrum(placed_at_origin(psf, g.rows(), g.cols()));
    image_power_ = half_power_spectrum(g);
    multiplicity_ = multiplicity(g.rows(), g.cols());
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
        sum += multiplicity_[k] * filter * filter * image_power_[k];
      }
    return sum / pixels();
  }

  // The eigenvalues of A(λ) are |p̂_k|²/(|p̂_k|² + λ), those of I − A(λ) one minus
  // them, and a trace is the sum of the eigenvalues.
  double PeriodicSpectrum::residual_trace(double lambda) const
  {
    double sum = 0;
    for (std::size_t k = 0; k < psf_power_.size(); ++k)
      sum += multiplicity_[k] * lambda / (psf_power_[k] + lambda);
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

  lab::Matrix<double> without_rim(const lab::Matrix<double> &g, const Psf &psf)
  {
    const int top = psf.rows() - 1 - psf.centre_row(), bottom = psf.centre_row();
    const int left = psf.cols() - 1 - psf.centre_col(), right = psf.centre_col();
    const int rows = g.rows() - top - bottom, cols = g.cols() - left - right;
    if (2 * rows < psf.rows() || 2 * cols < psf.cols())
      return g;
    lab::Matrix<double> interior(rows, cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        interior(r, c) = g(r + top, c + left);
    return interior;
  }

  // The checks first that concern the image as given: the mirrored interior has
  // another size, so a PSF too large for g could pass check_psf there.
  PeriodicSpectrum spectrum_the_rules_see(const Psf &psf, const lab::Matrix<double> &g)
  {
    if (g.rows() == 0 || g.cols() == 0)
      throw lab::bad_input("cannot choose lambda for an empty image");
    check_psf(psf, g.rows(), g.cols());
    check_finite(g);
    return PeriodicSpectrum(psf, mirrored(without_rim(g, psf)));
  }

  namespace
  {
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
    const PeriodicSpectrum spectrum = spectrum_the_rules_see(psf, g);
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

    // The search assumes one minimum inside its bracket; should it end above the grid's
    // best point after all, that point is the answer.
    const Minimum minimum =
      golden_section_minimum(gcv_at, grid(std::max(best - 1, 0)), grid(std::min(best + 1, steps)), 1e-6);
    const double exponent = minimum.value <= best_value ? minimum.x : grid(best);

    const double lambda = std::pow(10.0, exponent);
    std::string how = "generalised cross-validation (periodic model, mirrored interior): G smallest at lambda = " +
                      text_of(lambda) + " in " + range_text(range);
    const bool at_end = best == 0 || best == steps;
    return {lambda, how, at_end ? "G may fall further beyond it" : ""};
  }

  Minimum golden_section_minimum(const std::function<double(double)> &f, double a, double b, double width)
  {
    const double golden = (std::sqrt(5.0) - 1) / 2;
    double x1 = b - golden * (b - a), x2 = a + golden * (b - a);
    double f1 = f(x1), f2 = f(x2);
    while (b - a > width)
      if (f1 < f2)
        {
          b = x2;
          x2 = x1;
          f2 = f1;
          x1 = b - golden * (b - a);
          f1 = f(x1);
        }
      else
        {
          a = x1;
          x1 = x2;
          f1 = f2;
          x2 = a + golden * (b - a);
          f2 = f(x2);
        }
    const double middle = (a + b) / 2;
    return {middle, f(middle)};
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
    const PeriodicSpectrum spectrum = spectrum_the_rules_see(psf, g);
    const double target = tau * tau * spectrum.pixels() * sigma * sigma;

    const std::string rule = "discrepancy principle (periodic model, mirrored interior): ||H f - g||^2 = " +
                             std::string(tau == 1 ? "" : "tau^2 ") + "n sigma^2 with " +
                             (tau == 1 ? "" : "tau = " + text_of(tau) + ", ") + "sigma = " + text_of(sigma);
    if (spectrum.residual_norm2(range.largest) < target)
      return {range.largest, rule + " cannot hold", "even lambda = " + text_of(range.largest) +
                                                      " fits better (the noise is as strong as the image)"};
    if (spectrum.residual_norm2(range.smallest) > target)
      return {range.smallest, rule + " cannot hold", "even lambda = " + text_of(range.smallest) +
                                                       " fits worse (is sigma, or the PSF, right?)"};

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
    return {lambda, rule + " at lambda = " + text_of(lambda), ""};
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
    auto found = [&](double x, const std::string &note, const std::string &range_end = "") {
      return ResidualSearch{std::exp(x), evaluations,
                            "at lambda = " + text_of(std::exp(x)) + " after " + std::to_string(evaluations) +
                              " solves" + note,
                            range_end};
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
          return found(x, ", the end of the range",
                       y < 0 ? "even the largest lambda fits better than the noise allows"
                             : "even the smallest lambda fits worse (is sigma, or the blur, right?)");
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
