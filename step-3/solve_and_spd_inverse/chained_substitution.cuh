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
// The kernel cuts L into block rows of NB = 128 rows. Each thread block owns one: for
// forward substitution it computes
//   x_i = Λ_i (b_i − Σ_{j<i} L_ij x_j),   Λ_i = L_ii^{-1},
// and walks along its block row from the left, tile after tile of NB × NB entries,
// each tile as soon as the x_j it multiplies are known. The dependency between blocks
// is the only serial part, and it travels through memory instead of through launches.
// What that chain costs was measured inside the kernel, with time stamps (H200, float,
// n = 16384; the results page has the figures): in the first version a link of the
// chain, from x_{i−1} known to x_i known, took about 3 µs, and so did one SM reading
// one tile. Both had to shrink, and this version is built around that:
//  - **Mailboxes instead of counters.** x_j goes into entry j of a mailbox whose
//    entries hold `empty` (a NaN bit pattern) until then: the value is its own
//    signal, so the reader needs no flag, no fence and one memory round trip.
//  - **Clusters.** Blocks run in thread block clusters of 8, whose SMs can write into
//    each other's shared memory. A block sends its x_i straight into the shared
//    memory of the cluster's later blocks, where the next one is waiting for it:
//    0.3–0.5 µs from SM to SM, measured. Between clusters x goes through the mailbox
//    in global memory (without clusters the whole solve takes 4–6% longer).
//  - **The diagonal block in one product.** Λ_i, 128 × 128, is built in shared
//    memory from step-2's two 64 × 64 tile inverses before the walk starts; on the
//    chain x_i = Λ_i r is one product, each warp its own rows, where solving tile
//    after tile took four barriers.
//  - **Reading like a stream.** The tiles are read with 16-byte loads, and without
//    asking the L2 cache to fetch tiles ahead (a probe measured that the requests
//    slowed the reading by a fifth to a half: they compete with the loads for memory).
//  - **Warps held together.** Forward, every warp needs all 128 x of the block
//    before; left to drift apart, the block's warps made each link wait for the
//    slowest of them. A barrier before every second tile of a walk up to 256 tiles
//    long made forward as fast as backward (a third faster at n = 16384).
//  - **No gaps between the kernels.** A solve is five kernels (tile inverses, the
//    diagonal's check, forward, back, the erase after a singular L), and each starts
//    before the one before it has finished (programmatic dependent launch,
//    lab/dependent_launch.h): this kernel builds Λ_i before it waits, and back
//    substitution builds its Λ_i on the SMs that forward's finished blocks leave.
//    0.955 → 0.940 ms at n = 16384 in double, 0.101 → 0.078 ms at 256 (H200).
//  - **Blocks wait only for blocks that are running.** Places in the chain go to
//    whole clusters, by a ticket that each cluster's first block takes when it
//    starts: not all blocks fit on the GPU at once, and a block that waited for one
//    not yet started would wait forever.
// Back substitution with L^T is the same walk along block column i, from the bottom,
// with column sums instead of row sums: tiles of L are read row by row in both
// directions, so both read memory in whole 128-byte lines.
//
// Only entries of the lower triangle are read, and of a band factor only those at most
// b below the diagonal: the band layout of step-5 keeps other data beside the band.

#include <lab/gemm.h>

#include <cuda_runtime.h>

#include <cstddef>

namespace step3
{
  // The blocks of one thread block cluster: 8, the most that every GPU with clusters
  // runs ("portable"), each on an SM of its own in one GPC.
  inline constexpr int chain_cluster_blocks = 8;

  // The elements of T at the start of the workspace that hold the ticket counter
  // (16 or 32 bytes, so that the mailbox after it stays aligned).
  inline constexpr std::size_t chain_ticket_elements = 4;

  // The chained kernel's workspace, in elements of T, for order n: for each direction
  // (forward and back) a ticket counter and a mailbox of x (n entries, rounded up to a
  // multiple of 4).
  std::size_t chain_workspace_elements(int n);

  // Readies the workspace for one forward and one back substitution (enqueued on
  // @p stream): every ticket counter and mailbox entry to all bits one.
  template <typename T>
  void reset_chain_workspace(T *workspace, int n, cudaStream_t stream);

  // x = op(L)^{-1} b in place for one right-hand side b (stride ldb), the n×n lower
  // triangle L with band @p bandwidth (−1: dense), the tile inverses of step-2 stacked
  // in @p inverses (n × 64), @p workspace of chain_workspace_elements(n), reset since
  // its last substitution in the same direction. Enqueued on @p stream. In clusters
  // where the GPU has them; @p clusters = false launches without, as on GPUs before
  // Hopper (every x through global memory): the tests run both ways.
  //
  // The kernel starts while the kernel before it on the stream is still running
  // (lab/dependent_launch.h), and builds its diagonal-block inverses before it waits
  // for that kernel: L and the tile inverses must be final when it is launched, that
  // is, no longer written by the kernel before it, nor by anything that kernel does
  // not wait for. (solve_lower and solve_with_cholesky_factor launch it after the
  // check of the diagonal, which waits for the tile inverses.) It waits before it
  // reads b.
  template <typename T>
  void launch_chained_substitution(const T *l, int n, int ld, lab::Op op, int bandwidth, const T *inverses, T *b,
                                   int ldb, T *workspace, cudaStream_t stream, bool clusters = true);
} // namespace step3
