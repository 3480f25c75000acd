#pragma once
// @sect3{Kernel 5: 1-D register blocking}
//
// In kernels 2 and 4 every multiply-add needs two reads from shared memory. Shared
// memory is fast, but not as fast as the arithmetic units: those reads, not the
// flops, set the pace. The cure is to let each thread compute several entries of C
// and keep what they share in a register.
//
// Here each thread computes a column of tm = 8 entries of C. At each step p of the
// tile it reads one value of B into a register and uses it for all 8 entries; only
// the 8 values of A are read from shared memory: 9 reads for 8 multiply-adds instead
// of 16. The 8 partial sums live in registers (an array indexed only by constants
// after unrolling, so the compiler keeps it in registers).
//
// The block computes a 64×64 tile of C with 64·64/8 = 512 threads and walks k in
// steps of bk = 8. Each thread loads exactly one entry of each input tile per step.
// Within a warp all threads share the same 8 rows of the A tile: those reads are
// broadcasts, one transaction for the whole warp.

#include "kernels/launch.cuh"

namespace step4
{
  template <int bm, int bn, int bk, int tm>
  __global__ void __launch_bounds__(bm *bn / tm) register_blocking_1d_kernel(GemmArgs<float> g)
  {
    constexpr int threads = bm * bn / tm;
    static_assert(bm * bk == threads && bn * bk == threads,
                  "each thread loads one entry of each tile");
    __shared__ float a_tile[bm][bk];
    __shared__ float b_tile[bk][bn];

    const int t = threadIdx.x;
    const int m = g.shape.m, n = g.shape.n, k = g.shape.k;
    const int row0 = blockIdx.y * bm, col0 = blockIdx.x * bn;
    // The entry of each tile this thread loads, and the column of C it computes.
    const int a_row = t / bk, a_col = t % bk;
    const int b_row = t / bn, b_col = t % bn;
    const int c_col = t % bn, c_row = t / bn * tm;

    float sum[tm] = {};
    for (int p0 = 0; p0 < k; p0 += bk)
      {
        const int ai = row0 + a_row, ap = p0 + a_col;
        const int bp = p0 + b_row, bj = col0 + b_col;
        a_tile[a_row][a_col] = ai < m && ap < k ? g.op_a(ai, ap) : 0.0f;
        b_tile[b_row][b_col] = bp < k && bj < n ? g.op_b(bp, bj) : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < bk; ++p)
          {
            const float b = b_tile[p][c_col];
#pragma unroll
            for (int r = 0; r < tm; ++r)
              sum[r] += a_tile[c_row + r][p] * b;
          }
        __syncthreads();
      }

    const int j = col0 + c_col;
#pragma unroll
    for (int r = 0; r < tm; ++r)
      if (row0 + c_row + r < m && j < n)
        g.store(row0 + c_row + r, j, sum[r]);
  }

  inline void launch_5_register_blocking_1d(const GemmArgs<float> &g, cudaStream_t stream)
  {
    constexpr int bm = 64, bn = 64, bk = 8, tm = 8;
    const dim3 grid(ceil_div(g.shape.n, bn), ceil_div(g.shape.m, bm));
    register_blocking_1d_kernel<bm, bn, bk, tm><<<grid, bm * bn / tm, 0, stream>>>(g);
    LAB_CHECK_LAUNCH();
  }
} // namespace step4
