#pragma once
/// @file
/// @brief Random numbers from a seed that are the same on every machine.
///
/// The engine std::mt19937_64 is specified exactly by the C++ standard, but the
/// standard distributions are not: two libraries may turn the same bits into different
/// numbers. The course's test matrices and test images must be the same everywhere
/// (a failing check must be reproducible on another machine), so the bits are turned
/// into numbers here: the top 53 bits give a double uniform in [0, 1), and two of
/// those give a normally distributed number (the Box–Muller transform).

#include <cmath>
#include <cstdint>
#include <random>

namespace lab
{
  /// Uniform and normal random numbers from a seed, identical on every platform.
  class Random
  {
  public:
    /// Starts the sequence of @p seed.
    explicit Random(std::uint64_t seed) : engine_(seed) {}

    /// Uniform in [low, high).
    double uniform(double low = 0, double high = 1)
    {
      const double unit = (engine_() >> 11) * (1.0 / 9007199254740992.0);
      return low + (high - low) * unit;
    }

    /// Normal with mean 0 and standard deviation 1: for u1 in (0, 1] and u2 in
    /// [0, 1), sqrt(-2 ln u1) cos(2π u2) (Box–Muller; the second value it could give,
    /// with sin, is not kept, so that every call costs the same two numbers).
    double normal()
    {
      const double u1 = 1 - uniform(), u2 = uniform();
      return std::sqrt(-2 * std::log(u1)) * std::cos(2 * 3.14159265358979323846 * u2);
    }

  private:
    std::mt19937_64 engine_;
  };
} // namespace lab
