// GPU tests of lab/device.h: what the runtime says about a present device.
#include <lab/device.h>
#include <lab_catch.h>

#include "test_support.h"


TEST_CASE("device_gpu: the device is present and described")
{
  const lab::DeviceInfo device = lab::query_device();
  INFO(lab::describe(device));
  REQUIRE(device.present);
  CHECK(device.why_not.empty());
  CHECK_FALSE(device.name.empty());
  CHECK(device.major >= 5);
  CHECK(device.minor >= 0);
  CHECK(device.multiprocessors > 0);
  CHECK(device.total_memory > 0);
  CHECK(device.free_memory > 0);
  CHECK(device.free_memory <= device.total_memory);

  const std::string text = lab::describe(device);
  CHECK(lab_test::starts_with(text, device.name + ", compute capability " +
                                      std::to_string(device.major) + "." +
                                      std::to_string(device.minor)));
}
