#pragma once
// @sect3{Kernel 20's exact arithmetic, for the GPU and the CPU}
//
// The number theory of the Ozaki scheme II (20_ozaki_int8.cuh) in one place: the moduli
// and the weights of the Chinese remainder theorem, the remainders of a modulus in
// double, and the rebuilding of an entry from its integer products. The functions are
// LAB_HOST_DEVICE, so that the kernels of 20_ozaki_int8.cu run them and the CPU tests
// (tests/ozaki_arithmetic_test.cpp) check them on the cases a random matrix never
// reaches: every number of moduli, entries at ±M/2, entries of 0 and of 2^100, products
// of any int32 value.

#include <lab/host_device.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <utility>

namespace step4
{
  namespace ozaki
  {
    using u128 = unsigned __int128;

    // @sect3{The moduli}
    //
    // The largest pairwise coprime numbers up to 256, taken greedily from 256 down:
    // 256, 255, 253, 251, 247, 241, 239, 233, ... Large moduli carry the most bits each
    // (log2 256 = 8), so few are needed. The reconstruction below holds a weight in
    // three pieces of 37 bits, 111 bits in all, and 14 moduli (110.2 bits) fit in them.
    constexpr int max_moduli = 14;
    constexpr int piece_bits = 37;

    // A number below 2^111 as three doubles, x = x[0] 2^74 + x[1] 2^37 + x[2], each an
    // integer below 2^37 and so exact.
    using Pieces = std::array<double, 3>;

    inline Pieces pieces_of(u128 x)
    {
      const u128 mask = (u128(1) << piece_bits) - 1;
      return {double(static_cast<std::uint64_t>(x >> (2 * piece_bits))),
              double(static_cast<std::uint64_t>((x >> piece_bits) & mask)),
              double(static_cast<std::uint64_t>(x & mask))};
    }

    struct Moduli
    {
      std::array<int, max_moduli> m{};
      // For N moduli: M_N = m_1 ⋯ m_N, log2 M_N, and the weights of the reconstruction,
      // w_t = (M_N/m_t) ((M_N/m_t)⁻¹ mod m_t), so that w_t ≡ 1 mod m_t and ≡ 0 mod the others.
      std::array<u128, max_moduli + 1> product{};
      std::array<double, max_moduli + 1> bits{};
      std::array<std::array<u128, max_moduli>, max_moduli + 1> weight{};
    };

    // a⁻¹ mod m, for a and m coprime (the extended Euclidean algorithm).
    inline long long inverse_mod(long long a, long long m)
    {
      long long r0 = m, r1 = ((a % m) + m) % m, t0 = 0, t1 = 1;
      while (r1 != 0)
        {
          const long long q = r0 / r1;
          r0 -= q * r1;
          std::swap(r0, r1);
          t0 -= q * t1;
          std::swap(t0, t1);
        }
      return ((t0 % m) + m) % m;
    }

    inline const Moduli &moduli()
    {
      static const Moduli table = [] {
        Moduli t;
        int count = 0;
        for (int candidate = 256; count < max_moduli; --candidate)
          {
            bool coprime = true;
            for (int i = 0; i < count; ++i)
              coprime = coprime && std::gcd(candidate, t.m[i]) == 1;
            if (coprime)
              t.m[count++] = candidate;
          }
        t.product[0] = 1;
        for (int n = 1; n <= max_moduli; ++n)
          {
            t.product[n] = t.product[n - 1] * u128(t.m[n - 1]);
            t.bits[n] = t.bits[n - 1] + std::log2(double(t.m[n - 1]));
            for (int i = 0; i < n; ++i)
              {
                const u128 others = t.product[n] / u128(t.m[i]);
                t.weight[n][i] = others * u128(inverse_mod(static_cast<long long>(others % u128(t.m[i])), t.m[i]));
              }
          }
        return t;
      }();
      return table;
    }

    // @sect3{Exact conversions without the conversion unit}
    //
    // A GPU converts between integers and doubles in a unit that does 16 conversions per
    // clock and SM, a quarter of the rate of its double adds. The passes convert per
    // entry and per modulus, so they use the old trick instead: the double 1.5 · 2^52
    // has a unit in its last place of exactly 1, so adding any integer v with
    // |v| < 2^51 to it is exact, and v then sits in the low bits of the sum (as two's
    // complement in the low 32 bits, for |v| < 2^31). Rounding x to the nearest integer
    // is (x + 1.5 · 2^52) − 1.5 · 2^52, and one fused multiply-add rounds x·y.
    constexpr double magic = 6755399441055744.0; // 1.5 · 2^52

    LAB_HOST_DEVICE inline double nearest_integer_of_product(double x, double y) { return fma(x, y, magic) - magic; }

    // v, an integer-valued double with |v| < 2^31, as an int: the low word of v + magic.
    LAB_HOST_DEVICE inline int as_int(double v)
    {
#if defined(__CUDA_ARCH__)
      return __double2loint(v + magic);
#else
      const double shifted = v + magic;
      std::uint64_t bits = 0;
      std::memcpy(&bits, &shifted, sizeof bits);
      return static_cast<int>(static_cast<std::uint32_t>(bits));
#endif
    }

    // An int as a double: v + 2^31 as the low word of magic + 2^31 + v, minus that.
    LAB_HOST_DEVICE inline double as_double(int v)
    {
#if defined(__CUDA_ARCH__)
      return __hiloint2double(0x43380000, v ^ static_cast<int>(0x80000000)) - (magic + 2147483648.0);
#else
      const std::uint64_t bits = std::uint64_t(0x43380000) << 32 | (static_cast<std::uint32_t>(v) ^ 0x80000000u);
      double shifted = 0;
      std::memcpy(&shifted, &bits, sizeof shifted);
      return shifted - (magic + 2147483648.0);
#endif
    }

    // The moduli as the residues and the reconstruction use them.
    struct ModuliInUse
    {
      int count;
      double m[max_moduli], inverse[max_moduli];
    };

    inline ModuliInUse moduli_in_use(int count)
    {
      ModuliInUse d{count, {}, {}};
      for (int t = 0; t < count; ++t)
        {
          d.m[t] = moduli().m[t];
          d.inverse[t] = 1.0 / moduli().m[t];
        }
      return d;
    }

    // @sect3{A residue in int8}
    //
    // @p fixed is an integer of at most 2^54 in magnitude, x' = round(x 2^(K − e)) of
    // the residues pass (K ≤ 54). The remainder r = x' − m·q with q the integer nearest
    // to x'/m: q comes from x'·fl(1/m), which is off by at most 2^54 u / m < 0.01 from
    // x'/m, so r lies within ±(m/2 + 0.01 m) (and exactly: the fma computes the exact
    // value, an integer, which is representable); one correction by m brings it into
    // the int8 range −128..127. Any value congruent to x' mod m will do.
    LAB_HOST_DEVICE inline int int8_residue(double fixed, double m, double inverse)
    {
      const int r = as_int(fma(-nearest_integer_of_product(fixed, inverse), m, fixed));
      const int modulus = static_cast<int>(m);
      return r > 127 ? r - modulus : r < -128 ? r + modulus : r;
    }

    // @sect3{The reconstruction of one entry}
    //
    // An entry from its N integer products P_t: the Chinese remainder theorem gives
    // x = Σ c_t w_t mod M with c_t ≡ P_t (mod m_t), and the entry is the representative
    // of x between −M/2 and M/2.
    //
    // All of it is done exactly in double precision. c_t = P_t − m_t·round(P_t / m_t)
    // lies in [−m_t/2, m_t/2], so |c_t| ≤ 128. Each weight w_t < M < 2^111 is held in
    // three pieces of 37 bits (Pieces above): c_t times a piece is below 2^44, and the
    // three sums S_0, S_1, S_2 of at most 14 such products stay below 2^48, exact. Their
    // value S = S_0 2^74 + S_1 2^37 + S_2 satisfies |S| < 14 · 128 M < 2^11 M, so the
    // integer q nearest to S/M, from S and 1/M in double (off by less than 2^-40 from
    // S/M), is below 2^11 and makes q M_k, piece by piece, exact again. x = S − q M is
    // then D_0 2^74 + D_1 2^37 + D_2 with D_k = S_k − q M_k exact, and lies within
    // (−M/2, M/2) up to 2^-39 M, where the only representative of the true entry is
    // (the number of moduli leaves a margin for that). Last, x as one double: D_0 2^37
    // + D_1 summed exactly (Knuth's two-sum), then the 2^37 times that plus D_2 in two
    // roundings, of which the first is exact unless |x| > 2^89, so that the whole
    // conversion errs by at most u (1 + 2^-40) |x|.
    struct Reconstruction
    {
      ModuliInUse moduli;
      double weight[3][max_moduli]; // w_t = weight[0][t] 2^74 + weight[1][t] 2^37 + weight[2][t]
      double product[3];            // M in the same pieces
      double inverse_product;       // 1/M
    };

    // The reconstruction for @p count moduli, of which the first @p used take part (the
    // planted fault of the tests leaves some out).
    inline Reconstruction reconstruction_for(int count, int used)
    {
      const Moduli &table = moduli();
      Reconstruction r{moduli_in_use(used), {}, {}, 1.0 / static_cast<double>(table.product[count])};
      const Pieces product = pieces_of(table.product[count]);
      for (int piece = 0; piece < 3; ++piece)
        r.product[piece] = product[piece];
      for (int t = 0; t < used; ++t)
        {
          const Pieces w = pieces_of(table.weight[count][t]);
          for (int piece = 0; piece < 3; ++piece)
            r.weight[piece][t] = w[piece];
        }
      return r;
    }

    LAB_HOST_DEVICE inline void two_sum(double a, double b, double &sum, double &error)
    {
      sum = a + b;
      const double b_part = sum - a;
      error = (a - (sum - b_part)) + (b - b_part);
    }

    // The entry whose products are product(0), ..., product(N − 1) (int32 values).
    template <typename Products>
    LAB_HOST_DEVICE double rebuilt(const Reconstruction &r, Products product)
    {
      constexpr double two_37 = 137438953472.0, two_74 = two_37 * two_37;
      double s[3] = {0, 0, 0};
      for (int t = 0; t < r.moduli.count; ++t)
        {
          const double p = as_double(product(t));
          const double residue = fma(-nearest_integer_of_product(p, r.moduli.inverse[t]), r.moduli.m[t], p);
          for (int k = 0; k < 3; ++k)
            s[k] = fma(residue, r.weight[k][t], s[k]);
        }
      const double q = rint(fma(s[0], two_74, fma(s[1], two_37, s[2])) * r.inverse_product);
      double d[3];
      for (int k = 0; k < 3; ++k)
        d[k] = fma(-q, r.product[k], s[k]);
      double high, low;
      two_sum(d[0] * two_37, d[1], high, low);
      return fma(high, two_37, fma(low, two_37, d[2]));
    }
  } // namespace ozaki
} // namespace step4
