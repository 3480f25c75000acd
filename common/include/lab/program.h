#pragma once
/// @file
/// @brief How a program of the course ends: exit codes, and the one place that turns
/// an error into one.
///
/// Every program ends in one of three ways:
///  - **0**: it ran and every check passed (or it printed --help);
///  - **1**: a check failed, or something went wrong while working (a CUDA error, a
///    matrix that turned out not to be positive definite);
///  - **2**: it refused its input before doing any work: a bad command line, a size
///    that cannot fit in memory, an output folder it cannot write to, a file it cannot
///    read or that holds something it cannot use.
///
/// Library code never ends the program: it throws. lab::bad_input says "refused,
/// before any work", every other exception "failed while working"; run_program
/// catches both in `main`, prints one line and returns the exit code:
/// @code
///   int main(int argc, char **argv)
///   {
///     ... parse the command line (exit code 2 on a bad one) ...
///     return lab::run_program("step-1", [&] { ...; return checks.exit_code(); });
///   }
/// @endcode

#include <functional>
#include <stdexcept>
#include <string>

namespace lab
{
  /// Input the program refuses before it starts working (exit code 2). what() is one
  /// line that names the input and says what is wrong with it.
  class bad_input : public std::runtime_error
  {
  public:
    using std::runtime_error::runtime_error;
  };

  /// Runs @p body, the work of `main` after the command line has been parsed, and
  /// returns its exit code. An exception becomes one line on stderr,
  /// "<program>: error: <what>", and exit code 2 for lab::bad_input, 1 for any other.
  int run_program(const std::string &program, const std::function<int()> &body);
} // namespace lab
