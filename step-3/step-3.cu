// step-3: inverting triangular matrices by Gaussian elimination (GETS), and faster.
//
// What this program shows: how the thesis' triangular inverse, GETS, one launch per
// row, becomes a computation made of matrix products that beats the vendor's own
// triangular inverse; and when not to invert at all. For every size of the sweep and
// each precision it takes the Cholesky factor L of a random SPD matrix A (condition
// 1e3, factorised by cuSOLVER) and prints four tables:
//  1. the triangular inverse X = L^{-1}: the CPU, LAPACK, cuSOLVER's trtri, cuBLAS's
//     trsm against the identity and every variant: time, GFLOP/s (n³/3 flops),
//     percent of trtri and of trsm, the residual ‖L X − I‖_F / (‖L‖_F ‖X‖_F), check;
//  2. solving A x = b for one and for 256 right-hand sides: two substitutions against
//     the explicit inverse (time and backward error), and cuSOLVER's potrs;
//  3. the SPD inverse A^{-1} = X^T X against cuSOLVER's potri and potrs(I);
//  4. Gauss–Jordan inversion of a general matrix, the thesis' contrast, against
//     cuSOLVER's getrf + getrs(I), and the matrix on which the thesis' pivoting fails.
// Tables: `step-3/inverse_<precision>.dat`, `solve_…`, `spd_inverse_…`,
// `gauss_jordan_…`. `--variant NAME` runs one triangular variant (with the vendor's
// routines beside it); `--matrix FILE` inverts a lower triangular matrix of your own,
// `--matrix FILE --general` any square matrix by Gauss–Jordan.

// @sect3{Include files}
#include "cusolver_triangular.h"
#include "result_checks.h"
#include "gauss_jordan/cusolver_inverse.h"
#include "gauss_jordan/gauss_jordan.h"
#include "gauss_jordan/gauss_jordan_cpu.h"
#include "gauss_jordan/unstable_example.h"
#include "spd_inverse.h"
#include "substitution.h"
#include "triangular/frame.cuh"
#include "triangular_cpu.h"
#include "triangular_inverse.h"
#include "triangular_products.h"

#include <cholesky_blocked_cpu.h> // step-2: the factor when there is no GPU
#include <cusolver_cholesky.h>    // step-2: cuSOLVER's potrf

#include <lab/checks.h>
#include <lab/cli.h>
#include <lab/cublas_gemm.h>
#include <lab/cuda_check.h>
#include <lab/device.h>
#include <lab/device_buffer.h>
#include <lab/forecast.h>
#include <lab/format.h>
#include <lab/lapack.h>
#include <lab/matrix_io.h>
#include <lab/memory.h>
#include <lab/program.h>
#include <lab/residuals.h>
#include <lab/table.h>
#include <lab/test_matrices.h>
#include <lab/timer.h>
#include <lab/precision.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <utility>
#include <string>

namespace step3
{
  // @sect3{What the program was asked to do}
  struct Settings
  {
    lab::CommonOptions options;
    std::string variant;     // --variant: one triangular variant, or all when empty
    std::string matrix_file; // --matrix
    bool general = false;    // --general: the file is a general matrix (Gauss–Jordan)
    lab::DeviceInfo device;
    bool use_gpu = false;

    template <typename T>
    bool runs(const InverseVariant<T> &v, int n) const
    {
      if (!variant.empty())
        return find_inverse_variant<T>(variant) == &v;
      return n <= v.largest_n;
    }
  };

  const std::vector<int> full_sweep = {256, 512, 1024, 2048, 4096, 8192, 16384};
  const std::vector<int> quick_sweep = {256, 512, 1024, 2048};

  // The CPU runs where it finishes in seconds; the unblocked Gauss–Jordan variants (four
  // launches per column, 2n³ flops) up to 8192.
  int cpu_limit(const Settings &s) { return s.options.quick ? 1024 : 4096; }
  int lapack_limit(const Settings &s) { return s.options.quick ? 2048 : 8192; }
  constexpr int gauss_jordan_limit = 8192;

  // The tolerance c·n·ε (result_checks.h: c = 4), and the test matrices' condition:
  // A's is 1e3, so L's (2-norm) is its square root, 31.6. The residuals are relative to
  // ‖L‖‖X‖, which carries the condition: ‖LX − I‖ <= c n ε ‖L‖‖X‖ is what a stable
  // inverse achieves.
  constexpr double condition_number = 1e3;
  constexpr int many_right_hand_sides = 256;

  double gflops(double flops, double ms) { return flops / (ms * 1e6); }
  double triangular_inverse_flops(int n) { return double(n) * n * n / 3; }

  // @sect3{What a size costs}
  //
  // On the host: A generated in double, then A, L and up to four result matrices in
  // the working precision. On the GPU: A, L, X, the SPD inverse C, a copy for the
  // in-place vendor routines and variant 4's workspace (a quarter matrix); the
  // right-hand sides are small beside them.
  template <typename T>
  lab::Memory memory_needed(int n)
  {
    const double matrix = lab::matrix_bytes<T>(n, n);
    return {lab::matrix_bytes<double>(n, n) + 6 * matrix, 5.5 * matrix};
  }

  // @sect3{The console line of one computation}
  //
  // Name, time, GFLOP/s, percent of up to two references (the vendor's), residual and
  // check (result_checks.h: a computation that reports a singular matrix where there
  // is none fails).
  struct Line
  {
    std::string name;
    double ms = std::nan("");
    double residual = std::nan("");
    int info = 0;
  };

  struct Reference
  {
    double ms = std::nan("");
  };

  bool report(lab::Checks &checks, const std::string &context, const Line &line, double flops,
              double tolerance, Reference first, Reference second)
  {
    const bool ok = judge(checks, context + " " + line.name, line.info, line.residual, tolerance);
    std::printf("  %-30s %10s %9.0f %8s %8s %10.2e   %s\n", line.name.c_str(),
                lab::format_milliseconds(line.ms).c_str(), gflops(flops, line.ms),
                lab::format_or_dash(100 * first.ms / line.ms, "%.1f%%").c_str(),
                lab::format_or_dash(100 * second.ms / line.ms, "%.1f%%").c_str(), line.residual,
                ok ? "PASS" : "FAIL");
    std::fflush(stdout);
    return ok;
  }

  void print_heading(const char *what, const char *first, const char *second)
  {
    std::printf("  %-30s %10s %9s %8s %8s %10s   %s\n", what, "time", "GFLOP/s", first, second, "residual",
                "check");
  }

  template <typename T>
  GaussJordanArgs<T> gauss_jordan_args(T *a, int n, T *x, int *info, T *workspace, lab::Gemm<T> gemm)
  {
    GaussJordanArgs<T> args;
    args.a = a;
    args.n = args.lda = args.ldx = n;
    args.x = x;
    args.info = info;
    args.workspace = workspace;
    args.gemm = std::move(gemm);
    return args;
  }

  // @sect3{Everything one size works on}
  //
  // The host matrices (A, its factor L with zeros above the diagonal) and their copies
  // on the GPU, the cuBLAS and cuSOLVER handles, and one timing function: the median of
  // `reps` runs of `work` between CUDA events, each prepared by `reset` outside the
  // clock (restore an input that is overwritten in place, poison an output so that a
  // computation that does not write it cannot pass).
  template <typename T>
  struct Problem
  {
    const Settings &settings;
    int n;
    lab::Matrix<T> a, l;
    lab::Cublas *cublas = nullptr;
    lab::DeviceBuffer<T> device_a, device_l, device_x;
    lab::DeviceBuffer<int> info;
    // The vendor's routines for this size, their workspaces allocated once.
    std::unique_ptr<step2::CusolverCholesky<T>> cholesky; // potrf and potrs
    // potrs reads L from the triangle where the course keeps it, by rows (UPPER to
    // cuSOLVER), the faster of the two for one right-hand side.
    static constexpr auto factor_by_rows = step2::CusolverCholesky<T>::Factor::by_rows;
    std::unique_ptr<VendorTriangular<T>> vendor;          // trtri, trsm, potri

    Problem(const Settings &s, int size, lab::Cublas *handle)
      : settings(s), n(size), a(lab::random_spd<T>(size, condition_number, 3000 + size)), cublas(handle),
        device_a(0), device_l(0), device_x(0), info(0)
    {
      if (!settings.use_gpu)
        {
          l = a;
          step2::cholesky_blocked_cpu(l);
          l = lower_triangle(l);
          return;
        }
      info = lab::DeviceBuffer<int>(1);
      device_a = lab::DeviceBuffer<T>(a);
      device_l = lab::DeviceBuffer<T>(a.size());
      device_x = lab::DeviceBuffer<T>(a.size());
      cholesky = std::make_unique<step2::CusolverCholesky<T>>(n, n);
      vendor = std::make_unique<VendorTriangular<T>>(n, n, *cublas);
      device_l.copy_from_device(device_a);
      // cuSOLVER's factor comes back by columns; by rows it is L in the lower triangle
      // after to_course_layout, and then the buffer holds L both ways (step-2 says
      // how), which the vendor's routines below read in whichever layout they run
      // fastest in.
      cholesky->factorize(device_l.data(), info.data());
      cholesky->to_course_layout(device_l.data());
      l = lab::Matrix<T>(n, n);
      device_l.download(l);
      l = lower_triangle(l);
    }

    double time(const std::function<void()> &work, const std::function<void()> &reset)
    {
      return lab::median_gpu_milliseconds(settings.options.reps, work, reset);
    }

    // The info the last computation left.
    int reported_info() const
    {
      int status = -1;
      info.copy_to_host(&status, 1);
      return status;
    }

    // X from the device, with its info.
    Line result(const std::string &name, double ms, bool lower_only = false)
    {
      lab::Matrix<T> x(n, n);
      device_x.download(x);
      if (lower_only)
        x = lower_triangle(x);
      const int status = reported_info();
      return {name, ms, status == 0 ? lab::inverse_residual(l, x, residual_columns(n)) : std::nan(""), status};
    }

    lab::Gemm<T> gemm() const { return lab::cublas_gemm_exact<T>(*cublas); }
  };

  // One triangular variant into device_x, its workspace allocated outside the timing.
  template <typename T>
  Line run_inverse_variant(Problem<T> &p, const InverseVariant<T> &variant)
  {
    lab::DeviceBuffer<T> workspace(variant.workspace_elements(p.n));
    const InverseArgs<T> args =
      inverse_args(p.device_l.data(), p.n, p.n, p.device_x.data(), p.info.data(), workspace.data(), p.gemm());
    const double ms = p.time([&] { variant.invert(args); },
                             [&] {
                               p.device_x.poison();
                               p.info.poison();
                             });
    return p.result(variant.name, ms);
  }

  // @sect3{Table 1: the triangular inverse}
  //
  // The CPU and LAPACK where they finish in seconds, the two vendor routines, every
  // variant. Returns the row of the table: times, then residuals.
  template <typename T>
  std::vector<double> run_inverses(Problem<T> &p, lab::Checks &checks, const std::string &context)
  {
    const int n = p.n;
    const double flops = triangular_inverse_flops(n), tolerance = lab::tolerance<T>(residual_constant, n);
    std::printf(" triangular inverse X = L^-1 (%.1f GFLOP; tolerance %.1e)\n", flops / 1e9, tolerance);
    print_heading("inverse", "trtri", "trsm");

    std::vector<double> times = {double(n)}, residuals;
    const auto cpu_time = [&](const char *name, auto invert) {
      Line line{name};
      lab::Matrix<T> x;
      line.ms = lab::median(lab::repeat(p.settings.options.reps, [&] {
        lab::HostTimer timer;
        line.info = invert(x);
        return timer.milliseconds();
      }));
      line.residual = lab::inverse_residual(p.l, lower_triangle(x), residual_columns(n));
      report(checks, context, line, flops, tolerance, {}, {});
      return line;
    };
    const Line cpu = n <= cpu_limit(p.settings) ? cpu_time("CPU_OpenMP", [&](lab::Matrix<T> &x) {
      return invert_lower_cpu(p.l, x);
    })
                                                 : Line{};
    const Line lapack = lab::have_lapack() && n <= lapack_limit(p.settings)
                          ? cpu_time("LAPACK_trtri", [&](lab::Matrix<T> &x) {
                              x = p.l;
                              return *lab::lapack_triangular_inverse(x);
                            })
                          : Line{};
    times.insert(times.end(), {cpu.ms, lapack.ms});
    residuals.insert(residuals.end(), {cpu.residual, lapack.residual});
    if (!p.settings.use_gpu)
      return times;

    // trtri works in place: each run starts from a fresh copy of L. Its upper triangle
    // still holds A's, which trtri does not touch: only the lower one is X.
    VendorTriangular<T> &vendor = *p.vendor;
    const Line trtri = p.result("cuSOLVER_trtri",
                                p.time([&] { vendor.trtri(p.device_x.data(), p.info.data(), nullptr); },
                                       [&] {
                                         p.device_x.copy_from_device(p.device_l);
                                         p.info.poison();
                                       }),
                                true);
    // trsm overwrites the identity with X; it has no info, so ours is set to 0.
    const Line trsm = p.result("cuBLAS_trsm(L,I)", p.time([&] { vendor.trsm(p.device_l.data(), p.device_x.data(), nullptr); },
                                                          [&] {
                                                            set_to_identity(p.device_x.data(), n, n, nullptr);
                                                            LAB_CHECK(cudaMemset(p.info.data(), 0, sizeof(int)));
                                                          }));
    report(checks, context, trtri, flops, tolerance, {trtri.ms}, {trsm.ms});
    report(checks, context, trsm, flops, tolerance, {trtri.ms}, {trsm.ms});
    times.insert(times.end(), {trtri.ms, trsm.ms});
    residuals.insert(residuals.end(), {trtri.residual, trsm.residual});
    for (const InverseVariant<T> &variant : inverse_variants<T>())
      {
        Line line{variant.name};
        if (p.settings.runs(variant, n))
          {
            line = run_inverse_variant(p, variant);
            report(checks, context, line, flops, tolerance, {trtri.ms}, {trsm.ms});
          }
        times.push_back(line.ms);
        residuals.push_back(line.residual);
      }
    times.insert(times.end(), residuals.begin(), residuals.end());
    times.push_back(tolerance);
    return times;
  }

  // @sect3{Table 2: solving instead of inverting}
  //
  // A x = b with A = L L^T, for one and for 256 right-hand sides: two substitutions
  // (forward with L, back with L^T); the explicit inverse, once with the inversion
  // counted (variant 4, then x = X^T (X b), two triangular products) and once with X
  // given, as when it is reused for many solves; cuSOLVER's potrs. The backward error
  // ‖B − A X‖_F / (‖A‖_F ‖X‖_F) against the same tolerance, from every right-hand side
  // up to n = 4096 (result_checks.h), and the info of each computation that reports
  // one. Returns one row per count of right-hand sides: n, nrhs, the four times, the
  // four errors.
  template <typename T>
  std::vector<std::vector<double>> run_solves(Problem<T> &p, lab::Checks &checks, const std::string &context)
  {
    const int n = p.n;
    const double tolerance = lab::tolerance<T>(residual_constant, n);
    const InverseVariant<T> &recursive = inverse_variants<T>().back();
    lab::DeviceBuffer<T> inverse_workspace(recursive.workspace_elements(n));
    std::vector<std::vector<double>> rows;
    for (const int nrhs : {1, many_right_hand_sides})
      {
        std::printf(" solve A x = b, %d right-hand side%s (%.2f GFLOP by substitution)\n", nrhs,
                    nrhs == 1 ? "" : "s", 2.0 * n * n * nrhs / 1e9);
        print_heading("solve", "potrs", "");
        const lab::Matrix<T> b = lab::random_matrix<T>(n, nrhs, 77);
        lab::DeviceBuffer<T> pristine(b), work(b.size()), y(b.size()),
          workspace(substitution_workspace(n, nrhs));
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

        Line substitution{"2_substitutions"};
        substitution.ms = p.time(
          [&] {
            solve_lower(p.device_l.data(), n, n, lab::Op::none, work.data(), nrhs, nrhs, workspace.data(),
                        p.info.data(), p.gemm(), nullptr);
            solve_lower(p.device_l.data(), n, n, lab::Op::transpose, work.data(), nrhs, nrhs, workspace.data(),
                        p.info.data(), p.gemm(), nullptr);
          },
          reset);
        substitution.info = p.reported_info();
        substitution.residual = error(work, false);

        const InverseArgs<T> args =
          inverse_args(p.device_l.data(), n, n, p.device_x.data(), p.info.data(), inverse_workspace.data(), p.gemm());
        const auto products = [&] { // work = X^T (X b), through y
          triangle_times(T(1), p.device_x.data(), n, n, lab::Op::none, pristine.data(), nrhs, nrhs, y.data(),
                         nrhs, args.gemm, nullptr);
          triangle_times(T(1), p.device_x.data(), n, n, lab::Op::transpose, y.data(), nrhs, nrhs, work.data(),
                         nrhs, args.gemm, nullptr);
        };
        Line inverse{"inverse_and_2_products"};
        inverse.ms = p.time(
          [&] {
            recursive.invert(args);
            products();
          },
          reset_with_inverse);
        inverse.info = p.reported_info();
        inverse.residual = error(work, false);
        Line given{"2_products_(X_given)"};
        given.ms = p.time(products, reset);
        given.residual = error(work, false);

        // cuSOLVER takes the right-hand sides by columns: B^T by rows.
        lab::DeviceBuffer<T> transposed_b(lab::transposed(b));
        Line potrs{"cuSOLVER_potrs"};
        potrs.ms = p.time([&] { p.cholesky->solve(p.device_l.data(), p.factor_by_rows, work.data(), nrhs, n, p.info.data()); },
                          [&] {
                            work.copy_from_device(transposed_b);
                            p.info.poison();
                          });
        potrs.info = p.reported_info();
        potrs.residual = error(work, true);

        const double flops = 2.0 * n * n * nrhs;
        for (const Line &line : {substitution, inverse, given, potrs})
          report(checks, context + " nrhs=" + std::to_string(nrhs), line, flops, tolerance, {potrs.ms}, {});
        rows.push_back({double(n), double(nrhs), substitution.ms, inverse.ms, given.ms, potrs.ms,
                        substitution.residual, inverse.residual, given.residual, potrs.residual, tolerance});
      }
    return rows;
  }

  // @sect3{Table 3: the SPD inverse}
  //
  // A^{-1} from A's factor L (cuSOLVER's potrf, timed once and printed): X by variant
  // 4, then X^T X; cuSOLVER's potri (in place, one triangle); potrs against the
  // identity. The residual ‖A C − I‖_F / (‖A‖_F ‖C‖_F).
  template <typename T>
  std::vector<double> run_spd_inverse(Problem<T> &p, lab::Checks &checks, const std::string &context)
  {
    const int n = p.n;
    const double tolerance = lab::tolerance<T>(residual_constant, n);
    lab::DeviceBuffer<T> c(p.a.size()), factor(p.a.size());
    const double potrf_ms = p.time([&] { p.cholesky->factorize(factor.data(), p.info.data()); },
                                   [&] { factor.copy_from_device(p.device_a); });
    std::printf(" SPD inverse A^-1 from the factor (cuSOLVER potrf took %s ms)\n",
                lab::format_milliseconds(potrf_ms).c_str());
    print_heading("SPD inverse", "potri", "potrs(I)");
    const auto residual = [&](bool lower_only) {
      lab::Matrix<T> inverse(n, n);
      c.download(inverse);
      if (lower_only) // mirror the lower triangle
        for (int i = 0; i < n; ++i)
          for (int j = i + 1; j < n; ++j)
            inverse(i, j) = inverse(j, i);
      return lab::inverse_residual(p.a, inverse, residual_columns(n));
    };

    const InverseVariant<T> &recursive = inverse_variants<T>().back();
    lab::DeviceBuffer<T> workspace(recursive.workspace_elements(n));
    const InverseArgs<T> args =
      inverse_args(p.device_l.data(), n, n, p.device_x.data(), p.info.data(), workspace.data(), p.gemm());
    Line ours{"X^T_X_(variant_4)"};
    ours.ms = p.time(
      [&] {
        recursive.invert(args);
        inverse_from_factor_inverse(p.device_x.data(), n, n, c.data(), n, args.gemm, nullptr);
      },
      [&] {
        c.poison();
        p.device_x.poison();
        p.info.poison();
      });
    ours.info = p.reported_info();
    ours.residual = residual(false);

    Line potri{"cuSOLVER_potri"};
    potri.ms = p.time([&] { p.vendor->potri(c.data(), p.info.data(), nullptr); },
                      [&] { c.copy_from_device(p.device_l); });
    potri.residual = residual(true);
    Line potrs{"cuSOLVER_potrs(I)"};
    potrs.ms = p.time([&] { p.cholesky->solve(p.device_l.data(), p.factor_by_rows, c.data(), n, n, p.info.data()); },
                      [&] { set_to_identity(c.data(), n, n, nullptr); });
    potrs.residual = residual(false);

    // 2n³/3 flops: what potri needs (n³/3 for the inverse, n³/3 for one triangle of X^T X).
    const double flops = 2.0 * n * n * n / 3;
    for (const Line &line : {ours, potri, potrs})
      report(checks, context + " SPD", line, flops, tolerance, {potri.ms}, {potrs.ms});
    return {double(n), potrf_ms, ours.ms, potri.ms, potrs.ms, ours.residual, potri.residual, potrs.residual,
            tolerance};
  }

  // @sect3{Table 4: Gauss–Jordan on a general matrix}
  //
  // The thesis' contrast: inverting a general matrix by Gauss–Jordan (2n³ flops), on a
  // diagonally dominant matrix (invertible, well conditioned, and every pivoting rule
  // keeps the diagonal: a fair race), against cuSOLVER's LU, getrf + getrs(I). The
  // residual ‖A X − I‖_F / (‖A‖_F ‖X‖_F).
  template <typename T>
  std::vector<double> run_gauss_jordan(const Settings &settings, int n, lab::Cublas &cublas, lab::Checks &checks,
                                       const std::string &context)
  {
    const double flops = 2.0 * n * n * n, tolerance = lab::tolerance<T>(residual_constant, n);
    std::printf(" Gauss-Jordan inverse of a general matrix (%.1f GFLOP)\n", flops / 1e9);
    print_heading("general inverse", "getrf+s", "");
    const lab::Matrix<T> a = lab::random_diagonally_dominant<T>(n, 4000 + n);
    lab::DeviceBuffer<T> pristine(a), work(a.size()), x(a.size());
    lab::DeviceBuffer<int> info(1);
    const auto result = [&](const std::string &name, double ms) {
      lab::Matrix<T> inverse(n, n);
      x.download(inverse);
      int status = -1;
      info.copy_to_host(&status, 1);
      return Line{name, ms, status == 0 ? lab::inverse_residual(a, inverse, residual_columns(n)) : std::nan(""),
                  status};
    };
    const auto reset = [&] {
      work.copy_from_device(pristine);
      x.poison();
      info.poison();
    };
    CusolverGeneralInverse<T> vendor(n, n);
    const Line getrf = result(
      "cuSOLVER_getrf+getrs(I)",
      lab::median_gpu_milliseconds(settings.options.reps,
                                   [&] { vendor.invert(work.data(), x.data(), info.data(), nullptr); }, reset));
    report(checks, context + " general", getrf, flops, tolerance, {getrf.ms}, {});
    std::vector<double> row = {double(n), getrf.ms}, residuals = {getrf.residual};
    for (const GaussJordanVariant<T> &variant : gauss_jordan_variants<T>())
      {
        Line line{variant.name};
        if (n <= gauss_jordan_limit || variant.uses_gemm)
          {
            lab::DeviceBuffer<T> workspace(variant.workspace_elements(n));
            const GaussJordanArgs<T> args = gauss_jordan_args(work.data(), n, x.data(), info.data(),
                                                              workspace.data(), lab::cublas_gemm_exact<T>(cublas));
            line = result(variant.name, lab::median_gpu_milliseconds(settings.options.reps,
                                                                     [&] { variant.invert(args); }, reset));
            report(checks, context + " general", line, flops, tolerance, {getrf.ms}, {});
          }
        row.push_back(line.ms);
        residuals.push_back(line.residual);
      }
    row.insert(row.end(), residuals.begin(), residuals.end());
    row.push_back(tolerance);
    return row;
  }

  // @sect3{The tables of one precision}
  //
  // Their columns, built from the lists of variants, and the notes written above them.
  template <typename T>
  struct Tables
  {
    lab::Table inverse, solve, spd, gauss_jordan;

    static std::vector<std::string> inverse_columns()
    {
      std::vector<std::string> c = {"n", "cpu_ms", "lapack_ms", "trtri_ms", "trsm_ms"};
      for (const InverseVariant<T> &v : inverse_variants<T>())
        c.push_back(v.name + "_ms");
      for (const char *r : {"residual_cpu", "residual_lapack", "residual_trtri", "residual_trsm"})
        c.push_back(r);
      for (const InverseVariant<T> &v : inverse_variants<T>())
        c.push_back("residual_" + v.name.substr(0, v.name.find('_')));
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
        c.push_back("residual_" + v.name.substr(0, v.name.find('_')));
      c.push_back("tolerance");
      return c;
    }

    Tables()
      : inverse(inverse_columns()),
        solve({"n", "nrhs", "substitution_ms", "inverse_and_products_ms", "products_ms", "potrs_ms",
               "residual_substitution", "residual_inverse_and_products", "residual_products", "residual_potrs",
               "tolerance"}),
        spd({"n", "potrf_ms", "xtx_ms", "potri_ms", "potrs_identity_ms", "residual_xtx", "residual_potri",
             "residual_potrs_identity", "tolerance"}),
        gauss_jordan(gauss_jordan_columns())
    {}

    void write(const Settings &settings, const char *precision) const
    {
      const std::string gpu = settings.use_gpu ? lab::describe(settings.device) : "none (GPU part skipped)";
      const std::string dir = settings.options.out + "/step-3/";
      const auto put = [&](const lab::Table &table, const std::string &name, const std::string &what,
                           std::vector<std::string> notes) {
        if (table.rows() == 0)
          return;
        notes.insert(notes.begin(), "times in milliseconds (GPU: kernels only); NaN = not run");
        table.write(dir + name + "_" + precision + ".dat", {what, gpu, precision, settings.options.reps, notes});
        std::printf("table written: %s%s_%s.dat\n", dir.c_str(), name.c_str(), precision);
      };
      put(inverse, "inverse", "step-3 (triangular inverse X = L^-1 against trtri and trsm(L, I))",
          {"L = Cholesky factor of a random SPD matrix of condition 1e3 (cond(L) = 31.6)",
           "residual = ||L X - I||_F / (||L||_F ||X||_F) in double (64 sampled columns above n = 2048); "
           "tolerance = 4 n eps"});
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

  // @sect3{One size: every table's row}
  template <typename T>
  void run_size(const Settings &settings, int n, lab::Cublas *cublas, Tables<T> &tables, lab::Checks &checks)
  {
    const std::string context = std::string(lab::precision_name<T>()) + " n=" + std::to_string(n);
    std::printf("\nn = %d\n", n);
    Problem<T> problem(settings, n, cublas);
    std::vector<double> row = run_inverses(problem, checks, context);
    if (!settings.use_gpu)
      row.resize(tables.inverse.columns(), std::nan(""));
    tables.inverse.add_row(row);
    if (!settings.use_gpu)
      return;
    for (const std::vector<double> &solve_row : run_solves(problem, checks, context))
      tables.solve.add_row(solve_row);
    tables.spd.add_row(run_spd_inverse(problem, checks, context));
    tables.gauss_jordan.add_row(run_gauss_jordan<T>(settings, n, *cublas, checks, context));
  }

  // @sect3{Partial pivoting, shown on one matrix}
  //
  // The thesis swaps rows only when a pivot is exactly zero. On a matrix whose first
  // pivot is tiny but not zero, that keeps the tiny pivot, the multipliers become huge
  // and the rounding errors they carry swamp the result; partial pivoting swaps the
  // large entry up and loses nothing. Every variant runs on the same matrix, into a
  // poisoned inverse and info: the check is that pivoting meets the tolerance and the
  // thesis' rule fails by the finite error the example predicts (result_checks.h).
  template <typename T>
  void show_unstable_example(lab::Cublas &cublas, lab::Checks &checks)
  {
    const lab::Matrix<T> a = unstable_example<T>();
    const int n = a.rows();
    std::printf("\nthe thesis' pivoting (swap only on an exact zero) against partial pivoting, %d x %d:\n", n, n);
    lab::DeviceBuffer<T> work(a.size()), x(a.size());
    lab::DeviceBuffer<int> info(1);
    for (const GaussJordanVariant<T> &variant : gauss_jordan_variants<T>())
      {
        work.upload(a);
        x.poison();
        info.poison();
        lab::DeviceBuffer<T> workspace(variant.workspace_elements(n));
        variant.invert(gauss_jordan_args(work.data(), n, x.data(), info.data(), workspace.data(),
                                         lab::cublas_gemm_exact<T>(cublas)));
        lab::Matrix<T> inverse(n, n);
        x.download(inverse);
        int status = -1;
        info.copy_to_host(&status, 1);
        const double r = lab::inverse_residual(a, inverse, n);
        std::printf("  %-30s residual %.2e (info %d)\n", variant.name.c_str(), r, status);
        const std::string what = std::string("unstable example ") + (sizeof(T) == 4 ? "float " : "double ") + variant.name;
        const double tolerance = lab::tolerance<T>(residual_constant, n);
        if (variant.pivoting == Pivoting::partial)
          judge(checks, what, status, r, tolerance);
        else
          judge_unstable(checks, what + " (expected to fail)", status, r, 1e3 * tolerance);
      }
  }

  // @sect3{The sweep for one precision}
  template <typename T>
  void run_sweep(const Settings &settings, const std::vector<int> &sizes, lab::Checks &checks)
  {
    const char *precision = lab::precision_name<T>();
    std::printf("\n%s (machine epsilon %.1e; times in ms, median of %d)\n", precision,
                std::numeric_limits<T>::epsilon(), settings.options.reps);
    std::unique_ptr<lab::Cublas> cublas;
    if (settings.use_gpu)
      {
        cublas = std::make_unique<lab::Cublas>();
        show_unstable_example<T>(*cublas, checks);
      }
    Tables<T> tables;
    lab::TimeForecast forecast;
    for (const int n : sizes)
      {
        forecast.announce(n);
        lab::HostTimer timer;
        run_size<T>(settings, n, cublas.get(), tables, checks);
        forecast.record(n, timer.milliseconds() / 1000);
      }
    tables.write(settings, precision);
  }

  // @sect3{Your own matrix}
  //
  // A lower triangular matrix (`--matrix FILE`): inverted on the CPU, by trtri and by
  // every variant; a zero on the diagonal is reported with its column by each, and
  // they must agree. A general matrix (`--general`): Gauss–Jordan on the CPU and by
  // every variant, and cuSOLVER's LU; a singular one is reported with its column.
  // Each computation writes into a poisoned inverse and info (result_checks.h).
  template <typename T>
  void report_file_result(lab::Checks &checks, const std::string &what, int expected, int info, double residual,
                          int n)
  {
    if (info != 0)
      std::printf("  %-30s singular: no usable pivot in column %d (info = %d)\n", what.c_str(), info - 1, info);
    else
      std::printf("  %-30s residual %.2e\n", what.c_str(), residual);
    judge_against_cpu(checks, what, expected, info, residual, lab::tolerance<T>(residual_constant, n));
  }

  template <typename T>
  void invert_file(const Settings &settings, lab::Checks &checks)
  {
    const lab::Matrix<T> a = lab::read_matrix<T>(settings.matrix_file);
    const int n = a.rows();
    if (a.cols() != n)
      throw lab::bad_input(settings.matrix_file + ": the matrix is " + std::to_string(n) + " x " +
                           std::to_string(a.cols()) + ", not square");
    const char *precision = lab::precision_name<T>();
    std::printf("\nmatrix %s: %d x %d, %s, %s\n", settings.matrix_file.c_str(), n, n, precision,
                settings.general ? "general (Gauss-Jordan)" : "lower triangular");
    lab::Matrix<T> x;
    if (settings.general)
      {
        const int expected = gauss_jordan_cpu(a, x);
        report_file_result<T>(checks, "CPU_Gauss-Jordan", expected, expected,
                              expected == 0 ? lab::inverse_residual(a, x, n) : 0, n);
        if (!settings.use_gpu)
          return;
        lab::Cublas cublas;
        lab::DeviceBuffer<T> work(a.size()), inverse(a.size());
        lab::DeviceBuffer<int> info(1);
        const auto finish = [&](const std::string &name) {
          inverse.download(x);
          int status = -1;
          info.copy_to_host(&status, 1);
          report_file_result<T>(checks, name, expected, status, status == 0 ? lab::inverse_residual(a, x, n) : 0, n);
        };
        const auto start = [&] {
          work.upload(a);
          inverse.poison();
          info.poison();
        };
        for (const GaussJordanVariant<T> &variant : gauss_jordan_variants<T>())
          {
            start();
            lab::DeviceBuffer<T> workspace(variant.workspace_elements(n));
            variant.invert(gauss_jordan_args(work.data(), n, inverse.data(), info.data(), workspace.data(),
                                             lab::cublas_gemm_exact<T>(cublas)));
            finish(variant.name);
          }
        start();
        CusolverGeneralInverse<T>(n, n).invert(work.data(), inverse.data(), info.data(), nullptr);
        finish("cuSOLVER_getrf+getrs(I)");
        return;
      }
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (a(i, j) != T(0))
          throw lab::bad_input(settings.matrix_file + ": entry (" + std::to_string(i + 1) + ", " +
                               std::to_string(j + 1) + ") is above the diagonal and not zero: the matrix is "
                               "not lower triangular (use --general for Gauss-Jordan)");
    const int expected = invert_lower_cpu(a, x);
    report_file_result<T>(checks, "CPU_OpenMP", expected, expected,
                          expected == 0 ? lab::inverse_residual(a, x, n) : 0, n);
    if (!settings.use_gpu)
      return;
    lab::Cublas cublas;
    lab::DeviceBuffer<T> device_l(a), device_x(a.size());
    lab::DeviceBuffer<int> info(1);
    const auto finish = [&](const std::string &name, bool lower_only) {
      device_x.download(x);
      if (lower_only)
        x = lower_triangle(x);
      int status = -1;
      info.copy_to_host(&status, 1);
      report_file_result<T>(checks, name, expected, status, status == 0 ? lab::inverse_residual(a, x, n) : 0, n);
    };
    device_x.copy_from_device(device_l);
    info.poison();
    VendorTriangular<T>(n, n, cublas).trtri(device_x.data(), info.data(), nullptr);
    finish("cuSOLVER_trtri", true);
    for (const InverseVariant<T> &variant : inverse_variants<T>())
      if (settings.variant.empty() || find_inverse_variant<T>(settings.variant) == &variant)
        {
          lab::DeviceBuffer<T> workspace(variant.workspace_elements(n));
          device_x.poison();
          info.poison();
          variant.invert(inverse_args(device_l.data(), n, n, device_x.data(), info.data(), workspace.data(),
                                      lab::cublas_gemm_exact<T>(cublas)));
          finish(variant.name, false);
        }
  }
} // namespace step3

// @sect3{The main function}
//
// Parse the command line, say what runs where, refuse what cannot be done (sizes
// that do not fit, an output folder that cannot be written, a bad matrix file: exit
// code 2), run each precision, print the summary (exit code 1 when a check failed).
int main(int argc, char **argv)
{
  using namespace step3;
  Settings settings;
  CLI::App app{"step-3: triangular inverses by Gaussian elimination (GETS), and faster", "step-3"};
  lab::add_common_options(app, settings.options);
  app.add_option("--variant", settings.variant, "Run one triangular variant only, by number or name (1 ... 4)")
    ->type_name("NAME")
    ->check([](const std::string &name) {
      return find_inverse_variant<float>(name) ? std::string() : "no variant named '" + name + "'";
    });
  app.add_option("--matrix", settings.matrix_file,
                 "Invert the lower triangular matrix in this text file (one row per line) instead of the sweep")
    ->type_name("FILE")
    ->excludes(app.get_option("--sizes"))
    ->excludes(app.get_option("--max-size"));
  app.add_flag("--general", settings.general, "The --matrix file is a general matrix: invert it by Gauss-Jordan")
    ->needs(app.get_option("--matrix"));
  if (const auto exit_code = lab::parse_command_line(app, argc, argv))
    return *exit_code;

  return lab::run_program("step-3", [&] {
    std::printf("step-3: triangular inverses by Gaussian elimination, against cuSOLVER and cuBLAS\n");
    settings.device = lab::select_device(settings.options.cpu_only);
    settings.use_gpu = settings.device.present;
    std::printf("LAPACK: %s\n", lab::have_lapack() ? "trtri on all cores, for scale" : "not installed (row left out)");
    std::printf("vendor: L from potrf with LOWER (converted outside the timing); trtri, potri, potrs and trsm in the "
                "configurations tools/vendor-configurations measured fastest\n");
    lab::Checks checks;
    if (!settings.matrix_file.empty())
      {
        if (settings.options.wants_float())
          invert_file<float>(settings, checks);
        if (settings.options.wants_double())
          invert_file<double>(settings, checks);
      }
    else
      {
        const std::vector<int> sizes = lab::choose_sizes(settings.options, full_sweep, quick_sweep);
        lab::prepare_output_folder(settings.options.out + "/step-3");
        if (settings.options.wants_float())
          lab::refuse_sizes_that_do_not_fit(sizes, memory_needed<float>, "float", settings.use_gpu);
        if (settings.options.wants_double())
          lab::refuse_sizes_that_do_not_fit(sizes, memory_needed<double>, "double", settings.use_gpu);
        std::printf("check: residuals <= %g n eps; L = Cholesky factor of a random SPD matrix of condition %g\n",
                    residual_constant, condition_number);
        if (settings.options.wants_float())
          run_sweep<float>(settings, sizes, checks);
        if (settings.options.wants_double())
          run_sweep<double>(settings, sizes, checks);
      }
    std::printf("\n");
    checks.print_summary(std::cout);
    return checks.exit_code();
  });
}
