// Tests of the single-thread GPU factorisation (single_thread_cholesky.cuh). This
// program exits with 77 (CTest: skipped) on a machine without a GPU.
#include "cholesky_cpu.h"
#include "single_thread_cholesky.cuh"

#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <cmath>

namespace
{
  template <typename T>
  void check_random_spd()
  {
    for (const int n : {1, 2, 3, 15, 16, 17, 31, 33, 100, 257})
      {
        INFO("n = " << n);
        const lab::Matrix<T> a = lab::random_spd<T>(n, 1e3, 42 + n);
        lab::Matrix<T> factor;
        REQUIRE(step1::single_thread_cholesky(a, factor) == 0);
        CHECK(lab::cholesky_residual(a, factor) <= lab::tolerance<T>(4, n));
        // The GPU may round differently from the CPU (it fuses multiply and add), but
        // the two factors must agree to the accuracy of the factorisation.
        lab::Matrix<T> cpu = a;
        REQUIRE(step1::cholesky_cpu(cpu) == 0);
        lab::Matrix<double> cpu_lower(n, n), gpu_lower(n, n);
        for (int i = 0; i < n; ++i)
          for (int j = 0; j <= i; ++j)
            cpu_lower(i, j) = cpu(i, j), gpu_lower(i, j) = factor(i, j);
        CHECK(lab::relative_error(gpu_lower, cpu_lower) <= lab::tolerance<T>(4e3, n));
      }
  }
} // namespace

TEST_CASE("one GPU thread factorises random SPD matrices", "[gpu][single_thread_launch]")
{
  SECTION("float") { check_random_spd<float>(); }
  SECTION("double") { check_random_spd<double>(); }
}

TEST_CASE("one GPU thread writes only the lower triangle", "[gpu][single_thread_launch]")
{
  // Rows padded to ld = n + 5, with NaN in the strict upper triangle and in the
  // padding: the factorisation must read neither (the factor would turn NaN) and
  // write neither (the NaN must still be there).
  const int n = 33, ld = n + 5;
  const lab::Matrix<double> dense = lab::random_spd<double>(n, 100, 9);
  lab::Matrix<double> a(n, n, ld);
  for (std::size_t i = 0; i < a.size(); ++i)
    a.data()[i] = std::nan("");
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      a(i, j) = dense(i, j);
  lab::Matrix<double> factor;
  REQUIRE(step1::single_thread_cholesky(a, factor) == 0);
  CHECK(lab::cholesky_residual(dense, factor) <= lab::tolerance<double>(4, n));
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < ld; ++j)
      REQUIRE(std::isnan(factor.data()[i * ld + j]));
}

TEST_CASE("one GPU thread reports the failing column like the CPU", "[gpu][single_thread_launch]")
{
  lab::Matrix<double> a(4, 4);
  const double values[4][4] = {{4, 2, 3, 0}, {2, 5, 4, 1}, {3, 4, 1, 2}, {0, 1, 2, 9}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      a(i, j) = values[i][j];
  lab::Matrix<double> factor;
  CHECK(step1::single_thread_cholesky(a, factor) == 3);
  for (std::size_t i = 0; i < factor.size(); ++i)
    REQUIRE_FALSE(std::isnan(factor.data()[i]));

  lab::Matrix<float> zero(5, 5);
  lab::Matrix<float> zero_factor;
  CHECK(step1::single_thread_cholesky(zero, zero_factor) == 1);
}
