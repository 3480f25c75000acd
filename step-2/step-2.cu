// step-2: the blocked Cholesky factorisation, from the 2011 four-kernel design to the
// speed of cuSOLVER.
//
// What this program shows: how step-1's loop becomes a blocked algorithm that uses the
// whole GPU, and what limits each form of it. Variant 1 is the 2011 lab course's design
// (four kernels on 16×16 tiles), timed kernel by kernel, so that the results show
// where its time goes (lo_update, which walks the trailing tiles serially); variants 2
// and 3 fix that with the course's own kernels; variant 4 reorganises the work into
// wide panels whose flops are matrix products (lab::Gemm, cuBLAS here; step-5 runs the
// same code on step-4's kernels); variant 5 hides the panels behind the products
// (look-ahead), and runs also as a CUDA graph; variant 6 solves A x = b with a TF32
// trailing update and iterative refinement. Every variant is checked by its residual
// and timed against cuSOLVER in the same run on the same matrix.
//
// For every size of the sweep and each precision, the program
//  - factorises a random SPD matrix on the CPU (the blocked loop on all cores, and
//    LAPACK where it is installed) and with cuSOLVER and every variant on the GPU,
//  - prints one line per variant: time, time with the copies, GFLOP/s, percent of
//    cuSOLVER, residual, check,
//  - writes the tables `step-2/cholesky_<precision>.dat`, the breakdown of variant
//    1, `step-2/breakdown_<precision>.dat`, and variant 6's solve against spotrf +
//    spotrs, `step-2/mixed_precision_float.dat`.
// `--variant NAME` runs one variant (with cuSOLVER beside it); `--matrix FILE`
// factorises a matrix of your own and reports, for one that is not positive
// definite, the column where each factorisation stopped.

// @sect3{Include files}
#include "cholesky_blocked_cpu.h"
#include "cholesky_variants.h"
#include "cusolver_cholesky.h"
#include "cusolver_mixed_precision.h"
#include "variants/6_mixed_precision_solve.cuh"
#include "variants/diagonal_block_one_kernel.cuh"

#include <lab/checks.h>
#include <lab/checks_on_gpu.h>
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
#include <lab/streams.h>
#include <lab/table.h>
#include <lab/test_matrices.h>
#include <lab/timer.h>
#include <lab/precision.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

namespace step2
{
  // @sect3{What the program was asked to do}
  bool is_mixed_precision(const std::string &name) { return name == "6" || name == "6_mixed_precision_solve"; }

  struct Settings
  {
    lab::CommonOptions options;
    std::string variant;     // --variant: one variant, or all when empty
    std::string matrix_file; // --matrix
    int panel_width = 0;     // --panel-width: nb of variants 4-6; 0: panel_width_for's
    lab::DeviceInfo device;
    bool use_gpu = false;

    template <typename T>
    bool runs(const Variant<T> &v) const
    {
      return variant.empty() || find_variant<T>(variant) == &v;
    }
    // The panel width: the one asked for, or the measured best (default_panel_width).
    template <typename T>
    int panel_width_for() const
    {
      return panel_width ? panel_width : default_panel_width<T>();
    }
    // Variant 6 is not in the list of factorisations: it is a solve.
    bool runs_mixed_precision() const { return variant.empty() || is_mixed_precision(variant); }
  };

  // The sweeps. The full one goes to 16384 (and 32768 in float, 4 GiB per matrix),
  // where cuSOLVER reaches its full speed; quick mode stops at 2048 and takes seconds.
  const std::vector<int> full_sweep_float = {256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
  const std::vector<int> full_sweep_double = {256, 512, 1024, 2048, 4096, 8192, 16384};
  const std::vector<int> quick_sweep = {256, 512, 1024, 2048};

  // The CPU runs only where it finishes in seconds: the blocked loop up to 8192, LAPACK
  // up to 16384 (quick mode: 1024 and 2048).
  int cpu_limit(const Settings &s) { return s.options.quick ? 1024 : 8192; }
  int lapack_limit(const Settings &s) { return s.options.quick ? 2048 : 16384; }

  // The residual ‖L Lᵀ − A‖_F / ‖A‖_F, in double, on every entry. Up to n = 2048 on
  // the host (lab::cholesky_residual), independent of any library. Beyond, the host
  // would take as long as a factorisation, so the GPU computes it where @p gpu allows
  // (a device, not --cpu-only): every entry in double by cuBLAS DSYRK
  // (lab::cholesky_residual_on_gpu), in milliseconds. Without a GPU, or without the
  // free memory for its copies in double, the host estimates it from one row in every
  // band of 16 (lab::cholesky_residual_sampled), so that no tile row of the factor
  // goes unseen, and says so on the line before the result.
  constexpr int on_host_up_to = 2048;
  template <typename T>
  double residual(const lab::Matrix<T> &a, const lab::Matrix<T> &factor, bool gpu = true)
  {
    if (a.rows() <= on_host_up_to)
      return lab::cholesky_residual(a, factor);
    if (gpu)
      if (const std::optional<double> r = lab::cholesky_residual_on_gpu(a, factor))
        return *r;
    std::printf("  (the next residual is sampled on the host: one row in every 16)\n");
    return lab::cholesky_residual_sampled(a, factor);
  }

  // The tolerance, c·n·ε with c = 4 as in step-1, and the matrices' condition number.
  constexpr double residual_constant = 4;
  constexpr double condition_number = 1e3;

  double gflops(int n, double ms) { return double(n) * n * n / 3 / (ms * 1e6); }

  // @sect3{What a size costs}
  //
  // On the host: the test matrix is generated in double, then A, the factor copied
  // back from the GPU, and the CPU's and LAPACK's working copies. On the GPU: A as
  // generated (each run starts from it), the matrix being factorised, variant 6's copy
  // of it, and the workspace of variants 4-6 (an n×nb copy of a panel and two nb×nb
  // blocks); cuSOLVER's workspace is small beside them. On the host one more matrix
  // for variant 6's factor.
  template <typename T>
  lab::Memory memory_needed(int n, int panel_width)
  {
    const double matrix = lab::matrix_bytes<T>(n, n);
    const double nb = std::min(n, panel_width);
    return {lab::matrix_bytes<double>(n, n) + 5 * matrix,
            3 * matrix + lab::matrix_bytes<T>(n + 2 * nb, nb)};
  }

  // @sect3{Timing on the GPU}
  //
  // The matrix is uploaded once and kept as it was generated; before every run (and
  // outside its timing) it is copied into the buffer that the factorisation
  // overwrites, and `info` is poisoned (-1), so that a variant that never writes it
  // cannot pass. Then the median of `reps` runs between CUDA events
  // (lab::median_gpu_milliseconds). The factor of the last run is copied back and
  // checked.
  template <typename T>
  struct DeviceMatrix
  {
    const lab::Matrix<T> &a;
    lab::DeviceBuffer<T> pristine, work;
    lab::DeviceBuffer<int> info;

    explicit DeviceMatrix(const lab::Matrix<T> &matrix)
      : a(matrix), pristine(matrix), work(matrix.size()), info(1)
    {}

    struct Result
    {
      double ms;
      double residual;
      int info;
      lab::Matrix<T> factor;
    };

    // @p to_course_layout, when given, turns the factor of the last run into L by rows
    // (cuSOLVER's comes back by columns), after the timing.
    template <typename Factorize>
    Result run(int reps, Factorize factorize, const std::function<void(T *)> &to_course_layout = {})
    {
      const double ms = lab::median_gpu_milliseconds(reps, [&] { factorize(work.data(), info.data()); },
                                                     [&] {
                                                       work.copy_from_device(pristine);
                                                       info.poison();
                                                     });
      if (to_course_layout)
        to_course_layout(work.data());
      lab::Matrix<T> factor(a.rows(), a.cols(), a.ld());
      work.download(factor);
      int status = -1;
      info.copy_to_host(&status, 1);
      const double r = status == 0 ? residual(a, factor) : std::nan("");
      return {ms, r, status, std::move(factor)};
    }
  };

  // One variant on the device matrix: its workspace is allocated here, before and
  // outside the timed runs, and the product is cuBLAS's in the working precision.
  // Given @p capture_ms, the variant is instead captured once into a CUDA graph
  // (lab::CudaGraph), and the graph is launched as a whole in every timed run; the
  // capture and the graph's preparation cost host time once, outside the timing,
  // returned in *capture_ms.
  template <typename T>
  typename DeviceMatrix<T>::Result run_variant(DeviceMatrix<T> &device, const Variant<T> &variant,
                                               int reps, lab::Cublas &cublas, int panel_width,
                                               double *capture_ms = nullptr)
  {
    const int n = device.a.rows();
    lab::DeviceBuffer<T> workspace(variant.workspace_elements(n, panel_width));
    CholeskyArgs<T> args = cholesky_args(device.work.data(), n, device.a.ld(), device.info.data(),
                                         workspace.data(), lab::cublas_gemm_exact<T>(cublas), panel_width);
    if (!capture_ms)
      return device.run(reps, [&](T *, int *) { variant.factorize(args); });
    lab::CudaGraph graph;
    lab::HostTimer timer;
    graph.capture([&](cudaStream_t stream) {
      args.stream = stream;
      variant.factorize(args);
    });
    *capture_ms = timer.milliseconds();
    return device.run(reps, [&](T *, int *) { graph.launch(); });
  }

  // @sect3{The console line of one factorisation}
  //
  // Name, time, time with the copies to and from the GPU, GFLOP/s (n³/3 flops),
  // percent of cuSOLVER, the residual and the check. A factorisation that reports a
  // failing column on a positive definite matrix fails its check.
  struct Line
  {
    std::string name;
    double ms, copies_ms, cusolver_ms, residual;
    int info;
  };

  bool report(lab::Checks &checks, const std::string &context, const Line &line, int n,
              double tolerance)
  {
    bool ok;
    if (line.info != 0)
      {
        checks.fail(context + " " + line.name, "info = " + std::to_string(line.info) +
                                                 " on a positive definite matrix");
        ok = false;
      }
    else
      ok = checks.at_most(context + " " + line.name, line.residual, tolerance);
    std::printf("  %-28s %10s %10s %8.0f %8s %10.2e   %s\n", line.name.c_str(),
                lab::format_milliseconds(line.ms).c_str(),
                lab::format_milliseconds(line.ms + line.copies_ms).c_str(), gflops(n, line.ms),
                lab::format_or_dash(100 * line.cusolver_ms / line.ms, "%.1f%%").c_str(),
                line.residual, ok ? "PASS" : "FAIL");
    std::fflush(stdout);
    return ok;
  }

  // @sect3{The CPU at one size}
  //
  // The blocked loop and LAPACK, each on a fresh copy of A per repetition (the copy
  // outside the clock). NaN where a reference does not run.
  template <typename T>
  std::vector<Line> run_cpu(const Settings &settings, const lab::Matrix<T> &a)
  {
    const int n = a.rows();
    std::vector<Line> lines;
    const auto time = [&](const char *name, auto factorize) {
      lab::Matrix<T> factor;
      int info = 0;
      const double ms = lab::median(lab::repeat(settings.options.reps, [&] {
        factor = a;
        lab::HostTimer timer;
        info = factorize(factor);
        return timer.milliseconds();
      }));
      lines.push_back({name, ms, 0, std::nan(""), residual(a, factor, settings.use_gpu), info});
    };
    if (n <= cpu_limit(settings))
      time("CPU_blocked_OpenMP", [](lab::Matrix<T> &f) { return cholesky_blocked_cpu(f); });
    if (lab::have_lapack() && n <= lapack_limit(settings))
      time("LAPACK_potrf", [](lab::Matrix<T> &f) { return *lab::lapack_cholesky(f); });
    return lines;
  }

  // @sect3{Where variant 1 spends its time}
  //
  // The 2011 course's profile, kernel by kernel: a run in which every launch sits
  // between two events, and each kernel's times are summed over the factorisation. The
  // events serialise the launches a little, so these runs are separate from the timed
  // ones above; their sum is close to variant 1's time. The median of `reps` runs.
  template <typename T>
  std::vector<double> breakdown(const Settings &settings, DeviceMatrix<T> &device, int n)
  {
    const Variant<T> &first = variants<T>().front();
    if (!settings.runs(first))
      return {};
    const auto samples = lab::repeat(settings.options.reps, [&] {
      device.work.copy_from_device(device.pristine);
      device.info.poison();
      KernelTimes times;
      // Variant 1 needs no workspace and no product.
      CholeskyArgs<T> args = cholesky_args<T>(device.work.data(), n, device.a.ld(), device.info.data(), nullptr, {});
      args.kernel_times = &times;
      first.factorize(args);
      return times;
    });
    const double diagonal = lab::median(samples, &KernelTimes::factorize_diagonal_block_ms);
    const double strip = lab::median(samples, &KernelTimes::strip_update_ms);
    const double diag = lab::median(samples, &KernelTimes::diag_update_ms);
    const double lo = lab::median(samples, &KernelTimes::lo_update_ms);
    const double total = diagonal + strip + diag + lo;
    std::printf("  variant 1 by kernel: factorize_diagonal_block %.0f%%, strip_update %.0f%%, "
                "diag_update %.0f%%, lo_update %.0f%% of %s ms\n",
                100 * diagonal / total, 100 * strip / total, 100 * diag / total, 100 * lo / total,
                lab::format_milliseconds(total).c_str());
    return {double(n), diagonal, strip, diag, lo};
  }

  // @sect3{Variant 6: solving A x = b in mixed precision}
  //
  // Time to solution for one right-hand side: cuSOLVER's spotrf + spotrs (LOWER, the
  // factor as potrf left it) and cuSOLVER's own mixed-precision solver against variant
  // 6 (the copy of A it factorises, the TF32 factorisation, the refinement
  // rounds), each the median of `reps` runs, and the factorisation alone. The backward
  // errors ‖b − A x‖/(‖A‖_F ‖x‖) are computed in double on the host. The check: the
  // refined solution's error below √n ε, LAPACK's test for an FP32 solve (`dsposv`);
  // the page compares it with spotrs's. cuSOLVER's handle and workspace are the
  // caller's, the ones its potrf line used.
  std::vector<double> run_mixed_precision(DeviceMatrix<float> &device, CusolverCholesky<float> &cusolver,
                                          int reps, lab::Cublas &cublas, int panel_width, lab::Checks &checks,
                                          const std::string &context)
  {
    const lab::Matrix<float> &a = device.a;
    const int n = a.rows();
    const lab::Matrix<float> b = lab::random_matrix<float>(n, 1, 3000 + n);
    lab::DeviceBuffer<float> b_device(b), x_device(n);
    lab::Matrix<float> x(n, 1);
    const auto error = [&] {
      x_device.download(x);
      return lab::solve_residual(a, x, b, 1);
    };

    const double vendor_ms = lab::median_gpu_milliseconds(
      reps,
      [&] {
        cusolver.factorize(device.work.data(), device.info.data());
        cusolver.solve(device.work.data(), CusolverCholesky<float>::Factor::as_potrf_left_it, x_device.data(), 1, n,
                       device.info.data());
      },
      [&] {
        device.work.copy_from_device(device.pristine);
        x_device.copy_from_device(b_device);
      });
    const double vendor_error = error();

    // The vendor's own mixed-precision solver on the same system (see
    // cusolver_mixed_precision.h): LU in TF32, refined to FP32 accuracy; A restored
    // before each run (it is left as it was only when the refinement converged).
    CusolverMixedPrecision irs(n);
    int irs_iterations = 0;
    const double irs_ms = lab::median_gpu_milliseconds(
      reps,
      [&] { irs_iterations = irs.solve(device.work.data(), b_device.data(), x_device.data(), device.info.data()); },
      [&] {
        device.work.copy_from_device(device.pristine);
        device.info.poison();
        x_device.poison();
      });
    int irs_info = -1;
    device.info.copy_to_host(&irs_info, 1);
    const double irs_error = irs_info == 0 ? error() : std::nan("");

    MixedPrecisionSolve solver(n, a.ld(), panel_width, cublas);
    int info = 0;
    const double mixed_ms = lab::median_gpu_milliseconds(
      reps, [&] { info = solver.solve(device.pristine.data(), b_device.data(), x_device.data()); },
      [&] { x_device.poison(); });
    const double mixed_error = info == 0 ? error() : std::nan("");
    const double factor_ms = lab::median_gpu_milliseconds(reps, [&] { solver.factorize(device.pristine.data()); });
    lab::Matrix<float> factor(n, n, a.ld());
    solver.factor().download(factor);
    const double factor_residual = residual(a, factor);

    const double bound = std::sqrt(double(n)) * std::numeric_limits<float>::epsilon();
    std::printf("  variant 6, A x = b: spotrf+spotrs (LOWER) %s ms (error %.1e); cuSOLVER IRS (TF32 LU, %d"
                " iterations%s) %s ms (error %.1e); TF32 factor %s ms (residual %.1e) + %d rounds: %s ms, %.2fx"
                " spotrf+spotrs, %.2fx IRS (error %.1e, %.1fx spotrs's)\n",
                lab::format_milliseconds(vendor_ms).c_str(), vendor_error, irs_iterations,
                irs_iterations < 0 ? ": fell back to FP32" : "", lab::format_milliseconds(irs_ms).c_str(), irs_error,
                lab::format_milliseconds(factor_ms).c_str(), factor_residual, solver.rounds(),
                lab::format_milliseconds(mixed_ms).c_str(), vendor_ms / mixed_ms, irs_ms / mixed_ms, mixed_error,
                mixed_error / vendor_error);
    if (irs_info != 0)
      checks.fail(context + " cuSOLVER IRS", "info = " + std::to_string(irs_info) + " on a positive definite matrix");
    else
      checks.at_most(context + " cuSOLVER IRS error", irs_error, bound);
    if (info != 0)
      checks.fail(context + " 6_mixed_precision_solve", "info = " + std::to_string(info) +
                                                           " on a positive definite matrix");
    else
      checks.at_most(context + " 6_mixed_precision_solve error", mixed_error, bound);
    return {double(n),    vendor_ms,       mixed_ms, factor_ms,  double(solver.rounds()), vendor_error,
            mixed_error, factor_residual, irs_ms,   double(irs_iterations), irs_error};
  }

  // @sect3{One size: every factorisation, checked and timed}
  //
  // Returns the table rows: times, then residuals (NaN for what did not run), and the
  // per-kernel breakdown of variant 1.
  struct Rows
  {
    std::vector<double> times, breakdown, mixed_precision;
  };

  template <typename T>
  Rows run_size(const Settings &settings, int n, lab::Cublas &cublas, lab::Checks &checks)
  {
    const int reps = settings.options.reps;
    const lab::Matrix<T> a = lab::random_spd<T>(n, condition_number, 2000 + n);
    const double tolerance = lab::tolerance<T>(residual_constant, n);
    const std::string context = std::string(lab::precision_name<T>()) +
                                " n=" + std::to_string(n);
    std::printf("\nn = %d (%.1f GFLOP; tolerance %.1e)\n", n, double(n) * n * n / 3e9, tolerance);
    std::printf("  %-28s %10s %10s %8s %8s %10s   %s\n", "factorisation", "time", "+copies",
                "GFLOP/s", "cuSOLVER", "residual", "check");

    Rows rows;
    const std::vector<Line> cpu = run_cpu(settings, a);
    double cpu_ms = std::nan(""), lapack_ms = std::nan("");
    for (const Line &line : cpu)
      {
        report(checks, context, line, n, tolerance);
        (line.name == "LAPACK_potrf" ? lapack_ms : cpu_ms) = line.ms;
      }
    rows.times = {double(n), cpu_ms, lapack_ms};
    if (!settings.use_gpu)
      return rows;

    // The copies to and from the GPU, once per size: the same for every variant.
    DeviceMatrix<T> device(a);
    lab::Matrix<T> factor(n, n);
    const double copies_ms = lab::median_gpu_milliseconds(reps, [&] {
      device.work.upload(a);
      device.work.download(factor);
    });

    CusolverCholesky<T> cusolver(n, a.ld());
    const auto vendor = device.run(
      reps, [&](T *matrix, int *info) { cusolver.factorize(matrix, info); },
      [&](T *factor) { cusolver.to_course_layout(factor); });
    report(checks, context, {"cuSOLVER_potrf", vendor.ms, copies_ms, vendor.ms, vendor.residual, vendor.info},
           n, tolerance);
    rows.times.insert(rows.times.end(), {copies_ms, vendor.ms});
    std::vector<double> residuals = {vendor.residual};

    for (const Variant<T> &variant : variants<T>())
      {
        double ms = std::nan(""), r = std::nan("");
        if (settings.runs(variant))
          {
            const auto result = run_variant(device, variant, reps, cublas, settings.panel_width_for<T>());
            report(checks, context, {variant.name, result.ms, copies_ms, vendor.ms, result.residual, result.info},
                   n, tolerance);
            ms = result.ms;
            r = result.residual;
          }
        rows.times.push_back(ms);
        residuals.push_back(r);
      }
    // The last factorisation of the list again, as a CUDA graph.
    const Variant<T> &last = variants<T>().back();
    double graph_ms = std::nan(""), graph_residual = std::nan(""), capture_ms = std::nan("");
    if (settings.runs(last))
      {
        const auto result = run_variant(device, last, reps, cublas, settings.panel_width_for<T>(), &capture_ms);
        report(checks, context, {last.name + "_graph", result.ms, copies_ms, vendor.ms, result.residual, result.info},
               n, tolerance);
        graph_ms = result.ms;
        graph_residual = result.residual;
      }
    rows.times.push_back(graph_ms);
    residuals.push_back(graph_residual);
    rows.times.insert(rows.times.end(), residuals.begin(), residuals.end());
    rows.times.insert(rows.times.end(), {tolerance, capture_ms});
    rows.breakdown = breakdown(settings, device, n);
    if constexpr (std::is_same_v<T, float>)
      if (settings.runs_mixed_precision())
        rows.mixed_precision = run_mixed_precision(device, cusolver, reps, cublas, settings.panel_width_for<T>(),
                                                   checks, context);
    return rows;
  }

  // @sect3{The sweep for one precision}
  //
  // Runs every size, prints one line per factorisation as it finishes, and writes the
  // tables. At the end it names the break-even size of the 2011 course: the smallest n
  // at which variant 1, with its copies, beats the CPU.
  template <typename T>
  void run_sweep(const Settings &settings, const std::vector<int> &sizes, lab::Checks &checks)
  {
    const char *precision = lab::precision_name<T>();
    std::printf("\n%s (machine epsilon %.1e; times in ms, median of %d)\n", precision,
                std::numeric_limits<T>::epsilon(), settings.options.reps);
    std::vector<std::string> columns = {"n", "cpu_ms", "lapack_ms", "copies_ms", "cusolver_ms"};
    for (const Variant<T> &v : variants<T>())
      columns.push_back(v.name + "_ms");
    columns.push_back(variants<T>().back().name + "_graph_ms");
    columns.push_back("residual_cusolver");
    for (const Variant<T> &v : variants<T>())
      columns.push_back("residual_" + v.name.substr(0, v.name.find('_')));
    columns.insert(columns.end(), {"residual_graph", "tolerance", "graph_capture_ms"});
    lab::Table table(columns);
    lab::Table breakdown_table({"n", "factorize_diagonal_block_ms", "strip_update_ms",
                                "diag_update_ms", "lo_update_ms"});
    lab::Table mixed_table({"n", "spotrf_spotrs_ms", "mixed_ms", "tf32_factor_ms", "rounds", "error_spotrs",
                            "error_mixed", "residual_tf32_factor", "irs_ms", "irs_iterations", "error_irs"});

    std::unique_ptr<lab::Cublas> cublas;
    if (settings.use_gpu)
      cublas = std::make_unique<lab::Cublas>();
    lab::TimeForecast forecast;
    int break_even = 0;
    for (const int n : sizes)
      {
        forecast.announce(n);
        lab::HostTimer timer;
        Rows rows = run_size<T>(settings, n, *cublas, checks);
        forecast.record(n, timer.milliseconds() / 1000);
        if (!settings.use_gpu)
          rows.times.resize(columns.size(), std::nan(""));
        table.add_row(rows.times);
        if (!rows.breakdown.empty())
          breakdown_table.add_row(rows.breakdown);
        if (!rows.mixed_precision.empty())
          mixed_table.add_row(rows.mixed_precision);
        // Variant 1's time plus the copies, against the blocked CPU loop.
        const auto column = [&](const std::string &name) {
          return rows.times[std::find(columns.begin(), columns.end(), name) - columns.begin()];
        };
        const double cpu = column("cpu_ms");
        const double gpu = column(variants<T>().front().name + "_ms") + column("copies_ms");
        if (!break_even && gpu < cpu)
          break_even = n;
      }

    const std::string gpu = settings.use_gpu ? lab::describe(settings.device) : "none (GPU part skipped)";
    const std::string dir = settings.options.out + "/step-2/";
    table.write(dir + "cholesky_" + precision + ".dat",
                {"step-2 (blocked Cholesky against cuSOLVER potrf)", gpu, precision,
                 settings.options.reps,
                 {"times in milliseconds (GPU: kernels only; copies_ms = A up and L down, "
                  "pageable memory); NaN = not run",
                  "panel width of variants 4-6: " + std::to_string(settings.panel_width_for<T>()),
                  "5_look_ahead_graph: variant 5 captured in a CUDA graph (capture time in graph_capture_ms, "
                  "not in the timing)",
                  "residual = ||L L^T - A||_F / ||A||_F in double, every entry (on the GPU by cuBLAS DSYRK above n = 2048); "
                  "tolerance = 4 n eps"}});
    std::printf("table written: %scholesky_%s.dat\n", dir.c_str(), precision);
    if (settings.use_gpu && settings.runs(variants<T>().front()))
      {
        breakdown_table.write(dir + "breakdown_" + precision + ".dat",
                              {"step-2 (variant 1, the 2011 design: time per kernel)", gpu,
                               precision, settings.options.reps,
                               {"milliseconds summed over all launches of one factorisation"}});
        std::printf("table written: %sbreakdown_%s.dat\n", dir.c_str(), precision);
        if (mixed_table.rows() > 0)
          {
            mixed_table.write(dir + "mixed_precision_float.dat",
                              {"step-2 (variant 6: A x = b with a TF32 trailing update and iterative "
                               "refinement, against spotrf + spotrs with LOWER and cuSOLVER's IRS solver "
                               "cusolverDnIRSXgesv, TF32 LU, classical refinement, default tolerance)",
                               gpu, precision, settings.options.reps,
                               {"times in milliseconds (median); error = ||b - A x||_2 / (||A||_F ||x||_2) "
                                "in double; residual_tf32_factor = ||L L^T - A||_F / ||A||_F",
                                "panel width " + std::to_string(settings.panel_width_for<T>())}});
            std::printf("table written: %smixed_precision_float.dat\n", dir.c_str());
          }
        if (break_even)
          std::printf("break-even: variant 1 with its copies beats the blocked CPU loop from n = %d\n",
                      break_even);
        else
          std::printf("break-even: variant 1 with its copies beat the blocked CPU loop at no size run\n");
      }
  }

  // @sect3{Your own matrix}
  //
  // As in step-1: the matrix of the file, factorised on the CPU and by cuSOLVER and
  // every variant on the GPU. A matrix that is not positive definite is reported with
  // the column at which each factorisation stopped; they must all agree. A file the
  // program cannot use (not square, not symmetric, NaN, infinite) is refused by
  // lab::read_symmetric_matrix.
  template <typename T>
  void factorise_file(const Settings &settings, lab::Checks &checks)
  {
    const lab::Matrix<T> a = lab::read_symmetric_matrix<T>(settings.matrix_file);
    const int n = a.rows();
    const char *precision = lab::precision_name<T>();
    std::printf("\nmatrix %s: %d x %d, %s\n", settings.matrix_file.c_str(), n, n, precision);

    lab::Matrix<T> cpu_factor = a;
    const int expected = cholesky_blocked_cpu(cpu_factor);
    const auto report_one = [&](const std::string &name, int info, const lab::Matrix<T> &factor) {
      const std::string what = name + " " + precision;
      const double r = info == 0 ? lab::cholesky_residual(a, factor) : std::nan("");
      if (info != 0)
        std::printf("  %-28s not positive definite: stopped at column %d (LAPACK info = %d)\n",
                    name.c_str(), info - 1, info);
      else
        std::printf("  %-28s residual %.2e\n", name.c_str(), r);
      if (info != expected)
        checks.fail(what, "info " + std::to_string(info) + ", the CPU's " + std::to_string(expected));
      else if (info != 0)
        checks.fail(what, "not positive definite (column " + std::to_string(info - 1) + ")");
      else
        checks.at_most(what + " residual", r, lab::tolerance<T>(residual_constant, n));
    };
    report_one("CPU_blocked_OpenMP", expected, cpu_factor);
    if (!settings.use_gpu)
      return;
    lab::Cublas cublas;
    DeviceMatrix<T> device(a);
    CusolverCholesky<T> cusolver(n, a.ld());
    const auto vendor = device.run(
      1, [&](T *m, int *info) { cusolver.factorize(m, info); }, [&](T *factor) { cusolver.to_course_layout(factor); });
    report_one("cuSOLVER_potrf", vendor.info, vendor.factor);
    for (const Variant<T> &variant : variants<T>())
      if (settings.runs(variant))
        {
          const auto result = run_variant(device, variant, 1, cublas, settings.panel_width_for<T>());
          report_one(variant.name, result.info, result.factor);
        }
  }
} // namespace step2

// @sect3{The main function}
//
// Parse the command line, say what runs where, refuse what cannot be done (sizes
// that do not fit, an output folder that cannot be written, a bad matrix file: exit
// code 2), run each precision, print the summary (exit code 1 when a check failed).
int main(int argc, char **argv)
{
  using namespace step2;
  Settings settings;
  CLI::App app{"step-2: blocked Cholesky factorisation, from the 2011 design to cuSOLVER speed",
               "step-2"};
  lab::add_common_options(app, settings.options);
  app.add_option("--variant", settings.variant,
                 "Run one variant only, by number or name (1 ... 6), beside cuSOLVER")
    ->type_name("NAME")
    ->check([](const std::string &name) {
      return find_variant<float>(name) || is_mixed_precision(name) ? std::string()
                                                                    : "no variant named '" + name + "'";
    });
  app.add_option("--matrix", settings.matrix_file,
                 "Factorise the matrix in this text file (one row per line) instead of the sweep")
    ->type_name("FILE")
    ->excludes(app.get_option("--sizes"))
    ->excludes(app.get_option("--max-size"));
  app.add_option("--panel-width", settings.panel_width,
                 "Panel width nb of variants 4-6 (a multiple of 64, at most " +
                   std::to_string(max_diagonal_block) + "; default: 512 in float, 256 in double)")
    ->type_name("NB")
    ->check([](const std::string &text) {
      const bool ok = !text.empty() && text.size() < 6 &&
                      text.find_first_not_of("0123456789") == std::string::npos &&
                      std::stoi(text) >= 64 && std::stoi(text) % 64 == 0 &&
                      std::stoi(text) <= max_diagonal_block;
      return ok ? std::string()
                : "'" + text + "' is not a multiple of 64 from 64 to " + std::to_string(max_diagonal_block);
    });
  if (const auto exit_code = lab::parse_command_line(app, argc, argv))
    return *exit_code;

  return lab::run_program("step-2", [&] {
    std::printf("step-2: blocked Cholesky factorisation against cuSOLVER potrf\n");
    settings.device = lab::select_device(settings.options.cpu_only);
    settings.use_gpu = settings.device.present;
    std::printf("LAPACK: %s\n", lab::have_lapack() ? "potrf on all cores, for scale"
                                                   : "not installed (row left out)");
    lab::Checks checks;
    if (!settings.matrix_file.empty())
      {
        if (settings.options.wants_float())
          factorise_file<float>(settings, checks);
        if (settings.options.wants_double())
          factorise_file<double>(settings, checks);
      }
    else
      {
        const std::vector<int> float_sizes =
          lab::choose_sizes(settings.options, full_sweep_float, quick_sweep);
        const std::vector<int> double_sizes =
          lab::choose_sizes(settings.options, full_sweep_double, quick_sweep);
        lab::prepare_output_folder(settings.options.out + "/step-2");
        const auto need_float = [&](int n) { return memory_needed<float>(n, settings.panel_width_for<float>()); };
        const auto need_double = [&](int n) { return memory_needed<double>(n, settings.panel_width_for<double>()); };
        if (settings.options.wants_float())
          lab::refuse_sizes_that_do_not_fit(float_sizes, need_float, "float", settings.use_gpu);
        if (settings.options.wants_double())
          lab::refuse_sizes_that_do_not_fit(double_sizes, need_double, "double", settings.use_gpu);
        std::printf("cuSOLVER: potrf with LOWER (the faster fill mode: tools/vendor-configurations), its factor "
                    "turned into L by rows outside the timing; IRS: cusolverDnIRSXgesv, TF32 LU\n");
        std::printf("check: ||L L^T - A||_F / ||A||_F <= %g n eps, every entry in double (on the GPU above "
                    "n = %d); random SPD matrices of condition %g; panel width of variants 4-6: %d (float), "
                    "%d (double)\n",
                    residual_constant, on_host_up_to, condition_number, settings.panel_width_for<float>(),
                    settings.panel_width_for<double>());
        if (settings.options.wants_float())
          run_sweep<float>(settings, float_sizes, checks);
        if (settings.options.wants_double())
          run_sweep<double>(settings, double_sizes, checks);
      }
    std::printf("\n");
    checks.print_summary(std::cout);
    return checks.exit_code();
  });
}
