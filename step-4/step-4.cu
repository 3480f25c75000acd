// step-4: tiled matrix multiplication, from the naive kernel to cuBLAS speed.
//
// What this program shows: how a matrix product, the most studied kernel on GPUs, goes
// from a direct port of the triple loop to within reach of the vendor library, one
// idea at a time (kernels/1_naive.cuh ... kernels/16_wgmma_tf32.cuh), and how to
// measure such claims honestly: every kernel is timed against cuBLAS in the same run
// on the same data, and every result is checked against a double-precision reference
// with a tolerance that cannot fail by rounding alone. It builds on the course's
// library (lab::) only; later steps use its kernels (step4::gemm).
//
// For every size of the sweep the program
//  - multiplies two random n×n matrices with cuBLAS and with each kernel, and prints
//    time, GFLOP/s, percent of cuBLAS and the check, one line per kernel;
//  - does the same for the TF32 tensor-core kernels against cuBLAS in TF32 mode, and
//    for the double-precision kernels (the ordinary FP64 units and the FP64 tensor
//    cores) against cuBLAS DGEMM;
//  - times the CPU references of the 2021 course at the sizes where they finish in
//    seconds;
// then a few rectangular and transposed shapes, the kind later steps need; and writes
// the tables under `<out>/step-4/`.
// `--kernel NAME` runs a single kernel (with cuBLAS beside it): the loop for a student
// working on one idea.

// @sect3{Include files}
#include "gemm_cpu.h"
#include "gemm_kernels.h"
#include "gemm_reference.h"
#include "kernels/11_autotuned.cuh"

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
#include <lab/memory.h>
#include <lab/program.h>
#include <lab/table.h>
#include <lab/timer.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <type_traits>

namespace step4
{
  // @sect3{What the program was asked to do}
  //
  // The common options (lab::CommonOptions) and step-4's own: one kernel by name or
  // number, a float kernel (1 to 12, 15, 16) or a double one (13, 14). `use_gpu` is decided
  // once, at the start.
  struct Settings
  {
    lab::CommonOptions options;
    std::string kernel;
    lab::DeviceInfo device;
    bool use_gpu = false;

    // The full name of the kernel asked for.
    std::string chosen() const
    {
      const GemmKernel<float> *single = find_float_kernel(kernel);
      return single ? single->name : find_double_kernel(kernel)->name;
    }
    // Whether the sweep runs this kernel: all of them, or the one asked for.
    bool runs(const std::string &name) const { return kernel.empty() || chosen() == name; }
    // Whether the float part (kernels 1 to 12, 15, 16) and the double part (13 and 14) run.
    bool runs_float() const
    {
      return options.wants_float() && (kernel.empty() || find_float_kernel(kernel));
    }
    bool runs_double() const
    {
      return options.wants_double() && (kernel.empty() || find_double_kernel(kernel));
    }
  };

  // The sweep: powers of two up to 8192, where cuBLAS reaches its full speed. Quick
  // mode stops at 1024 and takes seconds.
  const std::vector<int> full_sweep = {256, 512, 1024, 2048, 4096, 8192};
  const std::vector<int> quick_sweep = {256, 512, 1024};
  // The CPU references run only where they finish in seconds: the naive loop up to
  // 512 (147 ms there on the course's H100, in the committed step-4/cpu.dat; it grows
  // as n³, so 1.2 s at 1024, for each of the timed repetitions), the cache-tiled one
  // up to 1024, the parallel ones and BLAS up to 2048. Quick mode halves each limit.
  int cpu_limit(const Settings &settings, int full_mode_limit)
  {
    return settings.options.quick ? full_mode_limit / 2 : full_mode_limit;
  }

  // The size the tuner of kernel 11 measures at (quick mode: a smaller one).
  constexpr int tuning_size = 4096;
  constexpr int quick_tuning_size = 1024;

  // @sect3{What a size costs}
  //
  // Checked for every size before the sweep starts (lab::refuse_sizes_that_do_not_fit),
  // so that a size that cannot fit is refused in one line instead of failing after the
  // smaller ones ran. On the host: A, B and C of the problem, the result copied back,
  // and the C of the timed copies. On the GPU: A, B and C (with β ≠ 0, as in the
  // shapes below, a pristine copy of C too; those shapes are small). In float, the
  // product A·Bᵀ that times kernel 16 without its transposing pass has its own A, B
  // and C, on the host and on the GPU, and kernel 16 needs Bᵀ as scratch for A·B.
  template <typename T>
  lab::Memory memory_needed(int n)
  {
    const double matrix = lab::matrix_bytes<T>(n, n);
    const double kernel_16 = std::is_same_v<T, float> ? 3 * matrix : 0;
    return {5 * matrix + kernel_16, 3 * matrix + kernel_16 + (kernel_16 > 0 ? matrix : 0)};
  }

  // @sect3{The GPU's peak}
  //
  // The roofline's flat part: the most FP32 flops per second the SMs can issue,
  // (SMs) × (FP32 units per SM) × 2 (a fused multiply-add counts as two flops) ×
  // (clock). Hopper and most recent GPUs have 128 FP32 units per SM, the A100 and
  // Volta 64. The clock is the boost clock the driver reports; a GPU under full load
  // may run slower, so the line is an upper bound.
  double fp32_peak_gflops()
  {
    int clock_khz = 0, sms = 0, major = 0, minor = 0;
    LAB_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    LAB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    LAB_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    LAB_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
    const int units = major < 8 || (major == 8 && minor == 0) ? 64 : 128;
    return double(sms) * units * 2 * clock_khz / 1e6;
  }

  // @sect3{Timing on the GPU}
  //
  // lab::median_gpu_milliseconds: one warm-up run, then the median of `reps` runs,
  // each between two CUDA events: GPU time of the kernel alone. A launch returns
  // before the kernel has run, so a host clock would time the launch, not the work.
  double gflops(const GemmShape &shape, double ms) { return shape.flops() / (ms * 1e6); }

  // @sect3{One product on the device}
  //
  // The data of one problem on the GPU: A and B, and C, which every run overwrites.
  // `run` times the launch and returns the median time and the error against the
  // double reference. With β = 0, C is poisoned (every float NaN) before the runs: a
  // kernel that leaves any entry of C unwritten leaves a NaN there, and the check
  // fails. With β ≠ 0 each run reads C, so before each run (untimed) C is restored
  // from a pristine copy: otherwise every repetition would scale the previous result
  // again.
  //
  // The check is on every entry, on the GPU: the reference and the bracket of each
  // entry (gemm_reference.h) are computed once per problem by cuBLAS DGEMM in double
  // (lab::GemmCheckOnGpu), and each kernel's C is compared with them where it lies.
  // Where the GPU has not the memory for the double copies, C is copied back and
  // checked on the host (gemm_error, sampled by bands above 2³⁰ multiply-adds), and
  // the size's header line says so (coverage()).
  template <typename T>
  struct DeviceProblem
  {
    const GemmProblem<T> &problem;
    lab::DeviceBuffer<T> a, b, c, c_input;
    GemmArgs<T> args;
    std::optional<lab::GemmCheckOnGpu<T>> check;

    explicit DeviceProblem(const GemmProblem<T> &p)
      : problem(p), a(p.a), b(p.b), c(p.c.size()), c_input(p.beta == T(0) ? 0 : p.c.size()),
        args{p.shape, p.alpha, p.beta, a.data(), p.a.ld(), b.data(), p.b.ld(), c.data(), p.c.ld()}
    {
      if (p.beta != T(0))
        c_input.upload(p.c);
      GemmArgs<T> inputs = args;
      inputs.c = c_input.data();
      check = lab::GemmCheckOnGpu<T>::prepare(inputs);
    }

    std::string coverage() const
    {
      return check ? "every entry, against cuBLAS DGEMM on the GPU"
                   : gemm_check_coverage(problem.shape) + " on the host (the GPU has no room for the full check)";
    }

    struct Result
    {
      double ms;
      double error;
    };

    Result run(int reps, const std::function<void(const GemmArgs<T> &)> &launch)
    {
      std::function<void()> restore_c;
      if (problem.beta == T(0))
        c.poison();
      else
        restore_c = [&] { c.copy_from_device(c_input); };
      const double ms = lab::median_gpu_milliseconds(reps, [&] { launch(args); }, restore_c);
      if (check)
        return {ms, check->error(c.data(), problem.c.ld())};
      lab::Matrix<T> result(problem.c.rows(), problem.c.cols(), problem.c.ld());
      c.download(result);
      return {ms, gemm_error(problem, result)};
    }
  };

  // @sect3{The console line of one measurement}
  //
  // Name, time, GFLOP/s, percent of the reference (cuBLAS), the error and the check.
  // A failed check prints FAIL on the line and is listed again in the summary.
  bool report(lab::Checks &checks, const std::string &context, const std::string &label,
              const GemmShape &shape, double ms, double reference_ms, double error,
              double tolerance)
  {
    const bool ok = checks.at_most(context + " " + label, error, tolerance);
    std::printf("  %-24s %10s %10.0f %8s %10.2e   %s\n", label.c_str(),
                lab::format_milliseconds(ms).c_str(), gflops(shape, ms),
                lab::format_or_dash(100 * reference_ms / ms, "%.1f%%").c_str(), error,
                ok ? "PASS" : "FAIL");
    std::fflush(stdout);
    return ok;
  }

  void print_column_names()
  {
    std::printf("  %-24s %10s %10s %8s %10s   %s\n", "kernel", "time", "GFLOP/s",
                "cuBLAS", "error", "check");
  }

  // @sect3{The FP32 kernels and the TF32 tensor-core kernels at one size}
  //
  // The row of each table for size n. The FP32 kernels are compared with cuBLAS in
  // pure FP32 and checked with the FP32 tolerance; the TF32 kernels with cuBLAS allowed
  // to use TF32, and checked with the TF32 tolerance (their inputs lose 13 bits of
  // mantissa). α = 1, β = 0: the plain product, as benchmarks use.
  //
  // Kernel 16 reads B transposed (k-major); for A·B its time includes a pass that
  // writes Bᵀ first. To show what that pass costs, it also runs A·Bᵀ on the same
  // matrices, where B is read as stored and no pass is needed: same flops, same
  // kernel, the difference in time is the pass.
  struct FloatRows
  {
    std::vector<double> gflops, ms, tf32;
  };

  FloatRows run_float_size(const Settings &settings, int n, lab::Cublas &cublas, lab::Checks &checks)
  {
    const int reps = settings.options.reps;
    const GemmShape shape{n, n, n};
    const GemmProblem<float> problem = random_problem<float>(shape, 1.0f, 0.0f, 4000 + n);
    DeviceProblem<float> device(problem);
    const double tolerance = gemm_tolerance<float>(n);
    const std::string size = "float n=" + std::to_string(n);

    std::printf("\nn = %d (%.1f GFLOP per product; FP32 tolerance %.1e, TF32 %.1e; checked: %s)\n", n,
                shape.flops() / 1e9, tolerance, tf32_tolerance(n), device.coverage().c_str());
    print_column_names();

    // The copies to and from the GPU, once per size: the same for every kernel.
    lab::Matrix<float> c(n, n);
    const double copies_ms = lab::median_gpu_milliseconds(reps, [&] {
      device.a.upload(problem.a);
      device.b.upload(problem.b);
      device.c.download(c);
    });

    const auto fp32_cublas = device.run(reps, [&](const GemmArgs<float> &g) {
      cublas.gemm(g, lab::CublasMath::fp32);
    });
    report(checks, size, "cuBLAS_FP32", shape, fp32_cublas.ms, fp32_cublas.ms,
           fp32_cublas.error, tolerance);

    FloatRows rows{{double(n), gflops(shape, fp32_cublas.ms)},
                   {double(n), copies_ms, fp32_cublas.ms}, {double(n)}};
    for (const GemmKernel<float> &kernel : fp32_kernels())
      {
        double ms = std::nan("");
        if (settings.runs(kernel.name))
          {
            const auto result = device.run(reps, [&](const GemmArgs<float> &g) {
              kernel.launch(g, nullptr);
            });
            ms = result.ms;
            report(checks, size, kernel.name, shape, ms, fp32_cublas.ms,
                   result.error, tolerance);
          }
        rows.gflops.push_back(gflops(shape, ms));
        rows.ms.push_back(ms);
      }

    // The tensor cores: cuBLAS with TF32 allowed, kernels 12 and 16, and kernel 16 on
    // A·Bᵀ. A kernel not asked for, or that this GPU cannot run, is NaN in the table.
    const auto tf32_cublas = device.run(reps, [&](const GemmArgs<float> &g) {
      cublas.gemm(g, lab::CublasMath::tf32);
    });
    report(checks, size, "cuBLAS_TF32", shape, tf32_cublas.ms, tf32_cublas.ms,
           tf32_cublas.error, tf32_tolerance(n));
    rows.tf32 = {double(n), gflops(shape, fp32_cublas.ms), gflops(shape, tf32_cublas.ms)};
    std::vector<double> errors = {fp32_cublas.error, tf32_cublas.error};
    const auto run_tf32 = [&](DeviceProblem<float> &on, const GemmKernel<float> &kernel,
                              const std::string &label) {
      auto result = decltype(tf32_cublas){std::nan(""), std::nan("")};
      if (settings.runs(kernel.name) && kernel.runs_here())
        {
          result = on.run(reps, [&](const GemmArgs<float> &g) { kernel.launch(g, nullptr); });
          report(checks, size, label, shape, result.ms, tf32_cublas.ms, result.error,
                 tf32_tolerance(n));
        }
      rows.tf32.push_back(gflops(shape, result.ms));
      errors.push_back(result.error);
    };
    for (const GemmKernel<float> &kernel : tf32_kernels())
      run_tf32(device, kernel, kernel.name);
    // Kernel 16 once more on A·Bᵀ, its own problem, set up only where it runs (else
    // run_tf32 leaves the column empty).
    const GemmKernel<float> &wgmma = tf32_kernels().back();
    if (settings.runs(wgmma.name) && wgmma.runs_here())
      {
        GemmProblem<float> transposed = problem;
        transposed.shape.op_b = Op::transpose;
        DeviceProblem<float> device_transposed(transposed);
        run_tf32(device_transposed, wgmma, wgmma.name + "_ABt");
      }
    else
      run_tf32(device, wgmma, wgmma.name + "_ABt");
    rows.tf32.insert(rows.tf32.end(), errors.begin(), errors.end());
    return rows;
  }

  // @sect3{The double-precision kernels at one size}
  //
  // cuBLAS DGEMM, then kernels 13 and 14, each checked with the double tolerance: the
  // FP64 tensor cores round like the ordinary FP64 units. The row of the table: n,
  // GFLOP/s of cuBLAS and of each kernel, then the errors in the same order. A kernel
  // that was not asked for, or that this GPU cannot run (kernel 14 before compute
  // capability 8.0), is NaN.
  std::vector<double> run_double_size(const Settings &settings, int n, lab::Cublas &cublas,
                                      lab::Checks &checks)
  {
    const int reps = settings.options.reps;
    const GemmShape shape{n, n, n};
    const GemmProblem<double> problem = random_problem<double>(shape, 1.0, 0.0, 8000 + n);
    DeviceProblem<double> device(problem);
    const double tolerance = gemm_tolerance<double>(n);
    const std::string size = "double n=" + std::to_string(n);

    std::printf("\nn = %d, double (tolerance %.1e; checked: %s)\n", n, tolerance, device.coverage().c_str());
    print_column_names();
    const auto dgemm = device.run(reps, [&](const GemmArgs<double> &g) { cublas.gemm(g); });
    report(checks, size, "cuBLAS_DGEMM", shape, dgemm.ms, dgemm.ms, dgemm.error, tolerance);
    std::vector<double> row = {double(n), gflops(shape, dgemm.ms)}, errors = {dgemm.error};
    for (const GemmKernel<double> &kernel : fp64_kernels())
      {
        auto result = decltype(dgemm){std::nan(""), std::nan("")};
        if (settings.runs(kernel.name) && kernel.runs_here())
          {
            result = device.run(reps, [&](const GemmArgs<double> &g) {
              kernel.launch(g, nullptr);
            });
            report(checks, size, kernel.name, shape, result.ms, dgemm.ms, result.error,
                   tolerance);
          }
        row.push_back(gflops(shape, result.ms));
        errors.push_back(result.error);
      }
    row.insert(row.end(), errors.begin(), errors.end());
    return row;
  }

  // @sect3{The CPU references}
  //
  // The four loops of the 2021 course and, where installed, BLAS (OpenBLAS's sgemm on
  // all cores): what a CPU gets from the same idea (tiles) and from a library. OpenBLAS
  // goes further along the same road: tiles sized for each cache level, copied into
  // contiguous buffers, and an inner kernel in assembly that keeps a block of C in
  // registers, like kernel 6 does on the GPU. Each
  // result is checked like a kernel's. Sizes beyond a reference's limit are NaN in the
  // table.
  std::vector<double> run_cpu_size(const Settings &settings, int n, lab::Checks &checks)
  {
    using Multiply = void (*)(const lab::Matrix<float> &, const lab::Matrix<float> &,
                              lab::Matrix<float> &);
    struct Reference
    {
      const char *name;
      Multiply multiply;
      int limit;
    };
    const Multiply blas = [](const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                             lab::Matrix<float> &c) { lab::blas_multiply(a, b, c); };
    const Reference references[] = {
      {"CPU_naive", multiply_naive, cpu_limit(settings, 512)},
      {"CPU_cache_tiled", multiply_cache_tiled, cpu_limit(settings, 1024)},
      {"CPU_OpenMP_rows", multiply_openmp_rows, cpu_limit(settings, 2048)},
      {"CPU_OpenMP_tiles", multiply_openmp_tiles, cpu_limit(settings, 2048)},
      {"CPU_BLAS", lab::have_lapack() ? blas : nullptr, cpu_limit(settings, 2048)},
    };

    const GemmShape shape{n, n, n};
    const GemmProblem<float> problem = random_problem<float>(shape, 1.0f, 0.0f, 4000 + n);
    std::vector<double> row = {double(n)};
    bool printed = false;
    for (const Reference &reference : references)
      {
        double ms = std::nan("");
        if (reference.multiply && n <= reference.limit)
          {
            if (!printed)
              std::printf("\nn = %d, CPU references (no cuBLAS column; checked: %s)\n", n,
                          gemm_check_coverage(shape).c_str());
            printed = true;
            lab::Matrix<float> c;
            const auto samples = lab::repeat(settings.options.reps, [&] {
              lab::HostTimer timer;
              reference.multiply(problem.a, problem.b, c);
              return timer.milliseconds();
            });
            ms = lab::median(samples);
            report(checks, "float n=" + std::to_string(n), reference.name, shape, ms,
                   std::nan(""), gemm_error(problem, c), gemm_tolerance<float>(n));
          }
        row.push_back(ms);
      }
    return row;
  }

  // @sect3{Rectangular and transposed shapes}
  //
  // Square products are what benchmarks show; real uses are often not square.
  // These shapes are the kind later steps need: a tall product with a short inner
  // dimension (a rank-k update of a trailing matrix), AᵀB and ABᵀ (forming HᵀH for
  // the deblurring step), and a shape that is not a multiple of any tile. Only the
  // kernels that accept transposes run the transposed ones; α and β are not (1, 0)
  // here, so the scaling of C is checked too.
  std::vector<GemmShape> shapes(bool quick)
  {
    if (quick)
      return {{512, 384, 128}, {384, 512, 256, Op::transpose, Op::none},
              {300, 200, 500, Op::none, Op::transpose}, {257, 129, 65}};
    return {{8192, 8192, 256}, {4096, 4096, 8192, Op::transpose, Op::none},
            {4096, 4096, 8192, Op::none, Op::transpose}, {2048, 8192, 4096},
            {4999, 5003, 4001}};
  }

  void run_shapes(const Settings &settings, lab::Cublas &cublas, lab::Checks &checks)
  {
    std::printf("\nrectangular and transposed shapes, C = 1.5 op(A) op(B) - 0.5 C\n");
    std::vector<std::string> columns = {"m", "n", "k", "op_a_transposed", "op_b_transposed",
                                        "cublas"};
    std::vector<const GemmKernel<float> *> kernels;
    for (const char *number : {"10", "11", "15"})
      if (settings.runs(find_float_kernel(number)->name))
        {
          kernels.push_back(find_float_kernel(number));
          columns.push_back(kernels.back()->name);
        }
    lab::Table table(columns);
    for (const GemmShape &shape : shapes(settings.options.quick))
      {
        const GemmProblem<float> problem = random_problem<float>(shape, 1.5f, -0.5f, 77);
        DeviceProblem<float> device(problem);
        const double tolerance = gemm_tolerance<float>(shape.k);
        const std::string name = "float " + std::to_string(shape.m) + "x" +
                                 std::to_string(shape.n) + "x" + std::to_string(shape.k) +
                                 " " + op_letter(shape.op_a) + op_letter(shape.op_b);
        std::printf("\n%s (checked: %s)\n", name.c_str(), device.coverage().c_str());
        print_column_names();
        const auto reference = device.run(settings.options.reps, [&](const GemmArgs<float> &g) {
          cublas.gemm(g, lab::CublasMath::fp32);
        });
        report(checks, name, "cuBLAS_FP32", shape, reference.ms, reference.ms,
               reference.error, tolerance);
        std::vector<double> row = {double(shape.m), double(shape.n), double(shape.k),
                                   double(shape.op_a == Op::transpose),
                                   double(shape.op_b == Op::transpose),
                                   gflops(shape, reference.ms)};
        for (const GemmKernel<float> *kernel : kernels)
          {
            const auto result = device.run(settings.options.reps, [&](const GemmArgs<float> &g) {
              kernel->launch(g, nullptr);
            });
            report(checks, name, kernel->name, shape, result.ms, reference.ms,
                   result.error, tolerance);
            row.push_back(gflops(shape, result.ms));
          }
        table.add_row(row);
      }
    lab::TableHeader header{"step-4 (SGEMM: rectangular and transposed shapes)",
                            lab::describe(settings.device), "float", settings.options.reps,
                            {"GFLOP/s (2mnk / time); alpha = 1.5, beta = -0.5"}};
    lab::write_table(table, settings.options.out + "/step-4/shapes_float.dat", header);
  }

  // @sect3{Kernel 11's tuning}
  //
  // Before the sweep, the tuner times each candidate configuration once at one size,
  // checks its product like any kernel's, and keeps the fastest that passed for the
  // rest of the run. A candidate that fails is a failed check of the program.
  void tune(const Settings &settings, lab::Checks &checks)
  {
    const int n = settings.options.quick ? quick_tuning_size : tuning_size;
    std::printf("\nkernel 11: tuning the tile sizes at n = %d (FP32 tolerance %.1e)\n", n,
                gemm_tolerance<float>(n));
    for (const TuningResult &result : autotune(n, settings.options.reps))
      {
        checks.at_most("kernel 11 candidate " + result.name, result.error, gemm_tolerance<float>(n));
        std::printf("  %-28s %10.0f GFLOP/s %10.2e   %s\n", result.name.c_str(), result.gflops, result.error,
                    result.passed ? "PASS" : "FAIL");
      }
    std::printf("  chosen: %s\n", tuned_choice().c_str());
  }

  // @sect3{The sweep}
  //
  // Runs every size and writes the tables: GFLOP/s and times with a column per
  // kernel, the tensor-core table, the double-precision table and the CPU table.
  void run_sweep(const Settings &settings, const std::vector<int> &sizes, lab::Checks &checks)
  {
    const std::string dir = settings.options.out + "/step-4/";
    const std::string gpu =
      settings.use_gpu ? lab::describe(settings.device) : "none (GPU part skipped)";
    const int reps = settings.options.reps;
    const bool single_kernel = !settings.kernel.empty();

    if (!single_kernel)
      {
        lab::Table cpu({"n", "naive_ms", "cache_tiled_ms", "openmp_rows_ms",
                        "openmp_tiles_ms", "blas_ms"});
        for (const int n : sizes)
          if (n <= cpu_limit(settings, 2048))
            cpu.add_row(run_cpu_size(settings, n, checks));
        lab::write_table(cpu, dir + "cpu.dat",
                    {"step-4 (matrix product on the CPU)", gpu, "float", reps,
                     {"milliseconds; blas_ms is sgemm on all cores (NaN without BLAS)"}});
      }
    if (!settings.use_gpu)
      return;

    lab::Cublas cublas;
    if (settings.runs_float())
      {
        std::printf("\nthe kernels (step-4/kernels/<name>.cuh):\n");
        for (const GemmKernel<float> &kernel : fp32_kernels())
          if (settings.runs(kernel.name))
            std::printf("  %-24s %s\n", kernel.name.c_str(), kernel.idea.c_str());
        for (const GemmKernel<float> &kernel : tf32_kernels())
          if (settings.runs(kernel.name))
            std::printf("  %-24s %s%s\n", kernel.name.c_str(), kernel.idea.c_str(),
                        kernel.runs_here() ? "" : " (not available: this GPU cannot run it)");
        if (settings.runs("11_autotuned"))
          tune(settings, checks);
        std::vector<std::string> names = {"n", "cublas"};
        for (const GemmKernel<float> &kernel : fp32_kernels())
          names.push_back(kernel.name);
        lab::Table gflops_table(names);
        names.insert(names.begin() + 1, "copies_ms");
        lab::Table ms_table(names);
        std::vector<std::string> tf32_names = {"n", "cublas_fp32", "cublas_tf32"};
        std::vector<std::string> tf32_errors = {"error_cublas_fp32", "error_cublas_tf32"};
        for (const GemmKernel<float> &kernel : tf32_kernels())
          {
            tf32_names.push_back(kernel.name);
            tf32_errors.push_back("error_" + kernel.name);
          }
        tf32_names.push_back(tf32_kernels().back().name + "_ABt");
        tf32_errors.push_back("error_" + tf32_kernels().back().name + "_ABt");
        tf32_names.insert(tf32_names.end(), tf32_errors.begin(), tf32_errors.end());
        lab::Table tf32_table(tf32_names);
        // The work grows as n³: the sizes already run predict the next one.
        lab::TimeForecast forecast;
        for (const int n : sizes)
          {
            forecast.announce(n);
            lab::HostTimer timer;
            const FloatRows rows = run_float_size(settings, n, cublas, checks);
            forecast.record(n, timer.milliseconds() / 1000);
            gflops_table.add_row(rows.gflops);
            ms_table.add_row(rows.ms);
            tf32_table.add_row(rows.tf32);
          }
        const std::string peak =
          "peak_fp32_gflops " + std::to_string(std::lround(fp32_peak_gflops()));
        lab::write_table(gflops_table, dir + "gflops_float.dat",
                    {"step-4 (SGEMM kernels against cuBLAS, TF32 off)", gpu, "float", reps,
                     {"GFLOP/s = 2 n^3 / kernel time", peak,
                      "kernel 11 tuned: " + tuned_choice()}});
        lab::write_table(ms_table, dir + "time_float.dat",
                    {"step-4 (SGEMM kernels against cuBLAS, TF32 off)", gpu, "float", reps,
                     {"kernel times in milliseconds; copies_ms = A and B to the GPU, C "
                      "back (pageable memory)"}});
        lab::write_table(tf32_table, dir + "tf32.dat",
                    {"step-4 (tensor cores: TF32 kernels against cuBLAS with TF32)", gpu,
                     "float (TF32 inputs)", reps,
                     {"GFLOP/s, then the checked errors: max |C - C_ref| / (|A||B|)_ij",
                      "16_wgmma_tf32_ABt: kernel 16 on A B^T, no transposing pass"}});
        run_shapes(settings, cublas, checks);
      }
    if (settings.runs_double())
      {
        std::printf("\nthe double-precision kernels, against cuBLAS DGEMM:\n");
        std::vector<std::string> names = {"n", "cublas_dgemm"}, errors = {"error_cublas"};
        for (const GemmKernel<double> &kernel : fp64_kernels())
          {
            if (settings.runs(kernel.name))
              std::printf("  %-24s %s%s\n", kernel.name.c_str(), kernel.idea.c_str(),
                          kernel.runs_here() ? "" : " (skipped: this GPU cannot run it)");
            names.push_back(kernel.name);
            errors.push_back("error_" + kernel.name);
          }
        names.insert(names.end(), errors.begin(), errors.end());
        lab::Table double_table(names);
        for (const int n : sizes)
          double_table.add_row(run_double_size(settings, n, cublas, checks));
        lab::write_table(double_table, dir + "double.dat",
                    {"step-4 (double-precision kernels against cuBLAS DGEMM)", gpu, "double",
                     reps, {"GFLOP/s of cuBLAS and each kernel, then the checked errors"}});
      }
  }
} // namespace step4

// @sect3{The main function}
//
// Parse the command line, say what runs where, refuse what cannot be done, run the
// sweep, print the summary. A bad command line (including a kernel name that does not
// exist), a size too large for the memory and an output folder that cannot be written
// exit with code 2 before any work; errors while working with code 1
// (lab::run_program).
int main(int argc, char **argv)
{
  using namespace step4;
  Settings settings;
  CLI::App app{"step-4: tiled matrix multiplication, from the naive kernel to cuBLAS speed",
               "step-4"};
  lab::add_common_options(app, settings.options);
  app.add_option("--kernel", settings.kernel,
                 "Run one kernel only, by number or name (1 ... 16, e.g. 9 or "
                 "9_warp_tiling), beside cuBLAS")
    ->type_name("NAME")
    ->check([](const std::string &name) {
      return find_float_kernel(name) || find_double_kernel(name)
               ? std::string()
               : "no kernel named '" + name + "'";
    });
  if (const auto exit_code = lab::parse_command_line(app, argc, argv))
    return *exit_code;

  return lab::run_program("step-4", [&] {
    std::printf("step-4: matrix multiplication, C = alpha op(A) op(B) + beta C\n");
    settings.device = lab::select_device(settings.options.cpu_only);
    settings.use_gpu = settings.device.present;
    if (settings.use_gpu)
      std::printf("FP32 peak: %.0f GFLOP/s\n", fp32_peak_gflops());
    std::printf("BLAS: %s\n", lab::have_lapack() ? "sgemm on all cores, for scale"
                                                 : "not installed (column left empty)");

    const std::vector<int> sizes = lab::choose_sizes(settings.options, full_sweep, quick_sweep);
    lab::prepare_output_folder(settings.options.out + "/step-4");
    if (settings.options.wants_float())
      lab::refuse_sizes_that_do_not_fit(sizes, memory_needed<float>, "float", settings.use_gpu);
    if (settings.options.wants_double())
      lab::refuse_sizes_that_do_not_fit(sizes, memory_needed<double>, "double",
                                        settings.use_gpu);
    std::printf("sizes: %s; check: max |C - C_ref|_ij / (|A||B|)_ij <= (k+2) eps "
                "(TF32: + 2^-9), reference in double, on every entry (on the GPU by cuBLAS DGEMM)\n",
                lab::join(sizes).c_str());
    lab::Checks checks;
    run_sweep(settings, sizes, checks);

    std::printf("\n");
    checks.print_summary(std::cout);
    return checks.exit_code();
  });
}
