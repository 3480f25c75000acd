#include <lab/forecast.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lab
{
  void TimeForecast::record(int n, double seconds) { points_.push_back({n, seconds}); }

  std::optional<double> TimeForecast::expected_seconds(int n) const
  {
    // The base: the latest size whose time the n³ term dominates.
    const auto base = std::find_if(points_.rbegin(), points_.rend(), [](const Point &p) {
      return p.seconds >= trusted_seconds;
    });
    if (base == points_.rend())
      return std::nullopt;
    // The fixed cost: the fastest smaller size, an upper bound of it (every time
    // includes it); zero when no smaller size was measured.
    double fixed = 0;
    bool have_smaller = false;
    for (const Point &p : points_)
      if (p.n < base->n)
        {
          fixed = have_smaller ? std::min(fixed, p.seconds) : p.seconds;
          have_smaller = true;
        }
    fixed = std::min(fixed, base->seconds);
    return fixed + (base->seconds - fixed) * std::pow(double(n) / base->n, 3);
  }

  std::string TimeForecast::announcement(int n) const
  {
    const std::optional<double> expected = expected_seconds(n);
    if (!expected || *expected <= announce_seconds)
      return "";
    char text[96];
    std::snprintf(text, sizeof text, "(n = %d is expected to take about %.0f s)", n, *expected);
    return text;
  }

  void TimeForecast::announce(int n) const
  {
    const std::string text = announcement(n);
    if (!text.empty())
      {
        std::printf("        %s\n", text.c_str());
        std::fflush(stdout);
      }
  }
} // namespace lab
