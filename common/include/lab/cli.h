#pragma once
/// @file
/// @brief The command line every step shares, parsed with CLI11.
///
/// @code
///   --sizes 256,512,1024    the matrix sizes to run (default: the step's sweep)
///   --max-size N            the step's sweep, cut (or extended) to end at N
///   --precision P           float, double or both
///   --reps N                timed repetitions behind each median (default 5)
///   --out DIR               where tables go (default results/local)
///   --quick                 a sweep that takes seconds (what `make run` uses)
///   --cpu-only              skip the GPU even when there is one
///   --help                  the options
/// @endcode
/// A bad argument gets one line naming it, one usage line, and exit code 2.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace lab
{
  /// The options every step has.
  struct CommonOptions
  {
    /// --sizes: explicit sizes; empty means the step's default sweep.
    std::vector<int> sizes;
    /// --max-size: cut the default sweep here; 0 means no cut.
    int max_size = 0;
    /// --precision: "float", "double" or "both".
    std::string precision = "both";
    /// --reps: timed repetitions behind each median.
    int reps = 5;
    /// --out: the folder that receives `<step>/<table>.dat`.
    std::string out = "results/local";
    /// --quick: the short sweep.
    bool quick = false;
    /// --cpu-only: do not touch the GPU.
    bool cpu_only = false;

    /// True when float runs are asked for.
    bool wants_float() const { return precision != "double"; }
    /// True when double runs are asked for.
    bool wants_double() const { return precision != "float"; }
  };

  /// Adds the common options to @p app, storing into @p options (whose values are the
  /// defaults shown by --help).
  void add_common_options(CLI::App &app, CommonOptions &options);

  /// Parses the command line. Returns nothing when the program should go on, or the
  /// exit code when it should stop: 0 after printing --help, 2 after printing a
  /// one-line error and the usage line for a bad argument.
  std::optional<int> parse_command_line(CLI::App &app, int argc, char **argv);

  /// The sizes to run: --sizes when given; otherwise @p quick_sweep under --quick and
  /// @p full_sweep without; then, with --max-size N, only the sizes up to N, and N
  /// itself. A cut above the sweep's end extends it by doubling: a sweep ending at
  /// 1024 with --max-size 5000 goes on with 2048, 4096, 5000.
  std::vector<int> choose_sizes(const CommonOptions &options,
                                const std::vector<int> &full_sweep,
                                const std::vector<int> &quick_sweep);
} // namespace lab
