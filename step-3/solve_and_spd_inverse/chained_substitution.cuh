#pragma once
// @sect3{One right-hand side at the speed of memory: the chained substitution}
//
// For one right-hand side the blocked substitution (substitution.cu) is a chain of
// 2·n/64 small products, each waiting for the one before: at n = 16384 that is 512
// launches, and the solve takes milliseconds where its data would take a tenth of one.
// Count the bytes: x = L^{-1} b reads each of the n²/2 entries of L once and does two
// flops with it. The H200 streams about 4.8 TB/s from its memory and runs 67 TFLOP/s,
// so the arithmetic is free and the time is that of reading L: 0.11 ms in float at
// n = 16384. Nothing a launch chain can do gets near that; one kernel can.
//
// The kernel cuts L into block rows of NB rows (128 in float). Each thread block owns
// one: for forward substitution it computes
//   x_i = L_ii^{-1} (b_i − Σ_{j<i} L_ij x_j)
// and walks along its block row from the left, tile after tile of NB × NB entries,
// each tile as soon as the x_j it multiplies are known. The dependency between blocks
// is the only serial part, and it travels through memory instead of through launches:
//  - a counter `solved` in global memory says how many blocks of x are final. A warp
//    about to use x_j waits until solved > j (one lane polls, with an acquire load);
//    the block that finishes x_i writes it, then raises solved to i + 1 (a release
//    store). The acquire/release pair is what makes the x_i written by one SM visible
//    to a warp on another (the memory model of the CUDA C++ guide, cuda::atomic_ref).
//  - blocks wait only for blocks that are already running: each takes a ticket from a
//    second counter when it starts, and solves the block row of its ticket, not of its
//    blockIdx. Blocks can start in any order, and not all fit on the GPU at once; a
//    block that waited for a block not yet started would wait forever.
// Most of the work is far from the chain: block row i reads i tiles, and all but the
// last can be read while earlier blocks are still being solved. To keep the memory
// busy while a warp waits for x, the tiles are requested ahead (`prefetch.global.L2`,
// four tiles ahead), so that when x arrives the tile is already in the L2 cache.
//
// The diagonal block is solved in shared memory with the 64×64 tile inverses of
// step-2 (two 64×64 products and one more for the entries between them when NB = 128),
// loaded before the walk starts, so that the step on the chain, from x_{i−1} to x_i,
// is a few microseconds. Back substitution with L^T is the same walk along block
// column i, from the bottom, with column sums instead of row sums: tiles of L are
// read row by row in both directions, so both read memory in whole 128-byte lines.
//
// Only entries of the lower triangle are read, and of a band factor only those at most
// b below the diagonal: the band layout of step-5 keeps other data beside the band.

#include <lab/gemm.h>

#include <cuda_runtime.h>

namespace step3
{
  // What the chained kernel's blocks share: the two counters above, set to zero
  // before every launch.
  struct ChainCounters
  {
    int ticket;
    int solved;
  };

  // x = op(L)^{-1} b in place for one right-hand side b (stride ldb), the n×n lower
  // triangle L with band @p bandwidth (−1: dense), the tile inverses of step-2 stacked
  // in @p inverses (n × 64). Enqueued on @p stream.
  template <typename T>
  void launch_chained_substitution(const T *l, int n, int ld, lab::Op op, int bandwidth, const T *inverses, T *b,
                                   int ldb, ChainCounters *counters, cudaStream_t stream);
} // namespace step3
