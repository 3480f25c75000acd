#pragma once
// @sect3{The CPU loops, timed at each size}
//
// The four loops of the 2021 course (gemm_cpu_loops.h) and, where installed, BLAS
// (OpenBLAS's sgemm on all cores): what a CPU gets from the same idea (tiles) and from
// a library. OpenBLAS goes further along the same road: tiles sized for each cache
// level, copied into contiguous buffers, and an inner kernel in assembly that keeps a
// block of C in registers, like kernel 6 does on the GPU. Each result is checked like
// a kernel's, against the same double-precision check (gemm_check.h).

#include "gemm_cpu_loops.h"
#include "sweep/settings.h"
#include "sweep/tables.h"

#include <lab/checks.h>

#include <string>
#include <vector>

namespace step4
{
  // One loop of the CPU table: its name on the console ("CPU_naive"), its column in
  // cpu.dat ("naive_ms"), the product (nullptr where it is not installed: BLAS), and
  // the largest size it runs at in a full sweep.
  //
  // The loops run only where they finish in seconds: the naive loop up to 512 (147 ms
  // there on the course's H100, in the committed step-4/cpu.dat; it grows as n³, so
  // 1.2 s at 1024, for each of the timed repetitions), the cache-tiled one up to 1024,
  // the parallel ones and BLAS up to 2048. Quick mode halves each limit.
  struct CpuLoop
  {
    using Multiply = void (*)(const lab::Matrix<float> &, const lab::Matrix<float> &,
                              lab::Matrix<float> &);
    std::string name;
    std::string column;
    Multiply multiply;
    int full_sweep_limit;
  };

  const std::vector<CpuLoop> &cpu_loops();

  // Times and checks every loop at each size of @p sizes within its limit, one console
  // line each, on the same random matrices as the float kernels; adds a row to the CPU
  // table for each size where any loop is within its limit, and writes the table.
  void run_cpu_sizes(const Settings &settings, const std::vector<int> &sizes, Tables &tables,
                     lab::Checks &checks);
} // namespace step4
