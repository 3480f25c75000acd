#pragma once
// @sect3{The base block and its inverse in one sweep, in registers}
//
// Variant 7 stops its recursion at blocks of 128 rows, and those base blocks are most
// of its panel chain: each is factorised by the one-launch kernel (four 32-column
// steps, each a warp's tile, a substitution with a quarter of the threads busy and a
// product) and then inverted by tile inverses and two products, about 95 µs in float
// on an H200 for what is 1.4 million flops, a few microseconds of one SM's peak.
// Five launches, three round trips through global memory, and steps in which most
// threads wait.
//
// Here one thread block of 512 threads does both in one launch, every entry in a
// register from the first load to the last store. The trick is to run the
// factorisation and the inversion as one elimination. Right-looking Cholesky, column k:
//    L(k, k) = sqrt(A(k, k)),  l_i = L(i, k) = A(i, k) / L(k, k)  for i > k,
//    A(i, j) -= l_i l_j                                           for k < j <= i.
// L is the product of elementary matrices E_0 E_1 ... E_{n-1}, E_k the identity with
// column k replaced by L's; so X = L^{-1} = E_{n-1}^{-1} ... E_0^{-1}, and applying
// E_k^{-1} to X, starting from X = I, is Gaussian elimination's row operation:
//    X(k, :) /= L(k, k),   X(i, :) -= l_i X(k, :)                  for i > k.
// Row k of X is zero right of column k at that point, so the row operation touches
// columns 0 ... k of X and the Cholesky update columns k+1 ... of A. Keep both in
// one array W, whose row i holds X(i, 0 ... k) left of the column being eliminated
// and A(i, k+1 ...) right of it, and step k is ONE rank-1 update of the rows below k,
//    W(i, j) -= l_i v_j,   v_j = X(k, j) / L(k, k) for j < k,  1 / L(k, k) for j = k,
//                                 l_j for j > k,
// except that W(i, k), which leaves A and enters X, starts from zero: W(i, k) = −l_i /
// L(k, k). At the end W's lower triangle is X (up to two scalings the implementation
// leaves to the output, see `eliminate`), and L is written from the columns kept.
//
// How the threads share the work: warp w owns rows 8w ... 8w + 7 and lane c columns
// c, c + 32, c + 64, c + 96, 8×4 entries each. Per step, the warp that owns row k + 1
// and the lanes that own column k + 1 copy them to shared memory, one __syncthreads(),
// and every thread reads what it needs of them (the l_i of its rows: one address for
// the whole warp, a broadcast; the v_j of its columns: 32 consecutive entries, no bank
// conflict). A warp whose rows all lie above the pivot skips the step, the whole warp
// together. Rows are copied to one of two buffers, k % 2, so that writing step k + 1's
// while slower threads still read step k's needs no second barrier; columns are kept,
// and L is written from them at the end. The upper triangle of A is never needed: v_j
// for j > k is taken from the published column, by symmetry.
//
// Written plainly, this kernel was twice as slow as the five launches it replaces: a
// step is short, and every instruction that is not a multiply-add (a condition, a
// select, a copy) is paid by all 16 warps at every one of the 128 steps. The
// implementation (base_block_in_registers.cu) is shaped by that; the results page
// tells how each change was found and what it took off.
//
// A pivot that is not positive (or NaN) stops every thread at once (they all read it
// from shared memory), reports its column in info and leaves X zero, as the tile
// inverses do (diagonal_block_inverse.cuh): the products after it then write zeros.
// Blocks of fewer than 128 rows are padded with the identity, virtually, as in tiles.cuh.

#include <cuda_runtime.h>

namespace step2
{
  // The largest block the kernel takes: 128 × 128 entries in 512 threads' registers.
  constexpr int max_register_block = 128;

  // Factorises the w×w block at a (leading dimension ld, w <= max_register_block) in
  // place, lower triangle, and writes X = L^{-1} into the lower triangle of x (leading
  // dimension ldx; its upper triangle is not written). A failing pivot at column j is
  // reported as column_offset + j + 1 in info, and X is then zero.
  template <typename T>
  void factorize_and_invert_in_registers(T *a, int w, int ld, T *x, int ldx, int *info, int column_offset,
                                         cudaStream_t stream);
} // namespace step2
