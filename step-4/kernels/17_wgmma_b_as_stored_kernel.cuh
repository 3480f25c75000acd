#pragma once
// Kernel 17's sizes, kernel and launcher: kernel 17 uses them with blocks on their
// own, kernel 18 in clusters of two (see 17_wgmma_b_as_stored.cuh and
// 18_wgmma_multicast.cuh).

#include "kernels/hopper.cuh"
#include "kernels/launch.cuh"
#include "kernels/wgmma_launch.cuh"

#include <cstdint>

namespace step4
{
  // @sect3{The sizes}
  //
  // Block tile 256 rows × 128 columns of C, 32 values of k per stage, four stages of
  // 32 + 16 KB; blocks walk C in bands of 8 tile rows, as in kernel 16 (bands of 4 or
  // 2 were 1–3% slower at n = 8192 on an H200). B's tile arrives in boxes of 32
  // columns (128 bytes, the widest line the 128-byte swizzle takes). Two consumer
  // warpgroups of 64 columns each and one producer: 384 threads, one block per SM.
  // Kernel 17 runs blocks on their own (cluster = 1), kernel 18 clusters of two.
  template <int cluster_>
  struct WgmmaBAsStoredConfig
  {
    static constexpr int bm = 256, bn = 128, bk = 32, stages = 4, band = 8, cluster = cluster_;
    static constexpr int box_columns = 32, box_bytes = box_columns * bk * 4;
    static constexpr int consumers = bn / 64;
    static constexpr int threads = 128 * (1 + consumers), consumer_warps = 4 * consumers;
    static constexpr int a_bytes = bm * bk * 4, b_bytes = bk * bn * 4;
    static constexpr int stage_bytes = a_bytes + b_bytes;
    static constexpr int shared_bytes = ring_shared_bytes(stages, stage_bytes);
    static constexpr int producer_registers = 40, consumer_registers = 232;
  };

  // @sect3{The kernel}
  //
  // Kernel 16's, with four differences: the producer copies B's tile in boxes; the
  // consumers load their fragments of it before each step's wgmmas; they wait for each
  // step's group to end before the next step (the header says why) and give its stage
  // back at once; and the epilogue writes the sums transposed. (The stages and their
  // barriers work as in kernel 16.) Kernel 18 is this kernel in clusters
  // (Config::cluster > 1): the ring then shares A's tile among the cluster's blocks,
  // and nothing else changes.
  template <typename Config>
  __global__ void __launch_bounds__(Config::threads, 1)
    wgmma_b_as_stored_kernel(const __grid_constant__ CUtensorMap a_map,
                             const __grid_constant__ CUtensorMap b_map, GemmArgs<float> g)
  {
    // A lower triangle's tiles on the diagonal: the first column of a cluster's
    // tiles, a multiple of cluster·bn, is at most their first row, a multiple of bm,
    // when cluster·bn divides bm; so they reach at most bm − 1 columns right of the
    // diagonal.
    static_assert(Config::bm % (Config::cluster * Config::bn) == 0 &&
                  Config::bm - 1 <= lab::lower_triangle_overhang);
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    constexpr int bk = Config::bk;
    extern __shared__ unsigned char shared_memory[];
    const hopper::StageRing<Config> ring(shared_memory);
    int row0, col0;
    if (!block_tile<Config>(g, row0, col0))
      return;
    const int steps = ceil_div(g.shape.k, bk);
    const int warpgroup = threadIdx.x / 128;
    ring.initialise();

    // The producer: A's tile k-major, as in kernel 16 (one box, or this block's slice
    // for the whole cluster), B's as stored in boxes of 32 columns; a tensor map's
    // coordinates are (column, row).
    if (warpgroup == 0)
      ring.produce(steps, [&](int s, int step) {
        ring.copy_a(a_map, s, step * bk, row0);
#pragma unroll
        for (int box = 0; box < Config::bn / Config::box_columns; ++box)
          hopper::copy_box(b_map, ring.b_tile(s) + box * Config::box_bytes, ring.full(s),
                           col0 + box * Config::box_columns, step * bk);
      });
    else
      {
        hopper::set_registers_up<Config::consumer_registers>();
        const int consumer = warpgroup - 1;
        const int warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
        const int g4 = lane / 4, t = lane % 4;
        // Where this thread's fragment values lie in a stage's B tile, in bytes, for the
        // first wgmma of the stage (the next ones are 8 lines = 1024 bytes further):
        // value v is row g4 + 8·(v % 2) of the fragment, at k = t + 4·(v / 2). Its
        // column in the warp's box (the header says why this one), its 16-byte chunk,
        // and the chunk's place after the swizzle.
        std::uint32_t fragment_offset[4];
#pragma unroll
        for (int v = 0; v < 4; ++v)
          {
            const int k = t + 4 * (v / 2);
            const int column = 16 * (g4 / 4) + 8 * (warp % 2) + 4 * (v % 2) + g4 % 4;
            const int box = 2 * consumer + warp / 2;
            fragment_offset[v] = box * Config::box_bytes + k * 128 +
                                 ((column / 4) ^ k) * 16 + column % 4 * 4;
          }
        float d[128];
#pragma unroll
        for (int i = 0; i < 128; ++i)
          d[i] = 0.0f;
        hopper::keep_in_place(d);
        for (int step = 0; step < steps; ++step)
          {
            const int s = ring.wait_for_step(step);
            // The stage's fragments of B, one per wgmma, loaded before the first is
            // issued; the TMA wrote them, and the completed barrier makes them visible.
            float fragment[bk / 8][4];
            const unsigned char *b_memory = shared_memory + ring.b_tile_offset(s);
#pragma unroll
            for (int p = 0; p < bk / 8; ++p)
#pragma unroll
              for (int v = 0; v < 4; ++v)
                fragment[p][v] =
                  *reinterpret_cast<const float *>(b_memory + p * 1024 + fragment_offset[v]);
            hopper::wgmma_fence();
#pragma unroll
            for (int p = 0; p < bk / 8; ++p)
              hopper::wgmma_64x256x8(d, fragment[p], hopper::descriptor(ring.a_tile(s) + p * 32));
            hopper::wgmma_commit();
            hopper::keep_in_place(d);
            // Wait for this step's group to end, then give its stage back. The
            // fragments' registers are free again for the next step's loads.
            hopper::wgmma_wait<0>();
            if (lane == 0)
              ring.release(s);
          }
        hopper::keep_in_place(d);

        // The epilogue: sum i is row 8·(i/4) + 2t + i % 2 of the block, and the column
        // of fragment row g4 + 8·((i % 4) / 2), mapped as above.
        const int row = row0 + 2 * t;
        const int column = col0 + 64 * consumer + 32 * (warp / 2) + 16 * (g4 / 4) +
                           8 * (warp % 2) + g4 % 4;
#pragma unroll
        for (int i = 0; i < 128; ++i)
          {
            const int r = row + 8 * (i / 4) + i % 2;
            const int c = column + 4 * (i % 4 / 2);
            if (r < g.shape.m && c < g.shape.n)
              g.store(r, c, d[i]);
          }
      }
    ring.leave();
#endif
  }

  // @sect3{Launching}
  //
  // B wanted n-major: as stored for op(B) = B, through a transposing pass for
  // op(B) = Bᵀ. B's tensor map has k rows of n floats, in boxes of
  // Config::box_columns × bk (wgmma_launch.cuh does the rest).
  template <typename Config>
  void launch_wgmma_b_as_stored(const char *name, const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_wgmma<Config, wgmma_b_as_stored_kernel<Config>>(
      name, g, BLayout::n_major, [&](const TmaOperand &b) {
        return tf32_tensor_map(b.data, b.ld, g.shape.k, g.shape.n, Config::box_columns, Config::bk);
      },
      stream);
  }
} // namespace step4
