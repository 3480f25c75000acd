#pragma once
// @sect3{Kernel 17: B as stored, through the registers}
//
// Kernel 16 reads both operands k-major, because that is the only way TF32 `wgmma`
// reads shared memory; for the plain product A·B, whose B is stored n-major (its rows
// run along n), it first writes Bᵀ with a pass over all of B, and at n = 4096 that
// pass costs a tenth of the product's time. Kernel 17 needs no pass. It rests on two
// facts:
// - <b>The transpose of a product is the product of the transposes</b>, reversed:
//   Cᵀ = Bᵀ·Aᵀ. Computed that way round, A plays wgmma's second operand, which must
//   be k-major: Aᵀ's columns are A's rows, k-major as stored. And B plays the first.
// - <b>wgmma's first operand may come from registers</b> instead of shared memory
//   (hopper::wgmma_64x256x8 with a register fragment), and then its layout in shared
//   memory is the kernel's own business: the warps load it themselves, with ordinary
//   shared-memory loads, and can read a tile stored n-major as easily as one stored
//   k-major.
//
// So the TMA copies B's tile as stored (32 rows of k by 128 values of n, in four boxes
// of 32 × 32 floats, each row of a box one 128-byte line, swizzled), the consumer
// warps load their fragments of it into registers, four floats per thread and per
// wgmma, and the tensor cores read A's tile from shared memory as in kernel 16. The
// sums are a block of Cᵀ: each consumer warpgroup holds 64 columns of C by 256 rows,
// and the epilogue writes them back transposed.
//
// <b>The tile.</b> wgmma's first operand spans 64 rows per warpgroup and its second
// up to 256: so the block tile of C is 256 rows (A's, the second operand) by 128
// columns (B's, two consumer warpgroups of 64), kernel 16's tile turned round, with
// the same 48 KB per stage, four stages and 128 sums per consumer thread.
//
// <b>Loading the fragments without bank conflicts.</b> A thread's fragment holds two
// rows of the first operand, r and r + 8 (here: two columns of C), at two values of
// k, t and t + 4 (t = lane % 4). In B's n-major tile a value of k is a line of the
// box and a column of C a word in that line; the 128-byte swizzle stores 16-byte chunk
// c of line k at chunk c XOR (k mod 8). If the 16 rows of a warp's fragment were 16
// consecutive columns, lanes with t = 0 to 3 would read four lines whose chunks the
// swizzle only permutes among themselves: two lanes on every bank, a two-way
// conflict. But which column of C a row of the fragment stands for is the kernel's
// choice, as long as the epilogue knows: row g + 8h of warp w (g = lane / 4,
// h = 0 or 1) is column 16·(g/4) + 8·(w mod 2) + 4h + g mod 4 of the warp's 32-column
// box. Then the eight lanes of one t read chunks from two groups of four (g < 4: the
// first group, g ≥ 4: the second), the XOR with t permutes within a group, and the
// 32 lanes meet 32 different banks: one load per fragment value, no conflict.
//
// <b>Registers read late.</b> Like the sums, the fragment is read by the tensor cores
// after the instruction is issued: its registers must keep their values until
// `wgmma.wait_group` says the group has ended. The compiler does not see to that. The
// first version of this kernel loaded the next step's fragments while the last
// step's group still ran (as kernel 16 issues step t + 1 before it waits for step t);
// the compiler put them in the same registers, and the results were wrong by about
// 0.2 of (|A||B|)ᵢⱼ, as if the products had been paired at random. Keeping two sets of
// fragments alive by hand was right but no faster (see the results page). So each
// consumer waits for its own step's group to end (`wgmma.wait_group 0`) before it
// loads the next step's fragments. The tensor cores do not idle meanwhile: the two
// consumer warpgroups share them, and while one waits and loads, the other's wgmmas
// run. ptxas confirms that the pipeline is as written: it would say "wgmma.mma_async
// instructions are serialized" (C7513, `-Xptxas -v`) if it had to add waits of its
// own.
//
// <b>The epilogue.</b> Sum i of a thread is entry (8·(i/4) + 2t + i mod 2) of the
// block's rows by its column of C: for a fixed i, a warp writes 8 columns (two runs of
// 4 consecutive floats) in each of 4 rows, 16-byte pieces.
//
// <b>Everything else</b> is kernel 16's: the producer warpgroup, the barriers, the
// descriptor of A's tile, the band order, the lower triangle. And any other layout
// still gets a pass: A transposed, B transposed (kernel 17 wants B n-major), or an
// operand the TMA cannot read for its alignment.

#include "gemm.h"

#include <cuda_runtime.h>

namespace step4
{
  // Kernel 17, any shape and both transposes (those other than op(A) = A, op(B) = B
  // through a pass). Throws std::runtime_error where wgmma_available() is false.
  void launch_17_wgmma_b_as_stored(const GemmArgs<float> &g, cudaStream_t stream);
} // namespace step4
