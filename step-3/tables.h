#pragma once
// @sect3{The tables of one precision}
//
// One table per lesson's stage. Each owns its columns, built from the lists of
// variants, and turns that stage's results into a row in the same order, so that a
// column and its number are named side by side; then it writes the tables with the
// notes above them. Its test (tests/tables_test.cu) writes each table from records
// filled by hand and reads every column back by its name, as plot.gp finds them.

#include "gauss_jordan/gauss_jordan_table.h"
#include "settings.h"
#include "solve_and_spd_inverse/solve_table.h"
#include "solve_and_spd_inverse/spd_inverse_table.h"
#include "triangular/inverse_table.h"

#include <lab/device.h>
#include <lab/precision.h>
#include <lab/table.h>

#include <string>
#include <vector>

namespace step3
{
  template <typename T>
  struct Tables
  {
    lab::Table inverse, solve, spd, gauss_jordan;

    // The short name of a variant in a residual column: its number.
    static std::string number(const std::string &name) { return name.substr(0, name.find('_')); }

    static std::vector<std::string> inverse_columns()
    {
      std::vector<std::string> c = {"n", "cpu_ms", "lapack_ms", "trtri_ms", "trsm_ms"};
      for (const InverseVariant<T> &v : inverse_variants<T>())
        c.push_back(v.name + "_ms");
      for (const char *r : {"residual_cpu", "residual_lapack", "residual_trtri", "residual_trsm"})
        c.push_back(r);
      for (const InverseVariant<T> &v : inverse_variants<T>())
        c.push_back("residual_" + number(v.name));
      c.push_back("tolerance");
      return c;
    }
    static std::vector<std::string> gauss_jordan_columns()
    {
      std::vector<std::string> c = {"n", "getrf_getrs_ms"};
      for (const GaussJordanVariant<T> &v : gauss_jordan_variants<T>())
        c.push_back(v.name + "_ms");
      c.push_back("residual_getrf_getrs");
      for (const GaussJordanVariant<T> &v : gauss_jordan_variants<T>())
        c.push_back("residual_" + number(v.name));
      c.push_back("tolerance");
      return c;
    }

    Tables()
      : inverse(inverse_columns()),
        solve({"n", "nrhs", "blocked_substitution_ms", "chained_substitution_ms", "inverse_and_products_ms",
               "products_ms", "potrs_ms", "residual_blocked_substitution", "residual_chained_substitution",
               "residual_inverse_and_products", "residual_products", "residual_potrs", "read_floor_ms",
               "tolerance"}),
        spd({"n", "potrf_ms", "xtx_ms", "potri_ms", "potrs_identity_ms", "residual_xtx", "residual_potri",
             "residual_potrs_identity", "tolerance"}),
        gauss_jordan(gauss_jordan_columns())
    {}

    void add(const InverseResults &r)
    {
      std::vector<double> row = {double(r.n), r.cpu.ms, r.lapack.ms, r.trtri.ms, r.trsm.ms};
      for (const Measurement &m : r.variants)
        row.push_back(m.ms);
      row.insert(row.end(), {r.cpu.residual, r.lapack.residual, r.trtri.residual, r.trsm.residual});
      for (const Measurement &m : r.variants)
        row.push_back(m.residual);
      row.push_back(r.tolerance);
      inverse.add_row(row);
    }
    void add(const std::vector<SolveResults> &rows)
    {
      for (const SolveResults &r : rows)
        solve.add_row({double(r.n), double(r.nrhs), r.substitution.ms, r.chained.ms, r.inverse_and_products.ms,
                       r.products.ms, r.potrs.ms, r.substitution.residual, r.chained.residual,
                       r.inverse_and_products.residual, r.products.residual, r.potrs.residual, r.read_floor_ms,
                       r.tolerance});
    }
    void add(const SpdInverseResults &r)
    {
      spd.add_row({double(r.n), r.potrf_ms, r.xtx.ms, r.potri.ms, r.potrs.ms, r.xtx.residual, r.potri.residual,
                   r.potrs.residual, r.tolerance});
    }
    void add(const GaussJordanResults &r)
    {
      std::vector<double> row = {double(r.n), r.getrf.ms};
      for (const Measurement &m : r.variants)
        row.push_back(m.ms);
      row.push_back(r.getrf.residual);
      for (const Measurement &m : r.variants)
        row.push_back(m.residual);
      row.push_back(r.tolerance);
      gauss_jordan.add_row(row);
    }

    void write(const Settings &settings) const
    {
      const char *precision = lab::precision_name<T>();
      const auto put = [&](const lab::Table &table, const std::string &name, const std::string &what,
                           std::vector<std::string> notes) {
        if (table.rows() == 0)
          return;
        notes.insert(notes.begin(), "times in milliseconds (GPU: kernels only); NaN = not run");
        lab::write_table(table, settings.options.out + "/step-3/" + name + "_" + precision + ".dat",
                         {what, lab::describe_for_table(settings.device), precision, settings.options.reps, notes});
      };
      put(inverse, "inverse", "step-3 (triangular inverse X = L^-1 against trtri and trsm(L, I))",
          {"L = Cholesky factor of a random SPD matrix of condition 1e3 (cond(L) = 31.6)",
           "residual = ||L X - I||_F / (||L||_F ||X||_F) in double (64 sampled columns above n = 2048); "
           "tolerance = 4 eps at every n"});
      put(solve, "solve", "step-3 (A x = b: two substitutions against the explicit inverse and potrs)",
          {"residual = ||B - A X||_F / (||A||_F ||X||_F) in double, every right-hand side up to n = 4096, "
           "64 sampled beyond"});
      put(spd, "spd_inverse", "step-3 (A^-1 = X^T X from the Cholesky factor, against potri and potrs(I))",
          {"times exclude potrf (potrf_ms, the same for all)",
           "residual = ||A C - I||_F / (||A||_F ||C||_F) in double"});
      put(gauss_jordan, "gauss_jordan", "step-3 (Gauss-Jordan inverse of a general matrix against getrf+getrs(I))",
          {"A = random strictly diagonally dominant matrix",
           "residual = ||A X - I||_F / (||A||_F ||X||_F) in double"});
    }
  };
} // namespace step3
