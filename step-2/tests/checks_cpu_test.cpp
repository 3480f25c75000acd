// Planted faults for step-2's checks, on the CPU: the tolerances must fail the wrong
// answers they exist to catch, at every size the GPU tests use.
#include "cholesky_blocked_cpu.h"
#include "factor_residual.h"
#include "variants/6_mixed_precision_solve.cuh"

#include <lab/checks.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>
#include <planted_factors.h>

#include <cmath>

// The fault: variant 6's test allowed its TF32 factor a residual of 4 n·2^-10, 1.0 at
// n = 256 and 4.0 at 1025, so a factor of zeros (residual exactly 1) or one twice as
// large as it should be (L Lᵀ = 4 A, residual 3) passed. step2::tf32_factor_tolerance
// (2^-9 (√n + √κ) + 4 n ε, κ = 10³ here) stays below 0.13 at every size the test
// uses, and the FP32 tolerance 4 n ε far below.
TEST_CASE("planted: a zero or garbage factor FAILs the TF32 and FP32 factor tolerances at every size tested", "[cpu]")
{
  for (const int n : {1, 2, 63, 65, 255, 257, 700, 1025})
    {
      INFO("n = " << n);
      const lab::Matrix<float> a = lab::random_spd<float>(n, 1e3, 60 + n);
      const double zero = lab::cholesky_residual(a, lab::Matrix<float>(n, n));
      CHECK(zero == 1.0);
      CHECK(zero > step2::tf32_factor_tolerance(n, 1e3));
      CHECK(zero > lab::tolerance<float>(4, n));
      lab::Matrix<float> twice = a;
      REQUIRE(step2::cholesky_blocked_cpu(twice) == 0);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
          twice(i, j) *= 2;
      const double garbage = lab::cholesky_residual(a, twice);
      CHECK(std::abs(garbage - 3) < 1e-5);
      CHECK(garbage > step2::tf32_factor_tolerance(n, 1e3));
      CHECK(step2::tf32_factor_tolerance(n, 1e3) < 0.13);
    }
}

// The check every factor of the program goes through (step-2.cu: the residual of
// factor_residual.h at most 4 n ε, recorded in lab::Checks), fed the wrong factors of a
// broken factorisation: one entry never written (NaN), zeros, every entry a little too
// large. Each must FAIL at two sizes of the quick sweep, also where a check
// that let NaN through or a tolerance loosened tenfold would pass it.
TEST_CASE("planted: a factor with a NaN entry, of zeros or ten tolerances off FAILs step-2's check", "[cpu]")
{
  for (const int n : {256, 1024})
    {
      INFO("n = " << n);
      const lab::Matrix<float> a = lab::random_spd<float>(n, 1e3, 1000 + n);
      lab::Matrix<float> right = a;
      REQUIRE(step2::cholesky_blocked_cpu(right) == 0);
      const double tolerance = lab::tolerance<float>(step2::residual_constant, n);
      lab::Checks checks;
      CHECK(checks.at_most("right", step2::factor_residual(a, right, false), tolerance));
      for (const auto &[fault, factor] : lab_test::planted_factors(right, lab::tolerance<float>(4, n)))
        {
          CAPTURE(fault);
          CHECK_FALSE(checks.at_most(fault, step2::factor_residual(a, factor, false), tolerance));
        }
    }
}
