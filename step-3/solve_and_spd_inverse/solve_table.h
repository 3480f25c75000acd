#pragma once
// @sect3{Table 2: solving instead of inverting}
//
// A x = b with A = L L^T, for one and for 256 right-hand sides: two substitutions
// (forward with L, back with L^T), by blocked products and, for one right-hand side,
// by the chained kernel; the explicit inverse, once with the inversion
// counted (variant 4, then x = X^T (X b), two triangular products) and once with X
// given, as when it is reused for many solves; cuSOLVER's potrs. The backward error
// ‖B − A X‖_F / (‖A‖_F ‖X‖_F) against the same tolerance, from every right-hand side
// up to n = 4096 (result_checks.h), and the info of each computation that reports
// one. The percent columns are of potrs and of the memory floor: the time to read the
// n² numbers that two substitutions read (L twice, one triangle each time), measured
// as a sum over as many numbers, which streams them at the vendor's speed with nothing
// to wait for. 100% of the floor is the speed of memory.

#include "measurement.h"
#include "problem.h"
#include "result_checks.h"
#include "solve_and_spd_inverse/substitution.h"
#include "triangular/triangular_inverse.h"
#include "triangular/triangular_products.h"

#include <lab/checks.h>
#include <lab/cuda_check.h>
#include <lab/device_buffer.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>

#include <cub/device/device_reduce.cuh>

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
    Measurement substitution, chained, inverse_and_products, products, potrs;
    double read_floor_ms = std::nan("");
    double tolerance = std::nan("");
  };

  // The memory floor of two substitutions (above): a sum over the n² numbers of the
  // factor's buffer by CUB, NVIDIA's library of parallel primitives, whose reduction
  // streams memory as fast as the GPU can (cuBLAS's asum reaches about half of that).
  template <typename T>
  double time_read_floor(Problem<T> &p)
  {
    const long count = static_cast<long>(p.n) * p.n;
    lab::DeviceBuffer<T> sum(1);
    std::size_t bytes = 0;
    LAB_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, p.device_l.data(), sum.data(), count));
    lab::DeviceBuffer<unsigned char> scratch(bytes);
    return p.time([&] { LAB_CHECK(cub::DeviceReduce::Sum(scratch.data(), bytes, p.device_l.data(), sum.data(), count)); },
                  [] {});
  }

  template <typename T>
  SolveResults run_solve(Problem<T> &p, int nrhs, double read_floor_ms, lab::Checks &checks,
                         const std::string &context)
  {
    const int n = p.n;
    const double tolerance = sweep_tolerance<T>();
    const InverseVariant<T> &recursive = inverse_variants<T>().back();
    lab::DeviceBuffer<T> inverse_workspace(recursive.workspace_elements(n));
    std::printf(" solve A x = b, %d right-hand side%s (%.2f GFLOP by substitution)\n", nrhs, nrhs == 1 ? "" : "s",
                2.0 * n * n * nrhs / 1e9);
    print_heading("solve", "potrs", "floor");
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

    SolveResults r{n, nrhs, {"2_blocked_substitutions"}, {"2_chained_substitutions"}, {"inverse_and_2_products"},
                   {"2_products_(X_given)"}, {"cuSOLVER_potrs"}};
    r.read_floor_ms = read_floor_ms;
    const auto substitute = [&](Measurement &m, Substitution method) {
      m.ms = p.time(
        [&] {
          solve_with_cholesky_factor(p.device_l.data(), n, n, work.data(), nrhs, nrhs, workspace.data(),
                                     p.info.data(), p.gemm(), nullptr, -1, method);
        },
        reset);
      m.info = p.reported_info();
      m.residual = error(work, false);
    };
    substitute(r.substitution, Substitution::blocked);
    if (nrhs == 1)
      substitute(r.chained, Substitution::chained);

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
    for (const Measurement &m : {r.substitution, r.chained, r.inverse_and_products, r.products, r.potrs})
      if (!std::isnan(m.ms))
        report(checks, context + " nrhs=" + std::to_string(nrhs), m, flops, tolerance, {r.potrs.ms, read_floor_ms});
    r.tolerance = tolerance;
    return r;
  }

  // The table's rows of one size: one right-hand side, then many.
  template <typename T>
  std::vector<SolveResults> run_solves(Problem<T> &p, lab::Checks &checks, const std::string &context)
  {
    const double floor_ms = time_read_floor(p);
    const double gigabytes = double(p.n) * p.n * sizeof(T) / 1e9; // two triangles of n²/2
    std::printf(" memory floor of two substitutions: reading %.3g GB takes %s ms (CUB's sum, %.0f GB/s)\n",
                gigabytes, lab::format_milliseconds(floor_ms).c_str(), gigabytes / floor_ms * 1e3);
    std::vector<SolveResults> rows;
    for (const int nrhs : {1, many_right_hand_sides})
      rows.push_back(run_solve(p, nrhs, floor_ms, checks, context));
    return rows;
  }
} // namespace step3
