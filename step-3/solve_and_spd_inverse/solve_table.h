#pragma once
// @sect3{Table 2: solving instead of inverting}
//
// A x = b with A = L L^T, for one and for 256 right-hand sides: two substitutions
// (forward with L, back with L^T); the explicit inverse, once with the inversion
// counted (variant 4, then x = X^T (X b), two triangular products) and once with X
// given, as when it is reused for many solves; cuSOLVER's potrs. The backward error
// ‖B − A X‖_F / (‖A‖_F ‖X‖_F) against the same tolerance, from every right-hand side
// up to n = 4096 (result_checks.h), and the info of each computation that reports
// one. The percent column is of potrs.

#include "measurement.h"
#include "problem.h"
#include "result_checks.h"
#include "solve_and_spd_inverse/substitution.h"
#include "triangular/triangular_inverse.h"
#include "triangular/triangular_products.h"

#include <lab/checks.h>
#include <lab/device_buffer.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace step3
{
  constexpr int many_right_hand_sides = 256;

  // One row of the table: one count of right-hand sides at one size.
  struct SolveResults
  {
    int n = 0, nrhs = 0;
    Measurement substitution, inverse_and_products, products, potrs;
    double tolerance = std::nan("");
  };

  template <typename T>
  SolveResults run_solve(Problem<T> &p, int nrhs, lab::Checks &checks, const std::string &context)
  {
    const int n = p.n;
    const double tolerance = lab::tolerance<T>(residual_constant, n);
    const InverseVariant<T> &recursive = inverse_variants<T>().back();
    lab::DeviceBuffer<T> inverse_workspace(recursive.workspace_elements(n));
    std::printf(" solve A x = b, %d right-hand side%s (%.2f GFLOP by substitution)\n", nrhs, nrhs == 1 ? "" : "s",
                2.0 * n * n * nrhs / 1e9);
    print_heading("solve", "potrs", "");
    const lab::Matrix<T> b = lab::random_matrix<T>(n, nrhs, 77);
    lab::DeviceBuffer<T> pristine(b), work(b.size()), y(b.size()), workspace(substitution_workspace(n, nrhs));
    // The backward error of the solutions left in `solution` (n × nrhs, row-major).
    const auto error = [&](const lab::DeviceBuffer<T> &solution, bool transposed) {
      lab::Matrix<T> x(transposed ? nrhs : n, transposed ? n : nrhs);
      solution.download(x);
      if (transposed)
        x = lab::transposed(x);
      return lab::solve_residual(p.a, x, b, solve_residual_columns(n, nrhs));
    };
    // Every run starts from B (the solves work in place), with the intermediate
    // X b and the info poisoned; the route through the inverse poisons X too, so
    // that an inversion that writes nothing cannot use the X of the table before.
    const auto reset = [&] {
      work.copy_from_device(pristine);
      y.poison();
      p.info.poison();
    };
    const auto reset_with_inverse = [&] {
      reset();
      p.device_x.poison();
    };

    SolveResults r{n, nrhs, {"2_substitutions"}, {"inverse_and_2_products"}, {"2_products_(X_given)"},
                   {"cuSOLVER_potrs"}};
    r.substitution.ms = p.time(
      [&] {
        solve_lower(p.device_l.data(), n, n, lab::Op::none, work.data(), nrhs, nrhs, workspace.data(),
                    p.info.data(), p.gemm(), nullptr);
        solve_lower(p.device_l.data(), n, n, lab::Op::transpose, work.data(), nrhs, nrhs, workspace.data(),
                    p.info.data(), p.gemm(), nullptr);
      },
      reset);
    r.substitution.info = p.reported_info();
    r.substitution.residual = error(work, false);

    const InverseArgs<T> args =
      inverse_args(p.device_l.data(), n, n, p.device_x.data(), p.info.data(), inverse_workspace.data(), p.gemm());
    const auto products = [&] { // work = X^T (X b), through y
      triangle_times(T(1), p.device_x.data(), n, n, lab::Op::none, pristine.data(), nrhs, nrhs, y.data(), nrhs,
                     args.gemm, nullptr);
      triangle_times(T(1), p.device_x.data(), n, n, lab::Op::transpose, y.data(), nrhs, nrhs, work.data(), nrhs,
                     args.gemm, nullptr);
    };
    r.inverse_and_products.ms = p.time(
      [&] {
        recursive.invert(args);
        products();
      },
      reset_with_inverse);
    r.inverse_and_products.info = p.reported_info();
    r.inverse_and_products.residual = error(work, false);
    r.products.ms = p.time(products, reset);
    r.products.residual = error(work, false);

    // cuSOLVER takes the right-hand sides by columns: B^T by rows.
    lab::DeviceBuffer<T> transposed_b(lab::transposed(b));
    r.potrs.ms = p.time([&] { p.cholesky->solve(p.device_l.data(), p.factor_by_rows, work.data(), nrhs, n, p.info.data()); },
                        [&] {
                          work.copy_from_device(transposed_b);
                          p.info.poison();
                        });
    r.potrs.info = p.reported_info();
    r.potrs.residual = error(work, true);

    const double flops = 2.0 * n * n * nrhs;
    for (const Measurement &m : {r.substitution, r.inverse_and_products, r.products, r.potrs})
      report(checks, context + " nrhs=" + std::to_string(nrhs), m, flops, tolerance, {r.potrs.ms});
    r.tolerance = tolerance;
    return r;
  }

  // The table's rows of one size: one right-hand side, then many.
  template <typename T>
  std::vector<SolveResults> run_solves(Problem<T> &p, lab::Checks &checks, const std::string &context)
  {
    std::vector<SolveResults> rows;
    for (const int nrhs : {1, many_right_hand_sides})
      rows.push_back(run_solve(p, nrhs, checks, context));
    return rows;
  }
} // namespace step3
