// Tests of lab/random.h: the same numbers from the same seed, with the right statistics.
#include <lab/compare.h>
#include <lab/random.h>
#include <lab_catch.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace
{
  // The mean, the standard deviation, the extremes, and the fraction beyond ±2 of
  // `count` numbers drawn by @p draw.
  struct Moments
  {
    double mean, deviation, low, high, beyond_two;
  };

  Moments moments(int count, const std::function<double()> &draw)
  {
    double sum = 0, squares = 0, low = HUGE_VAL, high = -HUGE_VAL, beyond = 0;
    for (int i = 0; i < count; ++i)
      {
        const double x = draw();
        sum += x;
        squares += x * x;
        low = -lab::nan_max(-low, -x);
        high = lab::nan_max(high, x);
        beyond += std::abs(x) > 2;
      }
    const double mean = sum / count;
    return {mean, std::sqrt(squares / count - mean * mean), low, high, beyond / count};
  }
} // namespace

TEST_CASE("random: a seed gives one sequence, another seed another")
{
  lab::Random a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i)
    {
      const double x = a.uniform(), y = b.uniform(), z = c.uniform();
      CHECK(x == y);
      differs = differs || x != z;
    }
  CHECK(differs);
}

TEST_CASE("random: uniform numbers lie in [low, high) and fill it evenly")
{
  lab::Random random(7);
  const Moments unit = moments(200000, [&] { return random.uniform(); });
  CHECK(unit.low >= 0);
  CHECK(unit.high < 1);
  CHECK(std::abs(unit.mean - 0.5) < 0.005);
  CHECK(std::abs(unit.deviation - std::sqrt(1.0 / 12)) < 0.005);
  const Moments wide = moments(100000, [&] { return random.uniform(-3, 5); });
  CHECK(wide.low >= -3);
  CHECK(wide.high < 5);
  CHECK(std::abs(wide.mean - 1) < 0.05);
}

TEST_CASE("random: normal numbers have mean 0 and standard deviation 1")
{
  lab::Random random(11);
  const Moments normal = moments(200000, [&] { return random.normal(); });
  CHECK(std::isfinite(normal.low));
  CHECK(std::isfinite(normal.high));
  CHECK(std::abs(normal.mean) < 0.01);
  CHECK(std::abs(normal.deviation - 1) < 0.01);
  CHECK(std::abs(normal.beyond_two - 0.0455) < 0.003); // the normal's tails, not a uniform's
}
