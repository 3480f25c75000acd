// How a result is judged (see result_checks.h).
#include "result_checks.h"

namespace step3
{
  bool judge(lab::Checks &checks, const std::string &what, int info, double residual, double tolerance)
  {
    if (info != 0)
      {
        checks.fail(what, "info = " + std::to_string(info) + " on an invertible matrix");
        return false;
      }
    return checks.at_most(what, residual, tolerance);
  }

  bool judge_against_cpu(lab::Checks &checks, const std::string &what, int expected, int info, double residual,
                         double tolerance)
  {
    if (info != expected)
      {
        checks.fail(what, "info " + std::to_string(info) + ", the CPU's " + std::to_string(expected));
        return false;
      }
    if (info != 0)
      {
        checks.fail(what, "singular (column " + std::to_string(info - 1) + ")");
        return false;
      }
    return checks.at_most(what + " residual", residual, tolerance);
  }

  bool judge_unstable(lab::Checks &checks, const std::string &what, int info, double residual, double bound)
  {
    if (info != 0)
      {
        checks.fail(what, "info = " + std::to_string(info) + ": no pivot of the example is exactly zero");
        return false;
      }
    return checks.at_least(what, residual, bound);
  }
} // namespace step3
