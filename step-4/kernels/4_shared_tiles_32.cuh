#pragma once
// @sect3{Kernel 4: larger tiles, 32×32}
//
// Kernel 2 with tiles of 32×32 (1024 threads, the most a block may have). Two
// things improve. Each loaded value is used 32 times instead of 16, halving the
// global traffic per flop. And a warp is now one full row of the tile: it reads 32
// consecutive floats, a whole 128-byte line, where with 16×16 tiles a warp covered
// two half rows.
//
// What does not improve: every multiply-add still needs two shared-memory reads
// (a_tile[ty][p] and b_tile[p][tx]), so shared-memory bandwidth, not arithmetic,
// bounds this kernel. Kernels 5 and 6 attack that.

#include "kernels/2_shared_tiles_16.cuh"

namespace step4
{
  inline void launch_4_shared_tiles_32(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_shared_tiles<32>(g, stream);
  }
} // namespace step4
