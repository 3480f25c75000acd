// Kernel 15: every tile by cp.async, in a pipeline of stages (see 15_async_pipeline.cuh).
#include "kernels/15_async_pipeline.cuh"

#include "kernels/9_warp_tiling.cuh"

#include <lab/device.h>

#include <type_traits>

namespace step4
{
  // @sect3{One asynchronous copy, its size in a register}
  //
  // `cp.async` takes two sizes: the bytes it writes to shared memory (4, 8 or 16,
  // fixed in the instruction) and the bytes it reads from global memory (the rest are
  // zeros). CUDA's __pipeline_memcpy_async takes the second as a count of zeros, but
  // passes it to the instruction as a constant: given a value known only at run time
  // it expands into a branch over all 17 possible counts. These two functions write
  // the instruction themselves, with the count read from a register: one
  // instruction, whatever the count. (The "memory" clobber tells the compiler that
  // shared memory changes here, so it does not move reads of the tiles across it.)
  __device__ __forceinline__ void copy_16_bytes_async(float *destination, const float *source,
                                                      int bytes_read)
  {
    const auto address = static_cast<unsigned>(__cvta_generic_to_shared(destination));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(address), "l"(source),
                 "r"(bytes_read)
                 : "memory");
  }

  __device__ __forceinline__ void copy_4_bytes_async(float *destination, const float *source,
                                                     int bytes_read)
  {
    const auto address = static_cast<unsigned>(__cvta_generic_to_shared(destination));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(address), "l"(source),
                 "r"(bytes_read)
                 : "memory");
  }

  // @sect3{The sizes}
  //
  // Kernel 9's tile sizes (block tile, depth, warp tile: a TileConfig), the number
  // of stages in the pipeline (the blocks that must fit on an SM at once, for
  // __launch_bounds__, are TileConfig's choice).
  template <int bm, int bn, int bk, int wm, int wn, int stages_>
  struct PipelineConfig : TileConfig<bm, bn, bk, wm, wn>
  {
    static constexpr int stages = stages_;
    // Shared memory: both tiles k-major, rows padded as in kernel 8.
    static constexpr int a_ld = bm + TileConfig<bm, bn, bk, wm, wn>::padding;
    static constexpr int b_ld = bn + TileConfig<bm, bn, bk, wm, wn>::padding;
    static constexpr int a_size = bk * a_ld;
    static constexpr int stage_size = bk * (a_ld + b_ld);
    static constexpr int shared_bytes = stages * stage_size * int(sizeof(float));
    static_assert(stages >= 2, "one stage in use, at least one on its way");
    static_assert(bk % 8 == 0, "whole 8-deep pieces for the transposing copy");
  };

  // @sect3{A tile that is k-major in global memory}
  //
  // B as stored, or A transposed: rows of the stored matrix are steps of k, so each row
  // of the tile is a piece of a row of the matrix, copied in 16-byte chunks as it lies.
  // The threads of a row of chunks cover a whole tile row, so a thread's chunks all lie
  // in one column of chunks, `rows_apart` rows apart, `parts` of them per step.
  // Everything that stays the same from step to step is worked out once, in the
  // constructor: the pointer to the thread's first chunk, where its chunks land in a
  // stage (constant offsets), and how much of its chunk lies inside the matrix. At the
  // edge a chunk may hang over; it reads what is inside and fills the rest with zeros
  // (a chunk wholly outside reads nothing, from the first column). After that, a step
  // is `parts` copies at constant distances from one pointer, and one increment of it.
  //
  // Without 16-byte alignment (`vectorized` false) each chunk is four 4-byte copies,
  // and columns past the edge are read again from the last column instead of zeroed:
  // they only feed entries of C outside C, which are never stored.
  template <int extent, int bk, int threads, int tile_ld, bool vectorized>
  class KMajorCopy
  {
    static constexpr int per_row = extent / 4;
    static constexpr int rows_apart = threads / per_row;
    static_assert(threads % per_row == 0 && bk % rows_apart == 0,
                  "every thread copies whole chunks of one column");

  public:
    static constexpr int parts = bk / rows_apart;

  private:
    const float *data;
    const float *source;
    long ld;
    int first_row;
    int inside;
    int last;
    int destination;

  public:
    __device__ KMajorCopy(const MatrixView<float> &matrix, int outer0)
      : data(matrix.data), ld(matrix.ld)
    {
      const int c = threadIdx.x % per_row * 4;
      first_row = threadIdx.x / per_row;
      inside = min(max(matrix.cols - (outer0 + c), 0), 4);
      last = matrix.cols - 1 - (outer0 + c);
      source = matrix.data + first_row * ld + (vectorized && inside == 0 ? 0 : outer0 + c);
      destination = first_row * tile_ld + c;
    }

    // Copies chunk `part` of a step whose rows below `rows` lie inside the matrix (all
    // of them if `whole`), and moves its pointer on by `advance` rows.
    __device__ __forceinline__ void copy(float *tile, int part, bool whole, int rows, int advance)
    {
      const bool row_inside = whole || first_row + part * rows_apart < rows;
      float *target = tile + destination + part * rows_apart * tile_ld;
      const float *chunk = source + part * rows_apart * ld;
      if (vectorized)
        copy_16_bytes_async(target, row_inside ? chunk : data, row_inside ? inside * 4 : 0);
      else
#pragma unroll
        for (int q = 0; q < 4; ++q)
          copy_4_bytes_async(target + q, row_inside ? chunk + min(q, last) : data,
                             row_inside ? 4 : 0);
      if (part == parts - 1)
        source += advance * ld;
    }
  };

  // @sect3{A tile that must be transposed}
  //
  // A as stored, or B transposed: rows of the stored matrix run along m (or n), and k
  // along each row, but the tile in shared memory must be k-major. A 16-byte copy
  // cannot transpose, a 4-byte one can: each element is its own `cp.async` and lands
  // wherever the tile wants it. What is left to choose is which thread copies which
  // element, and here two things pull apart. Global memory wants a warp to read whole
  // 32-byte sectors; shared memory wants the warp's 32 writes in 32 different banks.
  // A warp that copies a piece of 4 rows × 8 steps of k does both: each row's 8
  // values are one sector, and element (r, p) goes to tile row p, column r, whose
  // bank is (p·tile_ld + r) mod 32 = 4p + r for tile_ld = extent + 4: 32 different
  // banks. The warps take such pieces in turn down the tile: a thread copies the
  // element at (row, k) = (4·piece + lane / 8, 8·j + lane % 8) for each of its pieces
  // and each j, so it needs one pointer per piece, and the 8-steps of k along a row
  // are constant offsets.
  //
  // Rows past the bottom of the matrix are not zeroed but read again from the last
  // row: they only feed rows of C outside C, which are never stored, and the copy
  // stays a plain one.
  template <int extent, int bk, int threads, int tile_ld>
  class TransposingCopy
  {
    static constexpr int warps = threads / 32;
    static constexpr int pieces = extent / (4 * warps);
    static constexpr int depths = bk / 8;
    static_assert(extent % (4 * warps) == 0, "the warps share the tile's rows evenly");

  public:
    static constexpr int parts = pieces * depths;

  private:
    const float *data;
    const float *source[pieces];
    int column;
    int destination;

  public:
    __device__ TransposingCopy(const MatrixView<float> &matrix, int outer0) : data(matrix.data)
    {
      const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
      column = lane % 8;
#pragma unroll
      for (int piece = 0; piece < pieces; ++piece)
        {
          const int row = min(outer0 + 4 * (warp + piece * warps) + lane / 8, matrix.rows - 1);
          source[piece] = matrix.data + static_cast<long>(row) * matrix.ld + column;
        }
      destination = column * tile_ld + 4 * warp + lane / 8;
    }

    // Copies element `part` of a step whose first `columns` values of k lie inside the
    // matrix (all of them if `whole`); the last part of a piece moves its pointer on by
    // `advance`.
    __device__ __forceinline__ void copy(float *tile, int part, bool whole, int columns,
                                         int advance)
    {
      const int piece = part / depths, j = part % depths;
      const bool inside = whole || 8 * j + column < columns;
      float *target = tile + destination + 8 * j * tile_ld + 4 * warps * piece;
      copy_4_bytes_async(target, inside ? source[piece] + 8 * j : data, inside ? 4 : 0);
      if (j == depths - 1)
        source[piece] += advance;
    }
  };

  // Which of the two copies an operand needs.
  template <bool k_major, int extent, int bk, int threads, int tile_ld, bool vectorized>
  using AsyncTileCopy =
    std::conditional_t<k_major, KMajorCopy<extent, bk, threads, tile_ld, vectorized>,
                       TransposingCopy<extent, bk, threads, tile_ld>>;

  // @sect3{The kernel}
  //
  // Kernel 10's warp tile and its two sets of fragment registers, fed by a pipeline of
  // `stages` tiles.
  //
  // <b>The steps of k.</b> When k is not a multiple of bk, one step is partial. Here
  // it is the first one, not the last: step 0 copies the first `residue` values of k
  // (and zeros after them), and every later step a whole bk. So only the first copy,
  // before the loop, checks the edge in k; the copies in the loop are plain, and the
  // compiler gives them no predicates at all.
  //
  // <b>The loop.</b> Stage s % stages holds step s. In step s the warps walk the depth
  // bk of their stage, and between the multiply-adds they start the copy of step
  // s + stages − 1 into the stage that step s − 1 used, one `cp.async` at a time,
  // spread over the first bk − 1 values of p: the copies' few instructions fill issue
  // slots between multiply-adds instead of holding up all warps at once. At the last
  // p, whose fragments are already in registers, the kernel waits for step s + 1,
  // passes the barrier (after which no warp reads stage s any more, so step s + 1 may
  // refill it), and loads the first fragments of step s + 1; the last multiply-adds of
  // step s run while those loads travel. One barrier per step, as in kernel 10, and
  // stages − 1 steps on their way while one is used.
  template <typename Config, Op op_a, Op op_b, bool vectorized>
  __global__ void __launch_bounds__(Config::threads, Config::min_blocks)
    async_pipeline_kernel(GemmArgs<float> g)
  {
    constexpr int bm = Config::bm, bn = Config::bn, bk = Config::bk, stages = Config::stages;
    constexpr int threads = Config::threads, a_ld = Config::a_ld, b_ld = Config::b_ld;
    constexpr int a_size = Config::a_size, stage_size = Config::stage_size;
    using Tile = WarpTile<float, Config>;
    using ACopy = AsyncTileCopy<op_a == Op::transpose, bm, bk, threads, a_ld, vectorized>;
    using BCopy = AsyncTileCopy<op_b == Op::none, bn, bk, threads, b_ld, vectorized>;
    constexpr int parts = ACopy::parts + BCopy::parts;
    extern __shared__ float4 shared_memory[];
    float *const tiles = reinterpret_cast<float *>(shared_memory);

    const int row0 = blockIdx.y * bm, col0 = blockIdx.x * bn;
    // A product of C's lower triangle only (lab::Output::lower_triangle) leaves out the
    // tiles wholly above the diagonal, whose first column lies right of their last row;
    // a tile the diagonal crosses is computed whole (bm + bn − 1 columns at most right of
    // the diagonal: within lab::lower_triangle_overhang for both sizes below).
    if (g.output == lab::Output::lower_triangle && col0 > row0 + bm - 1)
      return;
    const GemmShape &s = g.shape;
    const MatrixView<float> a{g.a, g.lda, s.a_rows(), s.a_cols()};
    const MatrixView<float> b{g.b, g.ldb, s.b_rows(), s.b_cols()};
    ACopy a_copy(a, row0);
    BCopy b_copy(b, col0);
    Tile warp_tile;

    // Copy number `part` of a step (A's first, then B's) into `stage`.
    const auto copy_part = [&](float *stage, int part, bool whole, int inside, int advance) {
      if (part < ACopy::parts)
        a_copy.copy(stage, part, whole, inside, advance);
      else
        b_copy.copy(stage + a_size, part - ACopy::parts, whole, inside, advance);
    };

    // @exercise{async_pipeline, 3}
    // A software pipeline of cp.async copies, the way the fastest SGEMM kernels are
    // fed. The tiles, the copy objects `a_copy` and `b_copy` (with `copy_part`), and the
    // warp tile are set up above. Write the pipeline: before the loop, start the
    // copies of the first stages - 1 steps of bk values of k (step 0 the partial one
    // of residue = k - (steps - 1) bk values, checked at the edge) and commit each as
    // one batch, even an empty one; wait until step 0 has arrived, pass a barrier and
    // load its first fragments. Then run each step s out of stage s % stages: between
    // the multiply-adds of its bk values of p, spread the copies of step
    // s + stages - 1 into the stage step s - 1 used; at the last p wait for step
    // s + 1 (`__pipeline_wait_prior(stages - 2)`), pass the barrier and load step
    // s + 1's first fragments, one barrier per step. The last stages - 1 steps copy
    // nothing; wait for every copy before the store below.
    //
    // The first stages − 1 steps before the loop, each committed as one batch even
    // when it is empty, so that "at most stages − 2 batches pending" always means "the
    // next step has arrived".
    const int steps = ceil_div(s.k, bk);
    const int residue = s.k - (steps - 1) * bk;
    for (int step = 0; step < stages - 1; ++step)
      {
        if (step < steps)
#pragma unroll
          for (int part = 0; part < parts; ++part)
            copy_part(tiles + step * stage_size, part, step > 0, step == 0 ? residue : bk,
                      step == 0 ? residue : bk);
        __pipeline_commit();
      }
    __pipeline_wait_prior(stages - 2);
    __syncthreads();

    float a_fragment[2][Tile::iter_m][4], b_fragment[2][Tile::iter_n][4];
    if (steps > 0)
      warp_tile.load_fragments(tiles, a_ld, tiles + a_size, b_ld, 0, a_fragment[0], b_fragment[0]);

    // One step. `copying` is a compile-time flag (std::true_type or std::false_type):
    // the last stages − 1 steps have nothing left to copy, and run in a loop of their
    // own, so that the main loop has no test for it.
    int current = 0;
    const auto run_step = [&](auto copying) {
      float *const stage = tiles + current * stage_size;
      float *const refill = tiles + (current == 0 ? stages - 1 : current - 1) * stage_size;
      current = current + 1 == stages ? 0 : current + 1;
      float *const next = tiles + current * stage_size;
#pragma unroll
      for (int p = 0; p < bk; ++p)
        {
          // The copies of step + stages − 1 that fall on this p.
          if constexpr (decltype(copying)::value)
            {
#pragma unroll
              for (int part = 0; part < parts; ++part)
                if (part * (bk - 1) / parts == p)
                  copy_part(refill, part, true, bk, bk);
            }
          if (p == bk - 2)
            __pipeline_commit();
          if (p + 1 < bk)
            warp_tile.load_fragments(stage, a_ld, stage + a_size, b_ld, p + 1,
                                     a_fragment[(p + 1) % 2], b_fragment[(p + 1) % 2]);
          else
            {
              __pipeline_wait_prior(stages - 2);
              __syncthreads();
              warp_tile.load_fragments(next, a_ld, next + a_size, b_ld, 0, a_fragment[0],
                                       b_fragment[0]);
            }
          warp_tile.multiply_add(a_fragment[p % 2], b_fragment[p % 2]);
        }
    };
    int step = 0;
    for (; step + stages - 1 < steps; ++step)
      run_step(std::true_type{});
    for (; step < steps; ++step)
      run_step(std::false_type{});
    __pipeline_wait_prior(0);
    // @end-exercise
    warp_tile.store(g, row0, col0);
  }

  // @sect3{Launching}
  //
  // One instantiation per combination of transposes and load width. Only the
  // k-major operands are copied in 16-byte chunks, so only they need the alignment.
  template <typename Config, Op op_a, Op op_b, bool vectorized>
  void launch_async_pipeline_variant(const GemmArgs<float> &g, cudaStream_t stream)
  {
    constexpr auto kernel = async_pipeline_kernel<Config, op_a, op_b, vectorized>;
    allow_shared_memory<kernel>(Config::shared_bytes);
    const dim3 grid(ceil_div(g.shape.n, Config::bn), ceil_div(g.shape.m, Config::bm));
    kernel<<<grid, Config::threads, Config::shared_bytes, stream>>>(g);
    LAB_CHECK_LAUNCH();
  }

  template <typename Config>
  void launch_async_pipeline(const GemmArgs<float> &g, cudaStream_t stream)
  {
    if (g.shape.m == 0 || g.shape.n == 0)
      return;
    with_transposes(g.shape, [&](auto op_a, auto op_b) {
      constexpr Op a = decltype(op_a)::value, b = decltype(op_b)::value;
      const bool a_aligned = a == Op::none || allows_vector_loads(g.a, g.lda);
      const bool b_aligned = b == Op::transpose || allows_vector_loads(g.b, g.ldb);
      if (a_aligned && b_aligned)
        launch_async_pipeline_variant<Config, a, b, true>(g, stream);
      else
        launch_async_pipeline_variant<Config, a, b, false>(g, stream);
    });
  }

  // @sect3{Kernel 15's sizes}
  //
  // Kernel 10's block and warp tiles (128×128, warps of 64×32, 8×8 sums per thread),
  // depth 32, three stages: 3 × 33 KB = 99 KB of shared memory per block, so two
  // blocks of 8 warps share an SM of the H100 (up to 227 KB), each thread with at
  // most 128 registers (it uses 127). 99 KB is also exactly what a block may have on
  // sm_86 and sm_89, where one block fits. The header gives the other sizes measured.
  using AsyncPipelineConfig = PipelineConfig<128, 128, 32, 64, 32, 3>;
  static_assert(AsyncPipelineConfig::bm + AsyncPipelineConfig::bn - 1 <= lab::lower_triangle_overhang);

  // @sect3{Small products}
  //
  // The sizes above are tuned for products that fill the GPU. Later steps also make
  // thousands of products that do not: step-5's band Cholesky (a panel of 256 columns
  // of a band 2056 rows deep is 17 × 2 = 34 tiles of 128² for 132 SMs; the inverse of
  // its diagonal block, products of 64 to 192 rows) and step-3's substitution (a
  // column of 2056 entries, 17 tiles). There the time of one product is what counts,
  // and a block of 128 × 128 is both too coarse (few SMs get work) and slow to start
  // (its first stages copy 2 × 128 × 32 numbers before the first multiply-add).
  // Measured on an H100, each product replayed 200 times in a CUDA graph,
  // microseconds per product for tiles of 128² / tiles of 64² / cuBLAS:
  //   64 × 64 × 64:          8.5 / 4.5 / 3.1
  //   2056 × 256 × 256, ABᵀ: 34.1 / 14.5 / 10.6
  //   1800 × 512 × 256, ABᵀ: 35.9 / 22.2 / 17.3
  //   2056 × 1 × 64:         8.5 / 3.5 / 3.6
  // So a product whose tiles of 128² would leave SMs without one runs on tiles of
  // 64 × 64 × 32 in four warps of 32 × 32 (8 × 4 sums per thread), three stages: four
  // times as many blocks, each a quarter of the work. Step-5's band pipeline at 256²
  // went from 165 to 97 ms with it.
  using SmallProductConfig = PipelineConfig<64, 64, 32, 32, 32, 3>;
  static_assert(SmallProductConfig::bm + SmallProductConfig::bn - 1 <= lab::lower_triangle_overhang);

  bool is_small_product(const GemmShape &shape)
  {
    // The SMs of the GPU in use, asked once.
    static const int multiprocessors = lab::current_device_attribute(cudaDevAttrMultiProcessorCount);
    const long tiles = long(ceil_div(shape.m, AsyncPipelineConfig::bm)) * ceil_div(shape.n, AsyncPipelineConfig::bn);
    return tiles < multiprocessors;
  }

  void launch_15_async_pipeline(const GemmArgs<float> &g, cudaStream_t stream)
  {
    if (is_small_product(g.shape))
      launch_async_pipeline<SmallProductConfig>(g, stream);
    else
      launch_async_pipeline<AsyncPipelineConfig>(g, stream);
  }
} // namespace step4
