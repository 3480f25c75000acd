// Estimating the noise's level from the image itself (see noise_estimate.h).
#include "model/noise_estimate.h"

#include <lab/program.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace step5
{
  namespace
  {
    // For Gaussian noise, median |d| = 0.6745 σ.
    constexpr double median_of_absolute_normal = 0.6744897501960817;

    bool clipped(double pixel) { return pixel <= 0 || pixel >= 1; }

    // The median of @p values (sorted here), read as grouped data where values repeat:
    // with m the middle value, `below` the samples under it and `at` those equal to
    // it, the bar of m runs from half a step below it to half a step above (the step
    // h: the distance to the nearest other value), and the median lies the fraction
    // (N/2 − below)/at of the way through it. Values that never repeat (an image in
    // double, never stored in a file) give the ordinary median. The bar of 0, for
    // absolute values, is [0, h/2): |d| = 0 stands for the d's between −h/2 and h/2.
    double grouped_median(std::vector<double> &values)
    {
      std::sort(values.begin(), values.end());
      const std::size_t count = values.size();
      const double middle = values[count / 2];
      const auto [first, last] = std::equal_range(values.begin(), values.end(), middle);
      const double below = static_cast<double>(first - values.begin());
      const double at = static_cast<double>(last - first);
      if (at < 2)
        return count % 2 == 1 ? middle : (values[count / 2 - 1] + middle) / 2;
      double step = std::numeric_limits<double>::infinity();
      if (first != values.begin())
        step = middle - *(first - 1);
      if (last != values.end())
        step = std::min(step, *last - middle);
      if (!std::isfinite(step))
        return middle; // every value the same
      const double fraction = (count / 2.0 - below) / at;
      return middle == 0 ? fraction * step / 2 : middle - step / 2 + fraction * step;
    }
  } // namespace

  // One pass over the pixels whose 3 × 3 neighbourhood lies in the image: d, the
  // gradient's size, and whether the neighbourhood holds a clipped pixel.
  namespace
  {
    struct Sample
    {
      double gradient;
      double d;
      bool clipped;
    };

    std::vector<Sample> samples_of(const lab::Matrix<double> &g)
    {
      const double second_difference[3] = {1, -2, 1}, smoothing[3] = {1, 2, 1}, difference[3] = {-1, 0, 1};
      std::vector<Sample> samples;
      samples.reserve(static_cast<std::size_t>(g.rows() - 2) * (g.cols() - 2));
      for (int r = 1; r + 1 < g.rows(); ++r)
        for (int c = 1; c + 1 < g.cols(); ++c)
          {
            Sample sample{0, 0, false};
            double along_rows = 0, along_cols = 0;
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j)
                {
                  const double pixel = g(r + i - 1, c + j - 1);
                  sample.d += second_difference[i] * second_difference[j] * pixel;
                  along_cols += smoothing[i] * difference[j] * pixel;
                  along_rows += difference[i] * smoothing[j] * pixel;
                  sample.clipped = sample.clipped || clipped(pixel);
                }
            sample.d = std::abs(sample.d) / 6;
            sample.gradient = std::hypot(along_rows, along_cols);
            samples.push_back(sample);
          }
      return samples;
    }
  } // namespace

  NoiseEstimate estimate_noise_level(const lab::Matrix<double> &degraded)
  {
    const int rows = degraded.rows(), cols = degraded.cols();
    if (rows < 3 || cols < 3)
      throw lab::bad_input("cannot estimate the noise of an image smaller than 3 x 3 pixels");
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        if (!std::isfinite(degraded(r, c)))
          throw lab::bad_input("cannot estimate the noise: the degraded image has a non-finite pixel at (" +
                               std::to_string(r) + ", " + std::to_string(c) + ")");
    std::vector<Sample> samples = samples_of(degraded);
    // Clipped neighbourhoods are left out while at least a tenth of them remain.
    const auto unclipped = std::count_if(samples.begin(), samples.end(), [](const Sample &s) { return !s.clipped; });
    const bool leave_out = unclipped * 10 >= static_cast<long>(samples.size()) &&
                           unclipped < static_cast<long>(samples.size());
    if (leave_out)
      samples.erase(std::remove_if(samples.begin(), samples.end(), [](const Sample &s) { return s.clipped; }),
                    samples.end());
    // The half with the smaller gradient.
    const std::size_t kept = std::max<std::size_t>(1, samples.size() / 2);
    std::nth_element(samples.begin(), samples.begin() + (kept - 1), samples.end(),
                     [](const Sample &a, const Sample &b) { return a.gradient < b.gradient; });
    std::vector<double> d(kept);
    for (std::size_t i = 0; i < kept; ++i)
      d[i] = samples[i].d;
    return {grouped_median(d) / median_of_absolute_normal, static_cast<long>(kept), leave_out};
  }
} // namespace step5
