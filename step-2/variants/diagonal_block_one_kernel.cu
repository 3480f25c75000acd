#include "3_register_blocked_update.cuh"
#include "diagonal_block_one_kernel.cuh"

#include <stdexcept>
#include <string>

namespace step2
{
  namespace
  {
    constexpr int width = 32;          // columns per step: one per lane of a warp
    // Threads per block: as many as the registers allow (a warp's row of the tile takes
    // 32 registers in float, 64 in double).
    template <typename T>
    constexpr int threads = sizeof(T) == 4 ? 512 : 256;
    constexpr unsigned all_lanes = 0xffffffffu;

    // Rows of L_21 in the shared copy, rounded up to whole vectors of 4.
    __host__ __device__ constexpr int pitch(int rows) { return (rows + 3) / 4 * 4; }

    template <typename T>
    constexpr int shared_memory_bytes(int n)
    {
      return sizeof(T) * (width * (width + 1) + width * pitch(n));
    }

    // Step 1: the tile of columns j0 ... j0 + w - 1 by warp 0. Lane r holds row r; rows
    // past the block read as the identity (the virtual padding of tiles.cuh). Returns
    // false (in every lane) at a pivot that is not positive.
    template <typename T>
    __device__ bool factorize_tile_in_warp(T *a, int ld, int j0, int w, T (*tile)[width + 1],
                                           int *info, int column_offset)
    {
      const int r = threadIdx.x;
      T row[width];
#pragma unroll
      for (int c = 0; c < width; ++c)
        row[c] = r < w && c < w ? (c <= r ? a[static_cast<long>(j0 + r) * ld + j0 + c] : T(0))
                                : T(c == r);
      bool ok = true;
#pragma unroll
      for (int k = 0; k < width; ++k)
        {
          const T pivot = __shfl_sync(all_lanes, row[k], k); // L(k, k), from lane k
          if (!(pivot > T(0)))
            {
              if (r == 0)
                *info = column_offset + j0 + k + 1;
              ok = false;
              break;
            }
          const T root = sqrt(pivot);
          if (r >= k)
            row[k] = r == k ? root : row[k] / root;
          // Column c > k loses L(r, k) L(c, k); L(c, k) comes from lane c.
#pragma unroll
          for (int c = k + 1; c < width; ++c)
            {
              const T lck = __shfl_sync(all_lanes, row[k], c);
              if (r >= c)
                row[c] -= row[k] * lck;
            }
        }
      // The tile goes back (also after a failure: finite, partly updated).
#pragma unroll
      for (int c = 0; c < width; ++c)
        {
          tile[r][c] = row[c];
          if (r < w && c <= r)
            a[static_cast<long>(j0 + r) * ld + j0 + c] = row[c];
        }
      return ok;
    }

    template <typename T>
    __global__ void __launch_bounds__(threads<T>)
      factorize_block_kernel(T *a, int n, int ld, int *info, int column_offset)
    {
      if (failed_before(info))
        return;
      extern __shared__ __align__(16) unsigned char shared[];
      auto tile = reinterpret_cast<T(*)[width + 1]>(shared);
      T *const below = reinterpret_cast<T *>(shared) + width * (width + 1); // L_21^T
      const int below_pitch = pitch(n);
      __shared__ bool failed;
      for (int j0 = 0; j0 < n; j0 += width)
        {
          const int w = min(width, n - j0), first = j0 + w, m = n - first;
          // 1. The diagonal tile.
          if (threadIdx.x < width)
            {
              const bool ok = factorize_tile_in_warp(a, ld, j0, w, tile, info, column_offset);
              if (threadIdx.x == 0)
                failed = !ok;
            }
          __syncthreads();
          if (failed || m == 0)
            return;
          // 2. The rows below: x L_11^T = a, column by column.
          for (int t = threadIdx.x; t < m; t += threads<T>)
            {
              T *const row = a + static_cast<long>(first + t) * ld + j0;
              T x[width];
#pragma unroll
              for (int c = 0; c < width; ++c) // all loads first: their latencies overlap
                x[c] = c < w ? row[c] : T(0);
#pragma unroll
              for (int c = 0; c < width; ++c)
                {
                  T s = x[c];
#pragma unroll
                  for (int q = 0; q < c; ++q)
                    s -= x[q] * tile[c][q];
                  x[c] = s / tile[c][c]; // padded columns: 0 / 1
                  if (c < w)
                    row[c] = x[c];
                  below[c * below_pitch + t] = x[c];
                }
            }
          __syncthreads();
          // 3. The rest of the block: 4×4 blocks on or below the diagonal.
          const int blocks = (m + 3) / 4, count = blocks * (blocks + 1) / 2;
          for (int b = threadIdx.x; b < count; b += threads<T>)
            {
              int bi, bj;
              lower_tile_of_block(b, bi, bj);
              // The products are summed apart from A, then subtracted once: the sum's
              // roundings are then relative to the (small) update, not to A's entries.
              // (Summing into A directly, 32 roundings at A's magnitude per step, made the
              // factor's residual grow to 9 ε at n = 16384.)
              T sum[4][4] = {};
              // Columns w ... 31 of L_21 are zero (step 2 wrote them so), which lets the
              // loop run over all 32 and be unrolled (by 8: all 32 would not fit in the
              // registers), so that the loads are issued ahead of their use.
#pragma unroll 8
              for (int k = 0; k < width; ++k)
                {
                  T u[4], v[4];
                  load4(below + k * below_pitch + 4 * bi, u);
                  load4(below + k * below_pitch + 4 * bj, v);
#pragma unroll
                  for (int i = 0; i < 4; ++i)
#pragma unroll
                    for (int j = 0; j < 4; ++j)
                      sum[i][j] += u[i] * v[j];
                }
#pragma unroll
              for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j)
                  {
                    const int r = 4 * bi + i, c = 4 * bj + j;
                    if (r < m && c <= r)
                      a[static_cast<long>(first + r) * ld + first + c] -= sum[i][j];
                  }
            }
          __syncthreads();
        }
    }
  } // namespace

  template <typename T>
  void factorize_diagonal_block_one_kernel(T *a, int n, int ld, int *info, int column_offset,
                                           cudaStream_t stream)
  {
    if (n > max_diagonal_block)
      throw std::invalid_argument("a diagonal block of more than " + std::to_string(max_diagonal_block) +
                                  " rows does not fit in shared memory");
    allow_shared_memory<factorize_block_kernel<T>>(shared_memory_bytes<T>(max_diagonal_block));
    factorize_block_kernel<T><<<1, threads<T>, shared_memory_bytes<T>(n), stream>>>(a, n, ld, info, column_offset);
    LAB_CHECK_LAUNCH();
  }

  template void factorize_diagonal_block_one_kernel(float *, int, int, int *, int, cudaStream_t);
  template void factorize_diagonal_block_one_kernel(double *, int, int, int *, int, cudaStream_t);
} // namespace step2
