#pragma once
// @sect3{Kernel 1: naive, one thread per entry of C}
//
// The direct port of the triple loop: as many threads as C has entries, and thread
// (i, j) computes the dot product of row i of op(A) with column j of op(B), reading
// both from global memory. This is the 2011 thesis' first kernel, and like it the
// thread's x index walks down the rows of C.
//
// That choice is the kernel's flaw. A block of 16×16 threads is cut into warps along
// x first, so a warp is 16 consecutive x (rows i) times 2 y (columns j). At every step
// of the loop it reads B(p, j) for only 2 different j (broadcasts: fine) and A(i, p)
// for 16 different rows i: addresses a whole row apart. The memory system serves a
// warp in 32-byte sectors; 16 scattered floats cost 16 sectors where 2 would do if the
// addresses were consecutive. The stores to C are scattered the same way. (The
// thesis stored matrices by columns and put x along the columns of C: the same
// scattered pattern in the other layout.) Kernel 3 fixes this by swapping x and y,
// and nothing else.
//
// Arithmetic intensity: every multiply-add reads two floats (8 bytes), 0.25 flop per
// byte, far left of the roofline's ridge; caches (L1, L2) save it from being
// hopeless.

#include "kernels/launch.cuh"

namespace step4
{
  // Which index of C follows threadIdx.x: the row (kernel 1) or the column (kernel 3).
  enum class ThreadsAlong
  {
    rows,
    columns
  };

  template <ThreadsAlong along>
  __global__ void naive_kernel(GemmArgs<float> g)
  {
    // @exercise{naive_product, 1}
    // One thread per entry of C, and which index follows threadIdx.x. With x and y
    // the thread's global indices in the 2-D grid, the thread computes entry (i, j)
    // of C = op(A) op(B), where i = x and j = y when `along` is `ThreadsAlong::rows`,
    // and the other way round for `ThreadsAlong::columns`: the sum over p < k of
    // `g.op_a(i, p) * g.op_b(p, j)`, stored with `g.store(i, j, sum)`. Threads outside
    // the m x n matrix C (the grid is rounded up) do nothing.
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int i = along == ThreadsAlong::rows ? x : y;
    const int j = along == ThreadsAlong::rows ? y : x;
    if (i >= g.shape.m || j >= g.shape.n)
      return;
    float sum = 0;
    for (int p = 0; p < g.shape.k; ++p)
      sum += g.op_a(i, p) * g.op_b(p, j);
    g.store(i, j, sum);
    // @end-exercise
  }

  // Blocks of 16×16 threads, as in the thesis; the grid covers C, rounded up.
  template <ThreadsAlong along>
  void launch_naive(const GemmArgs<float> &g, cudaStream_t stream)
  {
    constexpr int side = 16;
    const int x_extent = along == ThreadsAlong::rows ? g.shape.m : g.shape.n;
    const int y_extent = along == ThreadsAlong::rows ? g.shape.n : g.shape.m;
    const dim3 block(side, side);
    const dim3 grid(ceil_div(x_extent, side), ceil_div(y_extent, side));
    naive_kernel<along><<<grid, block, 0, stream>>>(g);
    LAB_CHECK_LAUNCH();
  }

  inline void launch_1_naive(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_naive<ThreadsAlong::rows>(g, stream);
  }
} // namespace step4
