// Tests of the program's tables (tables.h) that need no GPU: the records are filled by
// hand. step-2/plot.gp finds the columns by name; these tests hold what it reads.
#include "tables.h"

#include <lab/device.h>
#include <lab_catch.h>
#include <temp_dir.h>
#include <written_table.h>

#include <string>
#include <vector>

namespace
{
  // A size whose every number is different from every other (lab_test::DistinctValues),
  // each noted under the column it belongs in, written as the program writes it.
  struct WrittenTables
  {
    lab_test::TempDir folder;
    lab_test::DistinctValues cholesky, breakdown, mixed_precision;

    WrittenTables()
    {
      step2::SizeResult<float> size(1000, cholesky("tolerance"));
      cholesky.expect("n", 1000);
      breakdown.expect("n", 1000);
      mixed_precision.expect("n", 1000);
      const auto factorisation = [&](const std::string &ms, const std::string &residual) {
        step2::Factorisation f;
        f.ms = cholesky(ms);
        f.residual = cholesky(residual);
        return f;
      };
      size.cpu.ms = cholesky("cpu_ms");
      size.lapack.ms = cholesky("lapack_ms");
      size.copies_ms = cholesky("copies_ms");
      size.cusolver = factorisation("cusolver_ms", "residual_cusolver");
      for (std::size_t v = 0; v < size.variants.size(); ++v)
        {
          const std::string &name = step2::variants<float>()[v].name;
          const std::string number = name.substr(0, name.find('_'));
          size.variants[v] = factorisation(name + "_ms", "residual_" + number);
          size.variants[v].percent_of_vendor = cholesky("percent_" + number);
          size.variants[v].vendor_ms_in_pairs = cholesky("cusolver_ms_in_pairs_" + number);
        }
      size.graph = factorisation(step2::variants<float>().back().name + "_graph_ms", "residual_graph");
      size.graph.percent_of_vendor = cholesky("percent_graph");
      size.graph.vendor_ms_in_pairs = cholesky("cusolver_ms_in_pairs_graph");
      size.graph_capture_ms = cholesky("graph_capture_ms");
      // The residuals of the CPU and LAPACK are judged on the console, not tabled.
      size.cpu.residual = size.lapack.residual = 0.5;

      step2::KernelTimes k;
      k.factorize_diagonal_block_ms = breakdown("factorize_diagonal_block_ms");
      k.strip_update_ms = breakdown("strip_update_ms");
      k.diag_update_ms = breakdown("diag_update_ms");
      k.lo_update_ms = breakdown("lo_update_ms");
      size.breakdown = k;

      step2::MixedPrecisionComparison m;
      m.potrf_potrs_ms = mixed_precision("potrf_potrs_ms");
      m.mixed_ms = mixed_precision("mixed_ms");
      m.tf32_factor_ms = mixed_precision("tf32_factor_ms");
      m.rounds = mixed_precision.whole("rounds");
      m.error_potrs = mixed_precision("error_potrs");
      m.error_mixed = mixed_precision("error_mixed");
      m.residual_tf32_factor = mixed_precision("residual_tf32_factor");
      m.irs_ms = mixed_precision("irs_ms");
      m.irs_iterations = mixed_precision.whole("irs_iterations");
      m.error_irs = mixed_precision("error_irs");
      m.irs_refinement = mixed_precision.whole("irs_refinement");
      size.mixed_precision = m;

      step2::Tables<float> tables;
      tables.add(size);
      tables.write(folder.path().string(), lab::DeviceInfo{}, 5, 512, 512);
    }

    lab_test::WrittenTable read(const std::string &file) const
    {
      return lab_test::read_written_table(folder / file);
    }

    std::vector<lab_test::TableWritten> all() const
    {
      return {{folder / "cholesky_float.dat", &cholesky},
              {folder / "breakdown_float.dat", &breakdown},
              {folder / "mixed_precision_float.dat", &mixed_precision}};
    }
  };

  using Mismatches = std::vector<std::string>;
} // namespace

TEST_CASE("tables: every column of the three tables holds the value written under its name", "[cpu]")
{
  const WrittenTables written;
  CHECK(lab_test::column_mismatches(written.all()) == Mismatches{});
}

// The fault this test exists for: tables.cpp writing cpu_ms and lapack_ms swapped
// passed the old test, which read only the last two columns. Every pair of columns,
// exchanged in the written table, must now be seen.
TEST_CASE("planted: any two columns of step-2's tables swapped FAIL the test by name", "[cpu]")
{
  const WrittenTables written;
  const lab_test::WrittenTable cholesky = written.read("cholesky_float.dat");
  CHECK(lab_test::column_mismatches(lab_test::with_columns_swapped(cholesky, "cpu_ms", "lapack_ms"),
                                    written.cholesky.expected())
          .size() == 2);
  CHECK(lab_test::swaps_not_seen(written.all()) == Mismatches{});
}

TEST_CASE("tables: each variant's percentage of cuSOLVER is written as measured, after the "
          "residuals, and cuSOLVER's time in the same pairs after it",
          "[cpu]")
{
  const lab_test::TempDir folder;
  step2::SizeResult<float> size(1000, 1e-3);
  size.copies_ms = 1;
  size.cusolver = {2, 1e-7, 0};
  // Variant 10 took 4 ms against cuSOLVER's 2 ms alone (50%), but beside cuSOLVER it
  // measured 52.5%: the table must keep the measured percentage, not recompute it.
  size.variants.back() = {4, 2e-7, 0, 52.5};
  size.variants.back().vendor_ms_in_pairs = 2.1;
  size.graph = {3.5, 2e-7, 0, 61};
  size.graph.vendor_ms_in_pairs = 2.2;
  step2::Tables<float> tables;
  tables.add(size);
  tables.write(folder.path().string(), lab::DeviceInfo{}, 5, 512, 512);

  const lab_test::WrittenTable table = lab_test::read_written_table(folder / "cholesky_float.dat");
  const std::string last_columns = " percent_10 percent_graph cusolver_ms_in_pairs_1";
  CHECK(table.columns.find(last_columns) != std::string::npos);
  CHECK(table.columns.find("graph_capture_ms percent_1 percent_2 ") != std::string::npos);
  const std::string paired = " cusolver_ms_in_pairs_10 cusolver_ms_in_pairs_graph";
  REQUIRE(table.columns.size() > paired.size());
  CHECK(table.columns.substr(table.columns.size() - paired.size()) == paired);
  REQUIRE(table.rows.size() == 1u);
  const std::string &row = table.rows.front();
  const std::string last_values = " 2.1 2.2";
  REQUIRE(row.size() > last_values.size());
  CHECK(row.substr(row.size() - last_values.size()) == last_values);
  // The variants that did not run: NaN in their percentage and paired columns.
  CHECK(row.find("NaN NaN NaN NaN NaN NaN NaN NaN NaN 52.5 61 NaN NaN NaN NaN NaN NaN NaN NaN 2.1 2.2") !=
        std::string::npos);
}
