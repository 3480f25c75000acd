#include "base_block_in_registers.cuh"
#include "tiles.cuh"

#include <cmath>
#include <stdexcept>
#include <string>

namespace step2
{
  namespace
  {
    constexpr int block = max_register_block;
    constexpr int warps = 16, lanes = 32, threads = warps * lanes;
    constexpr int rows_per_thread = block / warps;   // 8
    constexpr int columns_per_thread = block / lanes; // 4

    // The entries a thread owns: rows warp + 16 i, columns lane + 32 j.
    __device__ inline int warp() { return threadIdx.x / lanes; }
    __device__ inline int lane() { return threadIdx.x % lanes; }
    __device__ inline int owned_row(int i) { return warp() + warps * i; }
    __device__ inline int owned_column(int j) { return lane() + lanes * j; }

    template <typename T>
    using Entries = T[rows_per_thread][columns_per_thread];

    // What the threads share. Column k of W as step k finds it (A's part, the pivot and
    // the l_i before their division) is kept after the step: at the end it is L's
    // column k, once divided by L(k, k), and the kernel writes L from here, row by row.
    // Row k of W left of the diagonal (X's part) is only needed during step k: two
    // buffers, k % 2, so that step k + 1's can be written while step k's is read.
    template <typename T>
    struct Shared
    {
      T column[block][block + 1]; // + 1: reading across columns hits different banks
      T row[2][block];
      T inverse_root[block]; // 1 / L(k, k)
    };

    // Step k's row and column of W, copied to shared memory by the warp that owns row
    // k and the lanes that own column k. k lies in rows 16 row_i ... 16 row_i + 15 of
    // the block, and row_i is a template parameter: the entry index of row k is then
    // row_i, that of column k row_i / 2, both known at compile time (an array indexed
    // at run time would leave the registers for local memory). The column is copied
    // from row k down, the part L and the steps after need.
    template <int row_i, typename T>
    __device__ void publish(const Entries<T> &entry, int k, Shared<T> &shared)
    {
      constexpr int column_j = row_i / 2;
      if (warp() == k % warps)
#pragma unroll
        for (int j = 0; j < columns_per_thread; ++j)
          shared.row[k % 2][owned_column(j)] = entry[row_i][j];
      if (lane() == k % lanes)
#pragma unroll
        for (int i = row_i; i < rows_per_thread; ++i)
          shared.column[k][owned_row(i)] = entry[i][column_j];
    }

    // Step k of the elimination, k in rows 16 row_i ... 16 row_i + 15; false at a
    // pivot that is not positive. See the header for the algorithm. Three things make
    // the step little more than one multiply-add per entry that changes:
    //  - the rows of entry index i < row_i lie above row k and are left out at compile
    //    time, those with i > row_i below it; only i = row_i depends on the warp;
    //  - row k of X is not divided by L(k, k) in the registers: its readers (the v_j
    //    of this step) divide it, and the output does for the row's final values;
    //  - column k, which leaves A and enters X, is not set to −l_i / L(k, k) but kept
    //    as it is, A(i, k) = l_i L(k, k), with v_k = 0: the true column is the kept one
    //    times s_k = −1 / A(k, k), and since every later step changes X by row
    //    operations, a column kept in its own scale stays so. The output multiplies by
    //    s_k.
    template <int row_i, typename T>
    __device__ bool eliminate(Entries<T> &entry, int k, int w, Shared<T> &shared)
    {
      constexpr int column_j = row_i / 2;
      const T pivot = shared.column[k][k]; // the same for every thread
      if (!(pivot > T(0)))
        return false;
      const T inverse_root = T(1) / sqrt(pivot);
      if (threadIdx.x == 0)
        shared.inverse_root[k] = inverse_root;
      const T *const row_k = shared.row[k % 2], *const column_k = shared.column[k];
      T v[columns_per_thread];
#pragma unroll
      for (int j = 0; j < columns_per_thread; ++j)
        {
          const int c = owned_column(j);
          if (j < column_j) // c < k: X's part of row k
            v[j] = row_k[c] * inverse_root;
          else if (j > column_j) // c > k: l_c, by symmetry from column k
            v[j] = column_k[c] * inverse_root;
          else
            v[j] = (c < k ? row_k[c] : c == k ? T(0) : column_k[c]) * inverse_root;
        }
#pragma unroll
      for (int i = row_i; i < rows_per_thread; ++i)
        {
          const int r = owned_row(i);
          // In row index row_i, the warps at or above row k lose nothing: l = 0 (a
          // multiply-add by zero costs less than a branch around it).
          const T l = i > row_i || r > k ? column_k[r] * inverse_root : T(0);
#pragma unroll
          for (int j = 0; j < columns_per_thread; ++j)
            entry[i][j] = fma(-l, v[j], entry[i][j]);
        }
      // Step k + 1's row and column: in the same row index, or the next.
      const int next = k + 1;
      if (next < w)
        {
          if (next % warps != 0)
            publish<row_i>(entry, next, shared);
          else if constexpr (row_i + 1 < rows_per_thread)
            publish<row_i + 1>(entry, next, shared);
        }
      __syncthreads();
      return true;
    }

    // eliminate<k / 16>: the copy of the step for k's row index, found by a chain of
    // comparisons the whole block takes alike.
    template <int row_i = 0, typename T>
    __device__ bool eliminate_column(Entries<T> &entry, int k, int w, Shared<T> &shared)
    {
      if constexpr (row_i + 1 < rows_per_thread)
        if (k >= warps * (row_i + 1))
          return eliminate_column<row_i + 1>(entry, k, w, shared);
      return eliminate<row_i>(entry, k, w, shared);
    }

    template <typename T>
    __global__ void __launch_bounds__(threads)
      factorize_and_invert_kernel(T *a, int w, int ld, T *x, int ldx, int *info, int column_offset)
    {
      extern __shared__ __align__(16) unsigned char shared_bytes[];
      Shared<T> &shared = *reinterpret_cast<Shared<T> *>(shared_bytes);
      // The lower triangle of the block, padded with the identity; zeros above it.
      Entries<T> entry;
#pragma unroll
      for (int i = 0; i < rows_per_thread; ++i)
#pragma unroll
        for (int j = 0; j < columns_per_thread; ++j)
          {
            const int r = owned_row(i), c = owned_column(j);
            entry[i][j] = c > r ? T(0) : r < w ? a[static_cast<long>(r) * ld + c] : T(r == c);
          }
      // Every thread reads info before any can write it (that needs a barrier below).
      bool failed = failed_before(info);
      int columns_done = 0;
      if (!failed)
        {
          publish<0>(entry, 0, shared);
          __syncthreads();
          for (; columns_done < w; ++columns_done)
            {
              const int k = columns_done;
              if (!eliminate_column(entry, k, w, shared))
                {
                  if (threadIdx.x == 0)
                    *info = column_offset + k + 1;
                  failed = true;
                  break;
                }
            }
        }
      // X(r, c) = W(r, c) / L(r, r) · s_c below the diagonal, 1 / L(r, r) on it; zero
      // after a failure (here or in an earlier block).
#pragma unroll
      for (int i = 0; i < rows_per_thread; ++i)
#pragma unroll
        for (int j = 0; j < columns_per_thread; ++j)
          {
            const int r = owned_row(i), c = owned_column(j);
            if (r < w && c <= r)
              {
                T value = T(0);
                if (!failed)
                  {
                    const T row_scale = shared.inverse_root[r], column_scale = shared.inverse_root[c];
                    value = c == r ? row_scale : -entry[i][j] * row_scale * (column_scale * column_scale);
                  }
                x[static_cast<long>(r) * ldx + c] = value;
              }
          }
      // L(r, c) = W(r, c) / L(c, c) for the columns eliminated, a row per warp
      // (coalesced).
      for (int r = warp(); r < w; r += warps)
        for (int c = lane(); c <= r && c < columns_done; c += lanes)
          a[static_cast<long>(r) * ld + c] = shared.column[c][r] * shared.inverse_root[c];
    }
  } // namespace

  template <typename T>
  void factorize_and_invert_in_registers(T *a, int w, int ld, T *x, int ldx, int *info, int column_offset,
                                         cudaStream_t stream)
  {
    if (w > max_register_block)
      throw std::invalid_argument("a base block of more than " + std::to_string(max_register_block) +
                                  " rows does not fit in the registers of one thread block");
    constexpr int bytes = sizeof(Shared<T>);
    allow_shared_memory<factorize_and_invert_kernel<T>>(bytes);
    factorize_and_invert_kernel<T><<<1, threads, bytes, stream>>>(a, w, ld, x, ldx, info, column_offset);
    LAB_CHECK_LAUNCH();
  }

  template void factorize_and_invert_in_registers(float *, int, int, float *, int, int *, int, cudaStream_t);
  template void factorize_and_invert_in_registers(double *, int, int, double *, int, int *, int, cudaStream_t);
} // namespace step2
