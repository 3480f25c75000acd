#pragma once
// @sect3{The diagonal block and its inverse, by halves}
//
// Variant 5's panel chain is three pieces, one after the other, each with the rest of
// the GPU waiting for it at the end of the factorisation: the nb×nb diagonal block
// factorised by one thread block (about 0.6 ms at nb = 512 in float on an H200), its
// inverse X = L_11^{-1} (64×64 tile inverses, then two products per block row of
// tiles), and the product that solves the panel below. The first piece does all its
// flops on one SM; the second does most of its own in products that are small but
// spread over many SMs.
//
// Splitting the block in two halves turns most of the first piece's flops into
// products as well. With A = [A_11 0; A_21 A_22] and L, X = L^{-1} split alike:
//  1. L_11 and X_11 from A_11, by the same function (recursion);
//  2. L_21 = A_21 X_11^T, a product (A_21 copied aside first: a product does not
//     overwrite its own input);
//  3. A_22 -= L_21 L_21^T, a product (whole square: its upper half is scratch);
//  4. L_22 and X_22 from A_22 (recursion);
//  5. X_21 = -X_22 (L_21 X_11), two products: from L X = I, L_21 X_11 + L_22 X_21 = 0.
// The halves shrink until a block has at most base_block_rows rows; that one is
// factorised by the one-launch kernel (diagonal_block_one_kernel.cuh) and inverted as
// before (diagonal_block_inverse.cuh), or, in variant 8, both at once in the registers
// of one thread block (base_block_in_registers.cuh). Every piece still waits for the
// one before, but the one-SM kernel now runs on blocks of base rows, where it is short,
// and the flops of the upper levels run on as many SMs as their products fill.
//
// A failing pivot stops the recursion's kernels as it stops variant 4's: the inverse
// of the failed block is zero (diagonal_block_inverse.cuh), so the products that
// follow write zeros, never NaN.

#include <lab/gemm.h>

#include <cuda_runtime.h>

namespace step2
{
  // How the recursion's smallest blocks are factorised and inverted.
  enum class BaseBlock
  {
    one_launch_then_tile_inverses, // variant 7
    in_registers                   // variant 8
  };

  // Where the recursion stops. Measured on an H200 for a block of 512 rows with the
  // one-launch kernel: 128 is the fastest in float and double (443 and 685 µs), ahead
  // of 256 (460 and 784 µs) and of 64 (575 and 758 µs, where the small products'
  // launches dominate); 128 is also the most the registers hold.
  constexpr int base_block_rows = 128;

  // Factorises the w×w block at a (leading dimension ld) in place and writes
  // X = L^{-1} into x (leading dimension ldx), whose upper triangle must be zero on
  // entry. `scratch` holds w·w entries. A failing pivot at column j of the block is
  // reported as column_offset + j + 1 in info.
  template <typename T>
  void factorize_and_invert_by_halves(T *a, int w, int ld, T *x, int ldx, T *scratch, int *info,
                                      int column_offset, BaseBlock base, const lab::Gemm<T> &gemm,
                                      cudaStream_t stream);
} // namespace step2
