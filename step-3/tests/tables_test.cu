// Tests of the program's tables (tables.h) that need no GPU: the records of each stage
// are filled by hand, every number different from every other, and each column is read
// back by its name, as step-3/plot.gp finds it. (A .cu file: the stages' headers hold
// their kernels' launches. Nothing here runs on a GPU.)
#include "tables.h"

#include <lab_catch.h>
#include <temp_dir.h>
#include <written_table.h>

#include <filesystem>
#include <string>
#include <vector>

namespace
{
  // One measurement's two columns, "<name>_ms" and "residual_<short>": the value of each
  // is a new one from @p values.
  step3::Measurement measured(lab_test::DistinctValues &values, const std::string &ms, const std::string &residual)
  {
    step3::Measurement m;
    m.ms = values(ms);
    m.residual = values(residual);
    return m;
  }

  // The four tables of one precision, written as the program writes them: one size,
  // and two rows of the solve table (one and 256 right-hand sides).
  struct WrittenTables
  {
    lab_test::TempDir folder;
    lab_test::DistinctValues inverse, solve, spd, gauss_jordan;

    WrittenTables()
    {
      step3::Tables<float> tables;

      step3::InverseResults i;
      i.n = inverse.whole("n");
      i.cpu = measured(inverse, "cpu_ms", "residual_cpu");
      i.lapack = measured(inverse, "lapack_ms", "residual_lapack");
      i.trtri = measured(inverse, "trtri_ms", "residual_trtri");
      i.trsm = measured(inverse, "trsm_ms", "residual_trsm");
      for (const step3::InverseVariant<float> &v : step3::inverse_variants<float>())
        i.variants.push_back(measured(inverse, v.name + "_ms", "residual_" + tables.number(v.name)));
      i.tolerance = inverse("tolerance");
      tables.add(i);

      std::vector<step3::SolveResults> rows(2);
      for (step3::SolveResults &r : rows)
        {
          r.n = solve.whole("n");
          r.nrhs = solve.whole("nrhs");
          r.substitution = measured(solve, "blocked_substitution_ms", "residual_blocked_substitution");
          r.chained = measured(solve, "chained_substitution_ms", "residual_chained_substitution");
          r.inverse_and_products = measured(solve, "inverse_and_products_ms", "residual_inverse_and_products");
          r.products = measured(solve, "products_ms", "residual_products");
          r.potrs = measured(solve, "potrs_ms", "residual_potrs");
          r.read_floor_ms = solve("read_floor_ms");
          r.tolerance = solve("tolerance");
        }
      tables.add(rows);

      step3::SpdInverseResults s;
      s.n = spd.whole("n");
      s.potrf_ms = spd("potrf_ms");
      s.xtx = measured(spd, "xtx_ms", "residual_xtx");
      s.potri = measured(spd, "potri_ms", "residual_potri");
      s.potrs = measured(spd, "potrs_identity_ms", "residual_potrs_identity");
      s.tolerance = spd("tolerance");
      tables.add(s);

      step3::GaussJordanResults g;
      g.n = gauss_jordan.whole("n");
      g.getrf = measured(gauss_jordan, "getrf_getrs_ms", "residual_getrf_getrs");
      for (const step3::GaussJordanVariant<float> &v : step3::gauss_jordan_variants<float>())
        g.variants.push_back(measured(gauss_jordan, v.name + "_ms", "residual_" + tables.number(v.name)));
      g.tolerance = gauss_jordan("tolerance");
      tables.add(g);

      step3::Settings settings;
      settings.options.out = folder.path().string();
      tables.write(settings);
    }

    std::vector<lab_test::TableWritten> all() const
    {
      const std::filesystem::path tables = folder / "step-3";
      return {{tables / "inverse_float.dat", &inverse},
              {tables / "solve_float.dat", &solve},
              {tables / "spd_inverse_float.dat", &spd},
              {tables / "gauss_jordan_float.dat", &gauss_jordan}};
    }
  };

  using Mismatches = std::vector<std::string>;
} // namespace

TEST_CASE("tables: every column of the four tables holds the value written under its name", "[cpu]")
{
  const WrittenTables written;
  CHECK(lab_test::column_mismatches(written.all()) == Mismatches{});
}

TEST_CASE("planted: any two columns of step-3's tables swapped FAIL the test by name", "[cpu]")
{
  const WrittenTables written;
  CHECK(lab_test::swaps_not_seen(written.all()) == Mismatches{});
}
