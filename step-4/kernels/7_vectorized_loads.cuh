#pragma once
// @sect3{Kernel 7: 16-byte loads and a transposed A tile}
//
// Kernel 6 with two changes in how data moves; the arithmetic is the same.
// - Global memory is read in 16-byte chunks (tile_copy.cuh): one `LDG.E.128`
//   instruction moves four floats, where kernel 6 issued four 4-byte loads. Fewer
//   instructions for the same bytes, and each thread's tile share is now one chunk
//   of A and one of B per step.
// - The A tile is stored transposed in shared memory, k-major: a_tile[p][i]. The
//   8 values of A a thread needs at step p (rows c_row ... c_row+7, column p) are then
//   consecutive and come in as two 16-byte shared-memory reads (`LDS.128`) instead of
//   eight; B's row already was consecutive. The transpose costs nothing extra: it
//   happens while storing the chunk that was loaded anyway.
//
// Where each thread's 8 rows and 8 columns lie inside the tile is a policy (the
// `Fragments` parameter), because kernel 8 changes exactly that and nothing else.
// Kernel 7's policy is the obvious one: thread (tr, tc) owns rows 8·tr ... 8·tr+7 and
// columns 8·tc ... 8·tc+7.

#include "kernels/launch.cuh"
#include "kernels/tile_copy.cuh"

namespace step4
{
  struct AdjacentFragments
  {
    // Extra elements at the end of each row of the transposed A tile (kernel 8 pads).
    static constexpr int padding = 0;
    // The offset in the tile of half @p half (0 or 1) of the 8 rows (or columns) of
    // the thread with row (or column) index @p index; tile_extent is the tile's side.
    template <int tile_extent>
    __device__ static int offset(int index, int half)
    {
      return index * 8 + half * 4;
    }
  };

  template <typename Fragments, bool vectorized>
  __global__ void __launch_bounds__(256) vectorized_kernel(GemmArgs<float> g)
  {
    constexpr int bm = 128, bn = 128, bk = 8, threads = 256;
    constexpr int a_ld = bm + Fragments::padding;
    __shared__ alignas(16) float a_tile[bk][a_ld];
    __shared__ alignas(16) float b_tile[bk][bn];

    const int m = g.shape.m, n = g.shape.n, k = g.shape.k;
    const int row0 = blockIdx.y * bm, col0 = blockIdx.x * bn;
    const MatrixView<float> a{g.a, g.lda, m, k};
    const MatrixView<float> b{g.b, g.ldb, k, n};
    StagedTileCopy<float, bm, bk, threads, vectorized, true> a_copy;
    StagedTileCopy<float, bk, bn, threads, vectorized, false> b_copy;
    // 16×16 threads, each computing 8×8 entries of the 128×128 tile of C.
    const int thread_row = threadIdx.x / 16, thread_col = threadIdx.x % 16;

    float sum[8][8] = {};
    float a_fragment[2][4], b_fragment[2][4];
    for (int p0 = 0; p0 < k; p0 += bk)
      {
        a_copy.load(a, row0, p0);
        b_copy.load(b, p0, col0);
        a_copy.store(&a_tile[0][0], a_ld);
        b_copy.store(&b_tile[0][0], bn);
        __syncthreads();
#pragma unroll
        for (int p = 0; p < bk; ++p)
          {
#pragma unroll
            for (int half = 0; half < 2; ++half)
              {
                load_four(&a_tile[p][Fragments::template offset<bm>(thread_row, half)],
                          a_fragment[half]);
                load_four(&b_tile[p][Fragments::template offset<bn>(thread_col, half)],
                          b_fragment[half]);
              }
#pragma unroll
            for (int r = 0; r < 8; ++r)
#pragma unroll
              for (int c = 0; c < 8; ++c)
                sum[r][c] += a_fragment[r / 4][r % 4] * b_fragment[c / 4][c % 4];
          }
        __syncthreads();
      }

#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int c = 0; c < 8; ++c)
        {
          const int i = row0 + Fragments::template offset<bm>(thread_row, r / 4) + r % 4;
          const int j = col0 + Fragments::template offset<bn>(thread_col, c / 4) + c % 4;
          if (i < m && j < n)
            g.store(i, j, sum[r][c]);
        }
  }

  // The 16-byte version where the matrices allow it, the element-wise one elsewhere.
  template <typename Fragments>
  void launch_vectorized(const GemmArgs<float> &g, cudaStream_t stream, const char *name)
  {
    require_no_transpose(g.shape, name);
    const dim3 grid(ceil_div(g.shape.n, 128), ceil_div(g.shape.m, 128));
    if (allows_vector_loads(g.a, g.lda) && allows_vector_loads(g.b, g.ldb))
      vectorized_kernel<Fragments, true><<<grid, 256, 0, stream>>>(g);
    else
      vectorized_kernel<Fragments, false><<<grid, 256, 0, stream>>>(g);
    LAB_CHECK_LAUNCH();
  }

  inline void launch_7_vectorized_loads(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_vectorized<AdjacentFragments>(g, stream, "7_vectorized_loads");
  }
} // namespace step4
