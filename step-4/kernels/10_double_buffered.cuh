#pragma once
// @sect3{Kernel 10: double buffering with asynchronous copies}
//
// In kernel 9 every step of k runs in two phases that exclude each other: all threads
// load the next tiles (and wait for global memory, hundreds of cycles), barrier, all
// threads compute, barrier. While a warp waits for memory the SM can only switch to
// other warps, and with 128-register threads there are few of them.
//
// Double buffering overlaps the two phases. Shared memory holds two stages of tiles:
// while the warps compute on stage s, the tiles of the next step travel into stage
// 1−s. One barrier per step suffices: stage 1−s was last read in the previous step,
// which ended with a barrier.
//
// How the next tile travels depends on its layout, and the kernel uses the best way
// for each operand:
// - A tile that is already k-major in global memory (B as stored, or A transposed)
//   is copied by `cp.async` (tile_copy.cuh, copy_tile_async): straight from global to
//   shared memory without passing through registers, started before the computation
//   and waited for after it.
// - A tile that must be transposed on the way (A as stored, or B transposed) is
//   loaded into registers before the computation and stored to shared memory after
//   it (StagedTileCopy): the loads are in flight while the thread computes.
// So this kernel handles all four combinations of op(A) and op(B) at full speed,
// which later steps need (step-5's HᵀH). It is a template over the element type as
// well: kernel 13 is this kernel in double precision.
//
// The same idea pays once more one level down, between shared memory and registers:
// in kernel 9 each step p loads its fragments of A and B and then uses them at once,
// so the multiply-adds wait for the loads. Here the fragments come in two register
// sets, and those of step p + 1 are loaded while step p's multiply-adds run
// (multiply_double_buffered below): measured 1.5% faster on an H200. (A third idea
// tried and measured, a block order that walks C in bands of 4 to 16 tile rows so
// that tiles stay in the L2 cache, made it 3% slower: at these sizes the L2 cache
// already serves the re-reads, and the remapping costs instructions.)
//
// The tile sizes are a TileConfig as in kernel 9; with bk = 16 and two stages the
// shared memory can exceed the 48 KiB a block gets by default, so it is dynamic
// shared memory and the launcher raises the limit (cudaFuncSetAttribute).

#include "kernels/9_warp_tiling.cuh"

namespace step4
{
  // How one operand's tiles reach shared memory. `k_major` says whether the stored
  // matrix has k as its row index (then a plain asynchronous copy) or not (then a
  // transposing copy through registers). `extent` is the tile's other side (bm or bn).
  template <typename T, bool k_major, int extent, int bk, int threads, bool vectorized>
  struct OperandCopy;

  template <typename T, int extent, int bk, int threads, bool vectorized>
  struct OperandCopy<T, true, extent, bk, threads, vectorized>
  {
    __device__ void start(const MatrixView<T> &matrix, int p0, int outer0, T *tile, int ld)
    {
      copy_tile_async<T, bk, extent, threads, vectorized>(matrix, p0, outer0, tile, ld);
    }
    __device__ void finish(T *, int) const {}
  };

  template <typename T, int extent, int bk, int threads, bool vectorized>
  struct OperandCopy<T, false, extent, bk, threads, vectorized>
  {
    StagedTileCopy<T, extent, bk, threads, vectorized, true> copy;
    __device__ void start(const MatrixView<T> &matrix, int p0, int outer0, T *, int)
    {
      copy.load(matrix, outer0, p0);
    }
    __device__ void finish(T *tile, int ld) const { copy.store(tile, ld); }
  };

  // The warp tile's multiply-adds on one stage, with the fragments double-buffered in
  // registers: set (p + 1) % 2 is loaded from shared memory while set p % 2 is used.
  // All loops are unrolled, so both sets stay in registers.
  template <typename T, typename Config>
  __device__ __forceinline__ void multiply_double_buffered(WarpTile<T, Config> &tile,
                                                           const T *a_tile, int a_ld,
                                                           const T *b_tile, int b_ld)
  {
    constexpr int iter_m = WarpTile<T, Config>::iter_m, iter_n = WarpTile<T, Config>::iter_n;
    T a_fragment[2][iter_m][4], b_fragment[2][iter_n][4];
    tile.load_fragments(a_tile, a_ld, b_tile, b_ld, 0, a_fragment[0], b_fragment[0]);
#pragma unroll
    for (int p = 0; p < Config::bk; ++p)
      {
        if (p + 1 < Config::bk)
          tile.load_fragments(a_tile, a_ld, b_tile, b_ld, p + 1, a_fragment[(p + 1) % 2],
                              b_fragment[(p + 1) % 2]);
        tile.multiply_add(a_fragment[p % 2], b_fragment[p % 2]);
      }
  }

  template <typename T, typename Config, Op op_a, Op op_b, bool vectorized>
  __global__ void __launch_bounds__(Config::threads, sizeof(T) == 4 ? Config::min_blocks : 1)
    double_buffered_kernel(GemmArgs<T> g)
  {
    constexpr int bm = Config::bm, bn = Config::bn, bk = Config::bk;
    constexpr int a_ld = bm + Config::padding, b_ld = bn + Config::padding;
    constexpr int stage_size = bk * (a_ld + b_ld);
    extern __shared__ float4 shared_memory[];
    T *const stages = reinterpret_cast<T *>(shared_memory);

    const int row0 = blockIdx.y * bm, col0 = blockIdx.x * bn;
    const GemmShape &s = g.shape;
    const MatrixView<T> a{g.a, g.lda, s.a_rows(), s.a_cols()};
    const MatrixView<T> b{g.b, g.ldb, s.b_rows(), s.b_cols()};
    OperandCopy<T, op_a == Op::transpose, bm, bk, Config::threads, vectorized> a_copy;
    OperandCopy<T, op_b == Op::none, bn, bk, Config::threads, vectorized> b_copy;
    WarpTile<T, Config> warp_tile;

    // The first step's tiles, into stage 0, before the loop.
    const int steps = ceil_div(s.k, bk);
    a_copy.start(a, 0, row0, stages, a_ld);
    b_copy.start(b, 0, col0, stages + bk * a_ld, b_ld);
    __pipeline_commit();
    a_copy.finish(stages, a_ld);
    b_copy.finish(stages + bk * a_ld, b_ld);
    __pipeline_wait_prior(0);
    __syncthreads();

    for (int step = 0; step < steps; ++step)
      {
        T *const current = stages + step % 2 * stage_size;
        T *const next = stages + (step + 1) % 2 * stage_size;
        const bool more = step + 1 < steps;
        // Start the next step's tiles on their way ...
        if (more)
          {
            a_copy.start(a, (step + 1) * bk, row0, next, a_ld);
            b_copy.start(b, (step + 1) * bk, col0, next + bk * a_ld, b_ld);
            __pipeline_commit();
          }
        // ... compute on the current ones while they travel ...
        multiply_double_buffered(warp_tile, current, a_ld, current + bk * a_ld, b_ld);
        // ... then complete them: store what came through registers, wait for what
        // came by cp.async, and let the whole block see the new stage.
        if (more)
          {
            a_copy.finish(next, a_ld);
            b_copy.finish(next + bk * a_ld, b_ld);
            __pipeline_wait_prior(0);
          }
        __syncthreads();
      }
    warp_tile.store(g, row0, col0);
  }

  // The bytes of shared memory a configuration needs: two stages of both tiles.
  template <typename T, typename Config>
  constexpr int double_buffered_shared_bytes()
  {
    return 2 * Config::bk * (Config::bm + Config::bn + 2 * Config::padding) * int(sizeof(T));
  }

  // Launches one instantiation: fixed transposes and load width.
  template <typename T, typename Config, Op op_a, Op op_b, bool vectorized>
  void launch_double_buffered_variant(const GemmArgs<T> &g, cudaStream_t stream)
  {
    constexpr int bytes = double_buffered_shared_bytes<T, Config>();
    constexpr auto kernel = double_buffered_kernel<T, Config, op_a, op_b, vectorized>;
    allow_shared_memory<kernel>(bytes);
    const dim3 grid(ceil_div(g.shape.n, Config::bn), ceil_div(g.shape.m, Config::bm));
    kernel<<<grid, Config::threads, bytes, stream>>>(g);
    LAB_CHECK_LAUNCH();
  }

  // Picks the instantiation for the transposes and the alignment at hand.
  template <typename T, typename Config>
  void launch_double_buffered(const GemmArgs<T> &g, cudaStream_t stream)
  {
    const bool aligned = allows_vector_loads(g.a, g.lda) && allows_vector_loads(g.b, g.ldb);
    with_transposes(g.shape, [&](auto op_a, auto op_b) {
      constexpr Op a = decltype(op_a)::value, b = decltype(op_b)::value;
      if (aligned)
        launch_double_buffered_variant<T, Config, a, b, true>(g, stream);
      else
        launch_double_buffered_variant<T, Config, a, b, false>(g, stream);
    });
  }

  // Kernel 10's own tile sizes: kernel 9's, with bk = 16 (the second stage makes a
  // deeper tile affordable: fewer barriers per flop).
  using DoubleBufferedConfig = TileConfig<128, 128, 16, 64, 32>;

  inline void launch_10_double_buffered(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_double_buffered<float, DoubleBufferedConfig>(g, stream);
  }
} // namespace step4
