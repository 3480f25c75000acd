// Tests of kernel 20's exact arithmetic (kernels/ozaki_arithmetic.h), on the CPU, where
// every case can be reached that a random matrix on the GPU never does:
// - the moduli are pairwise coprime and each weight is 1 modulo its own modulus and 0
//   modulo the others, for every number of moduli;
// - a residue in int8 lies in −128..127 and is congruent to its number, for numbers up
//   to 2^54 in magnitude and every modulus;
// - an entry rebuilt from its products is within one unit in the last place of the true
//   integer (and equal to it below 2^53), for every number of moduli, entries from 0 to
//   the largest the margin allows, and products anywhere in the int32 range;
// and, planted, the same entries rebuilt with one modulus left out are wrong: the last
// check can fail.
#include "kernels/ozaki_arithmetic.h"

#include <lab_catch.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace
{
  using step4::ozaki::u128;
  using i128 = __int128;

  // x mod m in [0, m), for any sign of x.
  long long remainder_of(i128 x, long long m)
  {
    const i128 r = x % m;
    return static_cast<long long>(r < 0 ? r + m : r);
  }

  // A uniformly random integer of |x| < 2^bits (bits ≤ 120), either sign.
  i128 random_integer(std::mt19937_64 &random, int bits)
  {
    const u128 word = (u128(random()) << 64) | random();
    const i128 x = bits >= 127 ? i128(word >> 1) : i128(word & ((u128(1) << bits) - 1));
    return random() % 2 ? x : -x;
  }

  // The products the GPU might hand over for an entry x: any int32 congruent to it,
  // here x mod m_t plus a random multiple of m_t, as far out as int32 goes.
  std::vector<std::int32_t> products_of(i128 x, int count, std::mt19937_64 &random)
  {
    std::vector<std::int32_t> p(count);
    for (int t = 0; t < count; ++t)
      {
        const long long m = step4::ozaki::moduli().m[t];
        const long long multiples = (2147483647LL - m) / m;
        const long long j = static_cast<long long>(random() % (2 * multiples + 1)) - multiples;
        p[t] = static_cast<std::int32_t>(remainder_of(x, m) + j * m);
      }
    return p;
  }

  // Whether @p rebuilt is the integer x, or within one unit in the last place of it
  // where x needs more than 53 bits (the one rounding to double).
  bool within_one_ulp(double rebuilt, i128 x)
  {
    if (!(rebuilt == std::floor(rebuilt)) || std::fabs(rebuilt) >= 0x1p126)
      return false;
    const i128 r = static_cast<i128>(rebuilt);
    const i128 error = r > x ? r - x : x - r;
    const double magnitude = std::fabs(static_cast<double>(x));
    return magnitude < 0x1p53 ? error == 0 : static_cast<double>(error) <= std::ldexp(magnitude, -52);
  }
} // namespace

TEST_CASE("the moduli are coprime, and each weight picks its own residue", "[ozaki]")
{
  const step4::ozaki::Moduli &table = step4::ozaki::moduli();
  CHECK(table.m[0] == 256);
  for (int count = 1; count <= step4::ozaki::max_moduli; ++count)
    for (int t = 0; t < count; ++t)
      {
        for (int s = 0; s < t; ++s)
          CHECK(std::gcd(table.m[t], table.m[s]) == 1);
        for (int s = 0; s < count; ++s)
          CHECK(static_cast<long long>(table.weight[count][t] % u128(table.m[s])) == (s == t ? 1 : 0));
        CHECK(table.weight[count][t] < table.product[count]);
      }
  CHECK(table.bits[step4::ozaki::max_moduli] < 3 * step4::ozaki::piece_bits);
}

TEST_CASE("an int8 residue is in range and congruent, for numbers up to 2^54", "[ozaki]")
{
  std::mt19937_64 random(20);
  const step4::ozaki::ModuliInUse moduli = step4::ozaki::moduli_in_use(step4::ozaki::max_moduli);
  std::vector<double> numbers = {0, 1, -1, 0x1p54, -0x1p54, 0x1p54 - 1, -(0x1p54 - 1), 0x1p53 + 2, 127, 128, -128};
  for (int i = 0; i < 20000; ++i)
    numbers.push_back(static_cast<double>(random_integer(random, 1 + static_cast<int>(random() % 54))));
  for (const int m : step4::ozaki::moduli().m)
    for (long long half = -3; half <= 3; ++half) // numbers at half a modulus from a multiple
      numbers.push_back(static_cast<double>((1LL << 40) / m * m + half * m / 2));
  int wrong = 0;
  for (const double x : numbers)
    for (int t = 0; t < moduli.count; ++t)
      {
        const int r = step4::ozaki::int8_residue(x, moduli.m[t], moduli.inverse[t]);
        const long long m = static_cast<long long>(moduli.m[t]);
        wrong += r < -128 || r > 127 || remainder_of(static_cast<i128>(x) - r, m) != 0;
      }
  CHECK(wrong == 0);
}

TEST_CASE("an entry rebuilt from its products is the integer, to the last place", "[ozaki]")
{
  std::mt19937_64 random(21);
  for (int count = 1; count <= step4::ozaki::max_moduli; ++count)
    {
      CAPTURE(count);
      const step4::ozaki::Reconstruction whole = step4::ozaki::reconstruction_for(count, count);
      // The largest entry the kernel lets through: M > 2 B (1 + 2^-20) (choose() in
      // 20_ozaki_int8.cu), so |x| ≤ B < M / (2 (1 + 2^-20)).
      const u128 m = step4::ozaki::moduli().product[count];
      const i128 largest = static_cast<i128>(m / 2 - m / (u128(1) << 21)) - 1;
      std::vector<i128> candidates = {0, 1, -1, largest, -largest, largest - 1, i128(1) << 53, -(i128(1) << 53) - 1};
      const int bits = static_cast<int>(step4::ozaki::moduli().bits[count]);
      for (int i = 0; i < 3000; ++i)
        candidates.push_back(random_integer(random, 1 + static_cast<int>(random() % bits)));
      std::vector<i128> entries;
      for (const i128 x : candidates)
        if (x <= largest && x >= -largest)
          entries.push_back(x);
      int wrong = 0, wrong_without_one = 0;
      const step4::ozaki::Reconstruction without_one = step4::ozaki::reconstruction_for(count, count - 1);
      for (const i128 x : entries)
        {
          const std::vector<std::int32_t> p = products_of(x, count, random);
          const auto product = [&](int t) { return p[t]; };
          wrong += !within_one_ulp(step4::ozaki::rebuilt(whole, product), x);
          wrong_without_one += !within_one_ulp(step4::ozaki::rebuilt(without_one, product), x);
        }
      CHECK(wrong == 0);
      if (count > 1) // the planted fault: most entries come out wrong
        CHECK(wrong_without_one > static_cast<int>(entries.size()) / 2);
    }
}
