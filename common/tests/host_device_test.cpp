// Tests of lab/host_device.h: for the host compiler, LAB_HOST_DEVICE is nothing.
#include <lab/host_device.h>
#include <lab_catch.h>

#include <string>

#define LAB_TEST_STRINGIFY_(x) #x
#define LAB_TEST_STRINGIFY(x) LAB_TEST_STRINGIFY_(x)

namespace
{
  LAB_HOST_DEVICE int twice(int x) { return 2 * x; }
} // namespace

TEST_CASE("host_device: LAB_HOST_DEVICE expands to nothing in host code")
{
  CHECK(std::string(LAB_TEST_STRINGIFY(LAB_HOST_DEVICE)).empty());
  CHECK(twice(21) == 42);
}
