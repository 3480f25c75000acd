#pragma once
/// @file
/// @brief lab::Checks: every self-check of a program, counted, with a summary.
///
/// A program that checks itself must make a failure impossible to miss: the line of
/// the failing size says FAIL, the summary at the end repeats the figure and the
/// tolerance, and the exit code is 1, so that CTest and scripts see it too. A run that
/// checked nothing (a table asked for that runs only on a GPU, on a machine without
/// one) has verified nothing either: its summary says so, and it is no success.

#include <iosfwd>
#include <string>
#include <vector>

namespace lab
{
  /// Counts checks and remembers the failures.
  class Checks
  {
  public:
    /// Records the check `value <= tolerance` under the name @p what and returns
    /// whether it passed. NaN never passes.
    bool at_most(const std::string &what, double value, double tolerance);

    /// Records the check `value >= bound`: for a result that must be bad, such as an
    /// unstable method's error on the matrix that breaks it. The value must also be a
    /// finite number: NaN (an output never written) and ±∞ (an overflow, a division by
    /// zero) say that the computation broke in some other way than the one the check
    /// expects, so they never pass.
    bool at_least(const std::string &what, double value, double bound);

    /// Records a check that failed for a reason other than a number (a matrix that
    /// was reported not positive definite, say).
    void fail(const std::string &what, const std::string &reason);

    /// Number of checks that passed.
    int passed() const { return passed_; }
    /// Number of checks that failed.
    int failed() const { return static_cast<int>(failures_.size()); }

    /// "verification: all 10 checks passed", or the count and one FAIL line per
    /// failure with its figure and tolerance, or, when no check was made at all,
    /// "verification: FAIL: no check was made, so nothing was verified".
    void print_summary(std::ostream &out) const;

    /// 0 when at least one check was made and every check passed, 1 otherwise.
    int exit_code() const { return failures_.empty() && passed_ > 0 ? 0 : 1; }

  private:
    int passed_ = 0;
    std::vector<std::string> failures_;
  };

  /// The word that ends a console line of results: "PASS" when every check on that
  /// line passed, else "FAIL" (the summary then names the failed ones).
  inline const char *verdict(bool passed)
  {
    return passed ? "PASS" : "FAIL";
  }
} // namespace lab
