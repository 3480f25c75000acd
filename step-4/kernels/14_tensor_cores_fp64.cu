// Kernel 14: double precision on the FP64 tensor cores (see 14_tensor_cores_fp64.cuh).
#include "kernels/14_tensor_cores_fp64.cuh"

#include "kernels/dmma.cuh"
#include "kernels/launch.cuh"
#include "kernels/tile_copy.cuh"

#include <lab/device.h>

#include <stdexcept>

namespace step4
{
  // @sect3{The sizes}
  //
  // Block tile bm×bn, depth bk, warps_m×warps_n warps, pipeline stages, the DMMA
  // shape, the blocks that must fit on an SM (for __launch_bounds__) and the height
  // of the bands of tile rows that the blocks walk C in (1: row by row).
  template <int bm_, int bn_, int bk_, int warps_m_, int warps_n_, int stages_,
            typename Dmma_, int min_blocks_ = 1, int band_ = 8>
  struct Fp64TensorCoreConfig
  {
    using Dmma = Dmma_;
    static constexpr int bm = bm_, bn = bn_, bk = bk_, stages = stages_;
    static constexpr int warps_m = warps_m_, warps_n = warps_n_;
    static constexpr int threads = 32 * warps_m * warps_n;
    static constexpr int min_blocks = min_blocks_, band = band_, cluster = 1;
    static constexpr int wm = bm / warps_m, wn = bn / warps_n;
    static constexpr int frags_m = wm / 16, frags_n = wn / 8;
    static_assert(wm % 16 == 0 && wn % 8 == 0, "whole 16x8 fragments of C per warp");
    static_assert(bk % Dmma::k == 0 && bk % 16 == 0, "whole DMMA steps; padded rows");
    static_assert(bm % 16 == 0 && bn % 16 == 0, "padded rows need multiples of 16");
  };

  // @sect3{A tile in shared memory}
  //
  // One operand's tile, `extent` long in m (or n) and bk deep, in the layout of its
  // matrix: k-major (each tile row holds bk consecutive values of k) or not (each tile
  // row holds consecutive values of m or n). `at(outer, p)` is where entry (outer, p)
  // of the tile lies (outer: its row of op(A) or column of op(B); p: its k). Rows are
  // padded by 4 doubles (see the header). `copy` starts the asynchronous copy of the
  // tile whose first entry is (outer0, p0), from the matrix as stored.
  template <bool k_major, int extent, int bk>
  struct TileLayout
  {
    static constexpr int rows = k_major ? extent : bk;
    static constexpr int cols = k_major ? bk : extent;
    static constexpr int ld = cols + 4;
    static constexpr int size = rows * ld;

    __host__ __device__ static constexpr int at(int outer, int p)
    {
      return k_major ? outer * ld + p : p * ld + outer;
    }

    template <int threads, bool vectorized>
    __device__ static void copy(const MatrixView<double> &matrix, int outer0, int p0,
                                double *tile)
    {
      if (k_major)
        copy_tile_async<double, rows, cols, threads, vectorized>(matrix, outer0, p0, tile, ld);
      else
        copy_tile_async<double, rows, cols, threads, vectorized>(matrix, p0, outer0, tile, ld);
    }
  };

  template <typename Config, Op op_a, Op op_b>
  struct Fp64Tiles
  {
    using A = TileLayout<op_a == Op::none, Config::bm, Config::bk>;
    using B = TileLayout<op_b == Op::transpose, Config::bn, Config::bk>;
    static constexpr int stage_size = A::size + B::size;
    static constexpr int shared_bytes = Config::stages * stage_size * int(sizeof(double));
  };

  // @sect3{A warp's fragments}
  //
  // The values of A and B that one DMMA step (depth Dmma::k) of the warp tile needs,
  // in this thread's registers: frags_m fragments of A (16×k each) and frags_n of B
  // (k×8). `load` reads them from a stage of shared memory, `multiply_add` issues the
  // frags_m × frags_n DMMA instructions. `a_offset` and `b_offset` say where this
  // thread's first values lie in a stage; everything else is a constant offset.
  template <typename Config, typename A, typename B>
  struct WarpFragments
  {
    using Dmma = typename Config::Dmma;
    static constexpr int frags_m = Config::frags_m, frags_n = Config::frags_n, k = Dmma::k;
    double a[frags_m][k / 2], b[frags_n][k / 4];

    __device__ void load(const double *stage, int a_offset, int b_offset, int p)
    {
#pragma unroll
      for (int i = 0; i < frags_m; ++i)
#pragma unroll
        for (int v = 0; v < k / 2; ++v)
          a[i][v] = stage[a_offset + A::at(i * 16 + v % 2 * 8, p + v / 2 * 4)];
#pragma unroll
      for (int j = 0; j < frags_n; ++j)
#pragma unroll
        for (int v = 0; v < k / 4; ++v)
          b[j][v] = stage[b_offset + B::at(j * 8, p + v * 4)];
    }

    __device__ void multiply_add(double (&sum)[frags_m][frags_n][4]) const
    {
#pragma unroll
      for (int i = 0; i < frags_m; ++i)
#pragma unroll
        for (int j = 0; j < frags_n; ++j)
          Dmma::mma(sum[i][j], a[i], b[j]);
    }
  };

  // @sect3{The kernel}
  //
  // The main loop overlaps three things. The tiles of the next stages travel from
  // global to shared memory (cp.async) while a stage is used. Within a stage, the
  // warp walks the depth bk in DMMA steps, and the fragments of the next step are
  // loaded from shared memory into a second set of registers while the DMMA
  // instructions of the current step run. (The first version of this kernel loaded
  // a stage's fragments and then multiplied: all warps, in step after the barrier,
  // first queued at shared memory and then at the tensor cores. It ran at 61 to 69%
  // of cuBLAS; the second set of registers alone brought it to 72 to 76%.) And the
  // barrier that makes the next stage visible comes before the last DMMA step of the
  // current stage, so the first fragments of the next stage are read while that
  // step's DMMAs run; the stage just finished is then free, and is refilled at once.
  template <typename Config, Op op_a, Op op_b, bool vectorized>
  __global__ void __launch_bounds__(Config::threads, Config::min_blocks)
    fp64_tensor_core_kernel(GemmArgs<double> g)
  {
    using Tiles = Fp64Tiles<Config, op_a, op_b>;
    using A = typename Tiles::A;
    using B = typename Tiles::B;
    using Fragments = WarpFragments<Config, A, B>;
    constexpr int bk = Config::bk, k = Fragments::k;
    constexpr int stages = Config::stages, threads = Config::threads;
    constexpr int dmma_steps = bk / k;
    static_assert(dmma_steps % 2 == 0, "the two fragment sets alternate within a stage");
    extern __shared__ double2 shared_memory[];
    double *const tiles = reinterpret_cast<double *>(shared_memory);

    // The block's tile in the band order. Only C's lower triangle
    // (lab::Output::lower_triangle): as in kernel 15, a tile wholly above the diagonal
    // returns at once, and one the diagonal crosses is computed whole (both sizes below
    // keep bm + bn − 1 within the overhang).
    int row0, col0;
    if (!block_tile<Config>(g, row0, col0))
      return;
    const GemmShape &s = g.shape;
    const MatrixView<double> a{g.a, g.lda, s.a_rows(), s.a_cols()};
    const MatrixView<double> b{g.b, g.ldb, s.b_rows(), s.b_cols()};
    const auto stage = [&](int step) { return tiles + step % stages * Tiles::stage_size; };
    const auto start_copy = [&](int step) {
      A::template copy<threads, vectorized>(a, row0, step * bk, stage(step));
      B::template copy<threads, vectorized>(b, col0, step * bk, stage(step) + A::size);
    };

    // The warp's place in the block tile, and the thread's in the fragments: A's
    // values of this thread lie at (warp_row + g + ..., t + ...), B's at
    // (warp_col + g + ..., t + ...).
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int group = lane / 4, in_group = lane % 4;
    const int warp_row = warp / Config::warps_n * Config::wm;
    const int warp_col = warp % Config::warps_n * Config::wn;
    const int a_offset = A::at(warp_row + group, in_group);
    const int b_offset = A::size + B::at(warp_col + group, in_group);

    double sum[Config::frags_m][Config::frags_n][4] = {};
    Fragments fragments[2];

    // Fill every stage (one commit per step, also when it is empty, so that "at most
    // stages - 2 pending" always means "the next step has arrived"), wait for the
    // first, and load its first fragments.
    const int steps = ceil_div(s.k, bk);
    for (int step = 0; step < stages; ++step)
      {
        if (step < steps)
          start_copy(step);
        __pipeline_commit();
      }
    __pipeline_wait_prior(stages - 1);
    __syncthreads();
    if (steps > 0)
      fragments[0].load(stage(0), a_offset, b_offset, 0);

    for (int step = 0; step < steps; ++step)
      {
#pragma unroll
        for (int d = 0; d < dmma_steps; ++d)
          {
            if (d + 1 < dmma_steps)
              fragments[(d + 1) % 2].load(stage(step), a_offset, b_offset, (d + 1) * k);
            else
              {
                // The last DMMA step of this stage: its fragments are in registers,
                // so the stage is free once every warp is here. Wait for the next
                // stage, refill this one, and load the next stage's first fragments.
                // No branch here, on purpose: a copy past the end of k reads nothing
                // and fills zeros into a stage nobody reads, and the last step's
                // load reads a stage whose values are not used. So the copy's
                // address arithmetic, the loads and this step's DMMA instructions
                // are one straight piece of code, which the compiler interleaves:
                // the integer work fills the issue slots while the tensor cores are
                // busy. (With `if`s here, all warps did the copy's arithmetic right
                // after the barrier while the tensor cores waited: 2 to 3 points of
                // cuBLAS slower with 16 warps. With 8 warps of 64×32, whose 255
                // registers leave the compiler no room to interleave, the branches
                // were faster: such choices have to be measured.)
                __pipeline_wait_prior(stages - 2);
                __syncthreads();
                start_copy(step + stages);
                __pipeline_commit();
                fragments[0].load(stage(step + 1), a_offset, b_offset, 0);
              }
            fragments[d % 2].multiply_add(sum);
          }
      }

    // The copies issued past the end of k are still on their way: a block must not
    // end while they write into its shared memory.
    __pipeline_wait_prior(0);

    // Straight from the registers to C.
    store_sums(
      g, sum, [&](int i, int v) { return row0 + warp_row + i * 16 + group + v / 2 * 8; },
      [&](int j, int v) { return col0 + warp_col + j * 8 + in_group * 2 + v % 2; });
  }

  // @sect3{Launching}
  //
  // One instantiation per combination of transposes and load width; the shared
  // memory (up to 160 KB) is more than the default 48 KB and must be asked for.
  template <typename Config, Op op_a, Op op_b, bool vectorized>
  void launch_fp64_variant(const GemmArgs<double> &g, cudaStream_t stream)
  {
    constexpr int bytes = Fp64Tiles<Config, op_a, op_b>::shared_bytes;
    constexpr auto kernel = fp64_tensor_core_kernel<Config, op_a, op_b, vectorized>;
    allow_shared_memory<kernel>(bytes);
    const dim3 grid(ceil_div(g.shape.n, Config::bn), ceil_div(g.shape.m, Config::bm));
    kernel<<<grid, Config::threads, bytes, stream>>>(g);
    LAB_CHECK_LAUNCH();
  }

  template <typename Config>
  void launch_fp64_tensor_cores(const GemmArgs<double> &g, cudaStream_t stream)
  {
    if (g.shape.m == 0 || g.shape.n == 0)
      return;
    const bool aligned = allows_vector_loads(g.a, g.lda) && allows_vector_loads(g.b, g.ldb);
    with_transposes(g.shape, [&](auto op_a, auto op_b) {
      constexpr Op a = decltype(op_a)::value, b = decltype(op_b)::value;
      if (aligned)
        launch_fp64_variant<Config, a, b, true>(g, stream);
      else
        launch_fp64_variant<Config, a, b, false>(g, stream);
    });
  }

  // Whether a configuration's kernel exists for this GPU with its DMMA instruction in
  // it: the runtime reports the virtual architecture a kernel's code was compiled for
  // (ptxVersion, 90 for compute_90); a build for sm_80 run on an H100 through the
  // driver's just-in-time compiler would report 80, and must not run a shape of
  // sm_90. On a GPU the build has no code for, the query fails (and its error is
  // cleared, so that it does not surface at the next launch check).
  template <typename Config>
  bool compiled_with_dmma()
  {
    cudaFuncAttributes attributes;
    const cudaError_t status = cudaFuncGetAttributes(
      &attributes, fp64_tensor_core_kernel<Config, Op::none, Op::none, true>);
    if (status != cudaSuccess)
      {
        cudaGetLastError();
        return false;
      }
    return attributes.ptxVersion >= Config::Dmma::arch;
  }

  // @sect3{Kernel 14's sizes}
  //
  // On Hopper: 128×128 tiles of depth 16 in four stages (150 KB of shared memory for
  // A·B), 16 warps of 32×32, m16n8k4, bands of 8 tile rows; one block per SM, 128
  // registers per thread. Measured on an H100 against cuBLAS DGEMM (percent of
  // cuBLAS at n = 4096 / 8192, with the main loop above unless said otherwise):
  // - 16 warps of 32×32, m16n8k4, four stages: 76 / 79 (three stages: 75 / 78; depth
  //   32 in three stages: 61 / 68; row-by-row block order: 73 / 68);
  // - 8 warps of 64×32, m16n8k4: 68 / 64 (with branches at the barrier 70 / 73);
  //   with m16n8k8, which spills: 64 / 70; with m16n8k16 and one set of fragments
  //   (the first version): 61 / 65;
  // - two blocks of 8 warps of 32×32 per SM, 128×64 or 64×128 tiles: 69 to 71.
  // On the A100 and its relatives: m8n8k4, 4 warps of 64×32 in 128×64 tiles, three
  // stages (at most 92 KB, which also fits the 99 KB a block may have on sm_86 and
  // sm_89). Not measured there: the course's GPU is an H100/H200, where m8n8k4 runs
  // at 40 to 48% of cuBLAS in every configuration tried.
  using Fp64TilesHopper = Fp64TensorCoreConfig<128, 128, 16, 4, 4, 4, DmmaM16n8k4>;
  using Fp64TilesAmpere = Fp64TensorCoreConfig<128, 64, 16, 2, 2, 3, DmmaM8n8k4Pair, 2>;
  static_assert(Fp64TilesHopper::bm + Fp64TilesHopper::bn - 1 <= lab::lower_triangle_overhang);
  static_assert(Fp64TilesAmpere::bm + Fp64TilesAmpere::bn - 1 <= lab::lower_triangle_overhang);

  namespace
  {
    enum class Fp64Path
    {
      none,
      hopper,
      ampere
    };

    Fp64Path fp64_path()
    {
      static const Fp64Path path = [] {
        const int major = lab::current_device_attribute(cudaDevAttrComputeCapabilityMajor);
        if (major >= 9 && compiled_with_dmma<Fp64TilesHopper>())
          return Fp64Path::hopper;
        if (major >= 8 && compiled_with_dmma<Fp64TilesAmpere>())
          return Fp64Path::ampere;
        return Fp64Path::none;
      }();
      return path;
    }
  } // namespace

  bool fp64_tensor_cores_available() { return fp64_path() != Fp64Path::none; }

  void launch_14_tensor_cores_fp64(const GemmArgs<double> &g, cudaStream_t stream)
  {
    switch (fp64_path())
      {
        case Fp64Path::hopper:
          launch_fp64_tensor_cores<Fp64TilesHopper>(g, stream);
          break;
        case Fp64Path::ampere:
          launch_fp64_tensor_cores<Fp64TilesAmpere>(g, stream);
          break;
        case Fp64Path::none:
          throw std::runtime_error("14_tensor_cores_fp64 needs FP64 tensor cores (compute "
                                   "capability 8.0 or newer) and a build for them");
      }
  }
} // namespace step4
