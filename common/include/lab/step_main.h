#pragma once
/// @file
/// @brief The skeleton every step's `main` shares, once the command line is parsed.
///
/// Read any step's `main` and you meet the same five stages, here in one place:
///  1. the program's headline, the first line of its output;
///  2. the refusals that need more than the command-line parser (a PSF that does not
///     parse, two options that contradict each other), before anything else happens;
///  3. the device: lab::select_device prints the `GPU:` line, and without a GPU the GPU
///     parts are skipped;
///  4. the step's own work: a file of the student's own, or the sweep over sizes, in
///     each precision asked for (lab::for_each_precision);
///  5. the verification summary, and the exit code that says whether every check passed.
///
/// Errors take the path of lab::run_program: input refused before any work is exit code
/// 2, a failure while working exit code 1, each as one line.
/// @code
///   return lab::run_step("step-1", "step-1: Cholesky ...", options.cpu_only,
///                        [&](const lab::DeviceInfo &device, lab::Checks &checks) {
///                          lab::for_each_precision(options, [&](auto zero) {
///                            using T = decltype(zero);
///                            run_sweep<T>(...);
///                          });
///                        });
/// @endcode

#include <lab/checks.h>
#include <lab/cli.h>
#include <lab/device.h>

#include <functional>
#include <string>

namespace lab
{
  /// Runs the stages above and returns the exit code: 0 when every check of @p checks
  /// passed, 1 when one failed or the work failed, 2 when input was refused.
  /// @p refuse_bad_input runs before the device is looked for; it throws lab::bad_input
  /// for what it refuses (it may be empty).
  int run_step(const std::string &program, const std::string &headline, bool cpu_only,
               const std::function<void(const DeviceInfo &device, Checks &checks)> &work,
               const std::function<void()> &refuse_bad_input = {});

  /// Calls `body(float{})` and then `body(double{})`, each only when the command line
  /// asked for that precision (`--precision`). The argument carries nothing but its
  /// type: a generic lambda takes it as `auto zero` and names the precision
  /// `using T = decltype(zero);`, so one lambda serves both.
  template <typename Body>
  void for_each_precision(const CommonOptions &options, Body &&body)
  {
    if (options.wants_float())
      body(float{});
    if (options.wants_double())
      body(double{});
  }

  /// The header line about the CPU library that gives a step its yardstick on the
  /// host: "LAPACK: potrf on all cores, for scale" when it is installed, else
  /// "LAPACK: not installed (row left out)". @p library names it (LAPACK, BLAS),
  /// @p role says what it does here, @p without what the table shows without it.
  void print_cpu_library_line(const std::string &library, const std::string &role,
                              const std::string &without);
} // namespace lab
