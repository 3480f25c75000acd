#pragma once
// @sect3{Kernel 14: double precision on the FP64 tensor cores}
//
// Kernel 13 computes in double on the SM's ordinary FP64 units, and reaches about a
// third of cuBLAS's DGEMM. The reason is not in its code: since the A100 (compute
// capability 8.0), the tensor cores also multiply in double, and DGEMM runs on them.
// On an H100 they deliver about 67 TFLOP/s against the ordinary units' 34. Unlike
// kernel 12's TF32, nothing is given up for that speed: every input is a full
// double and every multiply-add is rounded as a double fused multiply-add, so
// kernel 14 is checked with the same (k+2)ε tolerance as kernel 13 and cuBLAS.
//
// The instruction is `mma.sync` with `.f64` operands (DMMA in the machine code):
// the 32 threads of a warp together multiply an m×k fragment of A by a k×n fragment
// of B and add the m×n product to a fragment of C that lives in their registers.
// The A100 offers one shape, m8n8k4 (8×4 times 4×8, 512 flops); Hopper (sm_90) adds
// m16n8k4, m16n8k8 and m16n8k16 (16×16 times 16×8, 4096 flops in one instruction).
// WMMA, which kernel 12 used, only knows m8n8k4 for double and hides where the
// values lie, so this kernel writes the instruction itself, in inline PTX (the
// assembly language that nvcc compiles CUDA C++ to), and loads the fragments itself.
//
// <b>The fragment layout.</b> The PTX manual fixes which thread holds which value.
// Number the lanes of the warp 0 to 31 and split each lane number into
// g = lane / 4 (the group, 0 to 7) and t = lane % 4 (the thread in its group, 0
// to 3). For m16n8kK (K = 4, 8 or 16), a thread holds
// - of A (16×K): the K/2 values in rows g and g + 8, columns t, t + 4, t + 8, ...;
// - of B (K×8): the K/4 values in column g, rows t, t + 4, t + 8, ...;
// - of C (16×8): the 4 values in rows g and g + 8, columns 2t and 2t + 1.
// m8n8k4 is the top half of m16n8k4: row g, column t of A; row t, column g of B.
// So a warp covers the 16 rows of its A fragment as eight groups of 4 threads, and
// the K columns in steps of 4 across each group; B the same way round.
//
// <b>Which shape.</b> A larger shape is fewer instructions for the same flops (one
// m16n8k16 does the work of eight m8n8k4), so m16n8k16 looks like the obvious
// choice. Measured on an H100, it is not: the issue slots are not what is short (a
// DMMA m16n8k4 keeps a tensor core busy for 16 cycles at the peak rate, plenty of
// time to issue others), registers are. A warp needs the fragments of the next DMMA step in
// registers while the current step runs (below), and a deeper step means larger
// fragments: with k = 8 they no longer fit beside the sums, the compiler spills, and
// the kernel ran 8 to 12 points of cuBLAS slower (with k = 16, at a tenth of the
// speed). m16n8k4 keeps the fragments small (A 2, B 1 double per fragment) and was
// the fastest in every configuration tried; the A100's m8n8k4 ran at less than half
// the speed of m16n8k4 on the H100 (40 to 48% of cuBLAS, against 76 to 82%). The
// shape is a template parameter of the kernel, so each can be tried in one line. The
// launcher uses m16n8k4 on Hopper and m8n8k4 on the A100 and its relatives (sm_80 to
// sm_89). The PTX of the Hopper shapes only exists for sm_90 and newer, so it is
// compiled only there (`#if __CUDA_ARCH__ >= 900`): for an older target the
// instruction is left out and the launcher, which asks the runtime what the kernel
// was compiled for, never launches it.
//
// <b>Shared memory without bank conflicts.</b> Around the tensor cores the kernel is
// kernel 12's pipeline: tiles of A and B travel by `cp.async` into several stages of
// shared memory (four, so that the tiles of the next three steps are always on
// their way), and the warps load their fragments from there. `cp.async` copies bytes
// as they lie in global memory; it cannot transpose. So each tile keeps the layout of
// its matrix: A is k-major (op(A) = A, rows of A are rows of the tile) or m-major
// (op(A) = Aᵀ), and likewise B. The transposes become compile-time template
// parameters, and every combination gets its own kernel with its own index
// arithmetic, at full speed. In every layout the fragment loads of half a warp read
// four doubles that are consecutive in a tile row, from four different tile rows
// (rows g and columns t in a k-major tile, rows t and columns g in the other). If
// each tile row is padded by 4 doubles (32 bytes, so that a row is a multiple of 16
// doubles plus 4), consecutive rows start 32 bytes further along the 128 bytes of
// the banks, and the 16 reads of a half-warp fall into 16 different pairs of banks:
// one wavefront, no conflict, in all four layouts. The padding keeps every row
// 16-byte aligned, as `cp.async` needs.
//
// <b>Hiding the latencies.</b> The tensor cores only run at full speed if a DMMA
// is always ready to issue. Three things in the main loop see to it: the tiles of
// the next stages travel while a stage is used; within a stage, the fragments of the
// next DMMA step are loaded from shared memory into a second set of registers while
// the current step's DMMAs run; and the code around the barrier has no branches, so
// that the compiler can interleave the copies' address arithmetic with the DMMAs. Each
// of them was measured (the kernel's comments give the figures). So were the warps:
// a block of 16 warps, each with a 32×32 tile of C (2×4 fragments, 32 doubles per
// thread), beat 8 warps with 64×32 tiles, although every warp then reads more from
// shared memory per flop: more warps hide more latency. 16 warps (512 threads) may
// use at most 128 registers per thread (64K registers per SM), which the 32×32 tile
// fits.
//
// <b>The rest.</b> The C fragments go from the registers to global memory directly,
// as the layout says, with α, β and the edge checks (a thread's two values of a row
// are neighbours, so a group of four threads writes 64 consecutive bytes). Tiles
// that hang over the edges of A and B are filled with zeros by the copy, as in
// kernels 10 to 12, and misaligned matrices are copied element by element. Finally,
// the blocks walk C in bands of 8 tile rows rather than row by row: a wave of blocks
// then reads a few panels of A and of B instead of one panel of A and all of B, which
// with doubles (twice the bytes per flop of float) was worth 5% at n = 4096 and 16%
// at 8192.
//
// <b>What limits it.</b> On an H100, kernel 14 reaches 76 to 82% of cuBLAS's DGEMM
// at n = 4096 and 8192 (the results page). Nsight Compute shows its tensor cores busy
// 72% of the time, and cuBLAS's 98%. cuBLAS's kernel (its name says
// `tilesize128x64x16_stage3_warpsize2x2x1_tensor16x8x8`) uses 4 warps of 64×32 with
// m16n8k8, 246 registers per thread and two blocks per SM: fewer warps, larger
// fragments and larger warp tiles, with instruction scheduling that the CUDA
// compiler does not find for this code (the same configuration of kernel 14 spills
// registers and ran at 59 to 61%). Kernel 19 is what came of it: the copies by the
// TMA, no block-wide barrier, and then cuBLAS's warp tile fits.

#include "gemm.h"

#include <cuda_runtime.h>

namespace step4
{
  // Whether kernel 14 can run here: a GPU with FP64 tensor cores (compute capability
  // 8.0 or newer) and a build that contains the instructions for it. Asked once, the
  // answer is kept.
  bool fp64_tensor_cores_available();

  // Kernel 14. Throws std::runtime_error where fp64_tensor_cores_available() is false.
  void launch_14_tensor_cores_fp64(const GemmArgs<double> &g, cudaStream_t stream);
} // namespace step4
