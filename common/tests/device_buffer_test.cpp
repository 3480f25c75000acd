// Tests of lab/device_buffer.h that need no GPU (the rest is in gpu/).
#include <lab/device_buffer.h>
#include <lab_catch.h>

#include <cstdint>
#include <stdexcept>

TEST_CASE("device_buffer: a count whose byte size overflows is refused before allocating")
{
  // (2^61 + 1) doubles are 2^64 + 8 bytes, which wraps around to 8: without the check the
  // buffer would allocate 8 bytes and believe it holds 2^61 + 1 elements.
  const std::size_t count = (std::size_t(1) << 61) + 1;
  CHECK_THROWS_AS(lab::DeviceBuffer<double>(count), std::length_error);
}

TEST_CASE("device_buffer: an empty buffer needs no GPU")
{
  // On this machine there may be no GPU at all: an empty buffer must not ask for one.
  lab::DeviceBuffer<float> empty(0);
  CHECK(empty.data() == nullptr);
  CHECK(empty.count() == 0);
}
