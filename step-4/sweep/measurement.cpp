#include "sweep/measurement.h"

#include <lab/format.h>

#include <cstdio>

namespace step4
{
  double gflops(const GemmShape &shape, double ms) { return shape.flops() / (ms * 1e6); }

  void ConsoleLines::print(const std::string &product, const Measurement &measured) const
  {
    const bool ok = checks.at_most(problem + " " + product, measured.error, tolerance);
    std::printf("  %-24s %10s %10.0f %10s %8s %10.2e   %s\n", product.c_str(),
                lab::format_milliseconds(measured.ms).c_str(), gflops(shape, measured.ms),
                lab::format_or_dash(measured.vendor_ms_in_pairs, "%.4g").c_str(),
                lab::format_or_dash(measured.percent_of_vendor, "%.1f%%").c_str(),
                measured.error, lab::verdict(ok));
    std::fflush(stdout);
  }

  void print_column_names()
  {
    std::printf("  %-24s %10s %10s %10s %8s %10s   %s\n", "kernel", "time", "GFLOP/s", "beside",
                "cuBLAS", "error", "check");
  }
} // namespace step4
