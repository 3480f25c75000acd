// Tests of lab/residuals.h: relative residuals in double and the tolerances.
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include "test_support.h"

#include <cfloat>
#include <cmath>
#include <limits>
#include <stdexcept>

using lab_test::close;

namespace
{
  const double not_a_number = std::numeric_limits<double>::quiet_NaN();

  // A = [[4, 2], [2, 5]] = L Lᵀ with L = [[2, 0], [1, 2]]; ‖A‖_F = 7.
  lab::Matrix<double> two_by_two(double a00, double a10, double a11)
  {
    lab::Matrix<double> m(2, 2);
    m(0, 0) = a00;
    m(1, 0) = a10;
    m(0, 1) = a10;
    m(1, 1) = a11;
    return m;
  }
  lab::Matrix<double> factor(double l00, double l10, double l11)
  {
    lab::Matrix<double> l(2, 2);
    l(0, 0) = l00;
    l(1, 0) = l10;
    l(1, 1) = l11;
    return l;
  }
} // namespace

TEST_CASE("residuals: tolerance is constant * n * epsilon")
{
  CHECK(lab::tolerance<float>(8, 100) == 8 * 100 * double(FLT_EPSILON));
  CHECK(lab::tolerance<double>(8, 100) == 8 * 100 * DBL_EPSILON);
  CHECK(lab::tolerance<double>(1, 1) == DBL_EPSILON);
  CHECK(lab::tolerance<float>(2, 1024) == 2048 * std::ldexp(1.0, -23));
}

TEST_CASE("residuals: cholesky_residual is 0 for the exact factor")
{
  // The 2011 course matrix is made of integers: L Lᵀ is exact in double.
  const int n = GENERATE(1, 2, 10);
  INFO("n " << n);
  CHECK(lab::cholesky_residual(lab::course_2011_spd<double>(n),
                               lab::course_2011_factor<double>(n)) == 0.0);
  CHECK(lab::cholesky_residual(lab::course_2011_spd<float>(n),
                               lab::course_2011_factor<float>(n)) == 0.0);
}

TEST_CASE("residuals: cholesky_residual of a perturbed 2 x 2 factor")
{
  const lab::Matrix<double> a = two_by_two(4, 2, 5);
  REQUIRE(lab::cholesky_residual(a, factor(2, 1, 2)) == 0.0);
  SECTION("diagonal entry")
  {
    // L(1,1) = 2.5: (L Lᵀ)(1,1) = 1 + 6.25, off by 2.25; nothing else changes.
    CHECK(lab::cholesky_residual(a, factor(2, 1, 2.5)) == 2.25 / 7.0);
  }
  SECTION("off-diagonal entry")
  {
    // L(1,0) = 1.5: (L Lᵀ)(1,0) = (L Lᵀ)(0,1) = 3 (off by 1, twice),
    // (L Lᵀ)(1,1) = 2.25 + 4 (off by 1.25).
    const double expected = std::sqrt(1 + 1 + 1.25 * 1.25) / 7.0;
    CAPTURE(expected);
    CHECK(close(lab::cholesky_residual(a, factor(2, 1.5, 2)), expected, 1e-15));
  }
  SECTION("float")
  {
    const double r = lab::cholesky_residual(lab::convert<float>(a),
                                            lab::convert<float>(factor(2, 1, 2.5)));
    CHECK(r == 2.25 / 7.0);
  }
}

TEST_CASE("residuals: cholesky_residual reads only the lower triangles")
{
  const int n = 10;
  const lab::Matrix<double> a = lab::course_2011_spd<double>(n);
  // The factor in a padded matrix, with garbage above the diagonal and in the padding.
  lab::Matrix<double> l(n, n, n + 3);
  const lab::Matrix<double> exact = lab::course_2011_factor<double>(n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n + 3; ++c)
      l.data()[r * l.ld() + c] = c <= r ? exact(r, c) : (c % 2 ? not_a_number : 1e30 * (c + 1));
  CHECK(lab::cholesky_residual(a, l) == 0.0);

  // Garbage in the upper triangle of A is ignored too.
  lab::Matrix<double> a_lower = a;
  for (int r = 0; r < n; ++r)
    for (int c = r + 1; c < n; ++c)
      a_lower(r, c) = -12345.0;
  CHECK(lab::cholesky_residual(a_lower, l) == 0.0);
}

TEST_CASE("residuals: NaN in the factor gives NaN, which fails every check")
{
  const int n = 10;
  const lab::Matrix<double> a = lab::course_2011_spd<double>(n);
  const int row = GENERATE(0, 5, 9);
  const int col = GENERATE(0, 3, 9);
  if (col > row)
    return; // above the diagonal: ignored (tested above)
  INFO("NaN at (" << row << ", " << col << ")");
  lab::Matrix<double> l = lab::course_2011_factor<double>(n);
  l(row, col) = not_a_number;
  const double r = lab::cholesky_residual(a, l);
  CHECK(std::isnan(r));
  const double tol = lab::tolerance<double>(8, n);
  CHECK_FALSE(r <= tol);

  lab::Matrix<float> lf = lab::course_2011_factor<float>(n);
  lf(row, col) = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(lab::cholesky_residual(lab::course_2011_spd<float>(n), lf)));
}

TEST_CASE("residuals: cholesky_residual refuses matrices of different shapes")
{
  CHECK_THROWS_AS(lab::cholesky_residual(lab::Matrix<double>(3, 3), lab::Matrix<double>(2, 2)),
                  std::invalid_argument);
  CHECK_THROWS_AS(lab::cholesky_residual(lab::Matrix<float>(3, 2), lab::Matrix<float>(3, 2)),
                  std::invalid_argument);
}

TEST_CASE("residuals: relative_error")
{
  lab::Matrix<double> reference(2, 2);
  reference(0, 0) = 3;
  reference(1, 1) = 4; // ‖R‖_F = 5
  SECTION("equal: 0")
  {
    CHECK(lab::relative_error(reference, reference) == 0.0);
    CHECK(lab::relative_error(lab::convert<float>(reference), reference) == 0.0);
  }
  SECTION("known values")
  {
    lab::Matrix<double> x = reference;
    x(0, 1) = 1; // ‖X − R‖_F = 1
    CHECK(lab::relative_error(x, reference) == 0.2);
    lab::Matrix<float> xf = lab::convert<float>(reference);
    xf(1, 1) = 4.5f;
    xf(1, 0) = -0.5f; // ‖X − R‖_F = √0.5
    CHECK(close(lab::relative_error(xf, reference), std::sqrt(0.5) / 5, 1e-15));
  }
  SECTION("the float result is compared in double")
  {
    lab::Matrix<double> r(1, 1);
    r(0, 0) = 0.1;
    lab::Matrix<float> x(1, 1);
    x(0, 0) = 0.1f;
    const double expected = std::abs(double(0.1f) - 0.1) / 0.1;
    CHECK(expected > 0);
    CHECK(close(lab::relative_error(x, r), expected, 1e-12));
  }
  SECTION("padding is ignored")
  {
    lab::Matrix<double> x(2, 2, 4);
    x(0, 0) = 3;
    x(1, 1) = 4;
    x.data()[2] = 99;
    x.data()[7] = not_a_number;
    CHECK(lab::relative_error(x, reference) == 0.0);
  }
  SECTION("NaN propagates")
  {
    lab::Matrix<double> x = reference;
    x(1, 0) = not_a_number;
    const double e = lab::relative_error(x, reference);
    CHECK(std::isnan(e));
    CHECK_FALSE(e <= 1.0);
    lab::Matrix<float> xf = lab::convert<float>(reference);
    xf(0, 0) = std::numeric_limits<float>::quiet_NaN();
    CHECK(std::isnan(lab::relative_error(xf, reference)));
  }
  SECTION("different shapes throw")
  {
    CHECK_THROWS_AS(lab::relative_error(lab::Matrix<double>(2, 3), reference),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab::relative_error(lab::Matrix<float>(3, 2), reference),
                    std::invalid_argument);
  }
}

TEST_CASE("residuals: the sampled Cholesky residual estimates the full one")
{
  const int n = 300;
  // The 2011 course's matrix, whose factor is known exactly.
  const lab::Matrix<double> a = lab::course_2011_spd<double>(n);
  const lab::Matrix<double> factor = lab::course_2011_factor<double>(n);
  // A perturbed factor: every entry off by a relative 1e-6, so the residual is about
  // 1e-6 everywhere and a sample must see the same.
  lab::Matrix<double> perturbed = factor;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      perturbed(i, j) *= 1 + 1e-6 * ((i * 7 + j * 3) % 5 - 2);
  const double full = lab::cholesky_residual(a, perturbed);
  const double sampled = lab::cholesky_residual_sampled(a, perturbed);
  CAPTURE(full, sampled);
  CHECK(full > 1e-8);
  CHECK(sampled > full / 3);
  CHECK(sampled < full * 3);
  CHECK(lab_test::close(lab::cholesky_residual_sampled(a, perturbed, 1), full, 1e-12));
  CHECK(lab::cholesky_residual_sampled(a, factor) < 1e-14);
  CHECK_THROWS_AS(lab::cholesky_residual_sampled(a, factor, 0), std::invalid_argument);
}

// The fault: a band of 16 rows of the factor never written (zeros, or NaN where the
// output was poisoned), as a tile row of a blocked factorisation that skipped it. The
// old sample, 64 random rows, could not see most of the 65 bands at n = 1040; one row
// in every band sees each of them.
TEST_CASE("planted: a zeroed or unwritten band of 16 rows of the factor FAILs the sampled residual")
{
  const int n = 1040;
  const lab::Matrix<double> a = lab::course_2011_spd<double>(n);
  lab::Matrix<double> factor = lab::course_2011_factor<double>(n);
  const double tolerance = lab::tolerance<double>(4, n);
  REQUIRE(lab::cholesky_residual_sampled(a, factor) <= tolerance);
  int missed = 0;
  for (int band = 0; band < n / 16; ++band)
    {
      const lab::Matrix<double> saved = factor;
      // Odd bands zeroed, even ones NaN (never written into a poisoned output).
      for (int i = 16 * band; i < 16 * band + 16; ++i)
        for (int j = 0; j <= i; ++j)
          factor(i, j) = band % 2 ? 0.0 : std::numeric_limits<double>::quiet_NaN();
      // A check passes when the residual is within the tolerance; NaN never is.
      missed += lab::cholesky_residual_sampled(a, factor) <= tolerance;
      factor = saved;
    }
  CHECK(missed == 0);
}

TEST_CASE("residuals: inverse_residual of an exact and of a perturbed inverse")
{
  // A = [[2, 0], [1, 1]] has the inverse [[0.5, 0], [-0.5, 1]].
  lab::Matrix<double> a = factor(2, 1, 1), x = factor(0.5, -0.5, 1);
  CHECK(lab::inverse_residual(a, x, 2) < 1e-16);
  // X(1, 1) off by 0.1: A X − I = [[0, 0], [0, 0.1]].
  x(1, 1) = 1.1;
  const double expected = 0.1 / (std::sqrt(6.0) * std::sqrt(0.25 + 0.25 + 1.21));
  CHECK(close(lab::inverse_residual(a, x, 2), expected, 1e-12));
  x(1, 1) = not_a_number;
  CHECK(std::isnan(lab::inverse_residual(a, x, 2)));
  CHECK_THROWS_AS(lab::inverse_residual(a, lab::Matrix<double>(3, 3), 3), std::invalid_argument);
}

TEST_CASE("residuals: solve_residual measures B − A X")
{
  // A = [[4, 2], [2, 5]], X = [1; 1] solves A X = [6; 7]; with B = [6; 8] the residual
  // is [0; 1].
  const lab::Matrix<double> a = two_by_two(4, 2, 5);
  lab::Matrix<double> x(2, 1), b(2, 1);
  x(0, 0) = x(1, 0) = 1;
  b(0, 0) = 6;
  b(1, 0) = 7;
  CHECK(lab::solve_residual(a, x, b, 1) == 0);
  b(1, 0) = 8;
  CHECK(close(lab::solve_residual(a, x, b, 1), 1 / (7 * std::sqrt(2.0)), 1e-12));
  CHECK_THROWS_AS(lab::solve_residual(a, x, lab::Matrix<double>(2, 2), 1), std::invalid_argument);
}

TEST_CASE("residuals: the sampled inverse residual estimates the full one")
{
  const int n = 300;
  const lab::Matrix<double> a = lab::random_diagonally_dominant<double>(n, 7);
  // An approximate inverse: the inverse of the diagonal, off by about 1/n everywhere.
  lab::Matrix<double> x(n, n);
  for (int i = 0; i < n; ++i)
    x(i, i) = 1 / a(i, i);
  const double full = lab::inverse_residual(a, x, n);
  const double sampled = lab::inverse_residual(a, x, 40);
  CAPTURE(full, sampled);
  CHECK(full > 1e-3);
  CHECK(sampled > full / 2);
  CHECK(sampled < full * 2);
}
