// Kernel 19: the FP64 tensor cores fed by the TMA (see 19_dmma_tma.cuh).
#include "kernels/19_dmma_tma.cuh"

#include "kernels/14_tensor_cores_fp64.cuh"
#include "kernels/dmma.cuh"
#include "kernels/hopper.cuh"
#include "kernels/launch.cuh"
#include "kernels/swizzled_layout.h"
#include "kernels/tile_copy.cuh"
#include "kernels/tma_operands.cuh"

#include <cstdint>
#include <stdexcept>

namespace step4
{
  // @sect3{The sizes}
  //
  // Block tile bm×bn, warps_m×warps_n warps, the DMMA shape, the stages, the lag of
  // the refills (the kernel says what it is), the blocks that must fit on an SM (for
  // __launch_bounds__); bands of 8 tile rows, as in kernel 14. A stage is 16 values of
  // k: one 128-byte line of doubles per row of a k-major tile, the widest the
  // 128-byte swizzle takes.
  template <int bm_, int bn_, int warps_m_, int warps_n_, typename Dmma_, int stages_, int lag_,
            int min_blocks_ = 1>
  struct DmmaTmaConfig
  {
    using Dmma = Dmma_;
    static constexpr int bm = bm_, bn = bn_, bk = 16, stages = stages_, lag = lag_, band = 8;
    static constexpr int cluster = 1, min_blocks = min_blocks_;
    static constexpr int warps_m = warps_m_, warps_n = warps_n_, consumer_warps = warps_m * warps_n;
    static constexpr int threads = 32 * consumer_warps;
    static constexpr int wm = bm / warps_m, wn = bn / warps_n;
    static constexpr int frags_m = wm / 16, frags_n = wn / 8;
    static constexpr int a_bytes = bm * bk * 8, b_bytes = bn * bk * 8;
    static constexpr int stage_bytes = a_bytes + b_bytes;
    static constexpr int shared_bytes = ring_shared_bytes(stages, stage_bytes);
    static_assert(bm + bn - 1 <= lab::lower_triangle_overhang);
    static_assert(wm % 16 == 0 && wn % 16 == 0 && bk % Dmma::k == 0 && lag < stages);
  };

  // Kernel 19's sizes are cuBLAS's (its kernel's name says
  // `tilesize128x64x16_stage3_warpsize2x2x1_tensor16x8x8`): 128×64 tiles of C, four
  // warps of 64×32 with m16n8k8 (64 sums and two sets of 24 fragment values per
  // thread: 248 to 255 registers, no spills), two blocks per SM; four stages of 24 KB
  // per block, refilled one step late. Measured on an H200, percent of cuBLAS DGEMM's
  // speed at n = 4096 / 8192, under Nsight Compute, which holds the SM clock at 1.5 GHz
  // for every kernel, and reproducible to a point. (Timed one after the other, cuBLAS
  // first, as the sweep timed them before it timed each kernel alternately with
  // cuBLAS, the figures moved by up to 20 points from run to run under the power
  // limit, and no variant below was clearly ahead of these; alternately, these sizes
  // measure 94.4 to 96.0 / 93.1 to 93.3, the results page.) Kernel 14: 75.1 / 74.5.
  // - these sizes: 94.8 / 93.8; three stages 95.4 / 94.2, lag 0 95.1 / 94.0, lag 2
  //   93.8 / 93.4;
  // - 128×128 tiles of 8 such warps, one block per SM, six stages: 89.2 / 86.4, and
  //   within a point of that with lag 0 or 2, four stages or m16n8k4;
  // - 64×128 tiles, two blocks per SM: 86.5 / 85.5;
  // - kernel 14's arithmetic, 16 warps of 32×32 with m16n8k4 in 128×128, six stages,
  //   lag 2 (the first version): 74 to 77, no faster than kernel 14;
  // - each thread's two values of k made neighbours (k = 2t and 2t + 1 of each 8, the
  //   same for A and B), so that a row of a k-major tile is one 16-byte load and the
  //   other layout needs no permutation: 73.2 / 73.5, with 4.8 million bank
  //   conflicts at 4096 (the fragment loads of the layout above have none:
  //   tests/swizzled_layout_test.cpp) and 20 bytes of spills. The
  //   16-byte loads were meant to be conflict-free within each quarter of a warp; the
  //   profile says they are not, and why was not found;
  // - no fixed lag: after each step the first thread tests the barriers
  //   (`mbarrier.test_wait`) and refills every stage already empty, and waits only for
  //   the one its warp needs next: 84.1 / 82.8.
  using DmmaTmaHopper = DmmaTmaConfig<128, 64, 2, 2, DmmaM16n8k8, 4, 1, 2>;

  // @sect3{A tile as the TMA writes it}
  //
  // Where each value of a tile lies, and so which thread reads what, is
  // SwizzledLayout's (swizzled_layout.h, where the tests can reach it too); the tile
  // adds the producer's copy: one box of 16 × extent (k-major), or extent / 16 boxes of
  // 16 × 16 side by side.
  template <bool k_major, int extent>
  struct SwizzledTile : SwizzledLayout<k_major>
  {
    static_assert(extent % 16 == 0);

    __device__ static void copy(const CUtensorMap &map, std::uint32_t tile,
                                std::uint32_t barrier, int outer0, int k0)
    {
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
      if constexpr (k_major)
        hopper::copy_box(map, tile, barrier, k0, outer0);
      else
#pragma unroll
        for (int box = 0; box < extent / 16; ++box)
          hopper::copy_box(map, tile + box * 2048, barrier, outer0 + 16 * box, k0);
#endif
    }
  };

  // @sect3{A warp's fragments}
  //
  // As in kernel 14 (WarpFragments there), the values of one DMMA step in registers;
  // here `load` reads them through the thread's two offsets, from the stage's tiles
  // as ordinary shared memory.
  template <typename Config, typename A, typename B>
  struct SwizzledFragments
  {
    static constexpr int frags_m = Config::frags_m, frags_n = Config::frags_n;
    static constexpr int k = Config::Dmma::k;
    double a[frags_m][k / 2], b[frags_n][k / 4];

    // The values of DMMA step p (depth k = 4 or 8), as kernel 14 holds them (value v of
    // A at row + 8(v % 2) and k + 4(v / 2), value v of B at k + 4v): step q of 4 along k.
    __device__ void load(const unsigned char *a_tile, const unsigned char *b_tile,
                         std::uint32_t a_offset, std::uint32_t b_offset, int p)
    {
#pragma unroll
      for (int i = 0; i < frags_m; ++i)
#pragma unroll
        for (int v = 0; v < k / 2; ++v)
          {
            const int h = v % 2, q = p * k / 4 + v / 2;
            a[i][v] = *reinterpret_cast<const double *>(
              a_tile + ((a_offset ^ A::xor_part(h, q)) + A::add_part(i, h, q)));
          }
#pragma unroll
      for (int j = 0; j < frags_n; ++j)
#pragma unroll
        for (int v = 0; v < k / 4; ++v)
          {
            const int q = p * k / 4 + v;
            b[j][v] = *reinterpret_cast<const double *>(
              b_tile + ((b_offset ^ B::xor_part(j % 2, q)) + B::add_part(j / 2, j % 2, q)));
          }
    }

    __device__ void multiply_add(double (&sum)[frags_m][frags_n][4]) const
    {
#pragma unroll
      for (int i = 0; i < frags_m; ++i)
#pragma unroll
        for (int j = 0; j < frags_n; ++j)
          Config::Dmma::mma(sum[i][j], a[i], b[j]);
    }
  };

  // @sect3{The kernel}
  //
  // Every warp computes; the block's first thread also issues the copies (the header
  // says why there is no producer warp). A warp's loop is kernel 14's, with a barrier
  // of the ring where kernel 14 had __syncthreads(): the fragments of the next DMMA
  // step are loaded while the current step's DMMAs run, and at the last step of a
  // stage the next stage is waited for and its first fragments loaded. Once the warp's
  // last DMMA of a stage is issued, every value it read from that stage is in
  // registers (the DMMA waits for them), and the warp releases the stage: each warp on
  // its own, at its own pace.
  //
  // The first thread, after its warp's step t, refills the stage of step t − lag with
  // step t + stages − lag: it must wait until every warp is done with step t − lag,
  // and while it waits, its warp does not compute. With lag = 0 the first warp waits
  // for the slowest at every step; with lag = 1 only where another warp is more than a
  // step behind it, and the copies still start stages − lag = 3 steps before they are
  // needed. (Measured: the sizes above.)
  template <typename Config, bool a_k_major, bool b_k_major>
  __global__ void __launch_bounds__(Config::threads, Config::min_blocks)
    dmma_tma_kernel(const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap b_map, GemmArgs<double> g)
  {
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    using A = SwizzledTile<a_k_major, Config::bm>;
    using B = SwizzledTile<b_k_major, Config::bn>;
    using Fragments = SwizzledFragments<Config, A, B>;
    constexpr int bk = Config::bk, dmma_steps = bk / Config::Dmma::k;
    static_assert(dmma_steps % 2 == 0, "the two fragment sets alternate within a stage");
    extern __shared__ unsigned char shared_memory[];
    const hopper::StageRing<Config> ring(shared_memory);
    int row0, col0;
    if (!block_tile<Config>(g, row0, col0))
      return;
    const int steps = ceil_div(g.shape.k, bk);
    ring.initialise();
    const bool producer = threadIdx.x == 0;
    const auto copy = [&](int s, int step) {
      A::copy(a_map, ring.a_tile(s), ring.full(s), row0, step * bk);
      B::copy(b_map, ring.b_tile(s), ring.full(s), col0, step * bk);
    };
    if (producer)
      for (int step = 0; step < min(steps, Config::stages - Config::lag); ++step)
        ring.refill(step, copy);

    // The warp's tile of wm×wn, and the thread's group and place in it.
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int group = lane / 4, in_group = lane % 4;
    const int warp_row = warp / Config::warps_n * Config::wm;
    const int warp_col = warp % Config::warps_n * Config::wn;
    const std::uint32_t a_offset =
      A::offset(A::physical(group), in_group) + A::add_part(warp_row / 16, 0, 0);
    const std::uint32_t b_offset =
      B::offset(B::physical(group), in_group) + B::add_part(warp_col / 16, 0, 0);
    const auto a_tile = [&](int s) { return shared_memory + ring.a_tile_offset(s); };
    const auto b_tile = [&](int s) { return shared_memory + ring.b_tile_offset(s); };

    double sum[Config::frags_m][Config::frags_n][4] = {};
    Fragments fragments[2];
    if (steps > 0)
      {
        ring.wait_for_step(0);
        fragments[0].load(a_tile(0), b_tile(0), a_offset, b_offset, 0);
      }
    for (int step = 0; step < steps; ++step)
      {
        const int s = step % Config::stages;
#pragma unroll
        for (int p = 0; p < dmma_steps; ++p)
          {
            if (p + 1 < dmma_steps)
              fragments[(p + 1) % 2].load(a_tile(s), b_tile(s), a_offset, b_offset, p + 1);
            else if (step + 1 < steps)
              {
                const int next = ring.wait_for_step(step + 1);
                fragments[0].load(a_tile(next), b_tile(next), a_offset, b_offset, 0);
              }
            fragments[p % 2].multiply_add(sum);
          }
        __syncwarp();
        if (lane == 0)
          ring.release(s);
        if (producer && step + Config::stages - Config::lag < steps)
          ring.refill(step + Config::stages - Config::lag, copy);
      }

    // The epilogue: as in kernel 14, at the tile's rows and columns that the
    // permutations say.
    store_sums(
      g, sum, [&](int i, int v) { return row0 + warp_row + A::physical(16 * i + 8 * (v / 2) + group); },
      [&](int j, int v) { return col0 + warp_col + B::physical(8 * j + 2 * in_group + v % 2); });
#endif
  }

  // @sect3{Launching}
  //
  // A tile of op(A) is k-major where A is stored so (op(A) = A): a map of m rows of k,
  // boxes of 16 values of k × bm rows; else a map of k rows of m, boxes of 16 × 16. B the other way
  // round: k-major where op(B) = Bᵀ. Operands the TMA cannot read (a start off a 16-byte
  // boundary, an odd leading dimension) go to kernel 14, which reads any.
  template <typename Config, bool a_k_major, bool b_k_major>
  void launch_dmma_tma_variant(const GemmArgs<double> &g, cudaStream_t stream)
  {
    const GemmShape &s = g.shape;
    CUtensorMap a_map{}, b_map{};
    if (s.k > 0)
      {
        a_map = a_k_major ? fp64_tensor_map(g.a, g.lda, s.m, s.k, Config::bk, Config::bm)
                          : fp64_tensor_map(g.a, g.lda, s.k, s.m, 16, Config::bk);
        b_map = b_k_major ? fp64_tensor_map(g.b, g.ldb, s.n, s.k, Config::bk, Config::bn)
                          : fp64_tensor_map(g.b, g.ldb, s.k, s.n, 16, Config::bk);
      }
    constexpr auto kernel = dmma_tma_kernel<Config, a_k_major, b_k_major>;
    allow_shared_memory<kernel>(Config::shared_bytes);
    const dim3 grid(ceil_div(s.n, Config::bn), ceil_div(s.m, Config::bm));
    kernel<<<grid, Config::threads, Config::shared_bytes, stream>>>(a_map, b_map, g);
    LAB_CHECK_LAUNCH();
  }

  void launch_19_dmma_tma(const GemmArgs<double> &g, cudaStream_t stream)
  {
    if (!wgmma_available())
      throw std::runtime_error("19_dmma_tma needs a GPU of compute capability 9.0 and a build "
                               "for it (CMAKE_CUDA_ARCHITECTURES=90)");
    if (g.shape.m == 0 || g.shape.n == 0)
      return;
    if (!allows_vector_loads(g.a, g.lda) || !allows_vector_loads(g.b, g.ldb))
      return launch_14_tensor_cores_fp64(g, stream);
    with_transposes(g.shape, [&](auto op_a, auto op_b) {
      constexpr bool a_k_major = decltype(op_a)::value == Op::none;
      constexpr bool b_k_major = decltype(op_b)::value == Op::transpose;
      launch_dmma_tma_variant<DmmaTmaHopper, a_k_major, b_k_major>(g, stream);
    });
  }
} // namespace step4
