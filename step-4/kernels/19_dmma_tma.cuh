#pragma once
// @sect3{Kernel 19: the FP64 tensor cores fed by the TMA}
//
// Kernel 14 reaches about 80% of cuBLAS's DGEMM. Nsight Compute shows its tensor
// cores busy 72% of the time (cuBLAS's 98%), and in 44% of the cycles in which a warp
// stalls it waits for the math pipe, with 0.66 warps per scheduler ready to issue:
// after each __syncthreads() all 16 warps load fragments at once, then all queue at
// the tensor cores at once. cuBLAS's kernel is built differently: 8 warps per SM,
// each with a 64×32 tile of C and the m16n8k8 shape, 246 registers per thread. In
// kernel 14 that configuration spills, because the copies' address arithmetic and
// edge checks need registers too. Kernels 16 to 18 showed how both problems go
// away on Hopper: the TMA copies the tiles (it computes the addresses, checks the
// edges and fills zeros past them, and costs the warps no registers), and mbarriers
// (hopper::StageRing) replace the block-wide barrier, so that each warp waits only
// for the stage it needs and gives it back as soon as it is done. Kernel 19 is kernel
// 14 rebuilt that way:
// - <b>The copies by the TMA</b>, from the matrices as stored, into stages without
//   padding.
// - <b>No __syncthreads().</b> Each warp waits on full[s] for its next stage and
//   releases it on empty[s] once its last fragments of it are in registers; warps
//   drift apart, so that while some load, others multiply.
// - <b>cuBLAS's sizes</b>: warp tiles of 64×32 with m16n8k8, four warps in a 128×64
//   block tile, two blocks per SM; 248 to 255 registers per thread and no spills.
// - <b>No producer warp.</b> Kernels 16 to 18 give the copies a warpgroup of their own
//   and move its registers to the consumers (setmaxnreg). That instruction works on
//   whole warpgroups, and without it a block's registers are shared out evenly: an SM's
//   64K registers sit in four banks of 16K, one per scheduler, and the warps on an SM
//   are spread over the four. A producer warp in each of the two blocks puts three
//   warps on some scheduler, which caps every thread at 168 registers (16384 / 96,
//   rounded down to a multiple of 8) where the 64×32 tile needs over 240. (The first
//   version, kernel 14's 16 warps of 32×32 plus a producer warp, 17 warps, got 96
//   registers per thread, 16384 / 160, not the 120 that 65536 / 544 would give, and
//   spilled: `-Xptxas -v` says so.) So the block's first thread issues the copies
//   between its own DMMAs (the kernel says when).
//
// <b>Reading fragments from a swizzled tile.</b> The TMA cannot pad rows; it
// <i>swizzles</i> them instead (the 128-byte mode, as in kernel 16): in each 128-byte
// line, the eight 16-byte chunks are permuted by XOR with the line's number modulo 8.
// wgmma reads such tiles by itself; `mma.sync` needs each thread to load its values
// with ordinary loads, and the loads of a DMMA step must not conflict. A load of
// doubles is served half a warp at a time: 16 threads, 16 doubles, one wavefront of
// 128 bytes if they lie in 16 different 8-byte slots of the banks. Thread (g, t)
// (group g = lane / 4, t = lane % 4, as in kernel 14) reads entry (row g, k = t) of
// A's fragment (and row g + 8) and entry (k = t, column g) of B's. Where these rows
// and columns lie in the tile is the kernel's choice: the fragment's row g need not
// be the tile's row g, as long as the epilogue writes each sum to the row it really
// belongs to. Kernel 19 picks them so that every load takes one wavefront per
// half-warp:
// - <b>k-major tile</b> (128-byte lines of 16 values of k; A for op(A) = A, B for
//   op(B) = Bᵀ): threads g = 0..3 of a half-warp read chunks 2p + t/2 (step p) of
//   their lines. In lines 0, 1, 2, 3 these would be swizzled to chunks that collide
//   pairwise (line 1 flips only the lowest bit); in lines 0, 2, 4, 6 the XOR moves
//   them to four different pairs of chunks. So fragment row g is tile row 2g for
//   g < 4, and 2(g − 4) + 1 after: rows 0, 2, 4, 6, 1, 3, 5, 7 in each 8.
// - <b>the other layout</b> (lines of 16 values of m or n, one line per k: A for
//   op(A) = Aᵀ, B for op(B) = B; 8 boxes of 16 × 16 side by side): here the four
//   threads t read four lines (k = t), whose swizzles differ in the two low bits of
//   the chunk, and the four groups must fill the remaining choices: the chunk's high
//   bit and the half of the chunk. Fragment index f of a 16-wide box stands for column
//   4(f / 8) + (f % 8) / 2 + 8(f % 2): 0, 8, 1, 9, 2, 10, 3, 11 for the first 8,
//   4, 12, 5, 13, ... for the second.
// Either way the permutation only renames rows of A and C (or columns of B and C);
// the epilogue undoes it. m16n8k8 reads the values of two steps of 4 along k at once,
// each load as above.
//
// <b>The rest.</b> Tiles are copied from the matrices as stored, in all four
// combinations of transposes, without a pass; matrices the TMA cannot read (a start
// that is not on a 16-byte boundary, an odd leading dimension) are left to kernel 14.
// The kernel runs where kernels 16 to 18 run (an H100 or H200, and a build for
// sm_90a): the TMA, the mbarriers' waits and the m16n8k8 DMMA are Hopper's.

#include "gemm.h"

#include <cuda_runtime.h>

namespace step4
{
  // Kernel 19. Throws std::runtime_error where wgmma_available() is false.
  void launch_19_dmma_tma(const GemmArgs<double> &g, cudaStream_t stream);
} // namespace step4
