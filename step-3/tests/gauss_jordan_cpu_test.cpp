// CPU tests of step-3's Gauss–Jordan reference: inverses known exactly, the residual
// bound on matrices that need pivoting and on badly scaled ones, singular matrices
// reported with the right column and an all-zero X, the matrix on which pivoting
// matters; and the lookup of the GPU variants by name (no GPU needed).
#include "gauss_jordan/gauss_jordan.h"
#include "gauss_jordan/gauss_jordan_cpu.h"
#include "gauss_jordan/unstable_example.h"
#include "gauss_jordan_matrices.h"
#include "result_checks.h"

#include <lab/checks.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <cmath>
#include <limits>

using namespace gauss_jordan_test;

TEST_CASE("step-3 CPU: Gauss-Jordan inverts a 2 x 2 matrix that needs a row swap")
{
  lab::Matrix<double> a(2, 2), x;
  a(0, 0) = 0;
  a(0, 1) = 2;
  a(1, 0) = 4;
  a(1, 1) = 1; // inverse: [[-1/8, 1/4], [1/2, 0]], every entry exact in binary
  REQUIRE(step3::gauss_jordan_cpu(a, x) == 0);
  CHECK(x(0, 0) == -0.125);
  CHECK(x(0, 1) == 0.25);
  CHECK(x(1, 0) == 0.5);
  CHECK(x(1, 1) == 0);
}

TEST_CASE("step-3 CPU: Gauss-Jordan on the thesis' 3 x 3 example")
{
  // The thesis prints 5/6 for X(0, 0); it is 5/3 (row 0 of A times column 0 of X must
  // be 1: 5/3 - 8/3 + 2).
  const double values[3][3] = {{1, 2, 3}, {4, 5, 0}, {0, 1, 2}};
  const double inverse[3][3] = {{5.0 / 3, -1.0 / 6, -2.5}, {-4.0 / 3, 1.0 / 3, 2}, {2.0 / 3, -1.0 / 6, -0.5}};
  lab::Matrix<double> a(3, 3), x;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      a(i, j) = values[i][j];
  REQUIRE(step3::gauss_jordan_cpu(a, x) == 0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      {
        INFO("entry (" << i << ", " << j << ")");
        CHECK(std::abs(x(i, j) - inverse[i][j]) <= 1e-15);
      }
}

TEST_CASE("step-3 CPU: Gauss-Jordan meets the residual bound (c = 4)")
{
  for (const int n : {1, 2, 17, 100, 257})
    {
      INFO("n = " << n);
      const lab::Matrix<double> a = lab::random_matrix<double>(n, n, 20 + n);
      lab::Matrix<double> x;
      REQUIRE(step3::gauss_jordan_cpu(a, x) == 0);
      CHECK(lab::inverse_residual(a, x, n) <= lab::tolerance<double>(4, n));
      const lab::Matrix<float> af = lab::random_matrix<float>(n, n, 30 + n);
      lab::Matrix<float> xf;
      REQUIRE(step3::gauss_jordan_cpu(af, xf) == 0);
      CHECK(lab::inverse_residual(af, xf, n) <= lab::tolerance<float>(4, n));
      const lab::Matrix<float> swaps = needs_swaps<float>(n, 40 + n);
      REQUIRE(step3::gauss_jordan_cpu(swaps, xf) == 0);
      CHECK(lab::inverse_residual(swaps, xf, n) <= lab::tolerance<float>(4, n));
    }
}

TEST_CASE("step-3 CPU: Gauss-Jordan's singularity test does not depend on the matrix's scale")
{
  const int n = 50;
  for (const double scale : {1e-30, 1e30})
    {
      INFO("scale " << scale);
      lab::Matrix<float> a = lab::random_matrix<float>(n, n, 5);
      for (std::size_t e = 0; e < a.size(); ++e)
        a.data()[e] = static_cast<float>(a.data()[e] * scale);
      lab::Matrix<float> x;
      REQUIRE(step3::gauss_jordan_cpu(a, x) == 0);
      CHECK(lab::inverse_residual(a, x, n) <= lab::tolerance<float>(4, n));
    }
}

TEST_CASE("step-3 CPU: Gauss-Jordan reports a singular matrix with its column, X all zero")
{
  const int n = 70;
  for (const int j : {0, 33, n - 1})
    {
      INFO("zero column " << j);
      lab::Matrix<double> x;
      CHECK(step3::gauss_jordan_cpu(with_zero_column<double>(n, j, 3), x) == j + 1);
      CHECK(all_zero(x));
      lab::Matrix<float> xf;
      CHECK(step3::gauss_jordan_cpu(with_zero_column<float>(n, j, 3), xf) == j + 1);
      CHECK(all_zero(xf));
    }
  lab::Matrix<float> x;
  CHECK(step3::gauss_jordan_cpu(with_equal_rows<float>(n, 5, 40, 4), x) == n);
  CHECK(all_zero(x));
  lab::Matrix<double> xd;
  CHECK(step3::gauss_jordan_cpu(with_equal_rows<double>(n, 5, 40, 4), xd) == n);
  CHECK(all_zero(xd));
  lab::Matrix<double> zero(3, 3);
  CHECK(step3::gauss_jordan_cpu(zero, xd) == 1);
}

TEST_CASE("step-3 CPU: Gauss-Jordan with partial pivoting inverts the matrix the thesis' rule cannot")
{
  const lab::Matrix<float> a = step3::unstable_example<float>();
  lab::Matrix<float> x;
  REQUIRE(step3::gauss_jordan_cpu(a, x) == 0);
  CHECK(lab::inverse_residual(a, x, 2) <= lab::tolerance<float>(4, 2));
  CHECK(x(0, 0) == -1.0f);
  const lab::Matrix<double> ad = step3::unstable_example<double>();
  lab::Matrix<double> xd;
  REQUIRE(step3::gauss_jordan_cpu(ad, xd) == 0);
  CHECK(lab::inverse_residual(ad, xd, 2) <= lab::tolerance<double>(4, 2));
}

namespace
{
  // A = [[δ, 1], [1, 1]] in double with δ = 1e-8: an easy matrix (condition about 2.6)
  // whose first pivot, without pivoting, is δ. Unlike the unstable example's 1e-20, δ
  // is far above the singularity test's n ε max|A| = 4.4e-16, so an elimination
  // without pivoting does not stop at it: it divides by it and goes on. Dividing by δ
  // makes the multiplier 10⁸, which costs eight of double's sixteen digits.
  //
  // The CPU reference computes in double whatever its input, and a float input's
  // pivots must be above n ε of float (2.4e-7 here): 10⁸ times that ε is still far
  // below double's, so on a float matrix the CPU without pivoting loses nothing a
  // float can show. That is how the unstable example in float, and a float test, let
  // the pivoting go missing from the CPU unseen: only a double matrix tells.
  constexpr double usable_small_pivot = 1e-8;

  lab::Matrix<double> small_usable_pivot(bool rows_swapped)
  {
    lab::Matrix<double> a(2, 2);
    a(0, 0) = rows_swapped ? 1 : usable_small_pivot;
    a(1, 0) = rows_swapped ? usable_small_pivot : 1;
    a(0, 1) = a(1, 1) = 1;
    return a;
  }
} // namespace

// Partial pivoting makes the order of the rows irrelevant: on A and on A with its rows
// swapped it chooses the same pivot rows and does the same operations, so the two
// inverses are the same numbers, X's columns swapped, bit for bit. Without pivoting
// the first loses half its digits and the second does not.
TEST_CASE("step-3 CPU: Gauss-Jordan pivots by magnitude also where the small pivot is usable")
{
  const lab::Matrix<double> a = small_usable_pivot(false), swapped = small_usable_pivot(true);
  lab::Matrix<double> x, x_swapped;
  REQUIRE(step3::gauss_jordan_cpu(a, x) == 0);
  REQUIRE(step3::gauss_jordan_cpu(swapped, x_swapped) == 0);
  CHECK(lab::inverse_residual(a, x, 2) <= step3::sweep_tolerance<double>());
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      {
        INFO("entry (" << i << ", " << j << ")");
        CHECK(x(i, j) == x_swapped(i, 1 - j));
      }
}

// The wrong answer the test above exists for: Gauss-Jordan on A without pivoting, its
// four row operations written out, in double. X(0, 0) comes out as -1 where
// -1/(1 - δ) is meant, and the residual is about 7·10⁶ ε.
TEST_CASE("planted: Gauss-Jordan without pivoting on a usable pivot of 1e-8 FAILs the check")
{
  const double d = usable_small_pivot;
  // [A | I] = [[d, 1 | 1, 0], [1, 1 | 0, 1]]. Row 0 divided by d, subtracted from row 1.
  double a01 = 1 / d, x00 = 1 / d, x01 = 0;
  double a11 = 1 - a01, x10 = -x00, x11 = 1;
  // Row 1 divided by its pivot, a01 times it subtracted from row 0.
  x10 /= a11;
  x11 /= a11;
  x00 -= a01 * x10;
  x01 -= a01 * x11;
  lab::Matrix<double> wrong(2, 2);
  wrong(0, 0) = x00, wrong(0, 1) = x01, wrong(1, 0) = x10, wrong(1, 1) = x11;
  const double residual = lab::inverse_residual(small_usable_pivot(false), wrong, 2);
  CHECK(residual > 1e6 * std::numeric_limits<double>::epsilon());
  lab::Checks checks;
  CHECK_FALSE(step3::judge(checks, "without pivoting", 0, residual, step3::sweep_tolerance<double>()));
}

TEST_CASE("step-3 CPU: Gauss-Jordan variants are found by number or by name")
{
  const auto &variants = step3::gauss_jordan_variants<float>();
  REQUIRE(variants.size() == 3);
  CHECK(step3::find_gauss_jordan_variant<float>("2") == &variants[1]);
  CHECK(step3::find_gauss_jordan_variant<double>("3_blocked") == &step3::gauss_jordan_variants<double>()[2]);
  CHECK(step3::find_gauss_jordan_variant<float>("1_thesis_swap_on_zero")->pivoting ==
        step3::Pivoting::on_exact_zero);
  CHECK(step3::find_gauss_jordan_variant<float>("4") == nullptr);
  CHECK(step3::find_gauss_jordan_variant<float>("partial") == nullptr);
}
