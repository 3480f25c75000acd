#pragma once
// @sect3{Kernel 6: 2-D register blocking}
//
// Kernel 5 reused a value of B across a column of 8 entries; now each thread computes
// an 8×8 block of C, so that it can reuse in both directions. At each step p it reads
// 8 values of A (a column of its block) and 8 of B (a row) into registers and forms
// their outer product: 64 multiply-adds for 16 shared-memory reads, four times
// better than kernel 5. The 64 partial sums and 16 fragment values sit in registers;
// the compiler's resource report (`-Xptxas -v`) shows 144 registers per thread with
// CUDA 13.0, so only one block of 256 threads fits in an SM's 64K registers.
//
// The block computes a 128×128 tile of C with 256 threads, and each thread loads 4
// entries of each input tile per step of bk = 8. Global traffic per flop halves
// again (tiles of 128 instead of 64).
//
// What is still wrong, and what the next kernels fix: the tiles are loaded one float
// at a time (kernel 7), and the reads of B's row from shared memory hit the same
// memory banks from several threads of a warp (kernel 8).

#include "kernels/launch.cuh"

namespace step4
{
  template <int bm, int bn, int bk, int tm, int tn>
  __global__ void __launch_bounds__(bm *bn / (tm * tn))
    register_blocking_2d_kernel(GemmArgs<float> g)
  {
    // @exercise{register_blocking, 2}
    // Register blocking: each thread computes a tm x tn block of C in registers. The
    // block's bm * bn / (tm * tn) threads compute the bm x bn tile of C at
    // (blockIdx.y * bm, blockIdx.x * bn); thread t owns rows t / (bn / tn) * tm and
    // the tm after it, columns t % (bn / tn) * tn and the tn after it. For each step
    // of bk values of k, the threads copy the bm x bk tile of op(A) and the bk x bn
    // tile of op(B) into shared memory between them (zeros past the edges); then for
    // each p the thread reads tm values of A and tn of B into registers and adds
    // their outer product to its tm x tn sums. Store the sums that lie inside C.
    constexpr int threads = bm * bn / (tm * tn);
    __shared__ float a_tile[bm][bk];
    __shared__ float b_tile[bk][bn];

    const int t = threadIdx.x;
    const int m = g.shape.m, n = g.shape.n, k = g.shape.k;
    const int row0 = blockIdx.y * bm, col0 = blockIdx.x * bn;
    // This thread's block of C: rows c_row ... c_row + tm - 1, columns c_col ... .
    const int c_row = t / (bn / tn) * tm, c_col = t % (bn / tn) * tn;

    float sum[tm][tn] = {};
    float a_fragment[tm], b_fragment[tn];
    for (int p0 = 0; p0 < k; p0 += bk)
      {
        for (int e = t; e < bm * bk; e += threads)
          {
            const int i = row0 + e / bk, p = p0 + e % bk;
            a_tile[e / bk][e % bk] = i < m && p < k ? g.op_a(i, p) : 0.0f;
          }
        for (int e = t; e < bk * bn; e += threads)
          {
            const int p = p0 + e / bn, j = col0 + e % bn;
            b_tile[e / bn][e % bn] = p < k && j < n ? g.op_b(p, j) : 0.0f;
          }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < bk; ++p)
          {
#pragma unroll
            for (int r = 0; r < tm; ++r)
              a_fragment[r] = a_tile[c_row + r][p];
#pragma unroll
            for (int c = 0; c < tn; ++c)
              b_fragment[c] = b_tile[p][c_col + c];
#pragma unroll
            for (int r = 0; r < tm; ++r)
#pragma unroll
              for (int c = 0; c < tn; ++c)
                sum[r][c] += a_fragment[r] * b_fragment[c];
          }
        __syncthreads();
      }

#pragma unroll
    for (int r = 0; r < tm; ++r)
#pragma unroll
      for (int c = 0; c < tn; ++c)
        if (row0 + c_row + r < m && col0 + c_col + c < n)
          g.store(row0 + c_row + r, col0 + c_col + c, sum[r][c]);
    // @end-exercise
  }

  inline void launch_6_register_blocking_2d(const GemmArgs<float> &g, cudaStream_t stream)
  {
    constexpr int bm = 128, bn = 128, bk = 8, tm = 8, tn = 8;
    const dim3 grid(ceil_div(g.shape.n, bn), ceil_div(g.shape.m, bm));
    register_blocking_2d_kernel<bm, bn, bk, tm, tn>
      <<<grid, bm * bn / (tm * tn), 0, stream>>>(g);
    LAB_CHECK_LAUNCH();
  }
} // namespace step4
