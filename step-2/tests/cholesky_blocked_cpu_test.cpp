// Tests of step-2's CPU reference: the blocked loop on all cores.
#include "cholesky_blocked_cpu.h"
#include "spd_except_at.h"

#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <cmath>

namespace
{
  template <typename T>
  void check_sizes_around_the_tile()
  {
    for (const int n : {1, 2, 15, 16, 17, 63, 64, 65, 127, 129, 200, 1000})
      {
        INFO("n = " << n);
        const lab::Matrix<T> a = lab::random_spd<T>(n, 1e3, n);
        lab::Matrix<T> l = a;
        CHECK(step2::cholesky_blocked_cpu(l) == 0);
        CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<T>(4, n));
      }
  }

  template <typename T>
  void check_failing_columns()
  {
    const int n = 150;
    for (const int c : {0, 64, 75, n - 1})
      {
        INFO("failing column " << c);
        lab::Matrix<T> l = spd_except_at<T>(n, c);
        CHECK(step2::cholesky_blocked_cpu(l) == c + 1);
        CHECK(lower_triangle_is_finite(l));
      }
  }
} // namespace

TEST_CASE("cholesky_blocked_cpu: the residual bound on sizes around its tile", "[blocked_trailing_update]")
{
  check_sizes_around_the_tile<float>();
  check_sizes_around_the_tile<double>();
}

TEST_CASE("cholesky_blocked_cpu: stops at the failing column, like LAPACK, without NaN")
{
  check_failing_columns<float>();
  check_failing_columns<double>();
}
