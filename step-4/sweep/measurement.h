#pragma once
// @sect3{Measuring one product}
//
// Every stage of the sweep does the same thing many times: time a product, check it,
// print one line. This file holds what they share: what a measurement is, the problem
// on the device that a kernel is timed on, and the console line.

#include "gemm_check.h"

#include <lab/checks.h>
#include <lab/checks_on_gpu.h>
#include <lab/compare.h>
#include <lab/device_buffer.h>
#include <lab/fresh_inputs.h>
#include <lab/timer.h>

#include <cmath>
#include <functional>
#include <optional>
#include <string>

namespace step4
{
  // What one product measured: the median of its times, in milliseconds, the error of
  // its result (gemm_check.h), and for a kernel its speed in percent of the vendor's,
  // from runs alternating with the vendor's (DeviceProblem::run_beside), with the
  // median of the vendor's runs in those same pairs. The percentage is the median of
  // the pairs' ratios, which the two medians need not give (lab/timer.h), so both are
  // kept and printed. A product that did not run keeps NaN in all of them, and NaN is
  // what the tables show for it (gnuplot skips NaN); the vendor itself and the CPU loops
  // have no percentage.
  struct Measurement
  {
    double ms = std::nan("");
    double error = std::nan("");
    double percent_of_vendor = std::nan("");
    double vendor_ms_in_pairs = std::nan("");
  };

  // Throughput from a time: the textbook 2mnk flops of the shape, per second, in
  // billions. NaN for a product that did not run.
  double gflops(const GemmShape &shape, double ms);

  // @sect3{The console lines of one problem}
  //
  // One line per product: name, time, GFLOP/s, for a kernel cuBLAS's time in the pairs
  // it was timed in and the kernel's speed in percent of cuBLAS's (the median of the
  // pairs' ratios; a "-" where there is none), the error and the check. A failed check prints FAIL on the line and is listed
  // again in the summary. The lines of one problem share what they are judged by, kept
  // here once: the problem's name in the summary ("float n=1024"), its shape (for
  // GFLOP/s) and the tolerance.
  struct ConsoleLines
  {
    lab::Checks &checks;
    std::string problem;
    GemmShape shape;
    double tolerance;

    // Checks @p measured against the tolerance and prints its line.
    void print(const std::string &product, const Measurement &measured) const;
  };

  // The heading above the lines of a problem.
  void print_column_names();

  // @sect3{One product on the device}
  //
  // The data of one problem on the GPU: A and B, and C, which every run overwrites.
  // `run` times a product alone: the vendor's, whose line comes first. `run_beside`
  // times a kernel alternately with the vendor's product (lab/timer.h says why: at the
  // GPU's power limit the clock moves between runs, and only runs made side by side
  // compare what the two do with a cycle). Both return the median time and the error
  // against the double reference, run_beside also the kernel's percentage of the
  // vendor's speed: the median over the pairs of vendor time / kernel time. Each run is
  // timed between two CUDA events, the GPU time of the product alone (a launch returns
  // before the kernel has run, so a host clock would time the launch, not the work),
  // after a warm-up of at least lab::warm_up_milliseconds.
  //
  // Every run gets a fresh input (lab/fresh_inputs.h): before it, untimed, A is
  // written from a pristine copy times 2^e, with e drawn anew from a seed no program
  // can know and never the previous run's. The product is then 2^e A B exactly, every
  // rounding as on A B, and the check multiplies it back by 2^-e (exact too) before
  // comparing it with the one reference. A kernel that remembered an earlier run's
  // answer and handed it back would be off by a factor of 2 at least.
  //
  // With β ≠ 0 each run reads C, so before each run C is restored from its pristine
  // copy, scaled by the same 2^e (the result is 2^e (α A B + β C)): otherwise every
  // repetition would scale the previous result again. With β = 0, C is poisoned (every
  // entry NaN) before every run, the vendor's too: a kernel that leaves any entry
  // unwritten leaves a NaN there, and one that finds the previous run's answer still in
  // C (and so could return it without computing) never does. Beside the vendor, the
  // kernel's result is checked after every one of its runs, not only the last, and the
  // error reported is the worst of them: code that computes right only once, or only
  // when it is checked, fails; and then once more after a last run of the kernel alone.
  //
  // The check is on every entry, on the GPU: the reference and the bracket of each
  // entry (gemm_check.h) are computed once per problem by cuBLAS DGEMM in double
  // (lab::GemmCheckOnGpu), and each kernel's C is compared with them where it lies.
  // Where the GPU has not the memory for the double copies, C is copied back and
  // checked on the host (gemm_error, sampled by bands above 2³⁰ multiply-adds), only
  // after the last run, and the problem's heading says so (coverage()).
  template <typename T>
  struct DeviceProblem
  {
    const GemmProblem<T> &problem;
    lab::DeviceBuffer<T> a, a_input, b, c, c_input;
    GemmArgs<T> args;
    std::optional<lab::GemmCheckOnGpu<T>> check;
    lab::FreshScale fresh;

    explicit DeviceProblem(const GemmProblem<T> &p)
      : problem(p), a(p.a), a_input(p.a), b(p.b), c(p.c.size()), c_input(p.beta == T(0) ? 0 : p.c.size()),
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
                   : gemm_check_coverage(problem.shape) +
                       " on the host (the GPU has no room for the full check)";
    }

    // Times @p product alone on this problem (a kernel's launcher or cuBLAS, both
    // convert to a lab::Gemm) and checks its last result.
    Measurement run(int reps, const lab::Gemm<T> &product)
    {
      const double ms = lab::median_gpu_milliseconds(reps, [&] { product(args, nullptr); }, fresh_input());
      return {ms, error_of_c()};
    }

    // Times @p product alternately with @p vendor, checking each of @p product's
    // results (on the GPU, where the check fits there), then once more after a last
    // run alone.
    Measurement run_beside(int reps, const lab::Gemm<T> &vendor, const lab::Gemm<T> &product)
    {
      double worst = 0;
      std::function<void()> check_each;
      if (check)
        check_each = [&] { worst = lab::nan_max(worst, error_of_c()); };
      const lab::AlternateTimes times = lab::median_gpu_milliseconds_alternately(
        reps, [&] { vendor(args, nullptr); }, [&] { product(args, nullptr); }, fresh_input(), check_each);
      fresh_input()();
      product(args, nullptr);
      return {times.work_ms, lab::nan_max(worst, error_of_c()), 100 * times.relative_speed, times.yardstick_ms};
    }

    // run_beside(), and the line of @p lines that shows it: what every kernel goes
    // through.
    Measurement run_and_print(int reps, const lab::Gemm<T> &vendor, const lab::Gemm<T> &product,
                              const ConsoleLines &lines, const std::string &name)
    {
      const Measurement measured = run_beside(reps, vendor, product);
      lines.print(name, measured);
      return measured;
    }

  private:
    // What runs before each run: a fresh e, A from its pristine copy times 2^e, and
    // with β ≠ 0 C likewise; with β = 0, C poisoned.
    std::function<void()> fresh_input()
    {
      return [this] {
        fresh.next();
        a.copy_from_device(a_input);
        lab::scale_on_gpu(a.data(), a.count(), fresh.exponent());
        if (problem.beta == T(0))
          return c.poison();
        c.copy_from_device(c_input);
        lab::scale_on_gpu(c.data(), c.count(), fresh.exponent());
      };
    }

    // The error of the result in C, once it is multiplied back by 2^-e: the product of
    // the pristine inputs, which the check knows.
    double error_of_c()
    {
      lab::scale_on_gpu(c.data(), c.count(), -fresh.exponent());
      if (check)
        return check->error(c.data(), problem.c.ld());
      lab::Matrix<T> result(problem.c.rows(), problem.c.cols(), problem.c.ld());
      c.download(result);
      return gemm_error(problem, result);
    }
  };
} // namespace step4
