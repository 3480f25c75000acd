// GPU tests of lab/timer.h: CUDA events.
#include <lab/cuda_check.h>
#include <lab/device_buffer.h>
#include <lab/timer.h>
#include <lab_catch.h>

#include <vector>

TEST_CASE("timer_gpu: EventTimer measures a 256 MiB cudaMemset")
{
  const std::size_t bytes = std::size_t(256) << 20;
  lab::DeviceBuffer<char> buffer(bytes);
  LAB_CHECK(cudaMemset(buffer.data(), 0, bytes)); // warm-up
  lab::EventTimer timer;
  timer.start();
  LAB_CHECK(cudaMemset(buffer.data(), 1, bytes));
  timer.stop();
  const double ms = timer.milliseconds();
  CHECK(ms > 0.0);
  CHECK(ms < 1000.0); // 256 MiB at even 1 GB/s is 0.27 s

  // The memset really ran: a byte from the end reads 1.
  char last = 0;
  LAB_CHECK(cudaMemcpy(&last, buffer.data() + bytes - 1, 1, cudaMemcpyDeviceToHost));
  CHECK(last == 1);
}

TEST_CASE("timer_gpu: milliseconds_between ordered events is not negative")
{
  lab::CudaEvent first, second, third;
  first.record();
  second.record();
  lab::DeviceBuffer<float> buffer(std::size_t(1) << 24);
  LAB_CHECK(cudaMemset(buffer.data(), 0, buffer.bytes()));
  third.record();
  const double a = lab::milliseconds_between(first, second);
  const double b = lab::milliseconds_between(second, third);
  const double ab = lab::milliseconds_between(first, third);
  CHECK(a >= 0.0);
  CHECK(b >= 0.0);
  CHECK(ab >= b);
  CHECK(first.get() != nullptr);
  CHECK(first.get() != second.get());
}

TEST_CASE("timer_gpu: repeat with an EventTimer gives reps positive times")
{
  lab::DeviceBuffer<char> buffer(std::size_t(64) << 20);
  lab::EventTimer timer;
  const std::vector<double> times = lab::repeat(5, [&] {
    timer.start();
    LAB_CHECK(cudaMemset(buffer.data(), 0, buffer.bytes()));
    timer.stop();
    return timer.milliseconds();
  });
  REQUIRE(times.size() == 5u);
  for (double t : times)
    CHECK(t > 0.0);
  CHECK(lab::median(times) > 0.0);
}

TEST_CASE("timer_gpu: median_gpu_milliseconds runs warm-up plus reps, prepare before each, untimed")
{
  const std::size_t bytes = std::size_t(64) << 20;
  lab::DeviceBuffer<char> buffer(bytes);
  int prepared = 0, worked = 0;
  const double ms = lab::median_gpu_milliseconds(
    4,
    [&] {
      ++worked;
      LAB_CHECK(cudaMemset(buffer.data(), 1, bytes));
    },
    [&] {
      CHECK(prepared == worked);
      ++prepared;
    });
  // The warm-up repeats the work for lab::warm_up_milliseconds: many runs of a 64 MB
  // memset, then the 4 timed ones.
  CHECK(worked > 5);
  CHECK(prepared == worked);
  CHECK(ms > 0.0);
  CHECK(ms < 1000.0);
  // Without prepare it still times the work.
  CHECK(lab::median_gpu_milliseconds(2, [&] { LAB_CHECK(cudaMemset(buffer.data(), 2, bytes)); }) > 0.0);
}

TEST_CASE("timer_gpu: median_gpu_milliseconds_alternately runs the two in turn, work last")
{
  const std::size_t bytes = std::size_t(64) << 20;
  lab::DeviceBuffer<char> buffer(bytes);
  // The yardstick sets the buffer once, the work four times over: the work must come out
  // about four times slower, a relative speed near 0.25 (between 0.15 and 0.4 leaves
  // room for launch overheads, and excludes both 1 and the inverse, 4).
  std::vector<char> order;
  int prepared = 0;
  const lab::AlternateTimes times = lab::median_gpu_milliseconds_alternately(
    5,
    [&] {
      order.push_back('y');
      LAB_CHECK(cudaMemset(buffer.data(), 1, bytes));
    },
    [&] {
      order.push_back('w');
      for (int i = 0; i < 4; ++i)
        LAB_CHECK(cudaMemset(buffer.data(), 2, bytes));
    },
    [&] { ++prepared; });
  REQUIRE(order.size() >= 12u); // a warm-up of pairs, then 5 pairs
  CHECK(order.size() % 2 == 0);
  for (std::size_t i = 0; i < order.size(); ++i)
    CHECK(order[i] == (i % 2 == 0 ? 'y' : 'w'));
  CHECK(prepared == int(order.size()));
  CHECK(times.yardstick_ms > 0.0);
  CHECK(times.work_ms > 2 * times.yardstick_ms);
  CHECK(times.relative_speed > 0.15);
  CHECK(times.relative_speed < 0.4);
  // The work ran last: the buffer holds its value.
  char last = 0;
  LAB_CHECK(cudaMemcpy(&last, buffer.data() + bytes - 1, 1, cudaMemcpyDeviceToHost));
  CHECK(last == 2);
}
