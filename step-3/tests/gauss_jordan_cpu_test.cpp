// CPU tests of step-3's Gauss–Jordan reference: inverses known exactly, the residual
// bound on matrices that need pivoting and on badly scaled ones, singular matrices
// reported with the right column and an all-zero X, the matrix on which pivoting
// matters; and the lookup of the GPU variants by name (no GPU needed).
#include "gauss_jordan/gauss_jordan.h"
#include "gauss_jordan/gauss_jordan_cpu.h"
#include "gauss_jordan/unstable_example.h"
#include "gauss_jordan_matrices.h"

#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <cmath>

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
