#pragma once
// @sect3{What every kernel file shares}
//
// A grid must cover all of C, also when m and n are not multiples of the tile: the
// number of tiles is rounded up, and the tiles that hang over the edge check their
// indices. Every launch is checked (LAB_CHECK_LAUNCH) so that a bad launch shape is
// reported where it happens, not at some later, unrelated call.

#include "gemm.h"

#include <lab/cuda_check.h>

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace step4
{
  // The number of tiles of size @p tile needed to cover @p extent.
  LAB_HOST_DEVICE constexpr int ceil_div(int extent, int tile) { return (extent + tile - 1) / tile; }

  // Which tile of C a block computes (kernels 14 and 16 to 19).
  // Blocks are numbered row by row over the grid, and run roughly in that order. Here
  // block number `id` is mapped to tile (row, col) so that consecutive numbers walk
  // down a band of `band` tile rows before moving one tile column on: the blocks
  // running at the same time then share a few panels of A and of B in the L2 cache.
  // In clusters of `cluster` blocks along a row of the grid (kernel 18), the clusters
  // walk the bands this way, and the blocks of a cluster take neighbouring tiles of
  // one tile row.
  __device__ inline void band_order(int band, int &row, int &col, int cluster = 1)
  {
    const int tiles_n = gridDim.x / cluster, tiles_m = gridDim.y;
    const int id = blockIdx.y * tiles_n + blockIdx.x / cluster;
    const int first_row = id / (band * tiles_n) * band;
    const int rows = min(band, tiles_m - first_row);
    const int in_band = id - first_row * tiles_n;
    row = first_row + in_band % rows;
    col = in_band / rows * cluster + blockIdx.x % cluster;
  }

  // The tile of C a block of kernels 14 and 16 to 19 computes, in the band order: its
  // first row and column. False where only C's lower triangle is wanted and the tiles
  // of the block's cluster lie wholly above the diagonal (the blocks then have nothing
  // to do; a cluster's blocks keep or leave their tiles together, because they share
  // A's).
  template <typename Config, typename T>
  __device__ bool block_tile(const GemmArgs<T> &g, int &row0, int &col0)
  {
    int tile_row, tile_col;
    band_order(Config::band, tile_row, tile_col, Config::cluster);
    row0 = tile_row * Config::bm;
    col0 = tile_col * Config::bn;
    const int cluster_col0 = (tile_col - tile_col % Config::cluster) * Config::bn;
    return g.output != lab::Output::lower_triangle || cluster_col0 <= row0 + Config::bm - 1;
  }

  // A kernel that needs more than the default 48 KiB of shared memory per block must
  // say so before its first launch. Once per kernel is enough: the kernel is a template
  // argument, so each kernel has its own static flag, set on its first call only; this
  // keeps the call out of every timed launch after that.
  template <auto kernel>
  void allow_shared_memory(int bytes)
  {
    [[maybe_unused]] static const bool allowed = [bytes] {
      LAB_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
      return true;
    }();
  }

  // The kernels that take transposed operands are templates over op(A) and op(B), one
  // instantiation per combination, so that the index arithmetic of each is fixed at
  // compile time. This calls @p launch with the transposes @p shape asks for, as
  // compile-time constants: arguments of type `std::integral_constant<Op, ...>`, whose
  // type carries the value.
  template <typename Launch>
  void with_transposes(const GemmShape &shape, Launch &&launch)
  {
    using N = std::integral_constant<Op, Op::none>;
    using T = std::integral_constant<Op, Op::transpose>;
    if (shape.op_a == Op::none)
      shape.op_b == Op::none ? launch(N{}, N{}) : launch(N{}, T{});
    else
      shape.op_b == Op::none ? launch(T{}, N{}) : launch(T{}, T{});
  }

  // The simpler kernels of the progression read A and B only as stored (op = N); their
  // launchers refuse a transpose with a clear message instead of computing nonsense.
  inline void require_no_transpose(const GemmShape &shape, const char *kernel)
  {
    if (shape.op_a != Op::none || shape.op_b != Op::none)
      throw std::invalid_argument(std::string(kernel) +
                                  " computes A*B only (op = N); use a later kernel for "
                                  "transposed operands");
  }
} // namespace step4
