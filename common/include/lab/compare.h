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

#include <lab/host_device.h>

#include <lab/matrix.h>

#include <cmath>
#include <cstddef>
#include <limits>

namespace lab
{
  /// The larger of @p a and @p b; NaN when either is NaN. It runs on the GPU too (the
  /// checks of lab/checks_on_gpu.h take their maxima with it), which is why it is
  /// written with `x != x`, true for NaN alone, and returns a + b, then NaN, instead
  /// of calling the host functions std::isnan and std::numeric_limits.
  LAB_HOST_DEVICE inline double nan_max(double a, double b)
  {
    if (a != a || b != b)
      return a + b;
    return a > b ? a : b;
  }

  /// The error of one computed entry @p value against its @p reference, relative to
  /// @p bound, the size the entry's rounding error is measured by (for a product,
  /// Σ_p |A_ip||B_pj|, see step-4's gemm_check.h): |value − reference| / bound.
  /// NaN when any of the three is NaN; where the bound is 0 the exact answer is 0 and
  /// must come out exactly, so the error is 0 if it does and infinity if it does not
  /// (the bound, a sum of magnitudes, is never negative: 1/+0 is +infinity). On the CPU
  /// and the GPU.
  LAB_HOST_DEVICE inline double entry_error(double value, double reference, double bound)
  {
    const double difference = value > reference ? value - reference : reference - value;
    if (difference != difference || bound != bound)
      return difference + bound;
    if (bound == 0)
      return difference == 0 ? 0 : 1 / bound;
    return difference / bound;
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

  /// max |X(i, j) − R(i, j)| over the lower triangle (diagonal included) relative to
  /// R's largest entry there: how far a computed triangular factor or inverse @p x is
  /// from a reference @p reference of the same size. NaN when any compared entry of X
  /// is NaN; whatever lies above the diagonal is not read.
  template <typename A, typename B>
  double lower_triangle_difference(const Matrix<A> &x, const Matrix<B> &reference)
  {
    double worst = 0, largest = 0;
    for (int i = 0; i < reference.rows(); ++i)
      for (int j = 0; j <= i; ++j)
        {
          worst = nan_max(worst, std::abs(double(x(i, j)) - double(reference(i, j))));
          largest = nan_max(largest, std::abs(double(reference(i, j))));
        }
    return worst / largest;
  }
} // namespace lab
