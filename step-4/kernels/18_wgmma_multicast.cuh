#pragma once
// @sect3{Kernel 18: two blocks share A's tile}
//
// Kernel 17 reads, for every step of 32 values of k, A's tile (256 rows, 32 KB) and
// B's (128 columns, 16 KB) from the L2 cache. At n = 8192 that is 25.8 GB for the
// whole product, at kernel 17's speed more than 9 TB/s, and Nsight Compute found the
// L2 at two thirds of its peak already. Reading less from the L2 was this kernel's
// idea. (It was also meant to cure kernel 17's slow runs at n = 8192; those turned out
// to be the GPU lowering its clock under sustained load, which the course's timer now
// takes into account: see lab/timer.h and the results page.)
//
// Two blocks side by side in a row of tiles of C read the same tile of A. Hopper can
// make them read it once. A <i>cluster</i> is a group of up to 8 blocks that the GPU
// runs at the same time, on SMs of one GPC (a group of about 16 SMs); a block may
// read and write the shared memory of the others in its cluster and arrive on their
// barriers, and the TMA can <i>multicast</i>: one copy of a box from global memory,
// written into the shared memory of several blocks of the cluster at once, each
// block's barrier counting the bytes that reach it. Kernel 18 is kernel 17 run in
// clusters of two blocks along a row of tiles: each block copies half of A's tile
// (128 of its 256 rows) and sends it to both, and B's tile, which is its own, as
// before. Per step and block the L2 delivers 16 + 16 KB instead of 32 + 16: a third
// less.
//
// What changes in the kernel is all in the ring of stages (hopper::StageRing):
// - <b>A stage is empty when both blocks are done with it.</b> Block 0's producer
//   writes its half of A into block 1's stage too, so it may refill stage s only when
//   the consumers of both blocks have released it: each block's empty[s] barrier
//   counts the consumer warps of the cluster (16), and each consumer warp arrives on
//   empty[s] of both blocks (`mbarrier.arrive` on an address `mapa` found in the other
//   block's shared memory).
// - <b>A stage is full</b> when its 48 KB have arrived, whichever block sent them: the
//   producer announces the whole stage on its own full[s] barrier, and the TMA counts
//   every copy off at the barrier of the block it writes to. The other block's half
//   may arrive before this block's producer has announced the stage; the barrier
//   cannot complete its phase before that announcement, which is also an arrival, so
//   nothing is lost.
// - <b>Start and end together.</b> The barriers must be initialised before the other
//   block uses them, and a block must not end while the other may still arrive on its
//   barriers: a cluster-wide barrier (`barrier.cluster`) after the initialisation and
//   before the end.
// Outside the ring: the blocks of a cluster take neighbouring tiles of one tile row
// (band_order), the grid's rows are rounded up to whole clusters, a lower-triangle
// product keeps or skips a cluster's two tiles together (with 2 × 128 = 256 columns =
// bm, they are the square on the diagonal or wholly beside it), and the launch names
// the size of the cluster (cudaLaunchKernelEx). The kernel's code is kernel 17's
// (17_wgmma_b_as_stored_kernel.cuh), with Config::cluster = 2.

#include "gemm.h"

#include <cuda_runtime.h>

namespace step4
{
  // Kernel 18, any shape and both transposes (as kernel 17: those other than
  // op(A) = A, op(B) = B through a pass). Throws std::runtime_error where
  // wgmma_available() is false.
  void launch_18_wgmma_multicast(const GemmArgs<float> &g, cudaStream_t stream);

  // Whether kernel 18 is the better choice over kernel 17 for a product of this shape:
  // where it has at least one tile of C per SM. Measured on the H200 (the step's
  // results page): from 2048 up the two are equally fast on square products, and on
  // step-5's HᵀH at n = 65536, where k is long, kernel 18 is twice as fast; with fewer
  // tiles than SMs kernel 17 is 3 to 13% faster (a cluster needs two free SMs of one
  // GPC at once, a block only one).
  bool multicast_pays(const GemmShape &shape);
} // namespace step4
