// Tests of lab/format.h: byte counts for people and joined integers.
#include <lab/format.h>
#include <lab_catch.h>

#include <cmath>
#include <cstddef>
#include <string>

TEST_CASE("format: format_bytes below 1 KiB is an exact count of bytes")
{
  CHECK(lab::format_bytes(0) == "0 B");
  CHECK(lab::format_bytes(1) == "1 B");
  CHECK(lab::format_bytes(512) == "512 B");
  CHECK(lab::format_bytes(1023) == "1023 B");
}

TEST_CASE("format: format_bytes picks the unit and adds the exact count")
{
  const std::size_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024, TiB = GiB * 1024;
  CHECK(lab::format_bytes(KiB) == "1.0 KiB (1024 bytes)");
  CHECK(lab::format_bytes(1536) == "1.5 KiB (1536 bytes)");
  CHECK(lab::format_bytes(MiB) == "1.0 MiB (1048576 bytes)");
  CHECK(lab::format_bytes(256 * MiB) == "256.0 MiB (268435456 bytes)");
  CHECK(lab::format_bytes(12 * GiB) == "12.0 GiB (12884901888 bytes)");
  CHECK(lab::format_bytes(GiB + GiB / 2) == "1.5 GiB (1610612736 bytes)");
  CHECK(lab::format_bytes(3 * TiB) == "3.0 TiB (3298534883328 bytes)");
  // TiB is the largest unit.
  CHECK(lab::format_bytes(std::size_t(1) << 50) == "1024.0 TiB (1125899906842624 bytes)");
}

// A value just under the next unit rounds up into that unit: "1.0 MiB", never
// "1024.0 KiB".
TEST_CASE("format: format_bytes never prints 1024.0 of a unit below TiB")
{
  CHECK(lab::format_bytes(1048575) == "1.0 MiB (1048575 bytes)");
  CHECK(lab::format_bytes((std::size_t(1) << 30) - 1) == "1.0 GiB (1073741823 bytes)");
}

TEST_CASE("format: join")
{
  CHECK(lab::join({}) == "");
  CHECK(lab::join({256}) == "256");
  CHECK(lab::join({256, 512}) == "256 512");
  CHECK(lab::join({1, 2, 3}, ",") == "1,2,3");
  CHECK(lab::join({-4, 0, 17}, ", ") == "-4, 0, 17");
  CHECK(lab::join({5, 6}, "") == "56");
}

TEST_CASE("format: format_or_dash and format_milliseconds")
{
  CHECK(lab::format_or_dash(3.14159, "%.2f") == "3.14");
  CHECK(lab::format_or_dash(std::nan(""), "%.2f") == "-");
  CHECK(lab::format_milliseconds(0.0123456) == "0.01235");
  CHECK(lab::format_milliseconds(45.678) == "45.68");
  CHECK(lab::format_milliseconds(12345.6) == "12346");
  CHECK(lab::format_milliseconds(std::nan("")) == "-");
}
