// Tests of lab/random.h: the same numbers from the same seed, with the right statistics.
#include <lab/random.h>
#include <lab_catch.h>

#include <cmath>

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
  const int count = 200000;
  double sum = 0, low = 1, high = 0;
  for (int i = 0; i < count; ++i)
    {
      const double x = random.uniform();
      sum += x;
      low = std::min(low, x);
      high = std::max(high, x);
      const double y = random.uniform(-3, 5);
      CHECK((y >= -3 && y < 5));
    }
  CHECK(low >= 0);
  CHECK(high < 1);
  CHECK(std::abs(sum / count - 0.5) < 0.005);
}

TEST_CASE("random: normal numbers have mean 0 and standard deviation 1")
{
  lab::Random random(11);
  const int count = 200000;
  double sum = 0, squares = 0, beyond_two = 0;
  for (int i = 0; i < count; ++i)
    {
      const double x = random.normal();
      REQUIRE(std::isfinite(x));
      sum += x;
      squares += x * x;
      beyond_two += std::abs(x) > 2;
    }
  const double mean = sum / count;
  CHECK(std::abs(mean) < 0.01);
  CHECK(std::abs(std::sqrt(squares / count - mean * mean) - 1) < 0.01);
  CHECK(std::abs(beyond_two / count - 0.0455) < 0.003); // the normal's tails, not a uniform's
}
