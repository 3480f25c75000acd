#pragma once
// @sect3{Variant 8: the base blocks in registers}
//
// Variant 7's chain is, at n = 16384 in float on an H200, about 1.4 ms per panel of
// 1024 columns, and 60% of that is its eight base blocks of 128 rows: each factorised
// by the one-launch kernel and inverted by tile inverses and two products, about 95 µs
// for 1.4 million flops. Variant 8 is variant 7 with one change: each base block is
// factorised and inverted at once, by one elimination, in the registers of one thread
// block (base_block_in_registers.cuh). The recursion above it, the panels and the
// look-ahead loop are variant 7's.

#include "../cholesky_variants.h"

namespace step2
{
  template <typename T>
  void factorize_8_base_block_in_registers(const CholeskyArgs<T> &args);
} // namespace step2
