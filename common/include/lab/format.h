#pragma once
/// @file
/// @brief Small text helpers for console output and table headers.

#include <cstddef>
#include <string>
#include <vector>

namespace lab
{
  /// A byte count for people: "512 B", "1.5 KiB", "12.0 GiB" (exact byte count in
  /// parentheses from 1 KiB on: "12.0 GiB (12884901888 bytes)").
  std::string format_bytes(std::size_t bytes);

  /// @p value printed with the printf format @p format (one double), or "-" when it
  /// is NaN: a measurement that was not taken, such as a GPU time without a GPU.
  std::string format_or_dash(double value, const char *format);

  /// A time in milliseconds for a console column: four significant digits below one
  /// second ("0.0123", "45.67"), whole milliseconds above ("12345"), "-" for NaN.
  std::string format_milliseconds(double ms);

  /// Joins integers with a separator: {256, 512} -> "256 512".
  std::string join(const std::vector<int> &values, const std::string &separator = " ");
} // namespace lab
