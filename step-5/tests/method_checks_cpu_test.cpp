// CPU tests of step-5's checks (report/checks.h: check_method on η): each
// method's check is given the right answer, which must pass, and then wrong answers
// of the kinds a broken method produces, which must FAIL. The right answers are exact
// solutions, by a dense Cholesky solve in double, of the equations each method solves:
// the normal equations, the thesis' (HHᵀ + λI) f = Hᵀg, and the FFT filters' periodic
// model on the image and on its mirrored extension (fft_model.h), whose matrices the
// tests build from the CPU model pixel by pixel.
#include "methods/gauss_seidel.h"
#include "model/blur_model.h"
#include "model/fft_model.h"
#include "model/lambda_choice.h"
#include "report/checks.h"
#include "test_support.h"

#include <lab/checks.h>
#include <lab_catch.h>

#include <cmath>
#include <limits>
#include <utility>

namespace
{
  using namespace step5_test;
  using step5::Equations;
  using step5::MethodResult;

  // A 6 × 7 image blurred by an asymmetric 3 × 3 PSF (so that HᵀH ≠ HHᵀ and the
  // periodic model differs from the zero boundary), λ = 10⁻², judged with the
  // tolerances of a float run.
  struct Case
  {
    const int rows = 6, cols = 7;
    const double lambda = 1e-2;
    const Psf psf = shape_test_psfs()[2];
    const Image g = step5::blur(psf, random_image(rows, cols, 21));
    const double u = std::numeric_limits<float>::epsilon() / 2;
    const step5::Tolerances tolerances{step5::direct_tolerance(rows * cols, u),
                                       step5::inverse_tolerance(rows * cols, u, psf, lambda)};

    // The exact solution of the normal equations (HᵀH + λI) f = Hᵀg.
    Image normal_solution() const
    {
      return regularised_solution(gram(matrix_of([&](const Image &x) { return step5::blur(psf, x); }, rows, cols)),
                                  lambda, step5::blur_transpose(psf, g));
    }

    // A method's result with η computed as the program computes it.
    MethodResult result(const Image &image, Equations equations = Equations::normal) const
    {
      MethodResult m;
      m.name = "planted";
      m.image = image;
      m.equations = equations;
      m.backward_error = step5::backward_error(psf, g, lambda, image, equations);
      return m;
    }

    bool passes(const MethodResult &m) const
    {
      lab::Checks checks;
      step5::check_method(m, tolerances, "test", checks);
      return checks.failed() == 0 && checks.passed() > 0;
    }
  };

  Image with_pixel(Image image, int r, int c, double value)
  {
    image(r, c) = value;
    return image;
  }
} // namespace

TEST_CASE("planted: a direct method's image that is g, has a NaN pixel or two pixels swapped FAILs its eta check")
{
  const Case t;
  const Image f = t.normal_solution();
  CHECK(t.passes(t.result(f)));
  CHECK_FALSE(t.passes(t.result(t.g)));
  CHECK_FALSE(t.passes(t.result(with_pixel(f, 3, 4, std::numeric_limits<double>::quiet_NaN()))));
  CHECK_FALSE(t.passes(t.result(with_pixel(with_pixel(f, 0, 0, f(5, 6)), 5, 6, f(0, 0)))));
  // A method that failed gives no image, and its check fails with the reason.
  MethodResult failed = t.result(f);
  failed.failure = "not positive definite (column 0)";
  CHECK_FALSE(t.passes(failed));
}

// CG and Gauss–Seidel used to be judged on the residual they reported. An image that
// does not solve the equations now fails by η, computed on the host, however well
// the method says it converged.
TEST_CASE("planted: an iterative method that reports convergence for an image that is not the solution FAILs")
{
  const Case t;
  const step5::NormalStencil stencil = step5::normal_matrix_stencil(t.psf, t.rows, t.cols, t.lambda);
  const Image b = step5::blur_transpose(t.psf, t.g);
  const auto iterative = [&](const Image &image, const step5::IterationReport &report) {
    MethodResult m = t.result(image);
    m.kind = step5::MethodKind::iterative;
    m.tolerance = 1e-10;
    m.iterations = report;
    return m;
  };
  Image solved(t.rows, t.cols);
  const step5::IterationReport converged = step5::gauss_seidel(stencil, b, solved, 1e-12, 10000);
  REQUIRE(converged.converged);
  CHECK(t.passes(iterative(solved, converged)));
  // Three sweeps, reported as converged; and g itself, likewise.
  Image early(t.rows, t.cols);
  step5::IterationReport forged = step5::gauss_seidel(stencil, b, early, 1e-12, 3);
  CHECK_FALSE(forged.converged);
  forged.converged = true;
  forged.relative_residual = 1e-12;
  CHECK_FALSE(t.passes(iterative(early, forged)));
  CHECK_FALSE(t.passes(iterative(t.g, forged)));
  // The right image with a report that says it did not get there fails too.
  CHECK_FALSE(t.passes(iterative(solved, {3, 1e-3, false})));
}

// The thesis' formula solves (HHᵀ + λI) f = Hᵀg; for an asymmetric PSF that is not
// the normal equations, and each answer fails the other's check.
TEST_CASE("planted: the thesis' formula is checked against its own equations, not the normal ones")
{
  const Case t;
  const Image h = matrix_of([&](const Image &x) { return step5::blur(t.psf, x); }, t.rows, t.cols);
  const Image thesis = regularised_solution(outer_gram(h), t.lambda, step5::blur_transpose(t.psf, t.g));
  const Image normal = t.normal_solution();
  CHECK(t.passes(t.result(thesis, Equations::thesis)));
  CHECK_FALSE(t.passes(t.result(normal, Equations::thesis)));
  CHECK_FALSE(t.passes(t.result(thesis, Equations::normal)));
  CHECK_FALSE(t.passes(t.result(t.g, Equations::thesis)));
}

// The FFT filters used to be checked only for finite pixels. The periodic filter
// solves (CᵀC + λI) f = Cᵀg exactly: its answer passes; g, and the zero-boundary
// solution, fail.
TEST_CASE("planted: a periodic FFT filter that returns g or the zero-boundary solution FAILs")
{
  const Case t;
  const Image c = matrix_of([&](const Image &x) { return step5::periodic_blur(t.psf, x); }, t.rows, t.cols);
  const Image periodic = regularised_solution(gram(c), t.lambda, step5::periodic_blur_transpose(t.psf, t.g));
  CHECK(t.passes(t.result(periodic, Equations::periodic)));
  CHECK_FALSE(t.passes(t.result(t.g, Equations::periodic)));
  CHECK_FALSE(t.passes(t.result(t.normal_solution(), Equations::periodic)));
}

// The mirrored filter solves the periodic model on the 2R × 2C reflection of g. Its
// check takes the whole solution there: right, it passes; the solution for g tiled
// instead of reflected (a wrong extension), or the periodic filter's answer
// reflected, fail.
TEST_CASE("planted: a mirrored FFT filter with a wrong extension FAILs")
{
  const Case t;
  const int rows = 2 * t.rows, cols = 2 * t.cols;
  const Image c = matrix_of([&](const Image &x) { return step5::periodic_blur(t.psf, x); }, rows, cols);
  const auto solution_for = [&](const Image &extended) {
    return regularised_solution(gram(c), t.lambda, step5::periodic_blur_transpose(t.psf, extended));
  };
  CHECK(t.passes(t.result(solution_for(step5::mirrored(t.g)), Equations::mirrored)));
  Image tiled(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int col = 0; col < cols; ++col)
      tiled(r, col) = t.g(r % t.rows, col % t.cols);
  CHECK_FALSE(t.passes(t.result(solution_for(tiled), Equations::mirrored)));
  const Image small = matrix_of([&](const Image &x) { return step5::periodic_blur(t.psf, x); }, t.rows, t.cols);
  const Image periodic = regularised_solution(gram(small), t.lambda, step5::periodic_blur_transpose(t.psf, t.g));
  CHECK_FALSE(t.passes(t.result(step5::mirrored(periodic), Equations::mirrored)));
}

TEST_CASE("the periodic blur wraps around, and its transpose is its adjoint")
{
  const Case t;
  // A single bright pixel in the corner spreads to the opposite edges.
  Image corner(t.rows, t.cols);
  corner(0, 0) = 1;
  const Image blurred = step5::periodic_blur(t.psf, corner);
  for (int u = 0; u < t.psf.rows(); ++u)
    for (int v = 0; v < t.psf.cols(); ++v)
      CHECK(blurred((u - t.psf.centre_row() + t.rows) % t.rows, (v - t.psf.centre_col() + t.cols) % t.cols) ==
            t.psf.taps(u, v));
  // ⟨C x, y⟩ = ⟨x, Cᵀ y⟩.
  const Image x = random_image(t.rows, t.cols, 1), y = random_image(t.rows, t.cols, 2);
  CHECK(nearly_equal(dot(step5::periodic_blur(t.psf, x), y), dot(x, step5::periodic_blur_transpose(t.psf, y)), 1e-14));
  // The extension reflects at the right and bottom edges.
  const Image extended = step5::mirrored(x);
  CHECK(extended(2 * t.rows - 1, 2 * t.cols - 1) == x(0, 0));
  CHECK(extended(t.rows, 2) == x(t.rows - 1, 2));
}

TEST_CASE("planted: one never-written (NaN) pixel makes the tests' max_difference NaN")
{
  const Image a = random_image(4, 5, 3);
  const Image poisoned = with_pixel(a, 2, 3, std::numeric_limits<double>::quiet_NaN());
  CHECK(max_difference(a, a) == 0);
  CHECK(std::isnan(max_difference(poisoned, a)));
  CHECK_FALSE(max_difference(poisoned, a) <= 1e-15);
}
