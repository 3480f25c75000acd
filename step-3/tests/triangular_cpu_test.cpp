// CPU tests of step-3: the reference triangular inverse against the residual bound and
// LAPACK, its report of a zero on the diagonal, and lower_triangle.
#include "triangular_cpu.h"

#include <lab/lapack.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <vector>

namespace
{
  template <typename T>
  void check_inverse(int n)
  {
    INFO("n = " << n << (sizeof(T) == 4 ? ", float" : ", double"));
    const lab::Matrix<T> l = lab::random_lower_triangular<T>(n, 10 + n);
    lab::Matrix<T> x;
    REQUIRE(step3::invert_lower_cpu(l, x) == 0);
    CHECK(lab::inverse_residual(l, x, n) <= lab::tolerance<T>(4, n));
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        REQUIRE(x(i, j) == T(0));
  }
} // namespace

TEST_CASE("step-3 CPU: the triangular inverse meets the residual bound")
{
  for (const int n : {1, 2, 3, 17, 64, 65, 200})
    {
      check_inverse<float>(n);
      check_inverse<double>(n);
    }
}

TEST_CASE("step-3 CPU: the inverse of a 2 x 2 triangle, by hand")
{
  lab::Matrix<double> l(2, 2), x;
  l(0, 0) = 2;
  l(1, 0) = 1;
  l(1, 1) = 4;
  l(0, 1) = 99; // above the diagonal: never read
  REQUIRE(step3::invert_lower_cpu(l, x) == 0);
  CHECK(x(0, 0) == 0.5);
  CHECK(x(1, 0) == -0.125);
  CHECK(x(1, 1) == 0.25);
  CHECK(x(0, 1) == 0);
}

TEST_CASE("step-3 CPU: a zero on the diagonal is reported like LAPACK, X all zero")
{
  const int n = 40;
  for (const int j : {0, 19, n - 1})
    {
      INFO("zero at " << j);
      lab::Matrix<float> l = lab::random_lower_triangular<float>(n, 5);
      l(j, j) = 0;
      lab::Matrix<float> x;
      CHECK(step3::invert_lower_cpu(l, x) == j + 1);
      for (std::size_t e = 0; e < x.size(); ++e)
        REQUIRE(x.data()[e] == 0);
      if (lab::have_lapack())
        CHECK(lab::lapack_triangular_inverse(l) == j + 1);
    }
}

TEST_CASE("step-3 CPU: lower_triangle keeps the lower triangle, zeros above")
{
  const lab::Matrix<double> m = lab::random_matrix<double>(4, 4, 3);
  const lab::Matrix<double> l = step3::lower_triangle(m);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      CHECK(l(i, j) == (j <= i ? m(i, j) : 0.0));
}
