#pragma once
// @sect3{The diagonal block in one launch}
//
// Variant 4 factorises its nb×nb diagonal blocks with variant 3's tile algorithm: for
// nb = 512, eight 64-column steps of three launches each, each launch a few dozen
// microseconds of mostly serial work in one or a few thread blocks. Measured on an H100
// at n = 16384, these 24 launches per panel add up to about 30 ms, more than half of the
// whole factorisation: the panel chain, not the products, sets the pace. Here the
// whole diagonal block is factorised by one thread block in one launch, 32 columns at a
// time, with no launch gaps and no round trips through global memory that a launch
// boundary would force:
//  1. the 32×32 diagonal tile by one warp, in registers: lane r holds row r, and the
//     pivot column is passed between lanes by warp shuffles (`__shfl_sync`), so the 32
//     column steps need no synchronisation of the block at all;
//  2. the rows below it, L_21 = A_21 L_11^{-T}, one row per thread, by forward
//     substitution against the tile, which all threads read from shared memory (the
//     same entry at the same time: a broadcast);
//  3. the rest of the block loses L_21 L_21^T, lower triangle only, each thread a 4×4
//     block of entries (register blocking, as in variant 3), from a copy of L_21 in
//     shared memory, stored transposed so that a thread's four rows are one vector
//     load.
// One thread block uses one of the GPU's 132 SMs; the point is not throughput but a
// short chain, while the other SMs are busy with the trailing update of the previous
// panel (variant 5's look-ahead). Measured at n = 16384, nb = 512, float: all diagonal
// blocks take 19 ms this way, against 30 ms as variant 3's chain of launches. That is
// still far from what one SM can do (the kernel reaches about a fifth of an SM's FP32
// peak): the serial steps 1 and 2 and the waits for memory leave the SM idle much of
// the time. A faster diagonal block (more SMs through thread block clusters, or a
// recursive split whose off-diagonal parts are products) is an extension to try.
// Blocks up to max_diagonal_block rows (L_21's copy must fit in shared memory).

#include "tiles.cuh"

namespace step2
{
  constexpr int max_diagonal_block = 512;

  // Factorises the n×n block at a (n <= max_diagonal_block) in place, lower triangle;
  // a failing pivot is reported as column column_offset + j + 1 in info.
  template <typename T>
  void factorize_diagonal_block_one_kernel(T *a, int n, int ld, int *info, int column_offset,
                                           cudaStream_t stream);
} // namespace step2
