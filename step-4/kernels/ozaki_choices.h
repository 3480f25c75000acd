#pragma once
// @sect3{Kernel 20's choices: bits, moduli, tiles}
//
// What kernel 20 decides on the host from its bound (20_ozaki_int8.cuh explains the
// bound): how many bits K each row and column keeps, how many moduli rebuild the
// products, and how large the tiles of C are that it computes one at a time. Plain
// host code, apart from the kernels, so that the CPU tests (tests/ozaki_choices_test.cpp)
// check the figures the pages quote: 13 moduli for random matrices at 4096 to 16384, a
// single tile up to n = 16384, tiles of 8192 for step-5's HᵀH at 256² pixels.

#include "kernels/ozaki_arithmetic.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace step4
{
  namespace ozaki
  {
    // @sect3{The bits K and the number of moduli}
    //
    // 20_ozaki_int8.cuh derives the bound. The rounding to K bits may cost (k + 2 − r) u of
    // the product's |A||B|, where r ≤ 3 counts the roundings after it (the conversion of
    // x to a double, the product with α unless α = 1, the sum with β C unless β = 0), so
    // that the whole stays within DGEMM's own γ_(k+2) (the margins of 2^-20 cover the
    // 2^-40 of the conversion and the float ratio). K is then the fewest bits with
    // 2^-(K+1) ρ (1 + k 2^-K) ≤ budget, and N the fewest moduli with
    // M > 2 · 2^2K (min(max s_i, max t_j) + k 2^-(K+1)), the bound on |A'B'|, with a
    // margin of 2^-20 for the reconstruction's rounding of q.
    struct Choice
    {
      int bits = 0, moduli = 0;
      std::string impossible; // why the scheme cannot meet the bound, where it cannot
    };

    inline Choice choose(double ratio, double spread, int k, double alpha, double beta)
    {
      const double u = std::ldexp(1.0, -53), margin = 1 + std::ldexp(1.0, -20);
      const int roundings = 1 + (alpha != 1) + (beta != 0);
      const double budget = (k + 2 - roundings) * u / margin;
      if (!(budget > 0))
        return {0, 0, "k = 1 with alpha != 1 and beta != 0 leaves no room for any rounding"};
      if (!std::isfinite(ratio))
        return {0, 0, "an entry whose terms all lie below the bound's 7 bits: its error cannot be bounded"};
      // The fewest bits: from where 2^-(K+1) ρ alone meets the budget, up while the
      // factor (1 + k 2^-K) still breaks it (at most once or twice: K is at least 35
      // there, so the factor is below 1 + 2^-18). At most 54 (the residues' range:
      // ozaki::int8_residue).
      const double rho = std::max(ratio, 1.0) * margin;
      int bits = static_cast<int>(std::ceil(std::log2(rho / (2 * budget))));
      while (std::ldexp(rho, -bits - 1) * (1 + k * std::ldexp(1.0, -bits)) > budget)
        ++bits;
      if (bits > 54)
        return {bits, 0, "the data need " + std::to_string(bits) + " bits, more than 54"};
      const double needed =
        1 + 2.0 * bits + std::log2(spread * margin + k * std::ldexp(1.0, -bits - 1)) + std::log2(margin);
      for (int count = 1; count <= max_moduli; ++count)
        if (moduli().bits[count] > needed)
          return {bits, count, ""};
      return {bits, 0,
              "the data need " + std::to_string(bits) + " bits, more than " + std::to_string(max_moduli) +
                " moduli can hold"};
    }

    // @sect3{Tiles of C, for memory}
    //
    // The scheme keeps up to 14 int8 copies of both operands and 14 int32 products: at
    // m = n = 32768 and k = 65536 (step-5's HᵀH at 256 × 256 pixels) 112 GB, more than
    // the GPU holds beside the operands. Each square tile of C is a product of its own
    // (its rows of op(A), its columns of op(B), all of k), with its own bound, bits and
    // moduli, so kernel 20 computes C tile by tile: the side the largest power of two,
    // from max(m, n) down, whose copies fit in scratch_budget (24 GiB: n = 16384 is then
    // one tile), and at least 1024. Then the tiles' copies of an operand are made once per
    // tile of the other, a pass over n²-sized data more per tile: nothing beside the
    // integer products. Tiles whose copies do not fit in the GPU's free memory fall back
    // to the double kernel (20_ozaki_int8.cu).
    constexpr double scratch_budget = 24.0 * (1 << 30);

    inline double scratch_bytes(int rows, int columns, int k)
    {
      const double padded = (k + 15) / 16 * 16, ld = (columns + 3) / 4 * 4;
      return max_moduli * ((double(rows) + columns) * padded + 4.0 * rows * ld);
    }

    inline int tile_side(int m, int n, int k)
    {
      int side = 1024;
      while (side < std::max(m, n))
        side *= 2;
      while (side > 1024 && scratch_bytes(std::min(side, m), std::min(side, n), k) > scratch_budget)
        side /= 2;
      return side;
    }
  } // namespace ozaki
} // namespace step4
