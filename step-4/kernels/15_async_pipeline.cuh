#pragma once
// @sect3{Kernel 15: every tile by cp.async, in a pipeline of stages}
//
// Kernel 10 stopped at 86% of cuBLAS's SGEMM on an H100 (n = 4096 and 8192). Nsight
// Compute says where the rest goes. An SM has four schedulers, each of which issues
// at most one instruction per cycle, and one FFMA instruction (a warp's 32 fused
// multiply-adds) keeps a scheduler's 32 FP32 lanes busy for exactly one cycle. So
// every instruction that is not an FFMA takes a multiply-add's issue slot. For a
// 4096³ product, cuBLAS's kernel issues 2.43 billion warp instructions, of which
// 2.15 billion (88%) are FFMA; kernel 10 issues 2.62 billion (82% FFMA), about 1250
// per warp for every 1024 FFMA of a step of 16 values of k. Its machine code
// (`cuobjdump -sass`) shows what the others are: the address and edge arithmetic of
// every copy, redone at every step; branches (CUDA's __pipeline_memcpy_async turns
// a zero-fill count known only at run time into a branch over all 17 possible
// counts); and the transpose of A through registers, a global load and four
// shared-memory stores per 16 bytes.
//
// Kernel 15 keeps kernel 10's warp tile and its two sets of fragment registers, and
// changes how the tiles arrive:
// - <b>Every tile by `cp.async`</b>, also the ones that must be transposed (A as
//   stored, B transposed). A 16-byte copy cannot transpose, but a 4-byte one can: it
//   puts its element anywhere in shared memory. So no tile passes through registers.
// - <b>Addresses worked out once.</b> Each thread computes its pointers into A and B
//   and its places in a stage before the loop; a step of the loop is then a few
//   `cp.async` with constant offsets and one pointer increment each. Edges cost
//   nothing inside the loop: the partial step of k (when k is not a multiple of bk)
//   is the first one, copied before the loop with checks; rows and columns past the
//   edge of C are read again from the last row or column (they only feed entries of
//   C that are never stored) or filled with zeros by a count fixed for the whole
//   loop.
// - <b>Copies spread among the multiply-adds.</b> A step's copies for a later stage
//   are issued one at a time between the multiply-adds of the current stage, not all
//   together after the barrier, where every warp of the block would do nothing but
//   copy arithmetic at the same moment.
// - <b>A pipeline of stages</b>, three rather than two, and deeper tiles (bk = 32):
//   two steps' tiles are on their way while one is used, and there is one barrier per
//   32 values of k instead of 16.
//
// The main loop's machine code now holds, per step of 32 values of k, 2048 FFMA,
// 128 `LDS.128` (the fragments), 20 `LDGSTS` (the copies: 16 of 4 bytes for A, 4 of
// 16 bytes for B), 60 placeholders that come with them (see the end) and about 70
// other instructions: 2326 in all, 88% FFMA. 127 registers, no spills, two blocks of
// 8 warps per SM.
//
// <b>Predicted and measured.</b> Percent of cuBLAS at n = 4096 / 8192, measured on an
// NVIDIA H100 80GB HBM3, each figure against cuBLAS in the same run; kernel 10 ran at
// 85.0 to 85.7 / 86.5 to 86.7 in the same runs. Figures of one configuration moved
// by up to 4 points from one run to the next.
// - The first version copied every tile by `cp.async` but kept kernel 10's copy
//   helpers, which recompute addresses and edge checks at every copy, and started all
//   copies right after the barrier. Predicted: 2 to 3 points better than kernel 10,
//   for the transposing stores and staged registers it saves. Measured: 2 points
//   <i>worse</i>, 83.3 / 84.5 with two stages, and no better with three or four
//   (83.2 / 84.5, 83.0 / 84.5). The machine code showed why: 249 instructions besides
//   the 1024 FFMA per step of 16, 173 of them after the barrier, among only 64 FFMA.
// - Addresses worked out once, the partial step first, copies spread (this file),
//   with kernel 10's tile sizes (128×128, bk = 16): predicted about 93, an FFMA share
//   of 90% (the compiler's intermediate code had 1153 instructions per 1024 FFMA) at
//   kernel 10's issue rate. Measured: 89.4 to 91.0 / 87.9 to 92.1 with three stages
//   (two: 89.5 / 90.8; four: 90.9 / 89.9, where a third stage had been predicted to
//   add half a point to a point and a fourth nothing); the loop's machine code has
//   1189 instructions, 86% of them FFMA.
// - Depth 32 instead of 16 (half the barriers, and half the per-step work per FFMA;
//   predicted half a point): measured 94.8 to 95.2 / 91.7 to 95.9 with three stages
//   (two stages: 89.4 / 88.6). These are kernel 15's sizes; the program
//   measured 94.8 / 95.7 (49.1 and 49.7 TFLOP/s against cuBLAS's 51.8 and 52.0), and
//   on the sweep's other shapes 101% (8192×8192×256), 94% (AᵀB), 92% (ABᵀ), 95%
//   (2048×8192×4096) and 91% (4999×5003×4001), where kernel 11 ran at 80 to 95%.
// - Thread tiles of 8×16 (warp tiles 64×64, 128 sums per thread), the shape of
//   cuBLAS's own kernel (`tilesize256x128x8_stage3_warpsize4x2x1_ffma`: one block of
//   8 warps per SM, 254 registers): 128×256 or 256×128 tiles of depth 8 in four
//   stages ran at 92.7 to 94.1 / 94.0 to 96.1, as fast as kernel 15 on the square
//   sizes. But large tiles mean few blocks: on the thin product of the sweep
//   (8192×8192×256) they fell to 85 to 87% of cuBLAS, below kernel 10, where
//   kernel 15 runs at 97.5 to 101%. The course's product must serve every shape, so
//   kernel 15 keeps 128×128 tiles. (In the first version, with its expensive copies,
//   8×16 tiles had been predicted 3 to 5 points below 8×8, for the fewer warps, and
//   ran at 81 to 86 / 83 to 88.) Four warps of 64×64 on 128×128×16 tiles (two blocks
//   per SM, 225 registers) came close: 93.2 / 95.5, and 87 to 98% on the other
//   shapes.
// - Did not pay: depth 8 (87.5 / 87.8, a barrier every 8 values of k); one block of
//   8 warps per SM, which lifts the cap of 128 registers (92.0 to 93.2 / 90.2 to 94.1,
//   but 87.5 to 89% on the thin product); warp tiles of 32×64 instead of 64×32 (89.2
//   / 89.9); four warps of 64×64 with depth 32 (85.7 / 92.0).
//
// <b>What limits it now.</b> Nsight Compute, n = 4096: kernel 15 issues 2.44 billion
// instructions, as many as cuBLAS and with the same share of FFMA, 88%. What is
// left is latency: in 14% of the cycles no warp is ready to issue (cuBLAS: 10%). And
// each `LDGSTS` comes with three placeholder instructions in the machine code
// (`@!PT LDS RZ, [RZ]`, never executed, but counted among the issued ones): A's 16
// four-byte copies cost 64 issue slots per step, 3% of the loop. Copying A as
// stored and reading its fragments along k would save them. Tried on an H200 with the
// TMA, which removes every copy instruction (one thread copies a whole tile): 2% fewer
// instructions, but 80 to 89.7% of cuBLAS over nine versions, against kernel 15's 97
// to 98% in the same runs. Read along k, the eight A values of a step of k lie in the
// same place of eight register quads, and the FFMAs' dispatch stalls doubled (the
// results page, and results/nvidia-h200/step-4/tma_fed_ffma.txt).
//
// Kernel 15 handles every case kernel 10 does: any m, n, k, both transposes, α and β,
// and matrices that are not 16-byte aligned (then only the k-major operands, which
// are copied in 16-byte chunks, fall back to 4-byte copies; the transposing copy is
// 4-byte anyway). It is step4::gemm's product in float. Products too small to fill
// the GPU with its 128 × 128 tiles run on tiles of 64 × 64 (the source's last section
// says why and what it gains).

#include "gemm.h"

#include <cuda_runtime.h>

namespace step4
{
  // Whether a product is too small to give every SM one tile of 128²: kernel 15 then
  // runs on tiles of 64² (see "Small products" in the source).
  bool is_small_product(const GemmShape &shape);

  void launch_15_async_pipeline(const GemmArgs<float> &g, cudaStream_t stream);
} // namespace step4
