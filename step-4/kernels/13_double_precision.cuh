#pragma once
// @sect3{Kernel 13: the same design in double precision}
//
// Kernel 10 is a template over the element type, so its double-precision version is
// one line. What changes is the hardware underneath: an H100/H200 SM has half as many
// FP64 units as FP32 ones on its ordinary cores, and a double takes two registers and
// twice the shared memory, so the tiles are shallower (bk = 8). cuBLAS's DGEMM, for
// comparison, runs on the FP64 tensor cores (DMMA), which the ordinary cores cannot
// match; the course reports the ratio honestly rather than chasing it.

#include "kernels/10_double_buffered.cuh"

namespace step4
{
  using DoublePrecisionConfig = TileConfig<128, 128, 8, 64, 32>;

  inline void launch_13_double_precision(const GemmArgs<double> &g, cudaStream_t stream)
  {
    launch_double_buffered<double, DoublePrecisionConfig>(g, stream);
  }
} // namespace step4
