// CPU tests of step-3's Gauss–Jordan reference: a 2×2 inverse by hand, the residual
// bound on matrices that need pivoting, singular matrices reported with their column,
// and the matrix on which pivoting matters.
#include "gauss_jordan/gauss_jordan_cpu.h"
#include "gauss_jordan/unstable_example.h"

#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

TEST_CASE("step-3 CPU: Gauss-Jordan inverts a 2 x 2 matrix that needs a row swap")
{
  lab::Matrix<double> a(2, 2), x;
  a(0, 0) = 0;
  a(0, 1) = 2;
  a(1, 0) = 4;
  a(1, 1) = 1; // inverse: [[-1/8, 1/4], [1/2, 0]]
  REQUIRE(step3::gauss_jordan_cpu(a, x) == 0);
  CHECK(x(0, 0) == -0.125);
  CHECK(x(0, 1) == 0.25);
  CHECK(x(1, 0) == 0.5);
  CHECK(x(1, 1) == 0);
}

TEST_CASE("step-3 CPU: Gauss-Jordan meets the residual bound on random matrices")
{
  for (const int n : {1, 2, 17, 100})
    {
      INFO("n = " << n);
      const lab::Matrix<double> a = lab::random_matrix<double>(n, n, 20 + n);
      lab::Matrix<double> x;
      REQUIRE(step3::gauss_jordan_cpu(a, x) == 0);
      CHECK(lab::inverse_residual(a, x, n) <= lab::tolerance<double>(4, n));
      const lab::Matrix<float> af = lab::random_diagonally_dominant<float>(n, n);
      lab::Matrix<float> xf;
      REQUIRE(step3::gauss_jordan_cpu(af, xf) == 0);
      CHECK(lab::inverse_residual(af, xf, n) <= lab::tolerance<float>(4, n));
    }
}

TEST_CASE("step-3 CPU: a singular matrix is reported with its column, X all zero")
{
  const int n = 30;
  for (const int j : {0, 12, n - 1})
    {
      INFO("zero column " << j);
      lab::Matrix<double> a = lab::random_matrix<double>(n, n, 3);
      for (int i = 0; i < n; ++i)
        a(i, j) = 0;
      lab::Matrix<double> x;
      CHECK(step3::gauss_jordan_cpu(a, x) == j + 1);
      for (std::size_t e = 0; e < x.size(); ++e)
        REQUIRE(x.data()[e] == 0);
    }
  // Two equal rows: singular, found at the last column.
  lab::Matrix<float> a = lab::random_matrix<float>(n, n, 4);
  for (int c = 0; c < n; ++c)
    a(20, c) = a(7, c);
  lab::Matrix<float> x;
  CHECK(step3::gauss_jordan_cpu(a, x) == n);
}

TEST_CASE("step-3 CPU: partial pivoting inverts the matrix the thesis' rule cannot")
{
  const lab::Matrix<float> a = step3::unstable_example<float>();
  lab::Matrix<float> x;
  REQUIRE(step3::gauss_jordan_cpu(a, x) == 0);
  CHECK(lab::inverse_residual(a, x, 2) <= lab::tolerance<float>(4, 2));
}
