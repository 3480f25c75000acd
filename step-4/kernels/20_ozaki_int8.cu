#include "kernels/20_ozaki_int8.cuh"

#include "gemm_kernels.h"
#include "kernels/ozaki_arithmetic.h"
#include "kernels/ozaki_choices.h"

#include <lab/cublas_gemm.h>
#include <lab/cuda_check.h>
#include <lab/device_buffer.h>
#include <lab/memory.h>

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace step4
{
  namespace
  {
    // The number theory (the moduli, the weights, remainders and conversions in
    // double, the rebuilding of an entry) is in ozaki_arithmetic.h, shared with the
    // CPU tests; the kernels below walk the operands and C with it.
    using ozaki::as_int;
    using ozaki::max_moduli;
    using ozaki::ModuliInUse;
    using ozaki::Reconstruction;

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

    // @sect3{Pass 1: each line's size}
    //
    // Per line: the exponent e with 2^(e−1) ≤ max |x| < 2^e (frexp's; 0 for a zero
    // line), its spread s = Σ|x| / 2^e (between 0 and k), and a flag for NaN or infinity
    // anywhere. A block takes 32 whole lines, so that each line's figures are one
    // block's and need no atomics: its warps walk the lines as they are stored (along a
    // line where a line is a stored row, across 32 neighbouring lines where it is a
    // stored column), and then reduce through shared memory, one warp per line.
    struct Sizes
    {
      int *exponent;
      double *spread;
    };

    // What the host reads back after the bound: a flag for NaN or infinity, the largest
    // spread of each operand and the largest ratio ρ (see the header), each kept as the
    // bits of a non-negative number, whose integer order is the numbers' order, so
    // that atomicMax on the bits takes the maximum.
    struct Summary
    {
      int not_finite;
      unsigned int ratio;               // a float's bits
      unsigned long long spread[2];     // doubles' bits: A's, B's
    };

    constexpr int lines_per_block = 32;

    __global__ void line_sizes(Lines lines, Sizes sizes, Summary *summary, int operand)
    {
      __shared__ double largest[lines_per_block][33], sum[lines_per_block][33];
      const int x = threadIdx.x, y = threadIdx.y;
      const int line_here = lines.line_is_row ? y : x, part = lines.line_is_row ? x : y;
      const int line = blockIdx.x * lines_per_block + line_here;
      double big = 0, total = 0;
      bool finite = true;
      if (line < lines.count)
        for (int p = part; p < lines.length; p += 32)
          {
            const double v = fabs(lines.at(line, p));
            if (v <= 1.7976931348623157e308) // false for NaN and infinity
              {
                big = fmax(big, v);
                total += v;
              }
            else
              finite = false;
          }
      if (!finite)
        atomicOr(&summary->not_finite, 1);
      largest[line_here][part] = big;
      sum[line_here][part] = total;
      __syncthreads();
      big = largest[y][x];
      total = sum[y][x];
      for (int offset = 16; offset > 0; offset /= 2)
        {
          big = fmax(big, __shfl_down_sync(0xffffffff, big, offset));
          total += __shfl_down_sync(0xffffffff, total, offset);
        }
      const int mine = blockIdx.x * lines_per_block + y;
      if (x == 0 && mine < lines.count)
        {
          int e = 0;
          frexp(big, &e);
          const double spread = ldexp(total, -e);
          sizes.exponent[mine] = e;
          sizes.spread[mine] = spread;
          atomicMax(&summary->spread[operand], static_cast<unsigned long long>(__double_as_longlong(spread)));
        }
    }

    // @sect3{Passes 2 and 3: int8 copies, line by line}
    //
    // Both the magnitudes of the bound and the residues are int8 copies of an operand
    // with k contiguous per line (k padded to a multiple of 16 with zeros). A block
    // takes a tile of 32 lines × 128 positions: it reads the tile as stored into shared
    // memory (each warp 32 neighbouring doubles, whichever way the lines run), and then
    // each warp takes a line of the tile at a time, each thread 4 neighbouring
    // positions, which it writes as one 32-bit word: 128 contiguous bytes per warp.
    constexpr int tile_positions = 128;

    struct Tile
    {
      double x[lines_per_block][tile_positions + 1]; // + 1: the column-wise writes miss no bank
    };

    __device__ void load_tile(const Lines &lines, Tile &t, int line0, int p0)
    {
      for (int i = threadIdx.x; i < lines_per_block * tile_positions; i += blockDim.x)
        {
          const int l = lines.line_is_row ? i / tile_positions : i % lines_per_block;
          const int p = lines.line_is_row ? i % tile_positions : i / lines_per_block;
          const int line = line0 + l, position = p0 + p;
          t.x[l][p] = line < lines.count && position < lines.length ? lines.at(line, position) : 0.0;
        }
      __syncthreads();
    }

    // Four int8 values packed into the word that holds them in memory order.
    __device__ std::uint32_t packed(const int (&v)[4])
    {
      return (v[0] & 0xff) | (v[1] & 0xff) << 8 | (v[2] & 0xff) << 16 | static_cast<std::uint32_t>(v[3] & 0xff) << 24;
    }

    // Calls write(line, first position, the tile's four values there) for every group
    // of four positions of the tile below @p padded.
    template <typename Write>
    __device__ void for_each_quad(const Lines &lines, const Tile &t, int line0, int p0, int padded, Write write)
    {
      const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
      const int p = p0 + 4 * lane;
      for (int l = warp; l < lines_per_block; l += warps)
        if (line0 + l < lines.count && p < padded)
          {
            const double v[4] = {t.x[l][4 * lane], t.x[l][4 * lane + 1], t.x[l][4 * lane + 2], t.x[l][4 * lane + 3]};
            write(line0 + l, p, v);
          }
    }

    // The magnitudes: ⌊|x| 2^(7 − e)⌋, between 0 and 127 (|x| < 2^e), a lower bound of
    // |x| in units of 2^(e − 7). Scaling by a power of two and rounding down are exact:
    // the bound is a bound, not an estimate.
    //
    // With @p pattern instead: 1 where x ≠ 0, else 0, for the product that counts the
    // positions where two lines are both nonzero (see largest_ratio).
    __global__ void magnitudes(Lines lines, const int *exponent, int padded, bool pattern, std::int8_t *out)
    {
      __shared__ Tile t;
      const int line0 = blockIdx.x * lines_per_block, p0 = blockIdx.y * tile_positions;
      load_tile(lines, t, line0, p0);
      for_each_quad(lines, t, line0, p0, padded, [&](int line, int p, const double (&v)[4]) {
        const int e = exponent[line];
        int q[4];
        for (int c = 0; c < 4; ++c)
          q[c] = pattern ? v[c] != 0 : as_int(floor(ldexp(fabs(v[c]), 7 - e)));
        *reinterpret_cast<std::uint32_t *>(out + static_cast<long>(line) * padded + p) = packed(q);
      });
    }

    // The residues: x' = round(x 2^(K − e)), |x'| ≤ 2^K (K ≤ 54, see the header), then
    // its residue modulo each modulus in int8 (ozaki::int8_residue).
    __global__ void residues(Lines lines, const int *exponent, int bits, ModuliInUse moduli, int padded,
                             long stride, std::int8_t *out)
    {
      __shared__ Tile t;
      const int line0 = blockIdx.x * lines_per_block, p0 = blockIdx.y * tile_positions;
      load_tile(lines, t, line0, p0);
      for_each_quad(lines, t, line0, p0, padded, [&](int line, int p, const double (&v)[4]) {
        const int shift = bits - exponent[line];
        double fixed[4];
        for (int c = 0; c < 4; ++c)
          fixed[c] = rint(ldexp(v[c], shift));
        std::int8_t *to = out + static_cast<long>(line) * padded + p;
        for (int s = 0; s < moduli.count; ++s)
          {
            int r[4];
            for (int c = 0; c < 4; ++c)
              r[c] = ozaki::int8_residue(fixed[c], moduli.m[s], moduli.inverse[s]);
            *reinterpret_cast<std::uint32_t *>(to + s * stride) = packed(r);
          }
      });
    }

    // @sect3{The bound's largest ratio}
    //
    // ρ = max over the entries of 2^14 (s_i + t_j) / L_ij, with s_i, t_j the spreads of
    // row i of A and column j of B and L = magnitudes(A) · magnitudes(B) (see the
    // header). In float: its relative error of a few 2^-24 is covered by the margin the
    // host adds. Each warp takes the maximum of many entries before its one atomic.
    //
    // L_ij = 0 with neither line zero means one of two things. Either no position p has
    // both a_ip and b_pj nonzero: the entry is an exact zero, in the scheme as in any
    // product (every term of its integer sum is 0), and needs no bound; sparse data
    // such as step-5's HᵀH have many. Or every such position has terms too small for
    // the magnitudes: then nothing bounds the entry's error, and ρ is infinite. The
    // first pass (@p overlap null) takes every such entry as infinite; where that
    // happens, the host counts the common nonzeros, overlap = pattern(A) · pattern(B),
    // and runs the pass again, which skips the exact zeros (overlap_ij = 0).
    __global__ void largest_ratio(const std::int32_t *bound, const std::int32_t *overlap, int ld, int m, int n,
                                  Sizes a, Sizes b, Summary *summary)
    {
      float worst = 0;
      for (int i = blockIdx.y; i < m; i += gridDim.y)
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x)
          {
            const double s = a.spread[i], t = b.spread[j];
            if (s == 0 || t == 0)
              continue; // a zero line: its entries of C are exact zeros
            const long ij = static_cast<long>(i) * ld + j;
            const std::int32_t l = bound[ij];
            if (l == 0 && overlap != nullptr && overlap[ij] == 0)
              continue; // an exact zero
            worst = fmaxf(worst, l > 0 ? static_cast<float>(s + t) * __frcp_rn(static_cast<float>(l)) : INFINITY);
          }
      for (int offset = 16; offset > 0; offset /= 2)
        worst = fmaxf(worst, __shfl_down_sync(0xffffffff, worst, offset));
      if (threadIdx.x % 32 == 0)
        atomicMax(&summary->ratio, __float_as_uint(worst));
    }

    // @sect3{Pass 4: the reconstruction}
    //
    // Each entry of C from its N products (ozaki::rebuilt, exact up to the one rounding
    // to double), times 2^(e_i + e_j − 2K), times α, plus β C.
    __global__ void reconstruct(const std::int32_t *products, long stride, int ld_products, Reconstruction r,
                                const int *exponent_a, const int *exponent_b, int bits, double alpha, double beta,
                                double *c, int ldc, int m, int n, bool lower_only)
    {
      // A row of C per block row of the grid, its columns across the threads (no
      // division to find (i, j): a 64-bit one costs as much as the rest of an entry).
      for (int i = blockIdx.y; i < m; i += gridDim.y)
        {
          const int shift_i = exponent_a[i] - bits;
          for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < (lower_only ? min(n, i + 1) : n);
               j += gridDim.x * blockDim.x)
            {
              const long ij = static_cast<long>(i) * ld_products + j;
              const double x = ozaki::rebuilt(r, [&](int t) { return products[t * stride + ij]; });
              const double value = ldexp(x, shift_i + exponent_b[j] - bits);
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
      lab::DeviceBuffer<int> exponents{0};
      lab::DeviceBuffer<double> spreads{0};
      lab::DeviceBuffer<Summary> summary{0};

      // Grows the copies and the products to the given counts where they are smaller,
      // unless the GPU's free memory (with what the buffers that grow give back first)
      // cannot hold them, less 256 MiB for cuBLAS's and the caller's own needs: then
      // returns false and changes nothing. The GPU is asked only when something grows,
      // not on every product.
      bool reserve(std::size_t a_count, std::size_t b_count, std::size_t products_count)
      {
        double given_back = 0, taken = 0;
        const auto grow = [&](std::size_t had, std::size_t wanted, double bytes_each) {
          if (wanted > had)
            {
              given_back += had * bytes_each;
              taken += wanted * bytes_each;
            }
        };
        grow(a.count(), a_count, 1);
        grow(b.count(), b_count, 1);
        grow(products.count(), products_count, 4);
        if (taken == 0)
          return true;
        if (taken > lab::available_memory(true).device_bytes + given_back - 256.0 * (1 << 20))
          return false;
        at_least(a, a_count);
        at_least(b, b_count);
        at_least(products, products_count);
        return true;
      }

      template <typename T>
      static void at_least(lab::DeviceBuffer<T> &buffer, std::size_t count)
      {
        if (buffer.count() < count)
          {
            buffer = lab::DeviceBuffer<T>(0); // the old memory back first: the peak is the new
            buffer = lab::DeviceBuffer<T>(count);
          }
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
      return dim3((lines.count + lines_per_block - 1) / lines_per_block,
                  (padded + tile_positions - 1) / tile_positions);
    }

    // C (m × n in int32, by rows, leading dimension ld) = op(A) op(B) for int8 copies
    // stored with k contiguous per line. cuBLAS counts by columns: to it, C by rows is
    // Cᵀ (n × m) = op(B)ᵀ op(A)ᵀ, the columns of op(B) are a k × n matrix to be
    // transposed (T) and the rows of op(A) the k × m matrix op(A)ᵀ as it is (N): the
    // "TN" form, the one its integer tensor-core kernels take (measured on an H200 at
    // n = 8192: 1543 TOPS, against 127 for the same product in the NN form).
    //
    // It is called in bands of at most 4096 rows of C: measured on an H200 at
    // n = 16384, the whole product takes 6.32 ms and four bands of 4096 rows 5.29 ms
    // (1392 against 1664 TOPS); at n = 8192 two bands take what one call does.
    // The handle is the one of integer_products(), bound to the product's stream once
    // for all of its integer products.
    constexpr int band_rows = 4096;

    void integer_product(cublasHandle_t handle, const std::int8_t *rows_of_a, const std::int8_t *columns_of_b, int m,
                         int n, int padded, std::int32_t *c, int ld)
    {
      const std::int32_t one = 1, zero = 0;
      for (int row = 0; row < m; row += band_rows)
        LAB_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, std::min(band_rows, m - row), padded, &one,
                               columns_of_b, CUDA_R_8I, padded, rows_of_a + static_cast<long>(row) * padded,
                               CUDA_R_8I, padded, &zero, c + static_cast<long>(row) * ld, CUDA_R_32I, ld,
                               CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    }

    OzakiReport fall_back(const GemmArgs<double> &g, cudaStream_t stream, const std::string &why)
    {
      gemm(g, stream);
      return {0, 0, why};
    }

    // One tile of C, the whole scheme: returns what it did.
    OzakiReport product_of_tile(const GemmArgs<double> &g, cudaStream_t stream, int moduli_left_out)
    {
      const int m = g.shape.m, n = g.shape.n, k = g.shape.k;
      // The int8 copies hold k contiguous per line, k rounded up to 16 (zeros past it)
      // as cuBLAS's integer kernels want, and so does the int32 product's row.
      const int padded = (k + 15) / 16 * 16, ld = (n + 3) / 4 * 4;
      const Lines a = rows_of_a(g), b = columns_of_b(g);
      Scratch &s = scratch();
      Scratch::at_least(s.exponents, std::size_t(m) + n);
      Scratch::at_least(s.spreads, std::size_t(m) + n);
      Scratch::at_least(s.summary, 1);
      const std::size_t stride_a = std::size_t(m) * padded, stride_b = std::size_t(n) * padded,
                        stride_c = std::size_t(m) * ld;
      // Room for 14 moduli, taken before anything runs (how many the data need is
      // known only after the bound): where the GPU has not that much free memory, the
      // double kernel computes the tile.
      if (!s.reserve(stride_a * max_moduli, stride_b * max_moduli, stride_c * max_moduli))
        return fall_back(g, stream, "not enough free GPU memory for the scheme's copies");
      const Sizes sizes_a{s.exponents.data(), s.spreads.data()}, sizes_b{s.exponents.data() + m, s.spreads.data() + m};
      Summary *summary = s.summary.data();
      LAB_CHECK(cudaMemsetAsync(summary, 0, sizeof(Summary), stream));
      const dim3 warps_per_line(32, lines_per_block);
      line_sizes<<<(m + lines_per_block - 1) / lines_per_block, warps_per_line, 0, stream>>>(a, sizes_a, summary, 0);
      LAB_CHECK_LAUNCH();
      line_sizes<<<(n + lines_per_block - 1) / lines_per_block, warps_per_line, 0, stream>>>(b, sizes_b, summary, 1);
      LAB_CHECK_LAUNCH();

      // The bound: one integer product of the magnitudes, L in the products' first
      // slot; where it has zeros between nonzero lines, one of the patterns, the
      // overlap in the second (largest_ratio says why).
      constexpr int tile_threads = 256;
      lab::Cublas &cublas = integer_products();
      cublas.bind(stream);
      const auto product_of = [&](bool pattern, std::int32_t *into) {
        magnitudes<<<tiles_of(a, padded), tile_threads, 0, stream>>>(a, sizes_a.exponent, padded, pattern,
                                                                      s.a.data());
        LAB_CHECK_LAUNCH();
        magnitudes<<<tiles_of(b, padded), tile_threads, 0, stream>>>(b, sizes_b.exponent, padded, pattern,
                                                                      s.b.data());
        LAB_CHECK_LAUNCH();
        integer_product(cublas.get(), s.a.data(), s.b.data(), m, n, padded, into, ld);
      };
      const auto read_summary = [&](const std::int32_t *overlap) {
        largest_ratio<<<dim3((n + 255) / 256, std::min(m, 64)), 256, 0, stream>>>(s.products.data(), overlap, ld, m,
                                                                                 n, sizes_a, sizes_b, summary);
        LAB_CHECK_LAUNCH();
        Summary seen{};
        LAB_CHECK(cudaMemcpyAsync(&seen, summary, sizeof seen, cudaMemcpyDeviceToHost, stream));
        LAB_CHECK(cudaStreamSynchronize(stream));
        return seen;
      };
      product_of(false, s.products.data());
      Summary seen = read_summary(nullptr);
      if (seen.not_finite)
        return fall_back(g, stream, "NaN or infinity in the inputs");
      float ratio = 0;
      std::memcpy(&ratio, &seen.ratio, sizeof ratio);
      if (std::isinf(ratio))
        {
          std::int32_t *overlap = s.products.data() + stride_c;
          product_of(true, overlap);
          LAB_CHECK(cudaMemsetAsync(&summary->ratio, 0, sizeof summary->ratio, stream));
          seen = read_summary(overlap);
          std::memcpy(&ratio, &seen.ratio, sizeof ratio);
        }
      double spread[2] = {0, 0};
      std::memcpy(spread, seen.spread, sizeof spread);
      const ozaki::Choice choice =
        ozaki::choose(std::ldexp(double(ratio), 14), std::min(spread[0], spread[1]), k, g.alpha, g.beta);
      if (choice.moduli == 0)
        return fall_back(g, stream, choice.impossible);
      const int count = choice.moduli, bits = choice.bits;

      // The residues and their products.
      const ozaki::ModuliInUse in_use = ozaki::moduli_in_use(count);
      residues<<<tiles_of(a, padded), tile_threads, 0, stream>>>(a, sizes_a.exponent, bits, in_use, padded,
                                                                  long(stride_a), s.a.data());
      LAB_CHECK_LAUNCH();
      residues<<<tiles_of(b, padded), tile_threads, 0, stream>>>(b, sizes_b.exponent, bits, in_use, padded,
                                                                  long(stride_b), s.b.data());
      LAB_CHECK_LAUNCH();
      for (int t = 0; t < count; ++t)
        integer_product(cublas.get(), s.a.data() + t * stride_a, s.b.data() + t * stride_b, m, n, padded,
                        s.products.data() + t * stride_c, ld);

      const int used = count - moduli_left_out;
      const Reconstruction r = ozaki::reconstruction_for(count, used);
      reconstruct<<<entries_grid(m, n), 256, 0, stream>>>(s.products.data(), long(stride_c), ld, r, sizes_a.exponent,
                                                           sizes_b.exponent, bits, g.alpha, g.beta, g.c, g.ldc, m, n,
                                                           g.output == lab::Output::lower_triangle);
      LAB_CHECK_LAUNCH();
      return {count, bits, ""};
    }
  } // namespace

  void ozaki_product(const GemmArgs<double> &g, cudaStream_t stream, const OzakiOptions &options)
  {
    const int m = g.shape.m, n = g.shape.n, k = g.shape.k;
    if (m == 0 || n == 0 || k == 0 || g.alpha == 0)
      return void(report() = fall_back(g, stream, "nothing to multiply"));
    if (k >= (1 << 17))
      return void(report() = fall_back(g, stream, "k >= 2^17: int32 sums could overflow"));
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    LAB_CHECK(cudaStreamIsCapturing(stream, &capture));
    if (capture != cudaStreamCaptureStatusNone)
      return void(report() = fall_back(g, stream, "inside a CUDA graph's capture: it reads its bound on the host"));

    // C tile by tile (ozaki::tile_side); of a lower triangle only the tiles that hold
    // some of it, those on the diagonal as lower triangles themselves.
    const int side = options.tile_side > 0 ? options.tile_side : ozaki::tile_side(m, n, k);
    const bool lower = g.output == lab::Output::lower_triangle;
    OzakiReport total;
    for (int row = 0; row < m; row += side)
      for (int column = 0; column < n; column += side)
        {
          if (lower && column > row)
            continue;
          GemmArgs<double> tile = g.block(row, column, std::min(side, m - row), std::min(side, n - column));
          if (lower && column == row)
            tile.output = lab::Output::lower_triangle;
          const OzakiReport done = product_of_tile(tile, stream, options.moduli_left_out);
          total.moduli = std::max(total.moduli, done.moduli);
          total.bits = std::max(total.bits, done.bits);
          if (!done.fell_back.empty())
            total.fell_back = done.fell_back;
        }
    report() = total;
  }

  void launch_20_ozaki_int8(const GemmArgs<double> &g, cudaStream_t stream) { ozaki_product(g, stream, {}); }

  OzakiReport last_ozaki_report() { return report(); }

  void release_ozaki_scratch() { scratch() = Scratch(); }
} // namespace step4
