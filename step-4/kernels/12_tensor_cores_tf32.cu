// Kernel 12: tensor cores in TF32 (see 12_tensor_cores_tf32.cuh).
#include "kernels/12_tensor_cores_tf32.cuh"

#include "kernels/launch.cuh"
#include "kernels/tile_copy.cuh"

#include <mma.h>

namespace step4
{
  namespace wmma = nvcuda::wmma;

  // The sizes: block tile bm×bn, depth bk, warps_m×warps_n warps, pipeline stages.
  // Every warp owns a (bm/warps_m)×(bn/warps_n) warp tile of 16×16 fragments.
  template <int bm_, int bn_, int bk_, int warps_m_, int warps_n_, int stages_>
  struct TensorCoreConfig
  {
    static constexpr int bm = bm_, bn = bn_, bk = bk_, stages = stages_;
    static constexpr int warps_m = warps_m_, warps_n = warps_n_;
    static constexpr int threads = 32 * warps_m * warps_n;
    static constexpr int wm = bm / warps_m, wn = bn / warps_n;
    static constexpr int fm = 16, fn = 16, fk = 8;
    static constexpr int frags_m = wm / fm, frags_n = wn / fn;
    // Padding keeps rows 16-byte aligned (as cp.async needs) and spreads the rows a
    // fragment load touches over all banks: A's rows shift by 4 banks (bk + 4), B's
    // by 8 (bn + 8), which is what the two fragments' access patterns need.
    static constexpr int a_ld = bk + 4, b_ld = bn + 8, c_ld = bn + 4;
    static constexpr int a_size = bm * a_ld, b_size = bk * b_ld, stage_size = a_size + b_size;
    static constexpr int shared_bytes =
      (stages * stage_size > bm * c_ld ? stages * stage_size : bm * c_ld) * 4;
    static_assert(wm % fm == 0 && wn % fn == 0 && bk % fk == 0, "whole fragments");
  };

  template <typename Config, bool vectorized>
  __global__ void __launch_bounds__(Config::threads) tensor_core_kernel(GemmArgs<float> g)
  {
    constexpr int bm = Config::bm, bn = Config::bn, bk = Config::bk, stages = Config::stages;
    constexpr int threads = Config::threads, fm = Config::fm, fn = Config::fn, fk = Config::fk;
    constexpr int frags_m = Config::frags_m, frags_n = Config::frags_n;
    constexpr int a_ld = Config::a_ld, b_ld = Config::b_ld, c_ld = Config::c_ld;
    constexpr int a_size = Config::a_size, stage_size = Config::stage_size;
    extern __shared__ float4 shared_memory[];
    float *const tiles = reinterpret_cast<float *>(shared_memory);
    const int m = g.shape.m, n = g.shape.n, k = g.shape.k;
    const int row0 = blockIdx.y * bm, col0 = blockIdx.x * bn;
    const MatrixView<float> a{g.a, g.lda, m, k};
    const MatrixView<float> b{g.b, g.ldb, k, n};
    const int warp = threadIdx.x / 32;
    const int warp_row = warp / Config::warps_n * Config::wm;
    const int warp_col = warp % Config::warps_n * Config::wn;
    const auto start_copy = [&](int step) {
      float *const stage = tiles + step % stages * stage_size;
      copy_tile_async<float, bm, bk, threads, vectorized>(a, row0, step * bk, stage, a_ld);
      copy_tile_async<float, bk, bn, threads, vectorized>(b, step * bk, col0,
                                                          stage + a_size, b_ld);
    };

    wmma::fragment<wmma::accumulator, fm, fn, fk, float> sum[frags_m][frags_n];
    for (int i = 0; i < frags_m; ++i)
      for (int j = 0; j < frags_n; ++j)
        wmma::fill_fragment(sum[i][j], 0.0f);

    // Fill the pipeline: the first stages - 1 steps are on their way before any
    // computation. Each step is committed as one batch even when it is empty, so
    // that "wait until at most stages - 2 batches are pending" always means "the
    // current step has arrived".
    const int steps = ceil_div(k, bk);
    for (int step = 0; step < stages - 1; ++step)
      {
        if (step < steps)
          start_copy(step);
        __pipeline_commit();
      }

    for (int step = 0; step < steps; ++step)
      {
        __pipeline_wait_prior(stages - 2);
        __syncthreads();
        // The stage written next was read in the previous step, which every warp
        // has finished (the barrier above): it is free.
        if (step + stages - 1 < steps)
          start_copy(step + stages - 1);
        __pipeline_commit();

        const float *const a_tile = tiles + step % stages * stage_size;
        const float *const b_tile = a_tile + a_size;
#pragma unroll
        for (int p = 0; p < bk; p += fk)
          {
            wmma::fragment<wmma::matrix_a, fm, fn, fk, wmma::precision::tf32,
                           wmma::row_major>
              a_fragment[frags_m];
            wmma::fragment<wmma::matrix_b, fm, fn, fk, wmma::precision::tf32,
                           wmma::row_major>
              b_fragment[frags_n];
#pragma unroll
            for (int i = 0; i < frags_m; ++i)
              {
                wmma::load_matrix_sync(a_fragment[i],
                                       a_tile + (warp_row + i * fm) * a_ld + p, a_ld);
                for (int e = 0; e < a_fragment[i].num_elements; ++e)
                  a_fragment[i].x[e] = wmma::__float_to_tf32(a_fragment[i].x[e]);
              }
#pragma unroll
            for (int j = 0; j < frags_n; ++j)
              {
                wmma::load_matrix_sync(b_fragment[j],
                                       b_tile + p * b_ld + warp_col + j * fn, b_ld);
                for (int e = 0; e < b_fragment[j].num_elements; ++e)
                  b_fragment[j].x[e] = wmma::__float_to_tf32(b_fragment[j].x[e]);
              }
#pragma unroll
            for (int i = 0; i < frags_m; ++i)
#pragma unroll
              for (int j = 0; j < frags_n; ++j)
                wmma::mma_sync(sum[i][j], a_fragment[i], b_fragment[j], sum[i][j]);
          }
      }

    // The accumulators through shared memory (the tiles are no longer needed once
    // every warp is done with them), then α, β and the edges on the way to C.
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int i = 0; i < frags_m; ++i)
      for (int j = 0; j < frags_n; ++j)
        wmma::store_matrix_sync(tiles + (warp_row + i * fm) * c_ld + warp_col + j * fn,
                                sum[i][j], c_ld, wmma::mem_row_major);
    __syncthreads();
    for (int e = threadIdx.x; e < bm * bn; e += threads)
      {
        const int r = e / bn, c = e % bn;
        if (row0 + r < m && col0 + c < n)
          g.store(row0 + r, col0 + c, tiles[r * c_ld + c]);
      }
  }


  template <typename Config, bool vectorized>
  void launch_tensor_cores(const GemmArgs<float> &g, cudaStream_t stream)
  {
    constexpr auto kernel = tensor_core_kernel<Config, vectorized>;
    allow_shared_memory<kernel>(Config::shared_bytes);
    const dim3 grid(ceil_div(g.shape.n, Config::bn), ceil_div(g.shape.m, Config::bm));
    kernel<<<grid, Config::threads, Config::shared_bytes, stream>>>(g);
    LAB_CHECK_LAUNCH();
  }

  // Kernel 12's sizes, the fastest of ten configurations measured on an H200
  // (block tiles 64 to 256, depth 16 or 32, 4 or 8 warps, 3 or 4 stages): 256×128
  // tiles of depth 16, 8 warps of 64×64, four stages.
  using TensorCoreTiles = TensorCoreConfig<256, 128, 16, 4, 2, 4>;

  void launch_12_tensor_cores_tf32(const GemmArgs<float> &g, cudaStream_t stream)
  {
    require_no_transpose(g.shape, "12_tensor_cores_tf32");
    if (allows_vector_loads(g.a, g.lda) && allows_vector_loads(g.b, g.ldb))
      launch_tensor_cores<TensorCoreTiles, true>(g, stream);
    else
      launch_tensor_cores<TensorCoreTiles, false>(g, stream);
  }
} // namespace step4
