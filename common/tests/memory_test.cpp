// Tests of lab/memory.h: what a size needs, what the machine has, and the refusal.
#include <lab/memory.h>
#include <lab/program.h>
#include <lab_catch.h>

#include "test_support.h"

using lab_test::contains;
using lab_test::message_of;

TEST_CASE("memory: matrix_bytes counts rows x cols x sizeof(T), without overflow")
{
  CHECK(lab::matrix_bytes<float>(1000, 1000) == 4e6);
  CHECK(lab::matrix_bytes<double>(3, 5) == 120);
  CHECK(lab::matrix_bytes<float>(0, 5) == 0);
  // 999,999,999 is the largest size the command line accepts: 8e18 bytes, and
  // three such matrices would overflow a 64-bit integer, not a double.
  CHECK(3 * lab::matrix_bytes<double>(999999999, 999999999) > 2.3e19);
}

TEST_CASE("memory: require_fits passes what fits and names what does not")
{
  const lab::Memory available{1000, 500};
  CHECK_NOTHROW(lab::require_fits("n = 1", {1000, 500}, available));
  CHECK_NOTHROW(lab::require_fits("n = 1", {0, 0}, available));

  const std::string host = message_of<lab::bad_input>(
    [&] { lab::require_fits("n = 200000 (float)", {1001, 0}, available); });
  INFO(host);
  CHECK(contains(host, "n = 200000 (float) needs 1001 B of host memory"));
  CHECK(contains(host, "only 1000 B are available"));

  const std::string device = message_of<lab::bad_input>(
    [&] { lab::require_fits("n = 7", {10, 501}, available); });
  INFO(device);
  CHECK(contains(device, "n = 7 needs 501 B of GPU memory"));
  CHECK(contains(device, "only 500 B are available"));

  // Beyond 2^63 bytes the count is still printed, in floating point.
  const std::string huge = message_of<lab::bad_input>(
    [&] { lab::require_fits("n = 1", {1e20, 0}, available); });
  CHECK(contains(huge, "needs 1e+20 bytes of host memory"));
}

TEST_CASE("memory: the machine's host memory is read; no GPU means none there")
{
  const lab::Memory available = lab::available_memory(false);
  CHECK(available.host_bytes > 1e6);
  CHECK(available.device_bytes == 0);
}

TEST_CASE("memory: a sweep with a size no machine has is refused before it runs, naming it")
{
  // Host need of a float matrix and a copy: 8n² bytes; 8e14 (800 TB) at n = 10^7.
  const auto need = [](int n) {
    return lab::Memory{2 * lab::matrix_bytes<float>(n, n), lab::matrix_bytes<float>(n, n)};
  };
  CHECK_NOTHROW(lab::refuse_sizes_that_do_not_fit({1, 2, 100}, need, "float", false));
  const std::string message = message_of<lab::bad_input>([&] {
    lab::refuse_sizes_that_do_not_fit({1, 10000000, 20000000}, need, "float", false);
  });
  INFO(message);
  CHECK(contains(message, "n = 10000000 (float) needs 727.6 TiB (800000000000000 bytes)"));
  CHECK(contains(message, "of host memory, but only"));
  CHECK(contains(message, "are available"));
}
