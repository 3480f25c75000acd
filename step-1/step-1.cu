// step-1: the Cholesky factorisation on one CPU core and on one GPU thread.
//
// What this program shows: that CUDA C++ is C++ (the same loop runs on both sides),
// what it takes to run work on the GPU (allocate device memory, copy the matrix there,
// launch a kernel, copy the result back, check every call), how GPU work is timed
// (CUDA events, a warm-up, the median of repetitions), and what one GPU thread costs
// compared with one CPU core: a lot. It does not yet use the GPU's parallelism; that
// is step-2's subject. It builds on nothing but the course's library (lab::).
//
// For every size of the sweep and each precision, the program
//  - factorises a random symmetric positive definite matrix on the CPU (and with LAPACK
//    where it is installed) and on a single GPU thread,
//  - checks each factor by its residual @f$\|LL^T - A\|_F / \|A\|_F@f$,
//  - prints one line and finally writes the table `step-1/cholesky_<precision>.dat`.
// With `--matrix FILE` it factorises a matrix of your own instead and, for a matrix
// that is not positive definite, reports the column where the factorisation stopped.

// @sect3{Include files}
//
// The course's library provides the pieces every step needs (matrices, device
// buffers, checked CUDA calls, timers, tables, the command line); the step's own
// headers provide the CPU reference and the GPU version.
#include "cholesky_cpu.h"
#include "cholesky_table.h"
#include "factor_check.h"
#include "single_thread_cholesky.cuh"

#include <lab/checks.h>
#include <lab/compare.h>
#include <lab/cli.h>
#include <lab/cuda_check.h>
#include <lab/device.h>
#include <lab/device_buffer.h>
#include <lab/fresh_inputs.h>
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

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

namespace step1
{
  // @sect3{What the program was asked to do}
  //
  // The common options of every step (lab::CommonOptions: sizes, precision,
  // repetitions, output folder, quick mode, CPU only) plus step-1's own: a matrix
  // file. `use_gpu` is decided once, at the start, from the command line and from
  // whether a device answered.
  struct Settings
  {
    lab::CommonOptions options;
    std::string matrix_file;
    lab::DeviceInfo device;
    bool use_gpu = false;
  };

  // The default sweep. A single GPU thread is slow, and the work grows as
  // @f$n^3@f$: the largest default size is chosen so that the whole run takes about
  // two minutes on the course's GPU (an H200), most of them spent by the GPU thread at
  // n = 1024. `--quick` stops at 256 and takes seconds; that is what `make run` uses.
  const std::vector<int> full_sweep = {16, 32, 64, 128, 256, 512, 1024};
  const std::vector<int> quick_sweep = {16, 32, 64, 128, 256};

  // The condition number of the test matrices: large enough that rounding matters,
  // small enough that float still gives several correct digits.
  constexpr double condition_number = 1e3;

  // @sect3{What a size costs}
  //
  // Before the sweep starts, the program works out what each size needs and refuses
  // a size that cannot fit (lab::refuse_sizes_that_do_not_fit), in one line and
  // before any work: at n = 200000 a single float matrix takes 149 GiB. On the host
  // the test matrix is generated in double, then A, the CPU's factor and LAPACK's copy
  // of A live side by side; the GPU holds one matrix, factorised in place, and the
  // info flag.
  template <typename T>
  lab::Memory memory_needed(int n)
  {
    const double matrix = lab::matrix_bytes<T>(n, n);
    return {lab::matrix_bytes<double>(n, n) + 3 * matrix, matrix + sizeof(int)};
  }

  // @sect3{Every run on a fresh input, every run checked}
  //
  // A program timed many times on the same matrix could remember the factor of its
  // first run and hand it back ever after, in the time of a copy. So every run gets a
  // fresh input: A times 4^e, with e drawn before the run from a seed no program can
  // know (lab/fresh_inputs.h). A power of two changes only the exponents of the
  // numbers, never a rounding, so the factor of 4^e A is exactly 2^e L; multiplied
  // back by 2^-e it is the factor of A, and a remembered one is off by a factor of 2
  // at least. Each run's factor is then checked, untimed, by Freivalds' probe
  // (lab/probes.h: A x against L(Lᵀx) for a random x, n² work where the full check is
  // n³); the worst probe of the runs is kept, and the last run's factor also gets the
  // full check (factor_check.h).
  template <typename T>
  struct FreshRuns
  {
    explicit FreshRuns(const lab::Matrix<T> &matrix) : a(matrix) {}

    const lab::Matrix<T> &a;
    lab::FreshScale fresh;
    double worst_probe = 0;

    // A fresh input for the next run.
    lab::Matrix<T> next_input()
    {
      fresh.next();
      lab::Matrix<T> input = a;
      lab::scale(input, 2 * fresh.exponent());
      return input;
    }

    // The run's factor multiplied back into A's, and probed.
    void check(lab::Matrix<T> &factor)
    {
      lab::scale(factor, -fresh.exponent());
      worst_probe = lab::nan_max(worst_probe, lab::cholesky_probe(a, factor));
    }
  };

  // @sect3{Timing the CPU}
  //
  // The factorisation works in place, so every repetition starts from a fresh copy of
  // A. The copy is made before the clock starts: we time the factorisation only. The
  // result of the last run is kept for the check. A CPU function returns when its work
  // is done, so a host clock measures it correctly (unlike a kernel launch, below).
  template <typename T>
  double time_cpu(FreshRuns<T> &runs, lab::Matrix<T> &factor, int reps, int &info)
  {
    const auto samples = lab::repeat(reps, [&] {
      factor = runs.next_input();
      lab::HostTimer timer;
      info = cholesky_cpu(factor);
      const double ms = timer.milliseconds();
      runs.check(factor);
      return ms;
    });
    return lab::median(samples);
  }

  // LAPACK's `potrf` on the same matrix, for scale: a careful blocked algorithm on all
  // cores. Without LAPACK the time is NaN and the table shows it as missing.
  template <typename T>
  double time_lapack(const lab::Matrix<T> &a, int reps)
  {
    if (!lab::have_lapack())
      return std::nan("");
    lab::Matrix<T> factor;
    const auto samples = lab::repeat(reps, [&] {
      factor = a;
      lab::HostTimer timer;
      lab::lapack_cholesky(factor);
      return timer.milliseconds();
    });
    return lab::median(samples);
  }

  // @sect3{Timing the GPU}
  //
  // One run on the GPU has three parts: copy A to the device, factorise, copy L back.
  // The 2011 course reported two times, "pure GPU" (the kernel alone) and "incl. data
  // transfer"; we measure both in the same run with four CUDA events. An event is a
  // marker that the GPU time-stamps when its work queue reaches it, so the time
  // between two events is GPU time, not the CPU's time to launch the work.
  struct GpuTimes
  {
    double kernel_ms;
    double total_ms;
  };

  // Device memory is allocated once, before the timed runs, and freed when the
  // buffers go out of scope (lab::DeviceBuffer is RAII). The info flag is poisoned
  // (set to -1) before every run, so a kernel that forgot to write it cannot pass as
  // successful.
  template <typename T>
  GpuTimes time_gpu(FreshRuns<T> &runs, lab::Matrix<T> &factor, int reps, int &info)
  {
    lab::DeviceBuffer<T> a_device(runs.a.size());
    lab::DeviceBuffer<int> info_device(1);
    lab::CudaEvent copied_in_start, kernel_start, kernel_stop, copied_out_stop;
    factor = lab::Matrix<T>(runs.a.rows(), runs.a.cols(), runs.a.ld());

    const auto samples = lab::repeat(reps, [&] {
      const lab::Matrix<T> a = runs.next_input();
      // @exercise{gpu_event_timing, 1}
      // Timing GPU work with CUDA events. For one run: poison the info flag, copy a
      // to `a_device`, factorise with `single_thread_cholesky`, copy the result into
      // factor; record `copied_in_start` before the upload, `kernel_start` and
      // `kernel_stop` around the factorisation only, and `copied_out_stop` after the
      // download, so that the two times returned below are the kernel's and the
      // whole run's.
      info_device.poison();
      copied_in_start.record();
      a_device.upload(a);
      kernel_start.record();
      single_thread_cholesky(a_device.data(), a.rows(), a.ld(), info_device.data());
      kernel_stop.record();
      a_device.download(factor);
      copied_out_stop.record();
      // @end-exercise
      // milliseconds_between() waits for the later event, so both times are final.
      const GpuTimes times{lab::milliseconds_between(kernel_start, kernel_stop),
                           lab::milliseconds_between(copied_in_start, copied_out_stop)};
      runs.check(factor);
      return times;
    });
    info_device.copy_to_host(&info, 1);
    return {lab::median(samples, &GpuTimes::kernel_ms),
            lab::median(samples, &GpuTimes::total_ms)};
  }

  // @sect3{One size: factorise, check, report}
  //
  // The console line and the table row of one size. Every factor is checked against
  // the original matrix (factor_check.h). A failed check prints FAIL on the line and is
  // listed again in the summary.
  template <typename T>
  SizeResult run_size(const Settings &settings, int n, lab::Checks &checks)
  {
    const int reps = settings.options.reps;
    const lab::Matrix<T> a = lab::random_spd<T>(n, condition_number, 1000 + n);
    const std::string name = std::string(lab::precision_name<T>()) +
                             " n=" + std::to_string(n);
    SizeResult r;
    r.n = n;
    r.tolerance = residual_tolerance<T>(n);

    lab::Matrix<T> factor;
    int info_cpu = 0;
    FreshRuns<T> cpu_runs(a);
    r.cpu_ms = time_cpu(cpu_runs, factor, reps, info_cpu);
    const FactorCheck cpu = check_factor(checks, name + " CPU residual", a, factor);
    r.residual_cpu = cpu.residual;
    bool ok = checks.at_most(name + " CPU every run (probe)", cpu_runs.worst_probe, lab::probe_tolerance<T>(n));
    ok = cpu.passed && ok;
    r.lapack_ms = time_lapack(a, reps);

    if (settings.use_gpu)
      {
        int info_gpu = -1;
        FreshRuns<T> gpu_runs(a);
        const GpuTimes gpu = time_gpu(gpu_runs, factor, reps, info_gpu);
        r.gpu_kernel_ms = gpu.kernel_ms;
        r.gpu_total_ms = gpu.total_ms;
        const FactorCheck on_gpu = check_factor(checks, name + " GPU residual", a, factor);
        r.residual_gpu = on_gpu.residual;
        ok = checks.at_most(name + " GPU every run (probe)", gpu_runs.worst_probe, lab::probe_tolerance<T>(n)) && ok;
        ok = on_gpu.passed && ok;
        if (info_gpu != info_cpu)
          {
            checks.fail(name + " GPU info", "the GPU reported info " +
                                               std::to_string(info_gpu) + ", the CPU " +
                                               std::to_string(info_cpu));
            ok = false;
          }
      }

    std::printf("%7d %10s %10s %12s %12s %9s %13s %13s   %s\n", n,
                lab::format_milliseconds(r.cpu_ms).c_str(),
                lab::format_milliseconds(r.lapack_ms).c_str(),
                lab::format_milliseconds(r.gpu_kernel_ms).c_str(),
                lab::format_milliseconds(r.gpu_total_ms).c_str(),
                lab::format_or_dash(r.gpu_kernel_ms / r.cpu_ms, "%.1f").c_str(),
                lab::format_or_dash(r.residual_cpu, "%.2e").c_str(),
                lab::format_or_dash(r.residual_gpu, "%.2e").c_str(), lab::verdict(ok));
    std::fflush(stdout);
    return r;
  }

  // @sect3{The sweep for one precision}
  //
  // Runs every size, prints one line per size as it finishes (a long sweep shows its
  // progress), and writes the table. The work grows as @f$n^3@f$, so the sizes
  // already run predict the next one (lab::TimeForecast); a size expected to take
  // long says so before it starts.
  template <typename T>
  void run_sweep(const Settings &settings, const std::vector<int> &sizes,
                 lab::Checks &checks)
  {
    const char *precision = lab::precision_name<T>();
    std::printf("\n%s (machine epsilon %.1e; times in ms, median of %d)\n", precision,
                std::numeric_limits<T>::epsilon(), settings.options.reps);
    std::printf("%7s %10s %10s %12s %12s %9s %13s %13s   %s\n", "n", "CPU", "LAPACK",
                "GPU kernel", "GPU +copies", "GPU/CPU", "residual CPU", "residual GPU",
                "check");

    CholeskyTable table;
    lab::TimeForecast forecast;
    for (const int n : sizes)
      {
        forecast.announce(n);
        lab::HostTimer timer;
        table.add(run_size<T>(settings, n, checks));
        forecast.record(n, timer.milliseconds() / 1000);
      }
    table.write(settings.options.out + "/step-1", settings.device, settings.options.reps, precision);
  }

  // @sect3{Your own matrix}
  //
  // With `--matrix FILE` the program factorises the matrix in the file (see
  // lab/matrix_io.h for the format) on the CPU and, where there is one, on the GPU.
  // Cholesky is defined for symmetric matrices only, so lab::read_symmetric_matrix
  // refuses an unsymmetric one before any work (exit code 2, like a file that cannot be
  // read). A matrix that is not positive definite is reported with the
  // column at which both factorisations stopped, never with a factor full of NaN.
  template <typename T>
  void factorise_file(const Settings &settings, lab::Checks &checks)
  {
    const lab::Matrix<T> a = lab::read_symmetric_matrix<T>(settings.matrix_file);
    const int n = a.rows();

    const auto report = [&](const char *where, int info, const lab::Matrix<T> &factor) {
      const std::string name =
        std::string(where) + " " + lab::precision_name<T>();
      if (info != 0)
        {
          std::printf("%s: not positive definite: the factorisation stopped at column %d "
                      "(LAPACK info = %d)\n",
                      where, info - 1, info);
          checks.fail(name, "not positive definite (column " + std::to_string(info - 1) + ")");
          return;
        }
      const FactorCheck check = check_factor(checks, name + " residual", a, factor);
      std::printf("%s: residual %.2e   %s\n", where, check.residual, lab::verdict(check.passed));
    };

    std::printf("\nmatrix %s: %d x %d, %s\n", settings.matrix_file.c_str(), n, n,
                lab::precision_name<T>());
    lab::Matrix<T> factor = a;
    report("CPU", cholesky_cpu(factor), factor);
    if (settings.use_gpu)
      {
        const int info = single_thread_cholesky(a, factor);
        report("GPU", info, factor);
      }
  }
} // namespace step1

// @sect3{The main function}
//
// Parse the command line; then lab::run_step runs the skeleton every step shares: the
// headline, the device (the `GPU:` line), the work, the verification summary. The work
// is either the file or the sweep, in each precision asked for
// (lab::for_each_precision). A bad command line returns 2 (lab::parse_command_line). So
// does input the program refuses before any work: a size too large for the memory, an
// output folder it cannot write to, a matrix file it cannot use. Errors while working
// (from CUDA, say) return 1; both arrive as exceptions, which lab::run_step turns into
// one line and the exit code. Without a GPU the CPU part runs and the GPU part is
// skipped with one line saying so; that is not an error.
int main(int argc, char **argv)
{
  using namespace step1;
  Settings settings;
  CLI::App app{"step-1: the Cholesky factorisation on one CPU core and on one GPU thread",
               "step-1"};
  lab::add_common_options(app, settings.options);
  app.add_option("--matrix", settings.matrix_file,
                 "Factorise the matrix in this text file (one row per line) instead of "
                 "the sweep")
    ->type_name("FILE")
    ->excludes(app.get_option("--sizes"))
    ->excludes(app.get_option("--max-size"));
  if (const auto exit_code = lab::parse_command_line(app, argc, argv))
    return *exit_code;

  return lab::run_step(
    "step-1", "step-1: Cholesky factorisation, one CPU core against one GPU thread",
    settings.options.cpu_only, [&](const lab::DeviceInfo &device, lab::Checks &checks) {
      settings.device = device;
      settings.use_gpu = device.present;
      lab::print_cpu_library_line("LAPACK", "potrf on all cores, for scale", "column left empty");
      if (!settings.matrix_file.empty())
        {
          lab::for_each_precision(settings.options, [&](auto zero) {
            factorise_file<decltype(zero)>(settings, checks);
          });
          return;
        }
      const std::vector<int> sizes =
        lab::choose_sizes(settings.options, full_sweep, quick_sweep);
      // Everything that could stop the sweep half-way is checked before it starts.
      lab::prepare_output_folder(settings.options.out + "/step-1");
      lab::for_each_precision(settings.options, [&](auto zero) {
        using T = decltype(zero);
        lab::refuse_sizes_that_do_not_fit(sizes, memory_needed<T>, lab::precision_name<T>(),
                                          settings.use_gpu);
      });
      std::printf("sizes: %s; check: ||L L^T - A||_F / ||A||_F <= %g n eps\n",
                  lab::join(sizes).c_str(), residual_constant);
      lab::for_each_precision(settings.options, [&](auto zero) {
        run_sweep<decltype(zero)>(settings, sizes, checks);
      });
    });
}
