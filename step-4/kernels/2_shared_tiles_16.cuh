#pragma once
// @sect3{Kernel 2: shared-memory tiles, 16×16 (the 2011 classic)}
//
// Neighbouring entries of C need neighbouring rows of A and columns of B, so a block
// of 16×16 threads computing a 16×16 tile of C can share its reads. The k dimension
// is walked in steps of 16: each thread loads one entry of a 16×16 tile of op(A) and
// one of op(B) into shared memory, the block waits at a barrier, then every thread
// does 16 multiply-adds out of shared memory, and a second barrier keeps the next
// loads from overwriting tiles that slower threads are still reading. Each value
// loaded from global memory is now used 16 times: the intensity rises from 0.25 to 4
// flop per byte of global traffic.
//
// This is the CUDA SDK kernel the thesis used, with one correction: the original
// works only when the sizes are multiples of 16. Here a tile that hangs over the edge
// of A or B is filled with zeros (they add nothing to the sums) and only the entries
// inside C are written, so any m, n, k work.
//
// The tile side is a template parameter: kernel 4 is the same code with 32.

#include "kernels/launch.cuh"

namespace step4
{
  template <int tile>
  __global__ void shared_tiles_kernel(GemmArgs<float> g)
  {
    // @exercise{shared_tiles, 2}
    // Shared-memory tiling, the classic product kernel. A block of tile x tile
    // threads computes the tile of C whose top left entry is (blockIdx.y * tile,
    // blockIdx.x * tile), thread (threadIdx.y, threadIdx.x) its entry at that row
    // and column offset. Walk k in steps of tile: each thread loads one entry of the
    // tile of op(A) and one of op(B) (`g.op_a`, `g.op_b`) into two `__shared__` arrays,
    // zero where the tile hangs over the edge of A or B; a barrier; tile
    // multiply-adds out of shared memory; a barrier before the next loads. Store
    // only entries inside C, with `g.store`. Any m, n, k must work.
    __shared__ float a_tile[tile][tile];
    __shared__ float b_tile[tile][tile];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int i = blockIdx.y * tile + ty;
    const int j = blockIdx.x * tile + tx;
    const int m = g.shape.m, n = g.shape.n, k = g.shape.k;

    float sum = 0;
    for (int p0 = 0; p0 < k; p0 += tile)
      {
        a_tile[ty][tx] = i < m && p0 + tx < k ? g.op_a(i, p0 + tx) : 0.0f;
        b_tile[ty][tx] = p0 + ty < k && j < n ? g.op_b(p0 + ty, j) : 0.0f;
        __syncthreads();
        for (int p = 0; p < tile; ++p)
          sum += a_tile[ty][p] * b_tile[p][tx];
        __syncthreads();
      }
    if (i < m && j < n)
      g.store(i, j, sum);
    // @end-exercise
  }

  template <int tile>
  void launch_shared_tiles(const GemmArgs<float> &g, cudaStream_t stream)
  {
    const dim3 block(tile, tile);
    const dim3 grid(ceil_div(g.shape.n, tile), ceil_div(g.shape.m, tile));
    shared_tiles_kernel<tile><<<grid, block, 0, stream>>>(g);
    LAB_CHECK_LAUNCH();
  }

  inline void launch_2_shared_tiles_16(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_shared_tiles<16>(g, stream);
  }
} // namespace step4
