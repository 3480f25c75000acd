// Tests of the program's parts that need no GPU: the check of a factor (factor_check.h),
// fed right and wrong factors, and the table (cholesky_table.h), written from a record
// filled by hand and read back column by column, by name, as step-1/plot.gp reads it.
#include "cholesky_cpu.h"
#include "cholesky_table.h"
#include "factor_check.h"

#include <lab/checks.h>
#include <lab/device.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>
#include <planted_factors.h>
#include <temp_dir.h>
#include <written_table.h>

#include <string>
#include <vector>

namespace
{
  // The sizes of the quick sweep's ends, where the tolerance 4 n ε is smallest and
  // largest.
  const int sizes[] = {16, 256};

  template <typename T>
  void check_planted_factors()
  {
    for (const int n : sizes)
      {
        CAPTURE(sizeof(T), n);
        const lab::Matrix<T> a = lab::random_spd<T>(n, 1e3, 1000 + n);
        lab::Matrix<T> right = a;
        REQUIRE(step1::cholesky_cpu(right) == 0);
        lab::Checks checks;
        CHECK(step1::check_factor(checks, "right", a, right).passed);
        for (const auto &[fault, factor] : lab_test::planted_factors(right, lab::tolerance<T>(4, n)))
          {
            CAPTURE(fault);
            CHECK_FALSE(step1::check_factor(checks, fault, a, factor).passed);
          }
        CHECK(checks.passed() == 1);
      }
  }

  // One size of each kind of number, every one different from every other
  // (lab_test::DistinctValues), written as the program writes it.
  struct WrittenTable
  {
    lab_test::TempDir folder;
    lab_test::DistinctValues values;

    WrittenTable()
    {
      step1::SizeResult r;
      r.n = values.whole("n");
      r.cpu_ms = values("cpu_ms");
      r.lapack_ms = values("lapack_ms");
      r.gpu_kernel_ms = values("gpu_kernel_ms");
      r.gpu_total_ms = values("gpu_total_ms");
      r.residual_cpu = values("residual_cpu");
      r.residual_gpu = values("residual_gpu");
      r.tolerance = values("tolerance");
      step1::CholeskyTable table;
      table.add(r);
      table.write(folder.path().string(), lab::DeviceInfo{}, 5, "float");
    }

    std::vector<lab_test::TableWritten> all() const { return {{folder / "cholesky_float.dat", &values}}; }
  };

  using Mismatches = std::vector<std::string>;
} // namespace

TEST_CASE("planted: a factor with a NaN entry, of zeros or ten tolerances off FAILs step-1's check at n = 16 and 256",
          "[cpu]")
{
  check_planted_factors<float>();
  check_planted_factors<double>();
}

TEST_CASE("table: every column holds the value written under its name", "[cpu]")
{
  const WrittenTable written;
  CHECK(lab_test::column_mismatches(written.all()) == Mismatches{});
}

TEST_CASE("planted: any two columns of step-1's table swapped FAIL the test by name", "[cpu]")
{
  const WrittenTable written;
  CHECK(lab_test::swaps_not_seen(written.all()) == Mismatches{});
}
