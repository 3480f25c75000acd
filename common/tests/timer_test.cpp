// Tests of lab/timer.h that need no GPU: the median, repeat() and the host timer.
#include <lab/timer.h>
#include <lab_catch.h>

#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

TEST_CASE("timer: median")
{
  CHECK(lab::median({7.0}) == 7.0);
  CHECK(lab::median({3.0, 1.0, 2.0}) == 2.0);
  CHECK(lab::median({5, 9, 1, 7, 3}) == 5.0);
  CHECK(lab::median({9, 8, 7, 6, 5, 4, 3}) == 6.0);
  // An even count: the mean of the middle two.
  CHECK(lab::median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK(lab::median({10, 0}) == 5.0);
  CHECK(lab::median({1, 100, 2, 200, 3, 300}) == 51.5);
  // An outlier cannot drag it.
  CHECK(lab::median({1.0, 1.1, 1.2, 1e9, 0.9}) == 1.1);
  // Repeated values and negative values.
  CHECK(lab::median({2, 2, 1, 2}) == 2.0);
  CHECK(lab::median({-3, -1, -2}) == -2.0);
  // No samples: NaN. A NaN sample has no place in an ordering: NaN too.
  CHECK(std::isnan(lab::median(std::vector<double>{})));
  CHECK(std::isnan(lab::median({1.0, std::nan(""), 3.0})));
}

TEST_CASE("timer: median of a member")
{
  struct Times
  {
    double kernel_ms;
    double total_ms;
  };
  const std::vector<Times> runs = {{3, 30}, {1, 50}, {2, 10}, {5, 40}};
  CHECK(lab::median(runs, &Times::kernel_ms) == 2.5);
  CHECK(lab::median(runs, &Times::total_ms) == 35.0);
  CHECK(std::isnan(lab::median(std::vector<Times>{}, &Times::kernel_ms)));
}

TEST_CASE("timer: median_ratio is the median of the ratios, not the ratio of the medians")
{
  struct Pair
  {
    double yardstick_ms, work_ms;
  };
  // Five pairs, each timed at its own clock: in every pair but one the work takes 1.25
  // times the yardstick's time (80% of its speed), and the clock moves the times by 4x.
  const std::vector<Pair> pairs = {{1.0, 1.25}, {4.0, 5.0}, {2.0, 2.5}, {3.0, 2.0}, {0.5, 0.625}};
  CHECK(lab::median_ratio(pairs, &Pair::yardstick_ms, &Pair::work_ms) == 0.8);
  // The ratio of the medians is another number (2.0 / 2.0): the two differ here, so the
  // check above can tell them apart.
  CHECK(lab::median(pairs, &Pair::yardstick_ms) / lab::median(pairs, &Pair::work_ms) != 0.8);
  // The odd pair did not drag the median of the ratios. A NaN time gives NaN; no pairs,
  // NaN.
  const std::vector<Pair> with_nan = {{1.0, 1.25}, {1.0, std::nan("")}, {2.0, 2.5}};
  CHECK(std::isnan(lab::median_ratio(with_nan, &Pair::yardstick_ms, &Pair::work_ms)));
  CHECK(std::isnan(lab::median_ratio(std::vector<Pair>{}, &Pair::yardstick_ms, &Pair::work_ms)));
}

TEST_CASE("timer: repeat warms up for at least warm_up_milliseconds, then runs reps times")
{
  const int reps = GENERATE(0, 1, 5);
  INFO("reps " << reps);
  // Calls of 10 ms, each noting when it started: the warm-up must go on until
  // warm_up_milliseconds have passed, and stop at the first call that ends after that.
  const lab::HostTimer clock;
  std::vector<double> started;
  const std::vector<double> samples = lab::repeat(reps, [&] {
    started.push_back(clock.milliseconds());
    const lab::HostTimer call;
    while (call.milliseconds() < 10)
      ;
    return double(started.size());
  });
  const int warm_up_calls = int(started.size()) - reps;
  REQUIRE(warm_up_calls >= 1);
  CHECK(started[warm_up_calls - 1] < lab::warm_up_milliseconds);
  if (reps > 0)
    CHECK(started[warm_up_calls] >= lab::warm_up_milliseconds);
  CHECK(clock.milliseconds() >= lab::warm_up_milliseconds + 10 * reps);
  REQUIRE(samples.size() == static_cast<std::size_t>(reps));
  // The warm-up's calls are dropped; the timed calls follow in order.
  for (int i = 0; i < reps; ++i)
    CHECK(samples[i] == double(warm_up_calls + i + 1));
}

TEST_CASE("timer: work longer than the warm-up is warmed up by one run")
{
  int calls = 0;
  const std::vector<double> samples = lab::repeat(2, [&] {
    const lab::HostTimer call;
    while (call.milliseconds() < lab::warm_up_milliseconds + 1)
      ;
    return double(++calls);
  });
  CHECK(calls == 3);
  CHECK(samples == std::vector<double>{2, 3});
}

TEST_CASE("timer: repeat returns structs of times")
{
  struct Times
  {
    double kernel_ms, total_ms;
  };
  int calls = 0;
  const std::vector<Times> runs = lab::repeat(3, [&] {
    ++calls;
    return Times{double(calls), 10.0 * calls};
  });
  REQUIRE(runs.size() == 3);
  const int warm_up_calls = calls - 3; // many: each call here takes no time
  CHECK(warm_up_calls >= 1);
  CHECK(runs[0].kernel_ms == double(warm_up_calls + 1));
  CHECK(runs[2].total_ms == 10.0 * (warm_up_calls + 3));
  CHECK(lab::median(runs, &Times::total_ms) == 10.0 * (warm_up_calls + 2));
}

TEST_CASE("timer: HostTimer measures a sleep")
{
  lab::HostTimer timer;
  timer.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double slept = timer.milliseconds();
  CHECK(slept >= 19.0);
  CHECK(slept < 10000.0);
  // start() restarts the clock.
  timer.start();
  const double again = timer.milliseconds();
  CHECK(again >= 0.0);
  CHECK(again < slept);
}
