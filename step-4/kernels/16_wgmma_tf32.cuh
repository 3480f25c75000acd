#pragma once
// @sect3{Kernel 16: TF32 the Hopper way, warpgroup MMA fed by the TMA}
//
// Kernel 12 reaches a fifth of cuBLAS in TF32. Its tensor-core instructions are not
// the problem's size: `mma.sync` (what WMMA compiles to) is the Ampere instruction,
// and on Hopper it runs at a fraction of the tensor cores' rate. Each warp loads its
// fragments from shared memory into registers, element by element, rounds each to
// TF32, and only then multiplies; the loads, the conversions and the copies' address
// arithmetic take the issue slots the tensor cores need, and one block of 8 warps per
// SM leaves little to hide latency with. cuBLAS on Hopper (its kernels are called
// `sm90_xmma_gemm_..._tf32..._wgmma`) uses two units that kernel 12 does not touch.
// Kernel 16 uses them too; every piece below exists because of one of them.
//
// <b>`wgmma`: four warps, operands straight from shared memory.</b> The warpgroup MMA
// (`wgmma.mma_async`, PTX for sm_90a; `HGMMA` in the machine code) is issued by a
// <i>warpgroup</i>, four consecutive warps, and multiplies a 64×8 slice of A by an
// 8×N slice of B (N up to 256; here m64n256k8) into a 64×N block of FP32 sums held in
// the 128 threads' registers (128 per thread for N = 256). A and B are not loaded
// into registers at all: the instruction takes a 64-bit <i>descriptor</i> of each
// operand's tile in shared memory (its address, its layout, its swizzle) and the
// tensor cores read it themselves. It is asynchronous: the warps issue a batch,
// commit it as a group, and later wait for the group (`wgmma.commit_group`,
// `wgmma.wait_group`), so the next batch is issued while the last one runs. With TF32
// operands (`.tf32`) the instruction reads both tiles <i>k-major</i> (each row of the
// tile 8 consecutive values of k); only the 16-bit types may be transposed by the
// instruction. A as stored (op(A) = A) is k-major already; B as stored is not (its
// rows run along n). So kernel 16 reads op(B) = Bᵀ as stored directly, and for
// op(B) = B it first writes Bᵀ with a transposing pass (32×32 tiles through shared
// memory, at memory speed) into a scratch buffer, counted in the kernel's time;
// likewise for op(A) = Aᵀ. (The TMA, told that the data are TF32, rounds each float
// to the nearest TF32 value on the way; see tf32_tensor_map.)
//
// <b>The TMA: copies without registers or address arithmetic.</b> The tensor memory
// accelerator copies a whole box of a matrix (here 32 values of k × 128 rows of A,
// 32 × 256 rows of B) from global to shared memory in one instruction
// (`cp.async.bulk.tensor`, `UTMALDG` in the machine code), issued by one thread. The
// matrix's shape, strides and the box are described once on the host, in a
// <i>tensor map</i> (cuTensorMapEncodeTiled), passed to the kernel as a
// `__grid_constant__` parameter (it must stay in the parameter space, where the TMA
// reads it). The TMA checks the edges itself: parts of a box outside the matrix are
// filled with zeros, so any m, n and k work without a single index test in the loop.
//
// <b>The swizzle.</b> A tile row of 32 floats is 128 bytes, all 32 banks. Stored as
// is, the 8 rows the tensor cores read for one slice of k would all start in bank 0:
// an 8-way conflict. With the 128-byte swizzle (chosen in the tensor map and
// repeated in the descriptor), the TMA stores 16-byte chunk c of row r at chunk
// c XOR (r mod 8): the same chunk of 8 consecutive rows lands in 8 different groups
// of 4 banks, and the tensor cores undo the permutation when they read. No padding is
// needed, and the tiles must start at multiples of 1024 bytes (8 rows of 128).
//
// <b>Warp specialisation.</b> One warpgroup produces, the others consume. One thread
// of the producer warpgroup issues the TMA copies for stage after stage; two
// consumer warpgroups, each with 64 rows of the 128×256 block tile, issue the
// `wgmma`s. Nothing else runs in the main loop: no loads into registers, no address
// arithmetic beyond a descriptor increment, no `__syncthreads()`. The producer needs
// few registers and the consumers many (128 sums each), so each side resizes its
// register file at the start: `setmaxnreg.dec` to 40 for the producer and
// `setmaxnreg.inc` to 232 for the consumers (3 warpgroups × 128 threads fit in the
// SM's 64K registers only this way; the kernel is launched with a cap of 168).
//
// <b>The barriers.</b> Four stages of shared memory (48 KB each) form a ring, and two
// `mbarrier`s per stage (64-bit counters in shared memory with a phase bit) pass it
// around. <i>full</i>[s]: the producer announces how many bytes stage s will receive
// (`mbarrier.arrive.expect_tx`), the TMA counts them off as they land, and the phase
// completes when all have arrived; consumers wait on it. <i>empty</i>[s]: each
// consumer warp arrives once it no longer needs stage s (after `wgmma.wait_group`
// says the tensor cores have read it); the producer waits for all 8 before it copies
// into the stage again. A waiter names the phase it waits for by its parity, so the
// ring runs without resetting anything. One fence is needed: the barriers are
// initialised by ordinary stores (the <i>generic proxy</i>), but the TMA updates
// them through the <i>async proxy</i>, a different path to shared memory, so the
// initialising thread issues `fence.proxy.async.shared::cta` before the block's only
// `__syncthreads()`. (The tiles need no fence: the TMA writes them and the tensor
// cores read them, both in the async proxy, ordered by the barrier.)
//
// The pipeline, for a block with 4 stages (time runs to the right; step t uses stage
// t mod 4; f0 is full[0], e0 is empty[0]):
// @code
//   producer     TMA 0  TMA 1  TMA 2  TMA 3  wait e0 .............. TMA 4  wait e1 ...
//   (1 thread)   >f0    >f1    >f2    >f3                           >f0
//   consumers    wait f0 | wgmma 0 ---- | wgmma 1 ---- | wgmma 2 ---- | wgmma 3 ---- ...
//   (2 warp-                            | wait_group 1: step 0 read
//    groups)                            | arrive e0 (8 warps): the producer refills 0
// @endcode
// While the tensor cores work on step t, the copies of steps t + 1 to t + 3 are in
// flight or done: the consumers never wait for memory once the pipeline is full, and
// the producer never overwrites a stage the tensor cores still read.
//
// <b>The epilogue.</b> The sums stay in registers to the end and go to C directly: a
// thread holds, for every 8 columns of its warp's 16 rows, two neighbours in two rows,
// so 4 threads write 32 consecutive bytes. α, β and the edges are applied there.
//
// <b>Measured.</b> On an NVIDIA H100 80GB HBM3, in the full sweep of the results page
// (median of 5, cuBLAS with TF32 allowed in the same run): 307.8 TFLOP/s at
// n = 4096 and 347.1 at 8192, <b>80.7% and 84.9% of cuBLAS</b> (381.6 and 409.0), with
// the transposing pass of B counted; kernel 12 ran at 18.4 and 18.1% in the same run.
// On A·Bᵀ, the same kernel without the pass: 91.5 and 91.9%. So the pass costs
// 0.053 ms of 0.447 at 4096 (12%) and 0.24 ms of 3.17 at 8192 (8%); Nsight Compute
// times it at 50 µs at 4096, moving 2.3 TB/s (68% of the HBM's peak: it reads and
// writes 64 MB). In an earlier run of 10 repetitions: 80.0 / 85.8% with the pass,
// 90.7 / 91.8% without. The version in this file is the first that ran; the one
// change since, tensor maps of type TF32 (tf32_tensor_map), left the speed as it was.
// The machine code of the main loop is what the design promised: per stage, a wait
// on full[s] (`SYNCS.PHASECHK.TRANS64.TRYWAIT`), `WARPGROUP.ARRIVE` (the wgmma
// fence), four `HGMMA.64x256x8.F32.TF32` with a few uniform-register instructions
// between them for the descriptors, `WARPGROUP.DEPBAR.LE gsb0, 0x1` (wait_group 1)
// and one `SYNCS.ARRIVE` on empty; 168 registers at launch, no spills.
//
// <b>What limits it.</b> Nsight Compute at n = 4096: the wgmma kernel takes 452 µs
// against cuBLAS's 409 µs, with the SMs busy 80% of the time against 88.5%; DRAM is
// 28% busy (the L2 cache serves 79% of the reads), so memory does not limit either.
// cuBLAS's kernel (`sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x256x32_
// warpgroupsize2x1x1_execute_segment_k_off`) has kernel 16's block tile, 128×256×32,
// its two consumer warpgroups and its 168 registers, but runs as 132 blocks, one per
// SM, each walking many tiles of C (a persistent kernel): a tile's epilogue then
// overlaps the next tile's first copies, and the pipeline is filled once per SM
// instead of once per tile. Kernel 16 launches a block per tile (512 at 4096, 3.9
// waves of 132), and each block's tensor cores idle while its pipeline fills and
// while it writes its 128×256 sums. And cuBLAS needs no pass for A·B; how it feeds
// its n-major operand to TF32 wgmma these counters do not show. The results page's
// extensions list the next steps: a persistent grid, and the transpose inside the
// kernel.
//
// <b>The build.</b> `wgmma` and `setmaxnreg` exist only for sm_90a, the
// architecture-specific variant of Hopper's target (code for it runs on compute
// capability 9.0 and nowhere else). The course builds this one file for sm_90a when
// the configured architecture is 90 (step-4/CMakeLists.txt); built for anything else,
// the kernel's body is empty, kernel 16 is listed as not available, and its tests are
// skipped. Its machine code (`cuobjdump -sass` of the step-4 library) holds
// `HGMMA.64x256x8.F32.TF32` instructions and `UTMALDG` copies.

#include "gemm.h"
#include "kernels/tma_operands.cuh" // wgmma_available, release_wgmma_scratch

#include <cuda_runtime.h>

namespace step4
{
  // Kernel 16, any shape and both transposes. Throws std::runtime_error where
  // wgmma_available() (tma_operands.cuh) is false.
  void launch_16_wgmma_tf32(const GemmArgs<float> &g, cudaStream_t stream);
} // namespace step4
