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
// (look-ahead); variant 7 shortens the panel's chain (its diagonal block by halves);
// variant 8 shortens it again (the smallest blocks factorised and inverted in registers);
// variant 9 does the rest of each trailing update as one product that computes only the
// lower triangle; variant 10 runs variant 9 on halves of the matrix, so that the
// products between them are as large as the matrix allows, and runs also as a CUDA
// graph; variant 6 solves A x = b with variant 8's
// factorisation in float, its products in TF32, and iterative refinement in float or
// double. Every
// variant is checked by its residual and timed against cuSOLVER in the same run on the
// same matrix.
//
// For every size of the sweep and each precision, the program
//  - factorises a random SPD matrix on the CPU (the blocked loop on all cores, and
//    LAPACK where it is installed) and with cuSOLVER and every variant on the GPU,
//  - prints one line per variant: time, time with the copies, GFLOP/s, percent of
//    cuSOLVER, residual, check,
//  - writes the tables `step-2/cholesky_<precision>.dat`, the breakdown of variant
//    1, `step-2/breakdown_<precision>.dat`, and variant 6's solve against potrf +
//    potrs and cuSOLVER's IRS solver, `step-2/mixed_precision_<precision>.dat`.
// `--variant NAME` runs one variant (with cuSOLVER beside it); `--matrix FILE`
// factorises a matrix of your own and reports, for one that is not positive
// definite, the column where each factorisation stopped.

// @sect3{Include files}
#include "cholesky_blocked_cpu.h"
#include "cholesky_variants.h"
#include "cusolver_cholesky.h"
#include "factor_residual.h"
#include "gpu_timing.h"
#include "mixed_precision_comparison.h"
#include "size_result.h"
#include "tables.h"
#include "variants/6_mixed_precision_solve.cuh"
#include "variants/diagonal_block_one_kernel.cuh"

#include <lab/checks.h>
#include <lab/cli.h>
#include <lab/cublas_gemm.h>
#include <lab/device.h>
#include <lab/forecast.h>
#include <lab/format.h>
#include <lab/lapack.h>
#include <lab/matrix_io.h>
#include <lab/memory.h>
#include <lab/precision.h>
#include <lab/probes.h>
#include <lab/residuals.h>
#include <lab/step_main.h>
#include <lab/table.h>
#include <lab/test_matrices.h>
#include <lab/timer.h>
#include <lab/vendor_math.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace step2
{
  // @sect3{What the program was asked to do}
  //
  // `--variant NAME` picks one of the ten variants by number or name. Variants 1 to 5
  // and 7 to 10 are factorisations, the list `variants<T>()`; variant 6 is a solve
  // (MixedPrecisionSolve), which the list does not hold. The name is
  // looked up once, when the command line is read, into what it picks: its kind and
  // its full name. From then on the program asks the kind, not the name.
  struct VariantChoice
  {
    enum class Kind
    {
      factorisation,
      solve
    };
    Kind kind;
    std::string name;
  };

  std::optional<VariantChoice> variant_named(const std::string &name)
  {
    if (const Variant<float> *v = find_variant<float>(name))
      return VariantChoice{VariantChoice::Kind::factorisation, v->name};
    if (is_named(MixedPrecisionSolve<float>::name, name))
      return VariantChoice{VariantChoice::Kind::solve, MixedPrecisionSolve<float>::name};
    return std::nullopt;
  }

  struct Settings
  {
    lab::CommonOptions options;
    std::optional<VariantChoice> only; // --variant: one variant, or all when empty
    std::string matrix_file;           // --matrix
    int panel_width = 0;               // --panel-width: nb of variants 4 and 5; 0: panel_width_for's
    lab::DeviceInfo device;
    bool use_gpu = false;

    template <typename T>
    bool runs(const Variant<T> &v) const
    {
      return !only || (only->kind == VariantChoice::Kind::factorisation && only->name == v.name);
    }
    bool runs_mixed_precision() const { return !only || only->kind == VariantChoice::Kind::solve; }
    // The panel width: the one asked for, or the measured best (default_panel_width).
    template <typename T>
    int panel_width_for() const
    {
      return panel_width ? panel_width : default_panel_width<T>();
    }
  };

  // The sweeps. The full one goes to 16384 (and 32768 in float, 4 GiB per matrix),
  // where cuSOLVER reaches its full speed; quick mode stops at 2048 and takes seconds.
  const std::vector<int> full_sweep_float = {256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
  const std::vector<int> full_sweep_double = {256, 512, 1024, 2048, 4096, 8192, 16384};
  const std::vector<int> quick_sweep = {256, 512, 1024, 2048};

  template <typename T>
  std::vector<int> sweep(const Settings &s)
  {
    return lab::choose_sizes(s.options, std::is_same_v<T, float> ? full_sweep_float : full_sweep_double,
                             quick_sweep);
  }

  // The CPU runs only where it finishes in seconds: the blocked loop up to 8192, LAPACK
  // up to 16384 (quick mode: 1024 and 2048).
  int cpu_limit(const Settings &s) { return s.options.quick ? 1024 : 8192; }
  int lapack_limit(const Settings &s) { return s.options.quick ? 2048 : 16384; }

  // The test matrices' condition number (the tolerance is factor_residual.h's).
  constexpr double condition_number = 1e3;

  double gflops(int n, double ms) { return double(n) * n * n / 3 / (ms * 1e6); }

  // @sect3{What a size costs}
  //
  // On the host: the test matrix is generated in double, then A, the factor copied
  // back from the GPU, the CPU's and LAPACK's working copies, and variant 6's float
  // factor with its copy in T. On the GPU: A as generated (each run starts from it),
  // the matrix being factorised, variant 6's float factor, cuSOLVER IRS's workspace (a
  // float LU of A, and less beside it: counted as one float matrix), and the largest
  // workspace of a variant (variant 10's: variant 9's n×2nb copy of a panel and two
  // 2nb×2nb blocks, and an n×2nb strip of panel inverses); potrf's workspace is small
  // beside them.
  template <typename T>
  lab::Memory memory_needed(int n, int panel_width)
  {
    const double matrix = lab::matrix_bytes<T>(n, n), float_matrix = lab::matrix_bytes<float>(n, n);
    std::size_t workspace = 0;
    for (const Variant<T> &variant : variants<T>())
      workspace = std::max(workspace, variant.workspace_elements(n, panel_width));
    return {lab::matrix_bytes<double>(n, n) + 5 * matrix + float_matrix,
            2 * matrix + 2 * float_matrix + double(sizeof(T)) * workspace};
  }

  // @sect3{The console line of one factorisation}
  //
  // Name, time, time with the copies to and from the GPU, GFLOP/s (n³/3 flops), for
  // a variant cuSOLVER's median in the pairs it was timed in ("beside") and its
  // percent of cuSOLVER's speed, the median of the pairs' ratios, which the two
  // medians need not give ("-" for cuSOLVER itself and the CPU), the residual and the
  // check. A factorisation that reports a
  // failing column on a positive definite matrix fails its check. The checks are
  // named by precision and size, "float n=1024 5_look_ahead".
  template <typename T>
  std::string context(int n)
  {
    return std::string(lab::precision_name<T>()) + " n=" + std::to_string(n);
  }

  template <typename T>
  void report(lab::Checks &checks, const SizeResult<T> &size, const std::string &name, const Factorisation &f,
              double copies_ms)
  {
    // A variant timed beside cuSOLVER had every run's factor probed (gpu_timing.h).
    const bool ok = check_factorisation<T>(checks, context<T>(size.n) + " " + name, f, size.n, size.tolerance);
    std::printf("  %-28s %10s %10s %8.0f %10s %8s %10.2e   %s\n", name.c_str(),
                lab::format_milliseconds(f.ms).c_str(), lab::format_milliseconds(f.ms + copies_ms).c_str(),
                gflops(size.n, f.ms), lab::format_or_dash(f.vendor_ms_in_pairs, "%.4g").c_str(),
                lab::format_or_dash(f.percent_of_vendor, "%.1f%%").c_str(), f.residual, lab::verdict(ok));
    std::fflush(stdout);
  }

  // The same for a factorisation on the GPU: its copies are the size's.
  template <typename T>
  void report_gpu(lab::Checks &checks, const SizeResult<T> &size, const std::string &name, const Factorisation &f)
  {
    report(checks, size, name, f, size.copies_ms);
  }

  // @sect3{The CPU at one size}
  //
  // The blocked loop and LAPACK, each on a fresh copy of A per repetition (the copy
  // outside the clock), each up to its size limit; both lines are printed once both
  // have run.
  template <typename T, typename Factorize>
  Factorisation time_on_host(const Settings &settings, const lab::Matrix<T> &a, Factorize factorize)
  {
    lab::Matrix<T> factor;
    int info = 0;
    const double ms = lab::median(lab::repeat(settings.options.reps, [&] {
      factor = a;
      lab::HostTimer timer;
      info = factorize(factor);
      return timer.milliseconds();
    }));
    return {ms, factor_residual(a, factor, settings.use_gpu), info};
  }

  template <typename T>
  void run_cpu(const Settings &settings, const lab::Matrix<T> &a, SizeResult<T> &result, lab::Checks &checks)
  {
    const bool blocked = result.n <= cpu_limit(settings);
    const bool lapack = lab::have_lapack() && result.n <= lapack_limit(settings);
    if (blocked)
      result.cpu = time_on_host(settings, a, [](lab::Matrix<T> &f) { return cholesky_blocked_cpu(f); });
    if (lapack)
      result.lapack = time_on_host(settings, a, [](lab::Matrix<T> &f) { return *lab::lapack_cholesky(f); });
    if (blocked)
      report(checks, result, "CPU_blocked_OpenMP", result.cpu, 0);
    if (lapack)
      report(checks, result, "LAPACK_potrf", result.lapack, 0);
  }

  // @sect3{The variants at one size}
  //
  // Each variant asked for, on the same device matrix, timed alternately with
  // cuSOLVER (@p vendor); then the last of the list again, as a CUDA graph
  // (gpu_timing.h).
  template <typename T>
  void run_variants(const Settings &settings, DeviceMatrix<T> &device, const Yardstick<T> &vendor,
                    lab::Cublas &cublas, SizeResult<T> &result, lab::Checks &checks)
  {
    const int reps = settings.options.reps, panel_width = settings.panel_width_for<T>();
    const std::vector<Variant<T>> &list = variants<T>();
    for (std::size_t i = 0; i < list.size(); ++i)
      if (settings.runs(list[i]))
        {
          result.variants[i] = run_variant(device, vendor, list[i], reps, cublas, panel_width);
          report_gpu(checks, result, list[i].name, result.variants[i]);
        }
    const Variant<T> &last = list.back();
    if (settings.runs(last))
      {
        result.graph = run_variant(device, vendor, last, reps, cublas, panel_width, &result.graph_capture_ms);
        report_gpu(checks, result, last.name + "_graph", result.graph);
      }
  }

  // @sect3{Where variant 1 spends its time}
  //
  // The 2011 course's profile, kernel by kernel: a run in which every launch sits
  // between two events, and each kernel's times are summed over the factorisation. The
  // events serialise the launches a little, so these runs are separate from the timed
  // ones above; their sum is close to variant 1's time. The median of `reps` runs.
  template <typename T>
  std::optional<KernelTimes> breakdown(const Settings &settings, DeviceMatrix<T> &device)
  {
    const Variant<T> &first = variants<T>().front();
    if (!settings.runs(first))
      return std::nullopt;
    const auto samples = lab::repeat(settings.options.reps, [&] {
      device.work.copy_from_device(device.pristine);
      device.info.poison();
      KernelTimes times;
      // Variant 1 needs no workspace and no product.
      CholeskyArgs<T> args =
        cholesky_args<T>(device.work.data(), device.a.rows(), device.a.ld(), device.info.data(), nullptr, {});
      args.kernel_times = &times;
      first.factorize(args);
      return times;
    });
    KernelTimes median;
    median.factorize_diagonal_block_ms = lab::median(samples, &KernelTimes::factorize_diagonal_block_ms);
    median.strip_update_ms = lab::median(samples, &KernelTimes::strip_update_ms);
    median.diag_update_ms = lab::median(samples, &KernelTimes::diag_update_ms);
    median.lo_update_ms = lab::median(samples, &KernelTimes::lo_update_ms);
    const double total = median.factorize_diagonal_block_ms + median.strip_update_ms + median.diag_update_ms +
                         median.lo_update_ms;
    std::printf("  variant 1 by kernel: factorize_diagonal_block %.0f%%, strip_update %.0f%%, "
                "diag_update %.0f%%, lo_update %.0f%% of %s ms\n",
                100 * median.factorize_diagonal_block_ms / total, 100 * median.strip_update_ms / total,
                100 * median.diag_update_ms / total, 100 * median.lo_update_ms / total,
                lab::format_milliseconds(total).c_str());
    return median;
  }

  // @sect3{One size: every factorisation, checked and timed}
  //
  // The stages, in the order of the console lines: set up the matrix and the header of
  // the size; the CPU references; on the GPU the copies, the vendor (cuSOLVER's potrf),
  // the variants, variant 1 kernel by kernel, and variant 6's solve against
  // the vendor's (whose cuSOLVER handle is the one potrf used). Each stage fills its
  // fields of the SizeResult, which the tables record.
  template <typename T>
  SizeResult<T> run_size(const Settings &settings, int n, lab::Cublas *cublas, lab::Checks &checks)
  {
    const int reps = settings.options.reps;
    const lab::Matrix<T> a = lab::random_spd<T>(n, condition_number, 2000 + n);
    SizeResult<T> result(n, lab::tolerance<T>(residual_constant, n));
    std::printf("\nn = %d (%.1f GFLOP; tolerance %.1e)\n", n, double(n) * n * n / 3e9, result.tolerance);
    std::printf("  %-28s %10s %10s %8s %10s %8s %10s   %s\n", "factorisation", "time", "+copies", "GFLOP/s", "beside",
                "cuSOLVER", "residual", "check");

    run_cpu(settings, a, result, checks);
    if (!settings.use_gpu)
      return result;

    DeviceMatrix<T> device(a);
    result.copies_ms = device.copies_ms(reps);

    CusolverCholesky<T> cusolver(n, a.ld());
    const Yardstick<T> potrf = [&](T *matrix, int *info) { cusolver.factorize(matrix, info); };
    result.cusolver =
      device.run(reps, potrf, [&](T *factor) { cusolver.to_course_layout(factor); });
    report_gpu(checks, result, "cuSOLVER_potrf", result.cusolver);

    run_variants(settings, device, potrf, *cublas, result, checks);
    result.breakdown = breakdown(settings, device);
    // Variant 6's factor is a float one in either precision: its panel width is float's.
    if (settings.runs_mixed_precision())
      result.mixed_precision =
        run_mixed_precision(device, cusolver, reps, *cublas, settings.panel_width_for<float>(), checks, context<T>(n));
    return result;
  }

  // @sect3{The sweep for one precision}
  //
  // Runs every size, prints one line per factorisation as it finishes, and writes the
  // tables. At the end it names the break-even size of the 2011 course: the smallest n
  // at which variant 1, with its copies, beats the CPU.
  template <typename T>
  void run_sweep(const Settings &settings, const std::vector<int> &sizes, lab::Checks &checks)
  {
    std::printf("\n%s (machine epsilon %.1e; times in ms, median of %d)\n", lab::precision_name<T>(),
                std::numeric_limits<T>::epsilon(), settings.options.reps);
    std::unique_ptr<lab::Cublas> cublas;
    if (settings.use_gpu)
      cublas = std::make_unique<lab::Cublas>();
    Tables<T> tables;
    lab::TimeForecast forecast;
    int break_even = 0;
    for (const int n : sizes)
      {
        forecast.announce(n);
        lab::HostTimer timer;
        const SizeResult<T> result = run_size<T>(settings, n, cublas.get(), checks);
        forecast.record(n, timer.milliseconds() / 1000);
        tables.add(result);
        if (!break_even && result.variant_1_beats_cpu())
          break_even = n;
      }

    tables.write(settings.options.out + "/step-2", settings.device, settings.options.reps,
                 settings.panel_width_for<T>(), settings.panel_width_for<float>());
    if (!settings.use_gpu || !settings.runs(variants<T>().front()))
      return;
    if (break_even)
      std::printf("break-even: variant 1 with its copies beats the blocked CPU loop from n = %d\n", break_even);
    else
      std::printf("break-even: variant 1 with its copies beat the blocked CPU loop at no size run\n");
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
      const double r = info == 0 ? lab::cholesky_residual(a, factor) : not_run;
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
    const Yardstick<T> potrf = [&](T *m, int *info) { cusolver.factorize(m, info); };
    const Factorisation vendor = device.run(1, potrf, [&](T *factor) { cusolver.to_course_layout(factor); });
    report_one("cuSOLVER_potrf", vendor.info, device.factor);
    for (const Variant<T> &variant : variants<T>())
      if (settings.runs(variant))
        {
          const Factorisation result =
            run_variant(device, potrf, variant, 1, cublas, settings.panel_width_for<T>());
          report_one(variant.name, result.info, device.factor);
        }
  }
} // namespace step2

// @sect3{The main function}
//
// Parse the command line; then lab::run_step runs the skeleton every step shares: the
// headline, the device (the `GPU:` line), the work, the verification summary. The work
// is either the file or the sweep, in each precision asked for
// (lab::for_each_precision). A bad command line returns 2, and so does what the
// program refuses before any work: sizes that do not fit, an output folder that cannot
// be written, a bad matrix file. A failed check returns 1.
int main(int argc, char **argv)
{
  using namespace step2;
  Settings settings;
  std::string variant;
  CLI::App app{"step-2: blocked Cholesky factorisation, from the 2011 design to cuSOLVER speed",
               "step-2"};
  lab::add_common_options(app, settings.options);
  app.add_option("--variant", variant, "Run one variant only, by number or name (1 ... 10), beside cuSOLVER")
    ->type_name("NAME")
    ->check([](const std::string &name) {
      return variant_named(name) ? std::string() : "no variant named '" + name + "'";
    });
  app.add_option("--matrix", settings.matrix_file,
                 "Factorise the matrix in this text file (one row per line) instead of the sweep")
    ->type_name("FILE")
    ->excludes(app.get_option("--sizes"))
    ->excludes(app.get_option("--max-size"));
  app.add_option("--panel-width", settings.panel_width,
                 "Panel width nb of variants 4 and 5, the least of variants 6 to 10 (a multiple of 64, at most " +
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
  if (!variant.empty())
    settings.only = variant_named(variant);

  return lab::run_step(
    "step-2", "step-2: blocked Cholesky factorisation against cuSOLVER potrf", settings.options.cpu_only,
    [&](const lab::DeviceInfo &device, lab::Checks &checks) {
      settings.device = device;
      settings.use_gpu = device.present;
      lab::print_cpu_library_line("LAPACK", "potrf on all cores, for scale", "row left out");
      if (settings.use_gpu)
        std::printf("%s\n", lab::vendor_math_line().c_str());
      if (!settings.matrix_file.empty())
        {
          lab::for_each_precision(settings.options,
                                  [&](auto zero) { factorise_file<decltype(zero)>(settings, checks); });
          return;
        }
      // Everything that could stop the sweep half-way is checked before it starts.
      lab::prepare_output_folder(settings.options.out + "/step-2");
      lab::for_each_precision(settings.options, [&](auto zero) {
        using T = decltype(zero);
        const auto need = [&](int n) { return memory_needed<T>(n, settings.panel_width_for<T>()); };
        lab::refuse_sizes_that_do_not_fit(sweep<T>(settings), need, lab::precision_name<T>(), settings.use_gpu);
      });
      std::printf("cuSOLVER: potrf with LOWER (the faster fill mode: tools/vendor-configurations), its factor "
                  "turned into L by rows outside the timing; IRS: cusolverDnIRSXgesv, TF32 LU, the fastest of "
                  "its four refinement methods\n");
      std::printf("check: ||L L^T - A||_F / ||A||_F <= %g n eps, every entry in double (on the GPU above "
                  "n = %d); random SPD matrices of condition %g; panel width of variants 4 and 5: %d (float), "
                  "%d (double), of variants 7 to 10 about n/16 from that to twice that (variant 6: float's, in "
                  "both)\n",
                  residual_constant, on_host_up_to, condition_number, settings.panel_width_for<float>(),
                  settings.panel_width_for<double>());
      std::printf("each variant timed alternately with cuSOLVER: time = its median in the pairs, beside = "
                  "cuSOLVER's median in the same pairs, cuSOLVER = the median of the pairs' ratios (not the ratio "
                  "of the two medians: lab/timer.h)\n");
      lab::for_each_precision(settings.options, [&](auto zero) {
        using T = decltype(zero);
        run_sweep<T>(settings, sweep<T>(settings), checks);
      });
    });
}
