#pragma once
// @sect3{Kernel 8: shared memory without bank conflicts}
//
// Shared memory is built from 32 banks, each 4 bytes wide; consecutive 4-byte words
// lie in consecutive banks. A bank serves one word per cycle, so when two threads of
// a warp touch different words of the same bank, the accesses are serialised (a
// "bank conflict"). A 16-byte read by a warp is served in four phases of 8 threads;
// it runs at full speed when those 8 threads read 8 consecutive chunks, 128 bytes
// covering each bank once.
//
// In kernel 7 thread tc reads columns 8·tc ... 8·tc+7 of the B tile: in one phase,
// threads 0 ... 7 read chunks 32 bytes apart, spread over 256 bytes, so every bank
// is hit twice: a 2-way conflict, on every read of the inner loop. The fix keeps each
// thread's 8 columns but splits them into two halves of 4, one in each half of the
// tile: columns 4·tc ... 4·tc+3 and 64+4·tc ... 64+4·tc+3. Now the 8 threads of a
// phase read 8 consecutive chunks. Rows of the A tile are split the same way.
//
// The transposed stores into the A tile conflicted as well: the two threads that load
// the two chunks of one row of A write to words 4·128 floats apart, which is a
// multiple of 32 banks, the same bank. Padding each row of the transposed tile by 4
// floats shifts the second chunk by 16 banks. (Padding by 4 rather than 1 keeps every
// row 16-byte aligned, as the 16-byte reads need.)
//
// Nsight Compute counts these conflicts directly
// (`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum`); compare kernels 7
// and 8.

#include "kernels/7_vectorized_loads.cuh"

namespace step4
{
  struct SplitFragments
  {
    static constexpr int padding = 4;
    template <int tile_extent>
    __device__ static int offset(int index, int half)
    {
      return index * 4 + half * (tile_extent / 2);
    }
  };

  inline void launch_8_conflict_free_smem(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_vectorized<SplitFragments>(g, stream, "8_conflict_free_smem");
  }
} // namespace step4
