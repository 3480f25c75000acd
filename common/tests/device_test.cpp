// Tests of lab/device.h that run on any machine, with or without a GPU.
#include <lab/device.h>
#include <lab_catch.h>

#include "test_support.h"

#include <string>

using lab_test::contains;
using lab_test::starts_with;

TEST_CASE("device: describe")
{
  lab::DeviceInfo absent;
  absent.why_not = "CUDA driver version is insufficient for CUDA runtime version";
  const std::string text = lab::describe(absent);
  CHECK(starts_with(text, "no CUDA device"));
  CHECK(contains(text, absent.why_not));

  lab::DeviceInfo h100;
  h100.present = true;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.major = 9;
  h100.minor = 0;
  h100.multiprocessors = 132;
  h100.total_memory = std::size_t(80) << 30;
  CHECK(lab::describe(h100) ==
        "NVIDIA H100 80GB HBM3, compute capability 9.0, 132 SMs, 80.0 GiB");
}

TEST_CASE("device: query_device never throws and says why when there is no device")
{
  lab::DeviceInfo device;
  CHECK_NOTHROW(device = lab::query_device());
  INFO(lab::describe(device));
  CHECK((device.present || !device.why_not.empty()));
  if (device.present)
    {
      CHECK_FALSE(device.name.empty());
      CHECK(device.major > 0);
      CHECK(device.total_memory > 0);
      CHECK(device.free_memory <= device.total_memory);
    }
  else
    {
      CHECK(starts_with(lab::describe(device), "no CUDA device ("));
    }
  // Asking again gives the same answer: no error was left behind.
  lab::DeviceInfo again;
  CHECK_NOTHROW(again = lab::query_device());
  CHECK(again.present == device.present);
  CHECK(again.why_not == device.why_not);
}

TEST_CASE("device: select_device with --cpu-only uses no device; otherwise it asks")
{
  CHECK_FALSE(lab::select_device(true).present);
  CHECK(lab::select_device(false).present == lab::query_device().present);
}
