#include <lab/memory.h>

#include <lab/cuda_check.h>
#include <lab/format.h>
#include <lab/program.h>

#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace lab
{
  namespace
  {
    // MemAvailable from /proc/meminfo (Linux, in KiB). Where it cannot be read, the
    // free physical pages: a lower bound, as it leaves out caches that could be dropped.
    double available_host_bytes()
    {
      std::ifstream meminfo("/proc/meminfo");
      std::string line;
      while (std::getline(meminfo, line))
        {
          std::istringstream words(line);
          std::string key;
          double kib = 0;
          if (words >> key >> kib && key == "MemAvailable:")
            return kib * 1024;
        }
      return double(sysconf(_SC_AVPHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
    }

    // format_bytes for counts beyond 2^64 too (a size nobody has memory for).
    std::string bytes_text(double bytes)
    {
      if (bytes < 9e18)
        return format_bytes(static_cast<std::size_t>(bytes));
      char text[64];
      std::snprintf(text, sizeof text, "%.3g bytes", bytes);
      return text;
    }
  } // namespace

  Memory available_memory(bool use_gpu)
  {
    Memory available{available_host_bytes(), 0};
    if (use_gpu)
      {
        std::size_t free_bytes = 0, total_bytes = 0;
        LAB_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        available.device_bytes = double(free_bytes);
      }
    return available;
  }

  void require_fits(const std::string &what, const Memory &need, const Memory &available)
  {
    const auto refuse = [&](double needed, const char *where, double have) {
      throw bad_input(what + " needs " + bytes_text(needed) + " of " + where +
                      " memory, but only " + bytes_text(have) + " are available");
    };
    if (need.host_bytes > available.host_bytes)
      refuse(need.host_bytes, "host", available.host_bytes);
    if (need.device_bytes > available.device_bytes)
      refuse(need.device_bytes, "GPU", available.device_bytes);
  }

  void refuse_sizes_that_do_not_fit(const std::vector<int> &sizes,
                                    const std::function<Memory(int)> &need,
                                    const std::string &label, bool use_gpu)
  {
    const Memory available = available_memory(use_gpu);
    for (const int n : sizes)
      {
        Memory needed = need(n);
        if (!use_gpu)
          needed.device_bytes = 0;
        require_fits("n = " + std::to_string(n) + " (" + label + ")", needed, available);
      }
  }
} // namespace lab
