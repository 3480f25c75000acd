#include "kernels/20_ozaki_int8.cuh"

#include "gemm_kernels.h"

#include <lab/cublas_gemm.h>
#include <lab/cuda_check.h>
#include <lab/device_buffer.h>

#include <cublas_v2.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>

namespace step4
{
  namespace
  {
    using u128 = unsigned __int128;
    using i128 = __int128;

    // @sect3{The moduli}
    //
    // The largest pairwise coprime numbers up to 256, taken greedily from 256 down:
    // 256, 255, 253, 251, 247, 241, 239, 233, ... Large moduli carry the most bits each
    // (log2 256 = 8), so few are needed. 128-bit integers rebuild at most 14 of them:
    // the reconstruction sums N terms below 256 M each, which must stay below 2^127.
    constexpr int max_moduli = 14;

    struct Moduli
    {
      std::array<int, max_moduli> m{};
      // For N moduli: M_N = m_1 ⋯ m_N, and the weights of the reconstruction.
      std::array<u128, max_moduli + 1> product{};
      std::array<std::array<u128, max_moduli>, max_moduli + 1> weight{};
      std::array<double, max_moduli + 1> bits{}; // log2 M_N
    };

    // a⁻¹ mod m, for a and m coprime (the extended Euclidean algorithm).
    long long inverse_mod(long long a, long long m)
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

    const Moduli &moduli()
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

    // @sect3{An operand as lines}
    //
    // Both operands are handled as n_lines lines of k numbers: the rows of op(A) and
    // the columns of op(B), whatever their storage. Entry p of line l is at
    // x[l * ld + p] where a line is a stored row, else at x[p * ld + l].
    struct Lines
    {
      const double *x;
      int ld;
      bool line_is_row;
      int count, length;

      __device__ double at(int line, int p) const
      {
        return line_is_row ? x[static_cast<long>(line) * ld + p] : x[static_cast<long>(p) * ld + line];
      }
    };

    Lines rows_of_a(const GemmArgs<double> &g)
    {
      return {g.a, g.lda, g.shape.op_a == Op::none, g.shape.m, g.shape.k};
    }
    Lines columns_of_b(const GemmArgs<double> &g)
    {
      return {g.b, g.ldb, g.shape.op_b != Op::none, g.shape.n, g.shape.k};
    }

    // The kernels below walk an operand in tiles of 32 lines × 32 positions: the tile
    // is read as stored (32 neighbouring threads, 32 neighbouring addresses, whichever
    // way the lines run), through shared memory, and each warp then takes one line of
    // the tile. The int8 copies are written line by line, k contiguous.
    constexpr int tile = 32;

    __device__ double load_tile_entry(const Lines &lines, double (&t)[tile][tile + 1], int line0, int p0)
    {
      // Thread (x, y) reads stored row y, column x of the tile.
      const int x = threadIdx.x, y = threadIdx.y;
      const int line = lines.line_is_row ? line0 + y : line0 + x, p = lines.line_is_row ? p0 + x : p0 + y;
      double value = 0;
      if (line < lines.count && p < lines.length)
        value = lines.at(line, p);
      if (lines.line_is_row)
        t[y][x] = value;
      else
        t[x][y] = value;
      __syncthreads();
      return t[y][x]; // line line0 + y, position p0 + x
    }

    // A line's largest |x| as line_statistics keeps it: the bits of the double.
    __device__ double as_double(unsigned long long bits) { return __longlong_as_double(static_cast<long long>(bits)); }

    // @sect3{Pass 1: each line's largest entry and sum}
    //
    // Per line: the largest |x| (as the bits of a non-negative double, whose order is
    // the numbers' order, so that atomicMax on them takes the maximum), Σ|x|, and a flag
    // for NaN or infinity anywhere.
    __global__ void line_statistics(Lines lines, unsigned long long *largest, double *sum, int *not_finite)
    {
      __shared__ double t[tile][tile + 1];
      const int line0 = blockIdx.x * tile, p0 = blockIdx.y * tile;
      const double value = fabs(load_tile_entry(lines, t, line0, p0));
      if (!isfinite(value))
        atomicOr(not_finite, 1);
      double big = isfinite(value) ? value : 0, total = big;
      for (int offset = 16; offset > 0; offset /= 2)
        {
          big = fmax(big, __shfl_down_sync(0xffffffff, big, offset));
          total += __shfl_down_sync(0xffffffff, total, offset);
        }
      const int line = line0 + threadIdx.y;
      if (threadIdx.x == 0 && line < lines.count)
        {
          atomicMax(&largest[line], static_cast<unsigned long long>(__double_as_longlong(big)));
          atomicAdd(&sum[line], total);
        }
    }

    // @sect3{Pass 2: the magnitudes, for the bound}
    //
    // floor(127 |x| / largest) in int8: a lower bound of |x| in units of largest / 127.
    __global__ void magnitudes(Lines lines, const unsigned long long *largest, int padded, std::int8_t *out)
    {
      __shared__ double t[tile][tile + 1];
      const int line0 = blockIdx.x * tile, p0 = blockIdx.y * tile;
      const double value = fabs(load_tile_entry(lines, t, line0, p0));
      const int line = line0 + threadIdx.y, p = p0 + threadIdx.x;
      if (line < lines.count && p < padded)
        {
          const double top = as_double(largest[line]);
          out[static_cast<long>(line) * padded + p] = top > 0 ? static_cast<std::int8_t>(floor(127 * (value / top))) : 0;
        }
    }

    // The largest ρ_ij (see the header) of the bound L = magnitudes(A) · magnitudes(B),
    // as bits for atomicMax; infinity where L_ij = 0 though neither line is zero. Each
    // warp takes the maximum of many entries before its one atomic: with a warp per
    // 256 entries, the atomics on the one address took longer than the rest.
    __global__ void largest_ratio(const std::int32_t *bound, int ld, int m, int n, const unsigned long long *largest_a,
                                  const double *sum_a, const unsigned long long *largest_b, const double *sum_b,
                                  unsigned long long *result)
    {
      double worst = 0;
      for (int i = blockIdx.y; i < m; i += gridDim.y)
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x)
          {
            const double alpha = as_double(largest_a[i]);
            const double beta = as_double(largest_b[j]);
            if (alpha == 0 || beta == 0)
              continue; // a zero line: its entries of C are exact zeros
            const double spread = fmax(sum_a[i] / alpha, sum_b[j] / beta);
            const std::int32_t l = bound[static_cast<long>(i) * ld + j];
            worst = fmax(worst, l > 0 ? 127.0 * 127.0 * spread / l : INFINITY);
          }
      for (int offset = 16; offset > 0; offset /= 2)
        worst = fmax(worst, __shfl_down_sync(0xffffffff, worst, offset));
      if (threadIdx.x % 32 == 0)
        atomicMax(result, static_cast<unsigned long long>(__double_as_longlong(worst)));
    }

    // @sect3{Remainders in double}
    //
    // A remainder by a modulus known only at run time is expensive in integers: a GPU
    // has no integer divider, and the compiler's division routine costs some 30
    // instructions, 13 of them per entry. In double it costs a handful. @p v is an
    // integer below 2^62 in magnitude, exactly representable (it has at most 53
    // significant bits); q = ⌊v/m⌋ from a product with 1/m may be off by a few units,
    // but v − q m is then a small integer, which fma computes exactly (the exact
    // value is representable, so its one rounding changes nothing). A second round on
    // that small remainder is exact all the way, and leaves r in [0, m).
    __device__ int remainder_of(double v, double m, double inverse)
    {
      double r = fma(-floor(v * inverse), m, v);
      r = fma(-floor(r * inverse), m, r);
      return static_cast<int>(r < 0 ? r + m : r >= m ? r - m : r);
    }

    // The same for |v| < 2^31, an int32 product: the quotient is then off by one at
    // most, and one round leaves r in (−m, 2m).
    __device__ int remainder_of_small(double v, double m, double inverse)
    {
      const double r = fma(-floor(v * inverse), m, v);
      return static_cast<int>(r < 0 ? r + m : r >= m ? r - m : r);
    }

    // The moduli as the kernels use them.
    struct ModuliOnDevice
    {
      int count;
      double m[max_moduli], inverse[max_moduli];
    };

    // @sect3{Pass 3: the residues}
    //
    // x' = round(x 2^s) with s = K − e, 2^(e−1) ≤ largest < 2^e, so |x'| ≤ 2^K (and K
    // is below 55: 14 moduli, 111 bits, hold no more than 2K + log2 k + 1); then x' mod
    // m_t for every modulus, as int8 (−128 to 127: any value congruent to the remainder
    // will do).
    __global__ void residues(Lines lines, const unsigned long long *largest, int bits, ModuliOnDevice moduli,
                             int padded, long stride, std::int8_t *out)
    {
      __shared__ double t[tile][tile + 1];
      const int line0 = blockIdx.x * tile, p0 = blockIdx.y * tile;
      const double value = load_tile_entry(lines, t, line0, p0);
      const int line = line0 + threadIdx.y, p = p0 + threadIdx.x;
      if (line >= lines.count || p >= padded)
        return;
      const double top = as_double(largest[line]);
      int exponent = 0;
      frexp(top, &exponent);
      const double fixed = top > 0 ? rint(ldexp(value, bits - exponent)) : 0;
      for (int t = 0; t < moduli.count; ++t)
        {
          const int r = remainder_of(fixed, moduli.m[t], moduli.inverse[t]);
          out[t * stride + static_cast<long>(line) * padded + p] =
            static_cast<std::int8_t>(r >= 128 ? r - static_cast<int>(moduli.m[t]) : r);
        }
    }

    // @sect3{Pass 4: the reconstruction}
    //
    // Entry (i, j) from its N products: x = Σ c_t w_t mod M (c_t the product reduced
    // mod m_t), then x − M if x > M/2, times 2^-(s_i + t_j), times α, plus β C.
    //
    // The arithmetic is 128-bit, but every product in it has one small factor: c_t is
    // below 256, and the quotient q = ⌊Σ/M⌋ below N·256 < 2^12 (each term is below
    // 256 M). A 64-bit number times a 128-bit one is two 64-bit multiplications (the low
    // and the high half of the first word's product, and the second word's), where a
    // general 128-bit product is a routine of its own. q itself comes from the quotient
    // in double: its relative error of 2^-52 on a number below 2^12 moves it by less
    // than one, so at most one correction follows.
    struct Reconstruction
    {
      ModuliOnDevice moduli;
      u128 weight[max_moduli];
      u128 product;
      double inverse_product; // 1/M
    };

    __device__ u128 times_small(unsigned long long small, u128 x)
    {
      const unsigned long long low = static_cast<unsigned long long>(x), high = static_cast<unsigned long long>(x >> 64);
      return (u128(__umul64hi(small, low) + small * high) << 64) + small * low;
    }

    __device__ double to_double(u128 x)
    {
      return ldexp(double(static_cast<unsigned long long>(x >> 64)), 64) + double(static_cast<unsigned long long>(x));
    }

    __global__ void reconstruct(const std::int32_t *products, long stride, int ld_products, Reconstruction r,
                                const unsigned long long *largest_a, const unsigned long long *largest_b, int bits,
                                double alpha, double beta, double *c, int ldc, int m, int n, bool lower_only)
    {
      // A row of C per block row of the grid, its columns across the threads (no
      // division to find (i, j): a 64-bit one costs as much as the rest of an entry).
      for (int i = blockIdx.y; i < m; i += gridDim.y)
        {
          int ea = 0;
          frexp(as_double(largest_a[i]), &ea);
          for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < (lower_only ? min(n, i + 1) : n);
               j += gridDim.x * blockDim.x)
            {
              u128 sum = 0;
              for (int t = 0; t < r.moduli.count; ++t)
                {
                  const double product = products[t * stride + static_cast<long>(i) * ld_products + j];
                  sum += times_small(remainder_of_small(product, r.moduli.m[t], r.moduli.inverse[t]), r.weight[t]);
                }
              const auto quotient = static_cast<unsigned long long>(to_double(sum) * r.inverse_product);
              i128 x = i128(sum) - i128(times_small(quotient, r.product));
              if (x < 0)
                x += i128(r.product);
              else if (x >= i128(r.product))
                x -= i128(r.product);
              if (x > i128(r.product >> 1))
                x -= i128(r.product);
              const double magnitude = to_double(u128(x < 0 ? -x : x));
              int eb = 0;
              frexp(as_double(largest_b[j]), &eb);
              const double value = ldexp(x < 0 ? -magnitude : magnitude, (ea - bits) + (eb - bits));
              double &out = c[static_cast<long>(i) * ldc + j];
              out = beta == 0 ? alpha * value : alpha * value + beta * out;
            }
        }
    }

    // @sect3{The memory kept between calls}
    struct Scratch
    {
      lab::DeviceBuffer<std::int8_t> a{0}, b{0};
      lab::DeviceBuffer<std::int32_t> products{0};
      lab::DeviceBuffer<unsigned long long> largest{0};
      lab::DeviceBuffer<double> sums{0};
      lab::DeviceBuffer<int> flags{0};
      lab::DeviceBuffer<unsigned long long> ratio{0};

      template <typename T>
      static void at_least(lab::DeviceBuffer<T> &buffer, std::size_t count)
      {
        if (buffer.count() < count)
          buffer = lab::DeviceBuffer<T>(count);
      }
    };

    Scratch &scratch()
    {
      static Scratch s;
      return s;
    }

    lab::Cublas &integer_products()
    {
      static lab::Cublas cublas;
      return cublas;
    }

    OzakiReport &report()
    {
      static OzakiReport r;
      return r;
    }

    // A grid for the m × n entries of C: blocks of 256 threads across a row, rows in
    // the grid's second dimension (at most 65535; a block row then takes several rows).
    dim3 entries_grid(int m, int n) { return dim3((n + 255) / 256, std::min(m, 65535)); }

    dim3 tiles_of(const Lines &lines, int padded)
    {
      return dim3((lines.count + tile - 1) / tile, (padded + tile - 1) / tile);
    }

    // C (m × n in int32, by rows, leading dimension ld) = op(A) op(B) for int8 copies
    // stored with k contiguous per line. cuBLAS counts by columns: to it, C by rows is
    // Cᵀ (n × m) = op(B)ᵀ op(A)ᵀ, the columns of op(B) are a k × n matrix to be
    // transposed (T) and the rows of op(A) the k × m matrix op(A)ᵀ as it is (N): the
    // "TN" form, the one its integer tensor-core kernels take (measured on an H200 at
    // n = 8192: 1543 TOPS, against 127 for the same product in the NN form).
    // The handle is the one of integer_products(), bound to the product's stream once
    // for all of its integer products.
    void integer_product(cublasHandle_t handle, const std::int8_t *rows_of_a, const std::int8_t *columns_of_b, int m,
                         int n, int padded, std::int32_t *c, int ld)
    {
      const std::int32_t one = 1, zero = 0;
      LAB_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, padded, &one, columns_of_b, CUDA_R_8I, padded,
                             rows_of_a, CUDA_R_8I, padded, &zero, c, CUDA_R_32I, ld, CUBLAS_COMPUTE_32I,
                             CUBLAS_GEMM_DEFAULT));
    }

    void fall_back(const GemmArgs<double> &g, cudaStream_t stream, const std::string &why)
    {
      report() = {0, 0, why};
      gemm(g, stream);
    }
  } // namespace

  void ozaki_product(const GemmArgs<double> &g, cudaStream_t stream, int moduli_left_out)
  {
    const int m = g.shape.m, n = g.shape.n, k = g.shape.k;
    if (m == 0 || n == 0 || k == 0 || g.alpha == 0)
      return fall_back(g, stream, "nothing to multiply");
    if (k >= (1 << 17))
      return fall_back(g, stream, "k >= 2^17: int32 sums could overflow");

    // The int8 copies hold k contiguous per line, k rounded up to 16 (zeros past it)
    // as cuBLAS's integer kernels want, and so does the int32 product's row.
    const int padded = (k + 15) / 16 * 16, ld = (n + 3) / 4 * 4;
    const Lines a = rows_of_a(g), b = columns_of_b(g);
    Scratch &s = scratch();
    Scratch::at_least(s.largest, std::size_t(m) + n);
    Scratch::at_least(s.sums, std::size_t(m) + n);
    Scratch::at_least(s.flags, 1);
    Scratch::at_least(s.ratio, 1);
    unsigned long long *largest_a = s.largest.data(), *largest_b = largest_a + m;
    double *sum_a = s.sums.data(), *sum_b = sum_a + m;
    LAB_CHECK(cudaMemsetAsync(s.largest.data(), 0, (std::size_t(m) + n) * sizeof(unsigned long long), stream));
    LAB_CHECK(cudaMemsetAsync(s.sums.data(), 0, (std::size_t(m) + n) * sizeof(double), stream));
    LAB_CHECK(cudaMemsetAsync(s.flags.data(), 0, sizeof(int), stream));
    LAB_CHECK(cudaMemsetAsync(s.ratio.data(), 0, sizeof(unsigned long long), stream));
    const dim3 threads(tile, tile);
    line_statistics<<<tiles_of(a, k), threads, 0, stream>>>(a, largest_a, sum_a, s.flags.data());
    LAB_CHECK_LAUNCH();
    line_statistics<<<tiles_of(b, k), threads, 0, stream>>>(b, largest_b, sum_b, s.flags.data());
    LAB_CHECK_LAUNCH();

    // The bound: one integer product of the magnitudes.
    Scratch::at_least(s.a, std::size_t(m) * padded);
    Scratch::at_least(s.b, std::size_t(n) * padded);
    Scratch::at_least(s.products, std::size_t(m) * ld);
    magnitudes<<<tiles_of(a, padded), threads, 0, stream>>>(a, largest_a, padded, s.a.data());
    LAB_CHECK_LAUNCH();
    magnitudes<<<tiles_of(b, padded), threads, 0, stream>>>(b, largest_b, padded, s.b.data());
    LAB_CHECK_LAUNCH();
    lab::Cublas &cublas = integer_products();
    cublas.bind(stream);
    integer_product(cublas.get(), s.a.data(), s.b.data(), m, n, padded, s.products.data(), ld);
    largest_ratio<<<dim3((n + 255) / 256, std::min(m, 64)), 256, 0, stream>>>(
      s.products.data(), ld, m, n, largest_a, sum_a, largest_b, sum_b, s.ratio.data());
    LAB_CHECK_LAUNCH();
    int not_finite = 0;
    unsigned long long ratio_bits = 0;
    LAB_CHECK(cudaMemcpyAsync(&not_finite, s.flags.data(), sizeof(int), cudaMemcpyDeviceToHost, stream));
    LAB_CHECK(cudaMemcpyAsync(&ratio_bits, s.ratio.data(), sizeof ratio_bits, cudaMemcpyDeviceToHost, stream));
    LAB_CHECK(cudaStreamSynchronize(stream));
    if (not_finite)
      return fall_back(g, stream, "NaN or infinity in the inputs");

    // The bits and the moduli (see the header).
    double ratio = 0;
    std::memcpy(&ratio, &ratio_bits, sizeof ratio);
    const double unit_roundoff = std::ldexp(1.0, -53);
    const int bits =
      static_cast<int>(std::ceil(std::log2(std::max(ratio, 1.0)) + std::log2(2 / ((k + 1) * unit_roundoff))));
    const double needed = 2.0 * bits + std::log2(double(k)) + 1;
    const Moduli &table = moduli();
    int count = 1;
    while (count <= max_moduli && table.bits[count] <= needed)
      ++count;
    if (!std::isfinite(ratio) || count > max_moduli)
      return fall_back(g, stream,
                       "the data need " + (std::isfinite(ratio) ? std::to_string(bits) + " bits" : "unbounded bits") +
                         ", more than " + std::to_string(max_moduli) + " moduli can hold");

    // The residues and their products.
    const std::size_t stride_a = std::size_t(m) * padded, stride_b = std::size_t(n) * padded,
                      stride_c = std::size_t(m) * ld;
    Scratch::at_least(s.a, stride_a * count);
    Scratch::at_least(s.b, stride_b * count);
    Scratch::at_least(s.products, stride_c * count);
    const auto on_device = [&](int used) {
      ModuliOnDevice d{used, {}, {}};
      for (int t = 0; t < used; ++t)
        {
          d.m[t] = table.m[t];
          d.inverse[t] = 1.0 / table.m[t];
        }
      return d;
    };
    residues<<<tiles_of(a, padded), threads, 0, stream>>>(a, largest_a, bits, on_device(count), padded,
                                                           long(stride_a), s.a.data());
    LAB_CHECK_LAUNCH();
    residues<<<tiles_of(b, padded), threads, 0, stream>>>(b, largest_b, bits, on_device(count), padded,
                                                           long(stride_b), s.b.data());
    LAB_CHECK_LAUNCH();
    for (int t = 0; t < count; ++t)
      integer_product(cublas.get(), s.a.data() + t * stride_a, s.b.data() + t * stride_b, m, n, padded,
                      s.products.data() + t * stride_c, ld);

    const int used = count - moduli_left_out;
    Reconstruction r{on_device(used), {}, table.product[count], 1.0 / static_cast<double>(table.product[count])};
    for (int t = 0; t < used; ++t)
      r.weight[t] = table.weight[count][t];
    reconstruct<<<entries_grid(m, n), 256, 0, stream>>>(s.products.data(), long(stride_c), ld, r, largest_a,
                                                         largest_b, bits, g.alpha, g.beta, g.c, g.ldc, m, n,
                                                         g.output == lab::Output::lower_triangle);
    LAB_CHECK_LAUNCH();
    report() = {count, bits, ""};
  }

  void launch_20_ozaki_int8(const GemmArgs<double> &g, cudaStream_t stream) { ozaki_product(g, stream, 0); }

  OzakiReport last_ozaki_report() { return report(); }

  void release_ozaki_scratch() { scratch() = Scratch(); }
} // namespace step4
