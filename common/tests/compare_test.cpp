// Tests of lab/compare.h: a NaN anywhere makes the figure NaN, which no check passes.
#include <lab/checks.h>
#include <lab/compare.h>
#include <lab_catch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace
{
  const double not_a_number = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
} // namespace

TEST_CASE("compare: nan_max is the larger number, or NaN when either is NaN")
{
  CHECK(lab::nan_max(1, 2) == 2);
  CHECK(lab::nan_max(-3, -4) == -3);
  CHECK(std::isnan(lab::nan_max(not_a_number, 1)));
  CHECK(std::isnan(lab::nan_max(1, not_a_number)));
  CHECK(lab::nan_max(1, inf) == inf);
  // What the helper exists for: std::max forgets the NaN.
  CHECK(std::max(1.0, not_a_number) == 1.0);
}

TEST_CASE("compare: max_abs_difference over arrays")
{
  const std::vector<float> a = {1, 2, 3, 4};
  std::vector<double> b = {1, 2.5, 3, 3};
  CHECK(lab::max_abs_difference(a, b) == 1.0);
  CHECK(lab::max_abs_difference(a.data(), b.data(), 0) == 0.0);
  CHECK(lab::max_abs_difference(a, a) == 0.0);
}

TEST_CASE("planted: one never-written (NaN) entry makes the difference NaN, and the check FAIL")
{
  const std::vector<double> reference = {0.5, 0.25, 0.125, 1};
  for (std::size_t poisoned = 0; poisoned < reference.size(); ++poisoned)
    {
      std::vector<double> result = reference;
      result[poisoned] = not_a_number;
      const double difference = lab::max_abs_difference(result, reference);
      CHECK(std::isnan(difference));
      lab::Checks checks;
      CHECK_FALSE(checks.at_most("planted NaN", difference, 1e-15));
    }
  // Both infinite: inf − inf is NaN, not 0.
  const std::vector<double> infinite = {inf};
  CHECK(std::isnan(lab::max_abs_difference(infinite, infinite)));
  // Sizes that differ cannot be compared entry by entry.
  CHECK(std::isnan(lab::max_abs_difference(std::vector<double>{1, 2}, std::vector<double>{1})));
}

TEST_CASE("compare: entry_error is the difference over the bound, exact where the bound is 0")
{
  CHECK(lab::entry_error(1.5, 1, 0.5) == 1.0);
  CHECK(lab::entry_error(1, 1.5, 0.5) == 1.0);
  CHECK(lab::entry_error(0, 0, 0) == 0.0);
  CHECK(lab::entry_error(1e-300, 0, 0) == inf);
}

// The faults the checks of products exist for: an entry never written (NaN) or a
// reference gone wrong must not give a small error.
TEST_CASE("planted: a NaN value, reference or bound makes entry_error NaN, and the check FAIL")
{
  CHECK(std::isnan(lab::entry_error(not_a_number, 1, 1)));
  CHECK(std::isnan(lab::entry_error(1, not_a_number, 1)));
  CHECK(std::isnan(lab::entry_error(1, 1, not_a_number)));
  CHECK(std::isnan(lab::entry_error(inf, inf, 1)));
  lab::Checks checks;
  CHECK_FALSE(checks.at_most("planted NaN entry", lab::entry_error(not_a_number, 1, 1), 1));
}

TEST_CASE("compare: lower_triangle_difference reads the lower triangle only, relative to the reference")
{
  lab::Matrix<double> reference(3, 3), x(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      reference(i, j) = x(i, j) = j <= i ? 2.0 + i - j : 100.0;
  x(0, 2) = -1e9; // above the diagonal: not read
  CHECK(lab::lower_triangle_difference(x, reference) == 0.0);
  x(2, 1) += 0.5; // one entry below: off by 0.5 of a largest entry of 4
  CHECK(lab::lower_triangle_difference(x, reference) == 0.125);
}

TEST_CASE("planted: a NaN in the lower triangle makes lower_triangle_difference NaN")
{
  lab::Matrix<float> x(4, 4);
  lab::Matrix<double> reference(4, 4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      reference(i, j) = x(i, j) = float(1 + i + j);
  x(3, 0) = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(lab::lower_triangle_difference(x, reference)));
}
