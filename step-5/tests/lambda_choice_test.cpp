// CPU tests of the choice of λ: the 2-D transform against its defining sum and
// Parseval's identity, the PSF's eigenvalues against a periodic blur computed pixel by
// pixel, the residual, the trace and G from the spectrum against the same quantities
// computed with dense matrices, the mirrored image and the range of λ, the
// discrepancy principle meeting its target, both rules choosing a λ near the best one
// on a blurred, noisy phantom, mirroring rescuing the discrepancy principle on an
// image whose opposite edges differ, the ends of the range, the search that gets by
// with few residuals (for a PSF field, where each costs a solve), one λ for a colour
// picture's channels, and the refusals.
#include "image_lambda.h"
#include "methods/sparse_cholesky.h"
#include "model/blur_model.h"
#include "model/lambda_choice.h"
#include "model/psf.h"
#include "test_support.h"

#include <lab/image_quality.h>
#include <lab/program.h>
#include <lab/test_images.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace
{
  using namespace step5_test;
  using Complex = std::complex<double>;

  constexpr double pi = 3.14159265358979323846;

  int wrapped(int i, int size) { return (i % size + size) % size; }

  // The blur of blur_model.h with wrap-around instead of a zero boundary, pixel by
  // pixel: a pixel that reaches past an edge reads the opposite edge.
  Image periodic_blur(const Psf &psf, const Image &f)
  {
    Image g(f.rows(), f.cols());
    for (int r = 0; r < f.rows(); ++r)
      for (int c = 0; c < f.cols(); ++c)
        for (int u = 0; u < psf.rows(); ++u)
          for (int v = 0; v < psf.cols(); ++v)
            g(r, c) += psf.taps(u, v) *
                       f(wrapped(r - u + psf.centre_row(), f.rows()), wrapped(c - v + psf.centre_col(), f.cols()));
    return g;
  }

  // The 2-D transform straight from its definition, each exponential from its own
  // angle: n² terms.
  std::vector<Complex> defining_sum(const Image &x)
  {
    const int rows = x.rows(), cols = x.cols();
    std::vector<Complex> x_hat(static_cast<std::size_t>(rows) * cols);
    for (int k = 0; k < rows; ++k)
      for (int l = 0; l < cols; ++l)
        for (int r = 0; r < rows; ++r)
          for (int c = 0; c < cols; ++c)
            x_hat[k * cols + l] += x(r, c) * std::polar(1.0, -2 * pi * (double(k) * r / rows + double(l) * c / cols));
    return x_hat;
  }

  double sum_of_squares(const Image &x)
  {
    double sum = 0;
    for (int r = 0; r < x.rows(); ++r)
      for (int c = 0; c < x.cols(); ++c)
        sum += x(r, c) * x(r, c);
    return sum;
  }

  double max_difference(const std::vector<Complex> &a, const std::vector<Complex> &b)
  {
    REQUIRE(a.size() == b.size());
    double largest = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
      largest = lab::nan_max(largest, std::abs(a[i] - b[i]));
    return largest;
  }

  // @sect3{Dense matrices for a tiny image}
  //
  // The n × n matrix of the periodic blur, column j the blur of the j-th unit image.
  Image periodic_blur_matrix(const Psf &psf, int rows, int cols)
  {
    const int n = rows * cols;
    Image h(n, n);
    for (int j = 0; j < n; ++j)
      {
        Image unit(rows, cols);
        unit(j / cols, j % cols) = 1;
        const Image column = periodic_blur(psf, unit);
        for (int i = 0; i < n; ++i)
          h(i, j) = column(i / cols, i % cols);
      }
    return h;
  }

  // @sect3{The periodic restoration, through the transform}
  //
  // ‖f_λ − f‖ for the periodic Tikhonov restoration f̂_λ = conj(p̂) ĝ / (|p̂|² + λ),
  // computed over the frequencies (Parseval, tested below) from the transforms of the
  // PSF, of g and of the true f.
  struct PeriodicRestoration
  {
    std::vector<Complex> p_hat, g_hat, f_hat;

    double error(double lambda) const
    {
      double sum = 0;
      for (std::size_t k = 0; k < p_hat.size(); ++k)
        sum += std::norm(std::conj(p_hat[k]) * g_hat[k] / (std::norm(p_hat[k]) + lambda) - f_hat[k]);
      return std::sqrt(sum / double(p_hat.size()));
    }

    // For images in [0, 1]: 10 log10(1 / MSE), MSE = ‖f_λ − f‖² / n.
    double psnr(double lambda) const
    {
      const double e = error(lambda);
      return 10 * std::log10(double(p_hat.size()) / (e * e));
    }
  };

  // The test problem of the step: the phantom, blurred (here with wrap-around), with
  // Gaussian noise of 0.01.
  struct Phantom
  {
    Psf psf = step5::gaussian_psf(1.5, 9);
    Image f = lab::shepp_logan(128);
    Image g = lab::add_gaussian_noise(periodic_blur(psf, f), 0.01, 2024);
  };

  // The range the program searches for solves in double.
  step5::LambdaRange double_range(const Psf &psf)
  {
    return step5::lambda_range(psf, std::numeric_limits<double>::epsilon() / 2);
  }
} // namespace

// @sect3{The transform}
TEST_CASE("step-5 CPU: the 2-D DFT equals its defining sum and keeps Parseval's identity")
{
  for (const auto &[rows, cols] : std::vector<std::pair<int, int>>{{5, 7}, {1, 1}, {1, 6}, {4, 1}, {6, 4}, {9, 8}})
    {
      CAPTURE(rows, cols);
      const Image x = lab::random_matrix<double>(rows, cols, 17);
      const std::vector<Complex> x_hat = step5::dft_2d(x);
      CHECK(max_difference(x_hat, defining_sum(x)) <= 1e-13 * rows * cols);
      double spectrum_energy = 0;
      for (const Complex &value : x_hat)
        spectrum_energy += std::norm(value);
      CHECK(nearly_equal(spectrum_energy / (rows * cols), sum_of_squares(x), 1e-13));
    }
}

TEST_CASE("step-5 CPU: the periodic blur multiplies the transform by the PSF's eigenvalues")
{
  std::vector<Psf> psfs = shape_test_psfs();
  psfs.push_back(step5::trail_psf(3, 30));
  for (const Psf &psf : psfs)
    for (const auto &[rows, cols] : std::vector<std::pair<int, int>>{{7, 11}, {8, 6}, {5, 5}})
      {
        CAPTURE(psf.name, rows, cols);
        const Image f = lab::random_matrix<double>(rows, cols, 23);
        const std::vector<Complex> p_hat = step5::periodic_blur_eigenvalues(psf, rows, cols);
        std::vector<Complex> expected = step5::dft_2d(f);
        for (std::size_t k = 0; k < expected.size(); ++k)
          expected[k] *= p_hat[k];
        CHECK(max_difference(step5::dft_2d(periodic_blur(psf, f)), expected) <= 1e-13 * rows * cols);
      }
}

// @sect3{The sums over frequencies}
TEST_CASE("step-5 CPU: residual, trace and G from the spectrum equal their dense computation")
{
  // A 6 × 5 image: H is 30 × 30. f_λ = (HᵀH + λI)⁻¹Hᵀg and the influence matrix
  // A = H (HᵀH + λI)⁻¹Hᵀ are formed as matrices.
  const int rows = 6, cols = 5, n = rows * cols;
  for (const Psf &psf : {psf_of({{0.0, 0.5, 0.3}, {0.1, 0.0, 0.1}}, "2x3"), step5::gaussian_psf(1, 3),
                         step5::trail_psf(3, 30)})
    for (double lambda : {1e-4, 1e-2, 0.3, 5.0})
      {
        CAPTURE(psf.name, lambda);
        const Image g = lab::random_matrix<double>(rows, cols, 31);
        const Image h = periodic_blur_matrix(psf, rows, cols), h_t = lab::transposed(h);
        Image normal = product(h_t, h);
        for (int i = 0; i < n; ++i)
          normal(i, i) += lambda;
        const Image f_lambda = cholesky_solve(normal, product(h_t, stacked(g)));
        const Image fitted = product(h, f_lambda);
        double residual = 0;
        for (int i = 0; i < n; ++i)
          residual += (fitted(i, 0) - g(i / cols, i % cols)) * (fitted(i, 0) - g(i / cols, i % cols));
        const Image influence = product(h, cholesky_solve(normal, h_t));
        double trace = n;
        for (int i = 0; i < n; ++i)
          trace -= influence(i, i);

        const step5::PeriodicSpectrum spectrum(psf, g);
        CHECK(spectrum.pixels() == n);
        CHECK(nearly_equal(spectrum.residual_norm2(lambda), residual, 1e-10));
        CHECK(nearly_equal(spectrum.residual_trace(lambda), trace, 1e-10));
        CHECK(nearly_equal(spectrum.gcv(lambda), n * residual / (trace * trace), 1e-10));
      }
}

// @sect3{The mirrored image and the range}
TEST_CASE("step-5 CPU: the mirrored image reflects g about its right and bottom edges")
{
  for (const auto &[rows, cols] : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {5, 4}})
    {
      CAPTURE(rows, cols);
      const Image g = lab::random_matrix<double>(rows, cols, 29);
      const Image m = step5::mirrored(g);
      REQUIRE(m.rows() == 2 * rows);
      REQUIRE(m.cols() == 2 * cols);
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
          {
            CHECK(m(r, c) == g(r, c));
            CHECK(m(r, 2 * cols - 1 - c) == g(r, c));
            CHECK(m(2 * rows - 1 - r, c) == g(r, c));
            CHECK(m(2 * rows - 1 - r, 2 * cols - 1 - c) == g(r, c));
          }
    }
}

TEST_CASE("step-5 CPU: the range of lambda runs from sqrt(u) (sum |p|)^2 to 100 (sum |p|)^2")
{
  const double u_float = std::numeric_limits<float>::epsilon() / 2, u_double = std::numeric_limits<double>::epsilon() / 2;
  const step5::LambdaRange gaussian_float = step5::lambda_range(step5::gaussian_psf(1.5, 9), u_float);
  CHECK(nearly_equal(gaussian_float.smallest, std::sqrt(u_float), 1e-12));
  CHECK(nearly_equal(gaussian_float.largest, 100, 1e-12));
  CHECK(nearly_equal(double_range(step5::gaussian_psf(1.5, 9)).smallest, std::sqrt(u_double), 1e-12));
  // The sharpening filter has negative taps: Σ|p| = (9 + α)/(1 + α), 7.83 for α = 0.2.
  const double taps_sum = 9.2 / 1.2;
  const step5::LambdaRange sharpen = step5::lambda_range(step5::sharpen_psf(0.2), u_float);
  CHECK(nearly_equal(sharpen.smallest, std::sqrt(u_float) * taps_sum * taps_sum, 1e-12));
  CHECK(nearly_equal(sharpen.largest, 100 * taps_sum * taps_sum, 1e-12));
}

// @sect3{The discrepancy principle}
TEST_CASE("step-5 CPU: the discrepancy principle makes the residual n tau^2 sigma^2")
{
  // The phantom with noise 0.01, and a smaller one with noise 0.02; σ from a little
  // below the noise that is there to a little above.
  const Phantom phantom;
  const Image small = lab::add_gaussian_noise(periodic_blur(phantom.psf, lab::shepp_logan(40)), 0.02, 5);
  const std::vector<std::pair<double, std::string>> phantom_sigmas = {{0.007, "0.007"}, {0.01, "0.01"}, {0.015, "0.015"}};
  const std::vector<std::pair<double, std::string>> small_sigmas = {{0.014, "0.014"}, {0.02, "0.02"}, {0.03, "0.03"}};
  for (const auto &[g, sigmas] : {std::make_pair(&phantom.g, phantom_sigmas), std::make_pair(&small, small_sigmas)})
    for (const auto &[sigma, sigma_text] : sigmas)
      for (double tau : {1.0, 1.2})
        {
          CAPTURE(g->rows(), sigma, tau);
          const step5::LambdaRange range = double_range(phantom.psf);
          const step5::LambdaChoice choice = step5::choose_lambda_by_discrepancy(phantom.psf, *g, sigma, range, tau);
          CAPTURE(choice.lambda, choice.how);
          CHECK(choice.lambda > range.smallest);
          CHECK(choice.lambda < range.largest);
          const step5::PeriodicSpectrum spectrum = step5::spectrum_the_rules_see(phantom.psf, *g);
          CHECK(nearly_equal(spectrum.residual_norm2(choice.lambda), tau * tau * spectrum.pixels() * sigma * sigma,
                             1e-6));
          CHECK(contains(choice.how, "discrepancy"));
          CHECK(contains(choice.how, "sigma = " + sigma_text));
          CHECK(contains(choice.how, "tau = 1.2") == (tau != 1));
        }
}

TEST_CASE("step-5 CPU: where no lambda meets the target, the end of the range, said so")
{
  const Phantom phantom;
  const step5::LambdaRange range = double_range(phantom.psf);
  // Noise far stronger than the image: even λ = 100 fits better than that.
  const step5::LambdaChoice large = step5::choose_lambda_by_discrepancy(phantom.psf, phantom.g, 10, range);
  CHECK(large.lambda == range.largest);
  CHECK(contains(large.how, "cannot hold"));
  CHECK(contains(large.range_end, "even lambda = 100 fits better"));
  // A σ far below the noise that is there: even the smallest λ fits worse.
  const step5::LambdaChoice small = step5::choose_lambda_by_discrepancy(phantom.psf, phantom.g, 1e-9, range);
  CHECK(small.lambda == range.smallest);
  CHECK(contains(small.how, "cannot hold"));
  CHECK(contains(small.range_end, "fits worse"));
}

// @sect3{The search with few evaluations}
//
// The periodic residual stands in for a solve: the search from starts far from the
// crossing, on either side, must find the λ that bisection finds, to the 1 % in the
// residual that it promises, within a handful of evaluations (the program starts it
// from the periodic rule's λ of the mean PSF, rarely a factor 10 off); where the target lies
// beyond the range, or the residual jumps over it, it must say so instead of claiming
// a crossing.
TEST_CASE("step-5 CPU: the search with few solves finds the crossing bisection finds")
{
  const Phantom phantom;
  const step5::LambdaRange range = double_range(phantom.psf);
  const step5::PeriodicSpectrum spectrum = step5::spectrum_the_rules_see(phantom.psf, phantom.g);
  const auto residual = [&](double lambda) { return spectrum.residual_norm2(lambda); };
  for (double sigma : {0.005, 0.01, 0.02})
    {
      const double target = spectrum.pixels() * sigma * sigma;
      const double bisected = step5::choose_lambda_by_discrepancy(phantom.psf, phantom.g, sigma, range).lambda;
      for (double start : {bisected / 100, bisected / 10, bisected * 3, bisected * 1000, range.smallest, range.largest})
        {
          CAPTURE(sigma, bisected, start);
          const step5::ResidualSearch search = step5::find_lambda_where_residual_meets(residual, target, range, start);
          CAPTURE(search.lambda, search.evaluations, search.how);
          CHECK(std::abs(std::log(residual(search.lambda) / target)) <= 0.01);
          CHECK(std::abs(search.lambda / bisected - 1) < 0.03);
          // From a start within a factor 100 of the crossing, a handful; from the
          // range's far ends, within the default most.
          const bool near = start >= bisected / 100 && start <= bisected * 100;
          CHECK(search.evaluations <= (near ? 8 : 12));
          CHECK(!contains(search.how, "not met"));
          CHECK(contains(search.how, "after " + std::to_string(search.evaluations) + " solves"));
          CHECK(!contains(search.how, "end of the range"));
          CHECK(search.range_end.empty());
        }
    }
}

TEST_CASE("step-5 CPU: the search says where the target lies beyond the range or is jumped over")
{
  const Phantom phantom;
  const step5::LambdaRange range = double_range(phantom.psf);
  const step5::PeriodicSpectrum spectrum(phantom.psf, step5::mirrored(phantom.g));
  const auto residual = [&](double lambda) { return spectrum.residual_norm2(lambda); };
  const step5::ResidualSearch above =
    step5::find_lambda_where_residual_meets(residual, 1e6 * spectrum.residual_norm2(range.largest), range, 1e-3);
  CHECK(nearly_equal(above.lambda, range.largest, 1e-12));
  CHECK(contains(above.how, "end of the range"));
  CHECK(contains(above.range_end, "even the largest lambda"));
  const step5::ResidualSearch below =
    step5::find_lambda_where_residual_meets(residual, 1e-6 * spectrum.residual_norm2(range.smallest), range, 1e-3);
  CHECK(nearly_equal(below.lambda, range.smallest, 1e-12));
  CHECK(contains(below.how, "end of the range"));
  CHECK(contains(below.range_end, "even the smallest lambda"));
  // A residual that jumps from half the target to twice it at λ = 0.01: no λ meets it.
  const step5::ResidualSearch jump = step5::find_lambda_where_residual_meets(
    [](double lambda) { return lambda < 0.01 ? 0.5 : 2.0; }, 1, range, 1e-3, 10);
  CHECK(jump.evaluations == 10);
  CHECK(std::abs(std::log(jump.lambda / 0.01)) < 0.5);
  CHECK(contains(jump.how, "target not met"));
}

// @sect3{Both rules on the phantom}
//
// The periodic restoration's error over a fine grid of λ (40 points per decade, none
// of them on the grid that GCV searches first) gives the best λ; each rule's λ must restore nearly as well: a PSNR at most 1.5 dB below
// the best (an error at most 1.19 times the best). G at the λ that GCV returns must
// also be no larger than at any point of the fine grid.
TEST_CASE("step-5 CPU: GCV and the discrepancy principle choose lambda near the best on the phantom")
{
  const Phantom phantom;
  const PeriodicRestoration restoration{step5::periodic_blur_eigenvalues(phantom.psf, 128, 128),
                                        step5::dft_2d(phantom.g), step5::dft_2d(phantom.f)};
  const step5::PeriodicSpectrum spectrum = step5::spectrum_the_rules_see(phantom.psf, phantom.g);
  const step5::LambdaRange range = double_range(phantom.psf);
  const step5::LambdaChoice gcv = step5::choose_lambda_by_gcv(phantom.psf, phantom.g, range);
  const step5::LambdaChoice discrepancy = step5::choose_lambda_by_discrepancy(phantom.psf, phantom.g, 0.01, range);

  double best_lambda = 0, best_error = std::numeric_limits<double>::infinity();
  double smallest_gcv = std::numeric_limits<double>::infinity();
  const double low = std::log10(range.smallest), decades = std::log10(range.largest) - low;
  for (int i = 0; i < decades * 40 - 1; ++i)
    {
      const double lambda = std::pow(10.0, low + (i + 0.5) / 40.0);
      if (restoration.error(lambda) < best_error)
        {
          best_error = restoration.error(lambda);
          best_lambda = lambda;
        }
      smallest_gcv = std::min(smallest_gcv, spectrum.gcv(lambda));
    }

  CAPTURE(best_lambda, restoration.psnr(best_lambda));
  CAPTURE(gcv.lambda, restoration.psnr(gcv.lambda), gcv.how);
  CAPTURE(discrepancy.lambda, restoration.psnr(discrepancy.lambda), discrepancy.how);
  CHECK(contains(gcv.how, "cross-validation"));
  CHECK(spectrum.gcv(gcv.lambda) <= smallest_gcv * (1 + 1e-12));
  CHECK(restoration.psnr(gcv.lambda) >= restoration.psnr(best_lambda) - 1.5);
  CHECK(restoration.psnr(discrepancy.lambda) >= restoration.psnr(best_lambda) - 1.5);
  // The restoration itself is worth having: better than the blurred image.
  Image difference(128, 128);
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < 128; ++c)
      difference(r, c) = phantom.g(r, c) - phantom.f(r, c);
  CHECK(best_error < std::sqrt(sum_of_squares(difference)));
}

// @sect3{An image whose opposite edges differ}
//
// A 24 × 24 image that brightens from 0.1 at the top to 0.4 at the bottom, with a
// bright square and a dark disc, blurred with the zero boundary of blur_model.h and
// given noise of 0.01. The exact restoration, (HᵀH + λI)⁻¹Hᵀg with dense matrices,
// over a grid of λ gives the best PSNR. The discrepancy principle on the exact
// residual (the dense solves themselves), its search started from the periodic
// choice as the program starts it, must come within 2 dB of it and beat the blurred
// image. The same principle on the periodic model of g itself, which sees a jump
// where the bottom wraps round to the top, must do at least 3 dB worse (it chooses a
// λ a thousand times smaller, and a restoration worse than the blurred image).
//
// The periodic choice alone (the mirrored interior) is not asserted: on this image,
// small and steep, it is poor. Mirroring a ramp makes a kink at each seam, which the
// reflecting model explains only with fine detail (a small λ): 2·10⁻⁴ where the best
// is 6·10⁻³, 15.4 dB where the blurred image has 18.8. That is why the program
// searches on the exact equations wherever it can (image_lambda.h); on photographs of
// a realistic size the ramps are gentle over a PSF's width, and the periodic choice
// is close (the test of noise_estimate_test.cpp, and the restore benchmark).
TEST_CASE("step-5 CPU: where opposite edges differ, the exact residual makes the discrepancy principle work")
{
  const int side = 24, n = side * side;
  const double sigma = 0.01;
  const Psf psf = step5::gaussian_psf(1.5, 9);
  Image f(side, side);
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c)
      {
        f(r, c) = 0.1 + 0.3 * r / (side - 1);
        if (r >= 4 && r < 10 && c >= 13 && c < 20)
          f(r, c) = 1;
        if ((r - 16) * (r - 16) + (c - 7) * (c - 7) <= 16)
          f(r, c) = 0.05;
      }
  const Image g = lab::add_gaussian_noise(step5::blur(psf, f), sigma, 77);
  const Image h = step5::blur_matrix<double>(psf, side, side), h_t = lab::transposed(h);
  const Image normal = product(h_t, h), right_side = product(h_t, stacked(g));
  const auto psnr_at = [&](double lambda) {
    Image shifted = normal;
    for (int i = 0; i < n; ++i)
      shifted(i, i) += lambda;
    return lab::psnr(f, unstacked(cholesky_solve(shifted, right_side), side, side));
  };
  double best_psnr = -std::numeric_limits<double>::infinity(), best_lambda = 0;
  for (int i = 0; i <= 20; ++i)
    {
      const double lambda = std::pow(10.0, -5 + i / 4.0);
      if (psnr_at(lambda) > best_psnr)
        {
          best_psnr = psnr_at(lambda);
          best_lambda = lambda;
        }
    }
  const step5::LambdaChoice periodic = step5::choose_lambda_by_discrepancy(psf, g, sigma, double_range(psf));
  const auto exact_residual = [&](double lambda) {
    Image shifted = normal;
    for (int i = 0; i < n; ++i)
      shifted(i, i) += lambda;
    const Image f_lambda = unstacked(cholesky_solve(shifted, right_side), side, side);
    const Image r = step5::blur(psf, f_lambda);
    double sum = 0;
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j)
        sum += (r(i, j) - g(i, j)) * (r(i, j) - g(i, j));
    return sum;
  };
  const step5::ResidualSearch choice =
    step5::find_lambda_where_residual_meets(exact_residual, n * sigma * sigma, double_range(psf), periodic.lambda);
  // The same principle on the periodic model of g itself: the smallest λ of a fine
  // grid (40 per decade) whose residual reaches the target.
  const step5::PeriodicSpectrum unmirrored(psf, g);
  double unmirrored_lambda = double_range(psf).smallest;
  while (unmirrored.residual_norm2(unmirrored_lambda) < n * sigma * sigma)
    unmirrored_lambda *= std::pow(10.0, 1 / 40.0);
  CAPTURE(best_lambda, best_psnr, lab::psnr(f, g));
  CAPTURE(periodic.lambda, psnr_at(periodic.lambda), choice.lambda, choice.how);
  CAPTURE(psnr_at(choice.lambda), unmirrored_lambda, psnr_at(unmirrored_lambda));
  CHECK(psnr_at(choice.lambda) >= best_psnr - 2);
  CHECK(psnr_at(choice.lambda) > lab::psnr(f, g));
  CHECK(psnr_at(choice.lambda) >= psnr_at(unmirrored_lambda) + 3);
}

// @sect3{Refusals}
// @sect3{One λ for a colour picture}
//
// Three channels of different noise (σ = 0.005, 0.01, 0.02) get one λ: between the
// smallest and the largest of the channels' own choices and, where the build has
// CHOLMOD for the exact search, the λ at which the channels' exact residuals, summed,
// meet the sum of their n σ_c², computed here by dense Cholesky solves, not by the
// search's own solver.
TEST_CASE("step-5 CPU: a colour picture's one lambda meets the channels' discrepancies summed")
{
  const int side = 20, n = side * side;
  const Psf psf = step5::gaussian_psf(1.5, 9);
  const std::vector<double> sigmas = {0.005, 0.01, 0.02};
  const Image phantom = lab::shepp_logan(side);
  std::vector<Image> channels;
  for (std::size_t c = 0; c < sigmas.size(); ++c)
    {
      Image f = phantom;
      for (std::size_t i = 0; i < f.size(); ++i)
        f.data()[i] = 0.2 + (0.3 + 0.2 * double(c)) * f.data()[i];
      channels.push_back(lab::add_gaussian_noise(step5::blur(psf, f), sigmas[c], 40 + c));
    }
  const step5::SampledField field = step5::sample_field(step5::constant_field(psf), side, side);
  const std::vector<step5::DeviceProblem<double> *> no_gpu;
  double smallest = std::numeric_limits<double>::infinity(), largest = 0;
  for (std::size_t c = 0; c < channels.size(); ++c)
    {
      const double own = step5::choose_image_lambda<double>("auto", field, psf, channels[c], sigmas[c], nullptr).lambda;
      smallest = std::min(smallest, own);
      largest = std::max(largest, own);
    }
  const step5::ImageLambda chosen = step5::choose_picture_lambda<double>(
    "auto", field, psf, channels, {sigmas[0], sigmas[1], sigmas[2]}, no_gpu);
  CAPTURE(smallest, largest, chosen.lambda, chosen.detail);
  CHECK(chosen.lambda >= smallest);
  CHECK(chosen.lambda <= largest);
  CHECK(nearly_equal(chosen.sigma, std::sqrt((0.005 * 0.005 + 0.01 * 0.01 + 0.02 * 0.02) / 3), 1e-12));
  if (!step5::have_cholmod())
    return;
  // The exact residuals at the chosen λ, summed over the channels.
  const Image h = step5::blur_matrix<double>(psf, side, side), h_t = lab::transposed(h);
  Image normal = product(h_t, h);
  for (int i = 0; i < n; ++i)
    normal(i, i) += chosen.lambda;
  double residual = 0, target = 0;
  for (std::size_t c = 0; c < channels.size(); ++c)
    {
      const Image f = unstacked(cholesky_solve(normal, product(h_t, stacked(channels[c]))), side, side);
      const Image blurred = step5::blur(psf, f);
      for (std::size_t i = 0; i < blurred.size(); ++i)
        residual += (blurred.data()[i] - channels[c].data()[i]) * (blurred.data()[i] - channels[c].data()[i]);
      target += n * sigmas[c] * sigmas[c];
    }
  CAPTURE(residual, target);
  CHECK(contains(chosen.detail, "summed over 3 channels"));
  CHECK(nearly_equal(residual, target, 0.02));
}

TEST_CASE("step-5 CPU: the choice of lambda refuses sigma <= 0, NaN, a non-finite pixel and a PSF too large")
{
  const Psf psf = step5::gaussian_psf(1, 3);
  const Image g = lab::random_matrix<double>(8, 9, 41);
  const double nan = std::numeric_limits<double>::quiet_NaN(), infinity = std::numeric_limits<double>::infinity();
  for (double sigma : {0.0, -0.01, nan, infinity})
    {
      CAPTURE(sigma);
      const std::string refusal =
        refusal_of([&] { step5::choose_lambda_by_discrepancy(psf, g, sigma, double_range(psf)); });
      CHECK(contains(refusal, "sigma > 0"));
      CHECK(!contains(refusal, "\n"));
    }
  for (double tau : {0.0, nan})
    CHECK(contains(refusal_of([&] { step5::choose_lambda_by_discrepancy(psf, g, 0.01, double_range(psf), tau); }), "tau > 0"));

  Image bad = g;
  bad(3, 4) = nan;
  CHECK(contains(refusal_of([&] { step5::choose_lambda_by_gcv(psf, bad, double_range(psf)); }), "non-finite pixel at (3, 4)"));
  CHECK(contains(refusal_of([&] { step5::choose_lambda_by_discrepancy(psf, bad, 0.01, double_range(psf)); }), "non-finite pixel"));
  CHECK(contains(refusal_of([&] { step5::choose_lambda_by_gcv(psf, Image(), double_range(psf)); }), "empty image"));
  CHECK(contains(refusal_of([&] { step5::choose_lambda_by_gcv(step5::gaussian_psf(1, 9), g, double_range(psf)); }), "larger than"));
}
