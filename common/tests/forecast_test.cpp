// Tests of lab/forecast.h: the time forecast of a sweep.
#include <lab/forecast.h>
#include <lab_catch.h>

#include "test_support.h"

using lab_test::close;

TEST_CASE("forecast: no forecast from sizes that fixed costs dominate")
{
  // What step-4 saw with --sizes 1,2,15: 30 ms of fixed cost at n = 1 and 2. A cubic
  // extrapolation from n = 2 predicted 17 s for n = 15; the whole run took 7 s.
  lab::TimeForecast forecast;
  CHECK_FALSE(forecast.expected_seconds(15));
  forecast.record(1, 0.030);
  forecast.record(2, 0.035);
  CHECK_FALSE(forecast.expected_seconds(15));
  CHECK_FALSE(forecast.expected_seconds(100000));
}

TEST_CASE("forecast: a size that took a second or more is extrapolated as n^3")
{
  lab::TimeForecast forecast;
  forecast.record(1024, 2.0);
  CHECK(close(*forecast.expected_seconds(2048), 16.0, 1e-12));
  CHECK(close(*forecast.expected_seconds(512), 0.25, 1e-12));
}

TEST_CASE("forecast: the fixed cost of the smallest size is not multiplied by n^3")
{
  // t(n) = 0.5 + 1e-9 n^3: 0.5 s at n = 10, 1.5 s at n = 1000, 8.5 s at n = 2000.
  lab::TimeForecast forecast;
  forecast.record(10, 0.5 + 1e-6);
  forecast.record(1000, 1.5);
  CHECK(close(*forecast.expected_seconds(2000), 8.5, 1e-4));
  // The latest trusted size is the base: a later fast size does not replace it.
  forecast.record(20, 0.5);
  CHECK(close(*forecast.expected_seconds(2000), 8.5, 1e-4));
}

TEST_CASE("forecast: only forecasts beyond ten seconds are announced")
{
  lab::TimeForecast forecast;
  forecast.record(1000, 2.0);
  CHECK(forecast.announcement(1500) == ""); // 6.75 s
  CHECK(forecast.announcement(2000) == "(n = 2000 is expected to take about 16 s)");
  CHECK(lab::TimeForecast().announcement(2000) == "");
}
