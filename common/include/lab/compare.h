#pragma once
/// @file
/// @brief NaN-safe comparisons: the largest of several figures, and the largest
/// difference between two arrays, where a NaN anywhere makes the result NaN.
///
/// `std::max(x, NaN)` returns x (every comparison with NaN is false), so a loop of
/// `worst = std::max(worst, error)` forgets a NaN it meets: an entry that was never
/// written (poisoned with NaN) or a division by zero vanishes from the figure, and a
/// check that should fail passes. Every check of the course takes its maxima through
/// these functions instead, and lab::Checks never passes a NaN.

#include <cmath>
#include <cstddef>
#include <limits>

namespace lab
{
  /// The larger of @p a and @p b; NaN when either is NaN.
  inline double nan_max(double a, double b)
  {
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    return a > b ? a : b;
  }

  /// max_i |a[i] − b[i]| over i < count, in double; NaN when any difference is NaN
  /// (either entry NaN, or both infinite of the same sign), 0 for no entries.
  template <typename A, typename B>
  double max_abs_difference(const A *a, const B *b, std::size_t count)
  {
    double worst = 0;
    for (std::size_t i = 0; i < count; ++i)
      worst = nan_max(worst, std::abs(double(a[i]) - double(b[i])));
    return worst;
  }

  /// The same over two containers of equal size (std::vector, lab::Matrix's data, ...):
  /// NaN also when the sizes differ, since then some entry has nothing to compare with.
  template <typename ContainerA, typename ContainerB>
  double max_abs_difference(const ContainerA &a, const ContainerB &b)
  {
    if (a.size() != b.size())
      return std::numeric_limits<double>::quiet_NaN();
    return max_abs_difference(a.data(), b.data(), a.size());
  }
} // namespace lab
