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
// working on one idea. `--cholesky` runs, instead of the sweep, step-2's Cholesky on
// kernel 20's products against cuSOLVER's dpotrf (sweep/cholesky_on_kernel_20.h).

// The program's stages, each in its own file under sweep/, are called in order by
// run_sweep() at the end of this file: the CPU loops, kernel 11's tuning, the float
// kernels at each size (here), the shapes, the double kernels. Each returns what it
// measured as a record, and one object, Tables (sweep/tables.h), turns the records into
// the tables.

// @sect3{Include files}
#include "gemm_check.h"
#include "gemm_kernels.h"
#include "sweep/cholesky_on_kernel_20.h"
#include "sweep/cpu_timing.h"
#include "sweep/double_precision.h"
#include "sweep/measurement.h"
#include "sweep/settings.h"
#include "sweep/shapes.h"
#include "sweep/tables.h"
#include "sweep/tuning.h"

#include <lab/checks.h>
#include <lab/cli.h>
#include <lab/cublas_gemm.h>
#include <lab/cuda_check.h>
#include <lab/device.h>
#include <lab/forecast.h>
#include <lab/format.h>
#include <lab/memory.h>
#include <lab/precision.h>
#include <lab/step_main.h>
#include <lab/table.h>
#include <lab/timer.h>
#include <lab/vendor_math.h>

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace step4
{
  // @sect3{The sizes of the sweep}
  //
  // The sweep: powers of two up to 8192, where cuBLAS reaches its full speed. Quick
  // mode stops at 1024 and takes seconds.
  const std::vector<int> full_sweep = {256, 512, 1024, 2048, 4096, 8192};
  const std::vector<int> quick_sweep = {256, 512, 1024};

  // @sect3{What a size costs}
  //
  // Checked for every size before the sweep starts (lab::refuse_sizes_that_do_not_fit),
  // so that a size that cannot fit is refused in one line instead of failing after the
  // smaller ones ran. On the host: A, B and C of the problem, the result copied back,
  // and the C of the timed copies. On the GPU: A, B and C (with β ≠ 0, as in the
  // shapes, a pristine copy of C too; those shapes are small). In float, the
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

  // @sect3{The kernels at one size}
  //
  // The heart of the program: for size n, cuBLAS and every kernel on the same random
  // matrices, one console line each, each kernel timed alternately with the cuBLAS
  // product it is compared with (sweep/measurement.h). The FP32 kernels are compared with cuBLAS in
  // pure FP32 and checked with the FP32 tolerance; the TF32 kernels with cuBLAS allowed
  // to use TF32, and checked with the TF32 tolerance (their inputs lose 13 bits of
  // mantissa). α = 1, β = 0: the plain product, as benchmarks use.
  //
  // First the copies to and from the GPU, once per size: the same for every kernel.
  double time_copies(DeviceProblem<float> &device, const GemmProblem<float> &problem, int reps)
  {
    lab::Matrix<float> c(problem.c.rows(), problem.c.cols());
    return lab::median_gpu_milliseconds(reps, [&] {
      device.a.upload(problem.a);
      device.b.upload(problem.b);
      device.c.download(c);
    });
  }

  // Then the FP32 kernels asked for, each beside @p vendor (timed alternately with it).
  void run_fp32_kernels(const Settings &settings, DeviceProblem<float> &device,
                        const lab::Gemm<float> &vendor, const ConsoleLines &lines,
                        FloatSizeResult &result)
  {
    const int reps = settings.options.reps;
    for (const GemmKernel<float> &kernel : fp32_kernels())
      if (settings.runs(kernel.name))
        result.kernels.record(
          kernel.name, device.run_and_print(reps, vendor, kernel.launch, lines, kernel.name));
  }

  // Then the tensor cores: kernels 12 and 16 to 18, those asked for that this GPU can
  // run. Kernel 16 reads B transposed (k-major); for A·B its time includes a pass that
  // writes Bᵀ first. To show what that pass costs, it also runs A·Bᵀ on the same
  // matrices, where B is read as stored and no pass is needed: same flops, same
  // kernel, the difference in time is the pass. (Kernel 17 reads A·B's B as stored,
  // with no pass.) That product has its own problem on the device, set up only where
  // kernel 16 runs, and beside it cuBLAS computes A·Bᵀ too.
  void run_tf32_kernels(const Settings &settings, const GemmProblem<float> &problem,
                        DeviceProblem<float> &device, const lab::Gemm<float> &vendor,
                        const ConsoleLines &lines, FloatSizeResult &result)
  {
    const int reps = settings.options.reps;
    for (const GemmKernel<float> &kernel : tf32_kernels())
      if (settings.runs(kernel.name) && kernel.runs_here())
        result.kernels.record(
          kernel.name, device.run_and_print(reps, vendor, kernel.launch, lines, kernel.name));
    const GemmKernel<float> &wgmma = *find_float_kernel("16");
    if (settings.runs(wgmma.name) && wgmma.runs_here())
      {
        GemmProblem<float> transposed = problem;
        transposed.shape.op_b = Op::transpose;
        DeviceProblem<float> device_transposed(transposed);
        result.kernels.record(on_a_bt(wgmma),
                              device_transposed.run_and_print(reps, vendor, wgmma.launch, lines,
                                                              on_a_bt(wgmma)));
      }
  }

  // The size's stages in order, into one record.
  FloatSizeResult run_float_size(const Settings &settings, int n, lab::Cublas &cublas,
                                 lab::Checks &checks)
  {
    const int reps = settings.options.reps;
    const GemmShape shape{n, n, n};
    const GemmProblem<float> problem = random_problem<float>(shape, 1.0f, 0.0f, 4000 + n);
    DeviceProblem<float> device(problem);
    const std::string size = "float n=" + std::to_string(n);
    std::printf("\nn = %d (%.1f GFLOP per product; FP32 tolerance %.1e, TF32 %.1e; "
                "checked: %s)\n",
                n, shape.flops() / 1e9, gemm_tolerance<float>(n), tf32_tolerance(n),
                device.coverage().c_str());
    print_column_names();

    FloatSizeResult result;
    result.n = n;
    result.copies_ms = time_copies(device, problem, reps);
    const lab::Gemm<float> sgemm = lab::cublas_gemm(cublas, lab::CublasMath::fp32);
    result.cublas_fp32 = device.run(reps, sgemm);
    const ConsoleLines fp32{checks, size, shape, gemm_tolerance<float>(n)};
    fp32.print("cuBLAS_FP32", result.cublas_fp32);
    run_fp32_kernels(settings, device, sgemm, fp32, result);

    const lab::Gemm<float> tf32_gemm = lab::cublas_gemm(cublas, lab::CublasMath::tf32);
    result.cublas_tf32 = device.run(reps, tf32_gemm);
    const ConsoleLines tf32{checks, size, shape, tf32_tolerance(n)};
    tf32.print("cuBLAS_TF32", result.cublas_tf32);
    run_tf32_kernels(settings, problem, device, tf32_gemm, tf32, result);
    return result;
  }

  // @sect3{The float kernels}
  //
  // What each kernel does, in one line (a kernel this GPU cannot run says so), then
  // every size. The work grows as n³: the sizes already run predict the next one, and
  // a size expected to take long says so before it starts (lab::TimeForecast).
  void list_float_kernels(const Settings &settings)
  {
    std::printf("\nthe kernels (step-4/kernels/<name>.cuh):\n");
    for (const GemmKernel<float> &kernel : fp32_kernels())
      if (settings.runs(kernel.name))
        std::printf("  %-24s %s\n", kernel.name.c_str(), kernel.idea.c_str());
    for (const GemmKernel<float> &kernel : tf32_kernels())
      if (settings.runs(kernel.name))
        std::printf("  %-24s %s%s\n", kernel.name.c_str(), kernel.idea.c_str(),
                    kernel.runs_here() ? "" : " (not available: this GPU cannot run it)");
  }

  void run_float_sizes(const Settings &settings, const std::vector<int> &sizes,
                       lab::Cublas &cublas, Tables &tables, lab::Checks &checks)
  {
    lab::TimeForecast forecast;
    for (const int n : sizes)
      {
        forecast.announce(n);
        lab::HostTimer timer;
        tables.add(run_float_size(settings, n, cublas, checks));
        forecast.record(n, timer.milliseconds() / 1000);
      }
    tables.write_float(fp32_peak_gflops());
  }

  // @sect3{The sweep}
  //
  // The stages in order, each writing its tables when it is done: the CPU loops (not
  // when a single kernel was asked for), and on the GPU the float kernels, after the
  // tuning of kernel 11, the shapes, and the double kernels.
  void run_sweep(const Settings &settings, const std::vector<int> &sizes, lab::Checks &checks)
  {
    Tables tables(settings);
    if (settings.kernel.empty())
      run_cpu_sizes(settings, sizes, tables, checks);
    if (!settings.use_gpu)
      return;
    lab::Cublas cublas;
    if (settings.runs_float())
      {
        list_float_kernels(settings);
        if (settings.runs("11_autotuned"))
          tune_kernel_11(settings, checks);
        run_float_sizes(settings, sizes, cublas, tables, checks);
        run_shapes(settings, cublas, tables, checks);
      }
    if (settings.runs_double())
      run_double_sizes(settings, sizes, cublas, tables, checks);
  }
} // namespace step4

// @sect3{The main function}
//
// Parse the command line, then lab::run_step: the headline, the device, the work, the
// summary. The work says what runs where (the GPU's FP32 peak, whether BLAS is there),
// refuses what cannot be done, and runs the sweep. A bad command line (including a
// kernel name that does not exist), a size too large for the memory and an output
// folder that cannot be written exit with code 2 before any work; errors while working
// with code 1 (lab::run_program).
int main(int argc, char **argv)
{
  using namespace step4;
  Settings settings;
  CLI::App app{"step-4: tiled matrix multiplication, from the naive kernel to cuBLAS speed",
               "step-4"};
  lab::add_common_options(app, settings.options);
  app.add_option("--kernel", settings.kernel,
                 "Run one kernel only, by number or name (1 ... 20, e.g. 9 or "
                 "9_warp_tiling), beside cuBLAS")
    ->type_name("NAME")
    ->check([](const std::string &name) {
      return find_float_kernel(name) || find_double_kernel(name)
               ? std::string()
               : "no kernel named '" + name + "'";
    });
  app.add_flag("--cholesky", settings.cholesky,
               "Instead of the sweep: step-2's double Cholesky (variants 9 and 10) on cuBLAS, step-4's kernels "
               "and kernel 20, each against cuSOLVER dpotrf (default sizes 16384,32768)")
    ->excludes(app.get_option("--kernel"));
  if (const auto exit_code = lab::parse_command_line(app, argc, argv))
    return *exit_code;

  return lab::run_step(
    "step-4", "step-4: matrix multiplication, C = alpha op(A) op(B) + beta C",
    settings.options.cpu_only, [&](const lab::DeviceInfo &device, lab::Checks &checks) {
      settings.device = device;
      settings.use_gpu = device.present;
      if (settings.use_gpu)
        std::printf("FP32 peak: %.0f GFLOP/s\n", fp32_peak_gflops());
      lab::print_cpu_library_line("BLAS", "sgemm on all cores, for scale", "column left empty");
      if (settings.use_gpu)
        std::printf("%s\n", lab::vendor_math_line().c_str());

      if (settings.cholesky)
        {
          const std::vector<int> sizes = cholesky_sizes(settings);
          lab::prepare_output_folder(settings.options.out + "/step-4");
          lab::refuse_sizes_that_do_not_fit(sizes, cholesky_memory_needed, "double", settings.use_gpu);
          run_cholesky_on_kernel_20(settings, sizes, checks);
          return;
        }
      const std::vector<int> sizes = lab::choose_sizes(settings.options, full_sweep, quick_sweep);
      lab::prepare_output_folder(settings.options.out + "/step-4");
      lab::for_each_precision(settings.options, [&](auto zero) {
        using T = decltype(zero);
        lab::refuse_sizes_that_do_not_fit(sizes, memory_needed<T>, lab::precision_name<T>(),
                                          settings.use_gpu);
      });
      std::printf("sizes: %s; check: max |C - C_ref|_ij / (|A||B|)_ij <= (k+2) eps "
                  "(TF32: + 2^-9), reference in double, on every entry (on the GPU by "
                  "cuBLAS DGEMM)\n",
                  lab::join(sizes).c_str());
      std::printf("each kernel timed alternately with cuBLAS: time = its median in the pairs, beside = "
                  "cuBLAS's median in the same pairs, cuBLAS = the median of the pairs' ratios (not the "
                  "ratio of the two medians: lab/timer.h)\n");
      run_sweep(settings, sizes, checks);
    });
}
