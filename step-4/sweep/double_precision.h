#pragma once
// @sect3{The double-precision kernels}
//
// cuBLAS DGEMM, then kernels 13 and 14, at every size of the sweep, each checked with
// the double tolerance: the FP64 tensor cores round like the ordinary FP64 units. A
// kernel that was not asked for, or that this GPU cannot run (kernel 14 before compute
// capability 8.0), is NaN in the table.

#include "sweep/settings.h"
#include "sweep/tables.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>

#include <vector>

namespace step4
{
  // Lists the kernels, runs every size, one console line per product, and writes
  // double.dat.
  void run_double_sizes(const Settings &settings, const std::vector<int> &sizes,
                        lab::Cublas &cublas, Tables &tables, lab::Checks &checks);
} // namespace step4
