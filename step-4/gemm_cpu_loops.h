// @sect3{The CPU loops}
//
// What the GPU kernels of this step are timed against on the host: C = A B in float on
// the CPU, written four ways, as in the 2021 course report on OpenMP matrix
// multiplication (a loop per entry, a tiled loop, and the two ways of sharing them
// among threads), and OpenBLAS, which is what a careful CPU implementation achieves.
// They differ only in the order in which they visit the same m·n·k multiply-adds, and
// that order alone makes them differ in speed by a factor of a hundred or more. They
// are products to be timed, checked like the kernels; the check itself, in double,
// is gemm_check.h.
//
// Each takes A (m x k) and B (k x n) of any sizes, multiples of the tile or not, and
// overwrites @p c with the m x n product (it may be the same object as @p a or @p b).
// A.cols() != B.rows() is refused with std::invalid_argument.
#pragma once

#include <lab/matrix.h>

namespace step4
{
  // The side of the square tiles of multiply_cache_tiled and multiply_openmp_tiles:
  // three tiles of 64 x 64 floats (one of A, B and C each) take 48 KiB, which stays in
  // a core's L2 cache. The report tried several sizes and found 64 the fastest.
  constexpr int cpu_tile = 64;

  // The textbook loop: for each entry of C, a dot product of a row of A with a column
  // of B. One core, and slow.
  void multiply_naive(const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                      lab::Matrix<float> &c);

  // The same products, tile by tile of C, with the loops inside a tile in the order
  // i-k-j. One core.
  void multiply_cache_tiled(const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                            lab::Matrix<float> &c);

  // Every core, each computing whole rows of C (i-k-j inside a row).
  void multiply_openmp_rows(const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                            lab::Matrix<float> &c);

  // Every core, each computing whole tiles of C as multiply_cache_tiled does.
  void multiply_openmp_tiles(const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                             lab::Matrix<float> &c);
} // namespace step4
