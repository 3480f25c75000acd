#include <lab/format.h>

#include <cmath>
#include <cstdio>

namespace lab
{
  std::string format_bytes(std::size_t bytes)
  {
    if (bytes < 1024)
      return std::to_string(bytes) + " B";
    const char *units[] = {"KiB", "MiB", "GiB", "TiB"};
    double value = bytes / 1024.0;
    int unit = 0;
    // Choose the unit on the value as printed (one decimal), so that 1048575 bytes read
    // "1.0 MiB" rather than "1024.0 KiB".
    while (std::round(value * 10) / 10 >= 1024.0 && unit < 3)
      {
        value /= 1024.0;
        ++unit;
      }
    char text[80];
    std::snprintf(text, sizeof text, "%.1f %s (%zu bytes)", value, units[unit], bytes);
    return text;
  }

  std::string format_or_dash(double value, const char *format)
  {
    if (std::isnan(value))
      return "-";
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
  }

  std::string format_milliseconds(double ms)
  {
    return format_or_dash(ms, ms < 1000 ? "%.4g" : "%.0f");
  }

  std::string join(const std::vector<int> &values, const std::string &separator)
  {
    std::string result;
    for (std::size_t i = 0; i < values.size(); ++i)
      result += (i ? separator : "") + std::to_string(values[i]);
    return result;
  }
} // namespace lab
