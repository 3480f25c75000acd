// Tests of lab/probes.h on the host and lab/fresh_inputs.h's exponents: a factor exact
// up to rounding passes the probe at every size; a factor with garbage in one entry, a
// NaN, a zero factor, and the factor of the run before (what a kernel that replays
// its last answer would give under a fresh scale) all FAIL it.
#include <lab/fresh_inputs.h>
#include <lab/probes.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include "test_support.h"

#include <cmath>
#include <limits>
#include <set>

namespace
{
  // Whether the probe passes @p factor of @p a: within the tolerance (NaN never is).
  template <typename T>
  bool probe_passes(const lab::Matrix<T> &a, const lab::Matrix<T> &factor)
  {
    const double error = lab::cholesky_probe(a, factor);
    CAPTURE(error, lab::probe_tolerance<T>(a.rows()));
    return error <= lab::probe_tolerance<T>(a.rows());
  }
} // namespace

TEMPLATE_TEST_CASE("probes: a Cholesky factor exact up to rounding passes, at sizes 1, 2, 65 and 300", "", float, double)
{
  for (const int n : {1, 2, 65, 300})
    {
      CAPTURE(n);
      const lab::Matrix<TestType> l = lab_test::well_scaled_factor<TestType>(n, n);
      CHECK(probe_passes(lab_test::times_transpose(l), l));
    }
}

TEMPLATE_TEST_CASE("planted: a factor wrong in one entry, NaN, zero, or the previous run's FAILs the probe", "",
                   float, double)
{
  for (const int n : {2, 65, 300})
    {
      CAPTURE(n);
      const lab::Matrix<TestType> exact = lab_test::well_scaled_factor<TestType>(n, n),
                                  a = lab_test::times_transpose(exact);
      // One entry off by 1 (what garbage left in it would be), in the first row, the
      // last, and one in between (the probe must see a fault wherever it lies).
      for (const int i : {0, n / 2, n - 1})
        {
          lab::Matrix<TestType> wrong = exact;
          wrong(i, i / 2) += 1;
          CAPTURE(i);
          CHECK_FALSE(probe_passes(a, wrong));
          wrong(i, i / 2) = std::numeric_limits<TestType>::quiet_NaN();
          CHECK_FALSE(probe_passes(a, wrong));
        }
      CHECK_FALSE(probe_passes(a, lab::Matrix<TestType>(n, n)));
      // The run before had the input scaled by 4^e with another e: its factor is
      // 2^(e' - e) times this one, a factor of 2 at least.
      lab::Matrix<TestType> stale = exact;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
          stale(i, j) *= 2;
      CHECK_FALSE(probe_passes(a, stale));
    }
}

TEST_CASE("fresh_inputs: the exponent is never the previous one, and every exponent in [-3, 3] comes")
{
  lab::FreshScale fresh;
  std::set<int> seen;
  int previous = fresh.exponent();
  for (int run = 0; run < 1000; ++run)
    {
      fresh.next();
      REQUIRE(fresh.exponent() != previous);
      REQUIRE(std::abs(fresh.exponent()) <= 3);
      seen.insert(fresh.exponent());
      previous = fresh.exponent();
    }
  CHECK(seen.size() == 7);
}

