#pragma once
// @sect3{Kernel 3: coalesced accesses}
//
// Kernel 1 with threadIdx.x along the columns of C instead of the rows: a one-word
// change. Now each half of a warp (16 consecutive x) reads 16 consecutive entries of
// a row of B (64 bytes, "coalesced" into two 32-byte sectors) and one entry of A
// (broadcast), and writes 16 consecutive entries of C. Same arithmetic, same number
// of loads, a fraction of the memory transactions.
//
// Shared memory is not used at all; compare its time with kernel 2's to see how much
// of the tiles' gain came from reuse and how much from the access pattern alone.
// Kernel 4 combines both ideas.

#include "kernels/1_naive.cuh"

namespace step4
{
  inline void launch_3_coalesced(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_naive<ThreadsAlong::columns>(g, stream);
  }
} // namespace step4
