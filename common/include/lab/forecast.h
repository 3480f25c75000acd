#pragma once
/// @file
/// @brief "n = 8192 is expected to take about 40 s": a forecast that holds at every
/// size.
///
/// The work of the course's algorithms grows as n³, so the time of one size predicts
/// the next: doubling n multiplies the time by eight. But only where the n³ term
/// dominates. A small size spends its time on fixed costs (allocations, launches,
/// library start-up, the check), and multiplying those by (n/n_prev)³ predicts
/// seconds for work that takes milliseconds. The model here is
/// @f[ t(n) \approx t_0 + (t_p - t_0)\left(\frac{n}{n_p}\right)^3, @f]
/// extrapolated from the latest size p that took at least a second (below that the
/// fixed costs can dominate, and no forecast is made), where t_0, the fixed cost, is
/// estimated by the time of the smallest size measured before it.

#include <optional>
#include <string>
#include <vector>

namespace lab
{
  /// Collects the time of each size as a sweep runs and forecasts the next.
  class TimeForecast
  {
  public:
    /// Sizes that take at least this long are dominated by their n³ term.
    static constexpr double trusted_seconds = 1.0;
    /// A forecast longer than this is announced before the size starts.
    static constexpr double announce_seconds = 10.0;

    /// Records that size @p n took @p seconds.
    void record(int n, double seconds);

    /// The expected time of size @p n in seconds, or nothing when no measured size
    /// took long enough to extrapolate from.
    std::optional<double> expected_seconds(int n) const;

    /// "(n = N is expected to take about S s)" when the forecast for @p n exceeds
    /// announce_seconds, else an empty string.
    std::string announcement(int n) const;

    /// Prints the announcement, if any, on its own line: a long size says so before
    /// the sweep goes quiet.
    void announce(int n) const;

  private:
    struct Point
    {
      int n;
      double seconds;
    };
    std::vector<Point> points_;
  };
} // namespace lab
