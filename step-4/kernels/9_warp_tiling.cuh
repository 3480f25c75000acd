#pragma once
// @sect3{Kernel 9: warp tiling}
//
// Between the block's tile and the thread's 8×8 block there is a level the hardware
// cares about and kernels 6 to 8 ignore: the warp, 32 threads that issue every
// instruction together. Here each warp owns a rectangle of the block's tile (the
// warp tile, 64×32 for a 128×128 block of 8 warps), and the warp's 32 threads cover
// it as a grid of 8×4 threads, each holding a 4×4 piece of C, repeated 2×2 times over
// the warp tile. At each step p the warp reads 64 values of A and 32 of B from shared
// memory: 96 values for its 2048 multiply-adds, where in kernel 8 a warp (2 thread
// rows × 16 thread columns) needed 16 + 128 = 144. Fewer shared-memory reads per flop,
// all of them 16-byte and conflict-free (8 threads of a phase read 8 consecutive
// chunks of A; B's 4 chunks are broadcast).
//
// Warp tiles are also how tensor cores are programmed (kernel 12): a warp multiplies
// fragments of a fixed shape. And the tile sizes become parameters (block tile
// bm×bn, depth bk, warp tile wm×wn), which kernel 11 tunes.
//
// The warp tile's arithmetic and its final store are the struct WarpTile; kernel 10
// reuses it unchanged and changes only how tiles arrive in shared memory.

#include "kernels/launch.cuh"
#include "kernels/tile_copy.cuh"

namespace step4
{
  // The tile sizes of a warp-tiled kernel: block tile bm×bn, depth bk, warp tile
  // wm×wn. A warp's 32 threads form 8×4 threads of 4×4 entries, so a warp covers
  // 32×16 at a time and wm, wn must be multiples of 32 and 16.
  template <int bm_, int bn_, int bk_, int wm_, int wn_>
  struct TileConfig
  {
    static constexpr int bm = bm_, bn = bn_, bk = bk_, wm = wm_, wn = wn_;
    static constexpr int warps = (bm / wm) * (bn / wn);
    static constexpr int threads = 32 * warps;
    // Extra elements per shared-memory row (kernel 8's padding).
    static constexpr int padding = 4;
    // Blocks that must fit on one SM at once, for __launch_bounds__: with 64 sums per
    // thread and at most 256 threads, asking for two makes the compiler stay within 128
    // registers, so that two blocks share an SM's 64K registers (one register more,
    // and only one block fits). With 128 sums per thread, or 512 threads, that cap
    // would force the sums out of registers (spills, measured 10x slower): ask for one.
    static constexpr int min_blocks = wm * wn / 32 <= 64 && threads <= 256 ? 2 : 1;
    static_assert(bm % wm == 0 && bn % wn == 0, "warp tiles must tile the block tile");
    static_assert(wm % 32 == 0 && wn % 16 == 0, "a warp covers 32x16 entries at a time");
  };

  // One thread's share of a warp tile: iter_m × iter_n pieces of 4×4 entries.
  template <typename T, typename Config>
  struct WarpTile
  {
    static constexpr int iter_m = Config::wm / 32, iter_n = Config::wn / 16;
    T sum[iter_m][iter_n][4][4] = {};
    // Where this thread's first piece lies in the block tile.
    int row, col;

    __device__ WarpTile()
    {
      const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
      row = warp / (Config::bn / Config::wn) * Config::wm + lane % 8 * 4;
      col = warp % (Config::bn / Config::wn) * Config::wn + lane / 8 * 4;
    }

    // The fragments of step p: this thread's values of column p of the A tile and of
    // row p of the B tile (both tiles stored k-major in shared memory: row p of a_tile
    // holds column p of the A tile), four at a time.
    __device__ __forceinline__ void load_fragments(const T *a_tile, int a_ld, const T *b_tile,
                                                   int b_ld, int p, T (&a)[iter_m][4],
                                                   T (&b)[iter_n][4]) const
    {
#pragma unroll
      for (int im = 0; im < iter_m; ++im)
        load_four(a_tile + p * a_ld + row + im * 32, a[im]);
#pragma unroll
      for (int in = 0; in < iter_n; ++in)
        load_four(b_tile + p * b_ld + col + in * 16, b[in]);
    }

    // The outer product of the fragments, added to the sums.
    __device__ __forceinline__ void multiply_add(const T (&a)[iter_m][4], const T (&b)[iter_n][4])
    {
#pragma unroll
      for (int im = 0; im < iter_m; ++im)
#pragma unroll
        for (int in = 0; in < iter_n; ++in)
#pragma unroll
          for (int r = 0; r < 4; ++r)
#pragma unroll
            for (int c = 0; c < 4; ++c)
              sum[im][in][r][c] += a[im][r] * b[in][c];
    }

    // Multiplies a bm×bk tile of op(A) by a bk×bn tile of op(B).
    __device__ __forceinline__ void multiply(const T *a_tile, int a_ld, const T *b_tile,
                                             int b_ld)
    {
      T a_fragment[iter_m][4], b_fragment[iter_n][4];
#pragma unroll
      for (int p = 0; p < Config::bk; ++p)
        {
          load_fragments(a_tile, a_ld, b_tile, b_ld, p, a_fragment, b_fragment);
          multiply_add(a_fragment, b_fragment);
        }
    }

    // C = α·sum + β·C for the entries inside C; (row0, col0) is the block tile's
    // corner in C.
    __device__ __forceinline__ void store(const GemmArgs<T> &g, int row0, int col0) const
    {
#pragma unroll
      for (int im = 0; im < iter_m; ++im)
#pragma unroll
        for (int in = 0; in < iter_n; ++in)
#pragma unroll
          for (int r = 0; r < 4; ++r)
#pragma unroll
            for (int c = 0; c < 4; ++c)
              {
                const int i = row0 + row + im * 32 + r, j = col0 + col + in * 16 + c;
                if (i < g.shape.m && j < g.shape.n)
                  g.store(i, j, sum[im][in][r][c]);
              }
    }
  };

  template <typename Config, bool vectorized>
  __global__ void __launch_bounds__(Config::threads, Config::min_blocks)
    warp_tiling_kernel(GemmArgs<float> g)
  {
    constexpr int bm = Config::bm, bn = Config::bn, bk = Config::bk;
    constexpr int a_ld = bm + Config::padding, b_ld = bn + Config::padding;
    __shared__ alignas(16) float a_tile[bk * a_ld];
    __shared__ alignas(16) float b_tile[bk * b_ld];

    const int row0 = blockIdx.y * bm, col0 = blockIdx.x * bn;
    const MatrixView<float> a{g.a, g.lda, g.shape.m, g.shape.k};
    const MatrixView<float> b{g.b, g.ldb, g.shape.k, g.shape.n};
    StagedTileCopy<float, bm, bk, Config::threads, vectorized, true> a_copy;
    StagedTileCopy<float, bk, bn, Config::threads, vectorized, false> b_copy;
    WarpTile<float, Config> warp_tile;

    for (int p0 = 0; p0 < g.shape.k; p0 += bk)
      {
        a_copy.load(a, row0, p0);
        b_copy.load(b, p0, col0);
        a_copy.store(a_tile, a_ld);
        b_copy.store(b_tile, b_ld);
        __syncthreads();
        warp_tile.multiply(a_tile, a_ld, b_tile, b_ld);
        __syncthreads();
      }
    warp_tile.store(g, row0, col0);
  }

  inline void launch_9_warp_tiling(const GemmArgs<float> &g, cudaStream_t stream)
  {
    using Config = TileConfig<128, 128, 8, 64, 32>;
    require_no_transpose(g.shape, "9_warp_tiling");
    const dim3 grid(ceil_div(g.shape.n, Config::bn), ceil_div(g.shape.m, Config::bm));
    if (allows_vector_loads(g.a, g.lda) && allows_vector_loads(g.b, g.ldb))
      warp_tiling_kernel<Config, true><<<grid, Config::threads, 0, stream>>>(g);
    else
      warp_tiling_kernel<Config, false><<<grid, Config::threads, 0, stream>>>(g);
    LAB_CHECK_LAUNCH();
  }
} // namespace step4
