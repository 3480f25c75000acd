#pragma once
// @sect3{What the tile algorithms share}
//
// The blocked algorithm cuts the matrix into square tiles of `tile` rows and columns.
// When n is not a multiple of the tile, the last tiles hang over the edge. The 2011
// course padded the matrix itself with the identity; here the padding is virtual:
// entries outside the matrix read as the identity (1 on the diagonal, 0 elsewhere)
// and are never written. The padded matrix diag(A, I) is SPD exactly when A is, and
// its factor is diag(L, I), so the padding changes nothing, and every kernel below is
// written as if n were a multiple of the tile.
//
// A failed factorisation must stop the kernels after it. They are all enqueued
// before the first one runs, so the host cannot stop them; instead each kernel reads
// `info` first and returns at once when an earlier kernel reported a failure. What
// was computed before the failure stays; nothing after it is touched, and no NaN is
// ever made: the square root of a pivot that is not positive is never taken.

#include <lab/cuda_check.h>
#include <lab/host_device.h>

#include <cuda_runtime.h>

namespace step2
{
  LAB_HOST_DEVICE constexpr int ceil_div(int extent, int tile) { return (extent + tile - 1) / tile; }

  // Entry (r, c) of the virtually padded matrix.
  template <typename T>
  __device__ T padded_load(const T *a, int n, int ld, int r, int c)
  {
    if (r < n && c < n)
      return a[static_cast<long>(r) * ld + c];
    return r == c ? T(1) : T(0);
  }

  // Stores entry (r, c) if it lies inside the matrix.
  template <typename T>
  __device__ void clipped_store(T *a, int n, int ld, int r, int c, T value)
  {
    if (r < n && c < n)
      a[static_cast<long>(r) * ld + c] = value;
  }

  // Every factorisation starts by setting info to 0, on its stream: from then on only a
  // failing pivot writes it.
  inline void clear_info(int *info, cudaStream_t stream)
  {
    LAB_CHECK(cudaMemsetAsync(info, 0, sizeof(int), stream));
  }

  // True when an earlier kernel reported a failing column. `volatile`: the flag is
  // read from memory, not from a value the compiler cached.
  __device__ inline bool failed_before(const int *info) { return *static_cast<const volatile int *>(info) != 0; }

  // @sect3{The diagonal tile: factorised by one thread block}
  //
  // The tile is loaded into shared memory and factorised there by the right-looking
  // loop of the introduction: for each column k, the pivot's square root, column k
  // divided by it, and the rank-1 update of the columns to its right. All threads
  // read the same pivot from shared memory, so all of them agree on whether it is
  // positive and leave the loop together; thread 0 reports the failing column.
  // `tile`×`tile` entries are shared by the block's threads in a strided loop, so one
  // kernel serves every tile size. A column of padding is added to the shared tile
  // so that the threads reading down a column hit different banks.
  template <typename T, int tile>
  __device__ void factorize_tile_in_shared(T (&l)[tile][tile + 1], int *info, int first_column)
  {
    const int thread = threadIdx.x + threadIdx.y * blockDim.x;
    const int threads = blockDim.x * blockDim.y;
    for (int k = 0; k < tile; ++k)
      {
        const T pivot = l[k][k];
        if (!(pivot > T(0)))
          {
            if (thread == 0)
              *info = first_column + k + 1;
            return;
          }
        const T root = sqrt(pivot); // sqrt of a double is a double: no rsqrtf here
        __syncthreads();            // every thread has read the pivot
        for (int r = k + thread; r < tile; r += threads)
          l[r][k] = r == k ? root : l[r][k] / root;
        __syncthreads();
        // The trailing triangle of the tile: entries (r, c) with k < c <= r.
        const int width = tile - k - 1;
        for (int e = thread; e < width * width; e += threads)
          {
            const int r = k + 1 + e / width, c = k + 1 + e % width;
            if (c <= r)
              l[r][c] -= l[r][k] * l[c][k];
          }
        __syncthreads();
      }
  }

  // The kernel around it: tile number `t` on the diagonal, one block.
  template <typename T, int tile>
  __global__ void factorize_diagonal_tile(T *a, int n, int ld, int t, int *info, int column_offset)
  {
    if (failed_before(info))
      return;
    __shared__ T l[tile][tile + 1];
    const int thread = threadIdx.x + threadIdx.y * blockDim.x;
    const int threads = blockDim.x * blockDim.y;
    const int origin = t * tile;
    for (int e = thread; e < tile * tile; e += threads)
      l[e / tile][e % tile] = padded_load(a, n, ld, origin + e / tile, origin + e % tile);
    __syncthreads();
    factorize_tile_in_shared<T, tile>(l, info, column_offset + origin);
    __syncthreads();
    // The lower triangle goes back, also after a failure: the columns before the
    // failing one are final, the others partly updated (and finite).
    for (int e = thread; e < tile * tile; e += threads)
      if (e % tile <= e / tile)
        clipped_store(a, n, ld, origin + e / tile, origin + e % tile, l[e / tile][e % tile]);
  }

  // @sect3{The tiles below the diagonal: a triangular solve}
  //
  // Below a factorised diagonal tile L_kk, each tile A_ik becomes
  // L_ik = A_ik L_kk^{-T}: row r of L_ik solves x L_kk^T = a, that is
  // x_j = (a_j - sum_{m<j} x_m L_kk(j, m)) / L_kk(j, j), from j = 0 up. This is the
  // right-looking form: column j of the tile is final once divided by L_kk(j, j), and
  // then updates the columns to its right; every thread works in every step.
  template <typename T, int tile>
  __global__ void solve_below_diagonal_tile(T *a, int n, int ld, int k, int *info)
  {
    if (failed_before(info))
      return;
    // Dynamic shared memory: see two_tiles_bytes below.
    extern __shared__ unsigned char shared_bytes[];
    auto l = reinterpret_cast<T(*)[tile + 1]>(shared_bytes);
    auto x = l + tile;
    const int thread = threadIdx.x + threadIdx.y * blockDim.x;
    const int threads = blockDim.x * blockDim.y;
    const int diagonal = k * tile, rows = (k + 1 + blockIdx.x) * tile;
    for (int e = thread; e < tile * tile; e += threads)
      {
        const int r = e / tile, c = e % tile;
        l[r][c] = padded_load(a, n, ld, diagonal + r, diagonal + c);
        x[r][c] = padded_load(a, n, ld, rows + r, diagonal + c);
      }
    __syncthreads();
    for (int j = 0; j < tile; ++j)
      {
        for (int r = thread; r < tile; r += threads)
          x[r][j] /= l[j][j];
        __syncthreads();
        const int width = tile - j - 1;
        for (int e = thread; e < tile * width; e += threads)
          {
            const int r = e / width, c = j + 1 + e % width;
            x[r][c] -= x[r][j] * l[c][j];
          }
        __syncthreads();
      }
    for (int e = thread; e < tile * tile; e += threads)
      clipped_store(a, n, ld, rows + e / tile, diagonal + e % tile, x[e / tile][e % tile]);
  }

  // Four consecutive entries of shared memory (16-byte aligned) in one (float4) or two
  // (double2) loads.
  __device__ inline void load4(const float *p, float (&v)[4])
  {
    const float4 q = *reinterpret_cast<const float4 *>(p);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  }
  __device__ inline void load4(const double *p, double (&v)[4])
  {
    const double2 q = reinterpret_cast<const double2 *>(p)[0], s = reinterpret_cast<const double2 *>(p)[1];
    v[0] = q.x, v[1] = q.y, v[2] = s.x, v[3] = s.y;
  }

  // Two 64×64 tiles of doubles with their padding (66.5 KB) exceed the 48 KB of shared
  // memory a kernel may declare statically; such kernels take it as dynamic memory,
  // and must say once, before their first launch, that they need more than 48 KB.
  template <typename T, int tile>
  constexpr int two_tiles_bytes = 2 * tile * (tile + 1) * sizeof(T);

  template <auto kernel>
  void allow_shared_memory(int bytes)
  {
    [[maybe_unused]] static const bool allowed = [bytes] {
      LAB_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
      return true;
    }();
  }

  // The launch of the solve: one block of 16×16 threads per tile below tile k.
  template <typename T, int tile>
  void launch_solve_below_diagonal(T *a, int n, int ld, int k, int below, int *info,
                                   cudaStream_t stream)
  {
    constexpr int bytes = two_tiles_bytes<T, tile>;
    allow_shared_memory<solve_below_diagonal_tile<T, tile>>(bytes);
    solve_below_diagonal_tile<T, tile><<<below, dim3(16, 16), bytes, stream>>>(a, n, ld, k, info);
    LAB_CHECK_LAUNCH();
  }
} // namespace step2
