#pragma once
// What step-5's tests share: PSFs written out by hand, and small checks.
#include "psf.h"

#include <lab/program.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace step5_test
{
  using step5::Psf;

  // A PSF from its rows (row 0 on top), as a PSF file would give it.
  inline Psf psf_of(const std::vector<std::vector<double>> &rows, const std::string &name)
  {
    Psf psf{lab::Matrix<double>(int(rows.size()), int(rows[0].size())), name};
    for (int u = 0; u < psf.rows(); ++u)
      for (int v = 0; v < psf.cols(); ++v)
        psf.taps(u, v) = rows[u][v];
    return psf;
  }

  // Odd, even and non-square shapes, none symmetric, so that a flipped or shifted
  // weight shows up.
  inline std::vector<Psf> shape_test_psfs()
  {
    return {psf_of({{1.0}}, "1x1"),
            psf_of({{0.1, 0.2}, {0.3, 0.4}}, "2x2"),
            psf_of({{0.0, 0.1, 0.05}, {0.2, 0.3, 0.1}, {0.05, 0.15, 0.05}}, "3x3"),
            psf_of({{0.1, 0.2, 0.3, 0.05, 0.02}, {0.03, 0.1, 0.05, 0.1, 0.05}}, "2x5"),
            psf_of({{0.1, 0.2, 0.0}, {0.05, 0.3, 0.1}, {0.02, 0.04, 0.06}, {0.03, 0.05, 0.05}}, "4x3"),
            psf_of({{0.01, 0.02, 0.03, 0.04, 0.05},
                    {0.06, 0.07, 0.08, 0.09, 0.10},
                    {0.11, 0.12, 0.13, 0.14, 0.15},
                    {0.16, 0.17, 0.18, 0.19, 0.20},
                    {0.21, 0.22, 0.23, 0.24, 0.25}},
                   "5x5")};
  }

  // |a − b| ≤ relative · max(|a|, |b|).
  inline bool nearly_equal(double a, double b, double relative)
  {
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
  }

  inline bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

  // The message of the lab::bad_input that @p f throws, or "<no exception>".
  template <typename F>
  std::string refusal_of(F &&f)
  {
    try
      {
        f();
      }
    catch (const lab::bad_input &refusal)
      {
        return refusal.what();
      }
    return "<no exception>";
  }
} // namespace step5_test
