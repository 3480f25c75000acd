// Tests of lab/checks.h: counting checks, reporting failures with their figures.
#include <lab/checks.h>
#include <lab_catch.h>

#include "test_support.h"

#include <cmath>
#include <limits>
#include <sstream>

using lab_test::contains;
using lab_test::lines_of;

TEST_CASE("checks: passing checks are counted and summarised")
{
  lab::Checks checks;
  CHECK(checks.at_most("a", 1e-8, 1e-6));
  CHECK(checks.at_most("b", 1e-6, 1e-6));
  CHECK(checks.passed() == 2);
  CHECK(checks.failed() == 0);
  CHECK(checks.exit_code() == 0);
  std::ostringstream out;
  checks.print_summary(out);
  CHECK(out.str() == "verification: all 2 checks passed\n");
}

TEST_CASE("checks: a failure gives FAIL with the figure and the tolerance, and exit code 1")
{
  lab::Checks checks;
  checks.at_most("float n=64 GPU residual", 1e-8, 1e-6);
  CHECK_FALSE(checks.at_most("float n=128 GPU residual", 3.1e-3, 1.2e-4));
  CHECK(checks.passed() == 1);
  CHECK(checks.failed() == 1);
  CHECK(checks.exit_code() == 1);
  std::ostringstream out;
  checks.print_summary(out);
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "verification: 1 of 2 checks FAILED");
  CHECK(lines[1] == "  FAIL float n=128 GPU residual: 0.0031 > tolerance 0.00012");
}

TEST_CASE("checks: NaN never passes")
{
  lab::Checks checks;
  CHECK_FALSE(checks.at_most("nan", std::nan(""), 1.0));
  CHECK_FALSE(checks.at_most("inf", INFINITY, 1.0));
  CHECK(checks.failed() == 2);
}

TEST_CASE("checks: a failure without a figure")
{
  lab::Checks checks;
  checks.fail("CPU float", "not positive definite (column 2)");
  CHECK(checks.exit_code() == 1);
  std::ostringstream out;
  checks.print_summary(out);
  CHECK(contains(out.str(), "FAIL CPU float: not positive definite (column 2)"));
  CHECK(contains(out.str(), "1 of 1 checks FAILED"));
}

TEST_CASE("checks: at_least passes for large values and never for NaN")
{
  lab::Checks checks;
  CHECK(checks.at_least("unstable error", 0.5, 1e-3));
  CHECK_FALSE(checks.at_least("stable error", 1e-9, 1e-3));
  CHECK_FALSE(checks.at_least("nan", std::nan(""), 1e-3));
  CHECK(checks.passed() == 1);
  std::ostringstream out;
  checks.print_summary(out);
  CHECK(contains(out.str(), "FAIL stable error: 1e-09 < bound 0.001"));
}

TEST_CASE("planted: an infinite error does not pass as the bad result at_least expects")
{
  // step-3's unstable example must show the thesis' pivoting failing by losing digits
  // (a residual about 0.4); a variant that overflows to +inf, or writes -inf, broke in
  // another way, and the check must say FAIL instead of "failed as expected".
  lab::Checks checks;
  CHECK_FALSE(checks.at_least("overflow", std::numeric_limits<double>::infinity(), 1e-3));
  CHECK_FALSE(checks.at_least("overflow", -std::numeric_limits<double>::infinity(), -1));
  CHECK(checks.failed() == 2);
}

TEST_CASE("planted: a run that made no check FAILs and says so, instead of \"all 0 checks passed\"")
{
  // step-3 --cpu-only --table gauss-jordan: the only table asked for runs on the GPU,
  // and the run printed "all 0 checks passed" with exit code 0.
  const lab::Checks checks;
  CHECK(checks.exit_code() == 1);
  std::ostringstream out;
  checks.print_summary(out);
  CHECK(out.str() == "verification: FAIL: no check was made, so nothing was verified\n");
}
