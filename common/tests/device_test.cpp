// Tests of lab/device.h that run on any machine, with or without a GPU.
#include <lab/device.h>
#include <lab_catch.h>

#include "test_support.h"

#include <cstdlib>
#include <stdexcept>
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

namespace
{
  // Sets LAB_REQUIRE_GPU for the lifetime of the object and puts back what was there.
  class RequireGpu
  {
  public:
    explicit RequireGpu(const char *value)
    {
      const char *old = std::getenv("LAB_REQUIRE_GPU");
      had_ = old != nullptr;
      if (had_)
        old_ = old;
      if (value)
        setenv("LAB_REQUIRE_GPU", value, 1);
      else
        unsetenv("LAB_REQUIRE_GPU");
    }
    ~RequireGpu()
    {
      if (had_)
        setenv("LAB_REQUIRE_GPU", old_.c_str(), 1);
      else
        unsetenv("LAB_REQUIRE_GPU");
    }
    RequireGpu(const RequireGpu &) = delete;
    RequireGpu &operator=(const RequireGpu &) = delete;

  private:
    bool had_ = false;
    std::string old_;
  };
} // namespace

TEST_CASE("device: LAB_REQUIRE_GPU=1, and only 1, requires a GPU")
{
  {
    RequireGpu unset(nullptr);
    CHECK_FALSE(lab::gpu_required());
  }
  {
    RequireGpu zero("0");
    CHECK_FALSE(lab::gpu_required());
  }
  RequireGpu one("1");
  CHECK(lab::gpu_required());
  // --cpu-only is the user's explicit choice and stays allowed.
  CHECK_FALSE(lab::select_device(true).present);
}

// The fault: a GPU machine whose device cannot be used (a driver problem) ran every GPU
// part as "skipped" and exited 0. With LAB_REQUIRE_GPU=1 a missing device is an error
// that names the variable; with a device, nothing changes.
TEST_CASE("planted: a missing device under LAB_REQUIRE_GPU=1 is an error, not a skip")
{
  RequireGpu one("1");
  if (lab::query_device().present)
    CHECK(lab::select_device(false).present);
  else
    {
      std::string message;
      try
        {
          lab::select_device(false);
        }
      catch (const std::runtime_error &error)
        {
          message = error.what();
        }
      CHECK(contains(message, "LAB_REQUIRE_GPU=1"));
    }
}
