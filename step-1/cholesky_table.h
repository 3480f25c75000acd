// @sect3{The table}
//
// One row per size, `step-1/cholesky_<precision>.dat`: the times of the CPU, of LAPACK
// and of the GPU thread (the kernel alone and with both copies), the residual of each
// factor and the tolerance. A size's numbers travel in a record with a field for each,
// NaN for what did not run (LAPACK not installed, no GPU), which gnuplot skips. The
// table owns its columns and puts each field under its name in one place, so that no
// list of numbers elsewhere has to follow the order of the names; the test reads every
// column back by its name (tests/cholesky_cpu_test.cpp), as the plots find them.
#pragma once

#include <lab/device.h>
#include <lab/table.h>

#include <cmath>
#include <string>

namespace step1
{
  struct SizeResult
  {
    int n = 0;
    double cpu_ms = std::nan(""), lapack_ms = std::nan("");
    double gpu_kernel_ms = std::nan(""), gpu_total_ms = std::nan("");
    double residual_cpu = std::nan(""), residual_gpu = std::nan("");
    double tolerance = std::nan("");
  };

  class CholeskyTable
  {
  public:
    CholeskyTable();

    void add(const SizeResult &result);

    // Writes @p folder/cholesky_<@p precision>.dat, its header naming @p device and
    // the repetitions @p reps behind each median.
    void write(const std::string &folder, const lab::DeviceInfo &device, int reps,
               const std::string &precision) const;

  private:
    lab::Table table_;
  };
} // namespace step1
