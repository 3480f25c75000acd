// Tests of kernel 20's choices (kernels/ozaki_choices.h), on the CPU, against the
// bound as 20_ozaki_int8.cuh states it, computed here on its own in long double:
// - for every ratio, spread, k, α and β tried, the bits K chosen keep the rounding
//   error within its budget and K − 1 would not, and the moduli chosen hold the
//   products with the margin and one fewer would not (the fewest that are safe);
// - the figures the pages quote: random matrices (ρ about 4, spreads k/2) get 13 moduli
//   and 43, 42 and 41 bits at k = 4096, 8192 and 16384, as the H200's console says;
// - what cannot be done is refused, with its reason;
// - C up to n = 16384 is one tile, step-5's HᵀH at 256² pixels goes in tiles of 8192,
//   and every tile's copies fit in the budget.
#include "kernels/ozaki_choices.h"

#include <lab_catch.h>

#include <cmath>

namespace
{
  using step4::ozaki::Choice;

  long double budget(int k, double alpha, double beta)
  {
    const int roundings = 1 + (alpha != 1) + (beta != 0);
    return (k + 2 - roundings) * std::ldexp(1.0L, -53) / (1 + std::ldexp(1.0L, -20));
  }

  // The bound of 20_ozaki_int8.cuh on the rounding to K bits, relative to |A||B|, with
  // the margins of the choice: 2^-(K+1) ρ (1 + k 2^-K), ρ taken with its float margin.
  bool bits_suffice(int bits, double ratio, int k, double alpha, double beta)
  {
    const long double rho = std::max(1.0L, static_cast<long double>(ratio)) * (1 + std::ldexp(1.0L, -20));
    return std::ldexp(1.0L, -bits - 1) * rho * (1 + k * std::ldexp(1.0L, -bits)) <= budget(k, alpha, beta);
  }

  // M > 2 · 2^2K (spread + k 2^-(K+1)), with the margins.
  bool moduli_suffice(int count, int bits, double spread, int k)
  {
    const long double margin = 1 + std::ldexp(1.0L, -20);
    const long double largest =
      std::ldexp(1.0L, 2 * bits) * (spread * margin + k * std::ldexp(1.0L, -bits - 1)) * margin;
    return std::log2(2 * largest) < step4::ozaki::moduli().bits[count];
  }
} // namespace

TEST_CASE("kernel 20 chooses the fewest bits and moduli that keep DGEMM's bound", "[ozaki]")
{
  int tried = 0;
  for (const int k : {1, 2, 3, 16, 63, 1000, 4096, 8192, 16384, 65536, 131071})
    for (const double ratio : {0.5, 1.0, 2.0, 4.2, 17.0, 1e3, 1e6, 1e9})
      for (const double spread : {0.5, 1.0, k / 2.0, double(k)})
        for (const auto [alpha, beta] : {std::pair{1.0, 0.0}, std::pair{-0.75, 0.0}, std::pair{1.5, 2.0}})
          {
            CAPTURE(k, ratio, spread, alpha, beta);
            const Choice c = step4::ozaki::choose(ratio, spread, k, alpha, beta);
            if (c.moduli == 0)
              {
                CHECK_FALSE(c.impossible.empty());
                // Refused only where no K up to 54 and 14 moduli would do (more bits
                // never need fewer moduli, so the fewest bits that suffice decide).
                int bits = 1;
                while (bits <= 54 && !bits_suffice(bits, ratio, k, alpha, beta))
                  ++bits;
                CHECK_FALSE((bits <= 54 && moduli_suffice(step4::ozaki::max_moduli, bits, spread, k)));
                continue;
              }
            ++tried;
            CHECK(c.impossible.empty());
            CHECK(bits_suffice(c.bits, ratio, k, alpha, beta));
            CHECK_FALSE(bits_suffice(c.bits - 1, ratio, k, alpha, beta));
            CHECK(moduli_suffice(c.moduli, c.bits, spread, k));
            if (c.moduli > 1)
              CHECK_FALSE(moduli_suffice(c.moduli - 1, c.bits, spread, k));
            CHECK(c.bits <= 54); // the residues' range (ozaki::int8_residue)
          }
  CHECK(tried > 500);
}

TEST_CASE("random matrices get 13 moduli and the bits the console shows", "[ozaki]")
{
  // ρ = 2^14 (s_i + t_j) / L_ij is about 4 for entries uniform in [-1, 1]: s, t about
  // k/2, L about k 63.5².
  const int expected_bits[] = {43, 42, 41};
  const int ks[] = {4096, 8192, 16384};
  for (int i = 0; i < 3; ++i)
    {
      const Choice c = step4::ozaki::choose(4.2, ks[i] / 2.0, ks[i], 1, 0);
      CHECK(c.moduli == 13);
      CHECK(c.bits == expected_bits[i]);
    }
}

TEST_CASE("what the scheme cannot do is refused, with its reason", "[ozaki]")
{
  CHECK(step4::ozaki::choose(4, 0.5, 1, 1.5, 2.0).moduli == 0); // k = 1, α ≠ 1, β ≠ 0: no room
  const Choice unbounded = step4::ozaki::choose(INFINITY, 10, 100, 1, 0);
  CHECK(unbounded.moduli == 0);
  CHECK(unbounded.impossible.find("cannot be bounded") != std::string::npos);
  const Choice wide = step4::ozaki::choose(1e30, 10, 100, 1, 0); // a row from 1e-12 to 1e12
  CHECK(wide.moduli == 0);
  CHECK(wide.impossible.find("the data need") != std::string::npos);
}

TEST_CASE("C is one tile up to 16384, in tiles of 8192 for step-5's H^T H at 256 x 256", "[ozaki]")
{
  using step4::ozaki::tile_side;
  CHECK(tile_side(16384, 16384, 16384) == 16384);
  CHECK(tile_side(32768, 32768, 65536) == 8192);
  CHECK(tile_side(100, 37, 5) == 1024);
  for (const int n : {1000, 4096, 16384, 32768, 65536})
    for (const int k : {1, 4096, 65536, 131071})
      {
        CAPTURE(n, k);
        const int side = tile_side(n, n, k);
        CHECK((side == 1024 ||
               step4::ozaki::scratch_bytes(std::min(side, n), std::min(side, n), k) <= step4::ozaki::scratch_budget));
        CHECK((side >= n || step4::ozaki::scratch_bytes(std::min(2 * side, n), std::min(2 * side, n), k) >
                              step4::ozaki::scratch_budget));
      }
}
