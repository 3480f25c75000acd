// GPU tests of lab/device_buffer.h: device memory that frees itself.
#include <lab/device_buffer.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include "test_support.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

using lab_test::contains;

TEST_CASE("device_buffer: a matrix with ld > cols survives the round trip, padding included")
{
  const int rows = GENERATE(1, 2, 17, 100);
  INFO("rows " << rows);
  lab::Matrix<double> m(rows, 3, 8);
  for (std::size_t i = 0; i < m.size(); ++i)
    m.data()[i] = 0.5 * double(i) - 7.25;
  lab::DeviceBuffer<double> buffer(m);
  CHECK(buffer.count() == m.size());
  CHECK(buffer.bytes() == m.size() * sizeof(double));
  CHECK(buffer.data() != nullptr);

  lab::Matrix<double> back(rows, 3, 8);
  buffer.download(back);
  int wrong = 0;
  for (std::size_t i = 0; i < m.size(); ++i)
    wrong += back.data()[i] != m.data()[i];
  CHECK(wrong == 0);

  // Float too, through upload() into a buffer of the right count.
  const lab::Matrix<float> f = lab::random_matrix<float>(rows, 5, 3);
  lab::DeviceBuffer<float> fb(f.size());
  fb.upload(f);
  lab::Matrix<float> fback(rows, 5);
  fb.download(fback);
  wrong = 0;
  for (std::size_t i = 0; i < f.size(); ++i)
    wrong += fback.data()[i] != f.data()[i];
  CHECK(wrong == 0);
}

TEST_CASE("device_buffer: partial copies")
{
  const std::vector<int> source = {1, 2, 3, 4, 5, 6};
  lab::DeviceBuffer<int> buffer(6);
  buffer.poison();
  buffer.copy_from_host(source.data(), 3);
  std::vector<int> back(6, 0);
  buffer.copy_to_host(back.data(), 6);
  CHECK(back == std::vector<int>{1, 2, 3, -1, -1, -1});
  std::vector<int> two(2, 0);
  buffer.copy_to_host(two.data(), 2);
  CHECK(two == std::vector<int>{1, 2});
}

TEST_CASE("device_buffer: poison() makes every float and double NaN")
{
  const int n = GENERATE(1, 2, 17, 1000);
  INFO("n " << n);
  const lab::Matrix<double> d = lab::random_matrix<double>(n, 7, 1);
  lab::DeviceBuffer<double> db(d);
  db.poison();
  lab::Matrix<double> dback(n, 7);
  db.download(dback);
  int not_nan = 0;
  for (std::size_t i = 0; i < dback.size(); ++i)
    not_nan += !std::isnan(dback.data()[i]);
  CHECK(not_nan == 0);

  const lab::Matrix<float> f = lab::random_matrix<float>(n, 7, 1);
  lab::DeviceBuffer<float> fb(f);
  fb.poison();
  lab::Matrix<float> fback = f;
  fb.download(fback);
  not_nan = 0;
  for (std::size_t i = 0; i < fback.size(); ++i)
    not_nan += !std::isnan(fback.data()[i]);
  CHECK(not_nan == 0);
}

TEST_CASE("device_buffer: copying more elements than allocated throws std::out_of_range")
{
  lab::DeviceBuffer<float> buffer(10);
  std::vector<float> host(11, 1.0f);
  CHECK_THROWS_AS(buffer.copy_from_host(host.data(), 11), std::out_of_range);
  CHECK_THROWS_AS(buffer.copy_to_host(host.data(), 11), std::out_of_range);
  CHECK_NOTHROW(buffer.copy_from_host(host.data(), 10));
  lab::Matrix<float> big(3, 4); // 12 elements
  CHECK_THROWS_AS(buffer.upload(big), std::out_of_range);
  CHECK_THROWS_AS(buffer.download(big), std::out_of_range);
}

TEST_CASE("device_buffer: moving hands the memory over and leaves the source empty")
{
  std::vector<double> values = {1.5, -2.5, 3.25};
  lab::DeviceBuffer<double> a(3);
  a.copy_from_host(values.data(), 3);
  const double *pointer = a.data();

  lab::DeviceBuffer<double> b(std::move(a));
  CHECK(b.data() == pointer);
  CHECK(b.count() == 3u);
  CHECK(a.data() == nullptr);
  CHECK(a.count() == 0u);
  CHECK(a.bytes() == 0u);
  std::vector<double> back(3, 0.0);
  b.copy_to_host(back.data(), 3);
  CHECK(back == values);

  // Move assignment into an empty buffer.
  lab::DeviceBuffer<double> c(0);
  c = std::move(b);
  CHECK(c.data() == pointer);
  CHECK(c.count() == 3u);
  CHECK(b.data() == nullptr);
  CHECK(b.count() == 0u);
  std::fill(back.begin(), back.end(), 0.0);
  c.copy_to_host(back.data(), 3);
  CHECK(back == values);
}

// Move assignment frees the target's old memory and empties the source.
TEST_CASE("device_buffer: move assignment into a full buffer leaves the source empty")
{
  lab::DeviceBuffer<float> a(16), b(32);
  const float *pointer = a.data();
  b = std::move(a);
  CHECK(b.data() == pointer);
  CHECK(b.count() == 16u);
  CHECK(a.data() == nullptr);
  CHECK(a.count() == 0u);
}

// This test makes cudaMalloc fail on purpose; compute-sanitizer reports every failed
// API call, so tools/gpu-node leaves the tag [provokes-api-error] out of its runs.
TEST_CASE("device_buffer: too large an allocation says what was needed and what is free",
          "[provokes-api-error]")
{
  const std::size_t bytes = std::size_t(1) << 50; // 1 PiB
  const std::string message = lab_test::message_of<lab::cuda_error>(
    [&] { lab::DeviceBuffer<char> huge(bytes); });
  INFO(message);
  CHECK(contains(message, "1125899906842624 bytes"));
  CHECK(contains(message, "free of"));
  CHECK(contains(message, "bytes"));
  CHECK(contains(message, "out of device memory"));

  // The error was cleared: further CUDA calls work.
  CHECK(cudaGetLastError() == cudaSuccess);
  std::vector<float> values = {1, 2, 3, 4};
  lab::DeviceBuffer<float> small(4);
  small.copy_from_host(values.data(), 4);
  std::vector<float> back(4, 0.0f);
  small.copy_to_host(back.data(), 4);
  CHECK(back == values);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
}

TEST_CASE("device_buffer: copy_from_device copies within the GPU, and refuses a larger source")
{
  const std::vector<float> values = {1.5f, -2.0f, 3.25f, 4.0f};
  lab::DeviceBuffer<float> source(values.size()), target(values.size() + 2);
  source.copy_from_host(values.data(), values.size());
  target.poison();
  target.copy_from_device(source);
  std::vector<float> back(values.size() + 2);
  target.copy_to_host(back.data(), back.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    CHECK(back[i] == values[i]);
  CHECK(std::isnan(back[values.size()]));
  lab::DeviceBuffer<float> small(2);
  CHECK_THROWS_AS(small.copy_from_device(source), std::out_of_range);
}
