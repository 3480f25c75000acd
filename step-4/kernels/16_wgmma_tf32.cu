// Kernel 16: TF32 with wgmma, fed by the TMA (see 16_wgmma_tf32.cuh).
#include "kernels/16_wgmma_tf32.cuh"

#include "kernels/hopper.cuh"
#include "kernels/launch.cuh"
#include "kernels/wgmma_launch.cuh"

#include <cstdint>

namespace step4
{
  // @sect3{The sizes}
  //
  // Block tile 128×256, 32 values of k per stage (one 128-byte row of floats, the
  // widest row the 128-byte swizzle takes), four stages of 16 + 32 KB: 192 KB of the
  // 227 KB an SM has. Two consumer warpgroups of 64 rows each and one producer: 384
  // threads, one block per SM. Blocks walk C in bands of 8 tile rows (launch.cuh).
  struct WgmmaConfig
  {
    static constexpr int bm = 128, bn = 256, bk = 32, stages = 4, band = 8, cluster = 1;
    static constexpr int consumers = bm / 64;
    static constexpr int threads = 128 * (1 + consumers), consumer_warps = 4 * consumers;
    static constexpr int a_bytes = bm * bk * 4, b_bytes = bn * bk * 4;
    static constexpr int stage_bytes = a_bytes + b_bytes;
    static constexpr int shared_bytes = ring_shared_bytes(stages, stage_bytes);
    // The registers per thread each role asks for with setmaxnreg (multiples of 8):
    // 128 × 40 + 256 × 232 = 64512 of the SM's 65536.
    static constexpr int producer_registers = 40, consumer_registers = 232;
  };
  // A lower triangle's tiles on the diagonal (the kernel says why this bounds them).
  static_assert(WgmmaConfig::bn % WgmmaConfig::bm == 0 && WgmmaConfig::bn - 1 <= lab::lower_triangle_overhang);

  // @sect3{The kernel}
  //
  // Warpgroup 0 produces, warpgroups 1 and 2 consume (the header explains the roles);
  // the stages and their barriers are a hopper::StageRing.
  template <typename Config>
  __global__ void __launch_bounds__(Config::threads, 1)
    wgmma_kernel(const __grid_constant__ CUtensorMap a_map,
                 const __grid_constant__ CUtensorMap b_map, GemmArgs<float> g)
  {
    // Blocks on their own: the ring's cluster mode (kernel 18) would also need
    // ring.leave() at the end and a lower-triangle argument for a cluster's tiles.
    static_assert(Config::cluster == 1);
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    constexpr int bk = Config::bk;
    extern __shared__ unsigned char shared_memory[];
    const hopper::StageRing<Config> ring(shared_memory);
    int row0, col0;
    // Only C's lower triangle (lab::Output::lower_triangle): a tile wholly above the
    // diagonal returns at once, as in kernels 14 and 15; one the diagonal crosses is
    // computed whole. Its first column, a multiple of bn = 2 bm, is then at most its
    // first row (both are multiples of bm, at most bm − 1 apart), so it reaches at most
    // bn − 1 = 255 columns right of the diagonal: within lab::lower_triangle_overhang.
    if (!block_tile<Config>(g, row0, col0))
      return;
    const int steps = ceil_div(g.shape.k, bk);
    const int warpgroup = threadIdx.x / 128;
    ring.initialise();

    if (warpgroup == 0)
      ring.produce(steps, [&](int s, int step) {
        ring.copy_a(a_map, s, step * bk, row0);
        hopper::copy_box(b_map, ring.b_tile(s), ring.full(s), step * bk, col0);
      });
    else
      {
        // A consumer: rows 64·(warpgroup − 1) to 64·warpgroup − 1 of the block tile,
        // all 256 columns. Each step is bk / 8 = 4 wgmma along the stage's k; the group
        // of step s − 1 is waited for only after step s is issued, and its stage is
        // then handed back to the producer.
        hopper::set_registers_up<Config::consumer_registers>();
        const int consumer = warpgroup - 1;
        const int warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
        float d[128];
#pragma unroll
        for (int i = 0; i < 128; ++i)
          d[i] = 0.0f;
        hopper::keep_in_place(d);
        for (int step = 0; step < steps; ++step)
          {
            const int s = ring.wait_for_step(step);
            hopper::wgmma_fence();
#pragma unroll
            for (int p = 0; p < bk / 8; ++p)
              hopper::wgmma_64x256x8(d, hopper::descriptor(ring.a_tile(s) + consumer * 64 * 128 + p * 32),
                                     hopper::descriptor(ring.b_tile(s) + p * 32));
            hopper::wgmma_commit();
            hopper::keep_in_place(d);
            hopper::wgmma_wait<1>();
            if (step > 0 && lane == 0)
              ring.release((step + Config::stages - 1) % Config::stages);
          }
        hopper::wgmma_wait<0>();
        hopper::keep_in_place(d);

        // The epilogue: sum i of this thread belongs to row 16·warp + lane / 4 (+ 8
        // for i % 4 >= 2) of the warpgroup's 64, column 8·(i / 4) + 2·(lane % 4)
        // (+ 1 for odd i).
        const int row = row0 + 64 * consumer + 16 * warp + lane / 4;
#pragma unroll
        for (int i = 0; i < 128; ++i)
          {
            const int r = row + i % 4 / 2 * 8;
            const int c = col0 + i / 4 * 8 + lane % 4 * 2 + i % 2;
            if (r < g.shape.m && c < g.shape.n)
              g.store(r, c, d[i]);
          }
      }
#endif
  }

  // @sect3{Launching}
  //
  // B wanted k-major: as stored for op(B) = Bᵀ, through a transposing pass for
  // op(B) = B. B's tensor map has n rows of k floats (wgmma_launch.cuh does the rest).
  void launch_16_wgmma_tf32(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_wgmma<WgmmaConfig, wgmma_kernel<WgmmaConfig>>(
      "16_wgmma_tf32", g, BLayout::k_major, [&](const TmaOperand &b) {
        return tf32_tensor_map(b.data, b.ld, g.shape.n, g.shape.k, WgmmaConfig::bk, WgmmaConfig::bn);
      },
      stream);
  }
} // namespace step4
