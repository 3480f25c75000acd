// Tests of the CPU reference (cholesky_cpu.h). They run on every machine.
#include "cholesky_cpu.h"

#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <cmath>

namespace
{
  // Sizes that are 1, 2, around the tile sizes of later steps (16, 32) and odd.
  const int sizes[] = {1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 100, 257};

  template <typename T>
  void check_random_spd()
  {
    for (const int n : sizes)
      {
        INFO("n = " << n);
        const lab::Matrix<T> a = lab::random_spd<T>(n, 1e3, 42 + n);
        lab::Matrix<T> factor = a;
        REQUIRE(step1::cholesky_cpu(factor) == 0);
        CHECK(lab::cholesky_residual(a, factor) <= lab::tolerance<T>(4, n));
        // In place, lower triangle only: the strict upper triangle still holds A.
        for (int i = 0; i < n; ++i)
          for (int j = i + 1; j < n; ++j)
            REQUIRE(factor(i, j) == a(i, j));
      }
  }
} // namespace

TEST_CASE("CPU Cholesky factorises random SPD matrices", "[cpu][cholesky_loop]")
{
  SECTION("float") { check_random_spd<float>(); }
  SECTION("double") { check_random_spd<double>(); }
}

TEST_CASE("CPU Cholesky recovers the known factor of the 2011 test matrix", "[cpu][cholesky_loop]")
{
  // The entries of L are integers and the sums stay far below 2^53, so in double every
  // operation is exact and the factor must come out exactly.
  for (const int n : {1, 2, 5, 12})
    {
      INFO("n = " << n);
      lab::Matrix<double> a = lab::course_2011_spd<double>(n);
      const lab::Matrix<double> l = lab::course_2011_factor<double>(n);
      REQUIRE(step1::cholesky_cpu(a) == 0);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
          REQUIRE(a(i, j) == l(i, j));
    }
}

TEST_CASE("CPU Cholesky leaves the padding of a row alone", "[cpu][cholesky_loop]")
{
  // A matrix inside a larger one: rows of ld = n + 3 numbers, of which n belong to the
  // matrix. The padding is filled with a marker the factorisation must not touch.
  const int n = 17, ld = n + 3;
  const lab::Matrix<double> dense = lab::random_spd<double>(n, 100, 7);
  lab::Matrix<double> a(n, n, ld);
  for (int i = 0; i < n; ++i)
    {
      for (int j = 0; j < n; ++j)
        a(i, j) = dense(i, j);
      for (int j = n; j < ld; ++j)
        a.data()[i * ld + j] = -12345;
    }
  lab::Matrix<double> factor = a;
  REQUIRE(step1::cholesky_cpu(factor) == 0);
  CHECK(lab::cholesky_residual(dense, factor) <= lab::tolerance<double>(4, n));
  for (int i = 0; i < n; ++i)
    for (int j = n; j < ld; ++j)
      REQUIRE(factor.data()[i * ld + j] == -12345);
}

TEST_CASE("CPU Cholesky reports the first failing column like LAPACK", "[cpu][cholesky_loop]")
{
  SECTION("a negative pivot at column 2 gives info 3, no NaN")
  {
    lab::Matrix<double> a(4, 4);
    const double values[4][4] = {{4, 2, 3, 0}, {2, 5, 4, 1}, {3, 4, 1, 2}, {0, 1, 2, 9}};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        a(i, j) = values[i][j];
    CHECK(step1::cholesky_cpu(a) == 3);
    // Columns 0 and 1 were finished (L00 = 2, L11 = 2) and nothing became NaN.
    CHECK(a(0, 0) == 2);
    CHECK(a(1, 1) == 2);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        REQUIRE_FALSE(std::isnan(a(i, j)));
  }
  SECTION("an indefinite 2 x 2 matrix gives info 2")
  {
    lab::Matrix<float> a(2, 2);
    a(0, 0) = 1, a(0, 1) = 2, a(1, 0) = 2, a(1, 1) = 1;
    CHECK(step1::cholesky_cpu(a) == 2);
  }
  SECTION("a zero matrix gives info 1")
  {
    lab::Matrix<float> a(3, 3);
    CHECK(step1::cholesky_cpu(a) == 1);
  }
  SECTION("a NaN on the diagonal stops the factorisation")
  {
    lab::Matrix<double> a = lab::random_spd<double>(5, 10, 3);
    a(2, 2) = std::nan("");
    CHECK(step1::cholesky_cpu(a) == 3);
  }
  SECTION("a positive semi-definite matrix (a zero pivot) is refused")
  {
    // All ones: rank 1, so the second pivot is exactly 0.
    lab::Matrix<double> a(3, 3);
    for (std::size_t i = 0; i < a.size(); ++i)
      a.data()[i] = 1;
    CHECK(step1::cholesky_cpu(a) == 2);
  }
}

TEST_CASE("CPU Cholesky refuses a matrix that is not square", "[cpu]")
{
  lab::Matrix<float> a(3, 4);
  CHECK_THROWS_AS(step1::cholesky_cpu(a), std::invalid_argument);
}
