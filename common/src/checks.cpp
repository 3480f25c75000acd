#include <lab/checks.h>
#include <lab/exercise.h>

#include <cmath>
#include <cstdio>
#include <ostream>

namespace lab
{
  bool Checks::at_most(const std::string &what, double value, double tolerance)
  {
    // Written so that NaN fails: every comparison with NaN is false.
    if (value <= tolerance)
      {
        ++passed_;
        return true;
      }
    char figures[96];
    std::snprintf(figures, sizeof figures, "%.3g > tolerance %.3g", value, tolerance);
    failures_.push_back(what + ": " + figures);
    return false;
  }

  bool Checks::at_least(const std::string &what, double value, double bound)
  {
    if (std::isfinite(value) && value >= bound)
      {
        ++passed_;
        return true;
      }
    char figures[96];
    std::snprintf(figures, sizeof figures, "%.3g < bound %.3g", value, bound);
    failures_.push_back(what + ": " + figures);
    return false;
  }

  void Checks::fail(const std::string &what, const std::string &reason)
  {
    failures_.push_back(what + ": " + reason);
  }

  void Checks::print_summary(std::ostream &out) const
  {
    const int total = passed_ + failed();
    // "All 0 checks passed" would be true, and a lie: the run claims a success it
    // never tested.
    if (total == 0)
      {
        out << "verification: FAIL: no check was made, so nothing was verified\n";
        return;
      }
    if (failures_.empty())
      {
        out << "verification: all " << total << " checks passed\n";
        return;
      }
    out << "verification: " << failed() << " of " << total << " checks FAILED\n";
    for (const std::string &failure : failures_)
      out << "  FAIL " << failure << '\n';
    // In a student edition, why the checks may have failed (lab/exercise.h).
    print_exercises_not_done(out);
  }
} // namespace lab
