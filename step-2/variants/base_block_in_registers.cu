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

    // The entries a thread owns: the warp's 8 consecutive rows, 8 warp ... 8 warp + 7,
    // and the lane's columns lane, lane + 32, lane + 64, lane + 96.
    __device__ inline int warp() { return threadIdx.x / lanes; }
    __device__ inline int lane() { return threadIdx.x % lanes; }
    __device__ inline int first_row() { return rows_per_thread * warp(); }
    __device__ inline int owned_column(int j) { return lane() + lanes * j; }

    template <typename T>
    using Entries = T[rows_per_thread][columns_per_thread];

    // Four consecutive entries of shared memory stored at once (load4: tiles.cuh).
    __device__ inline void store4(float *p, float a, float b, float c, float d)
    {
      *reinterpret_cast<float4 *>(p) = make_float4(a, b, c, d);
    }
    __device__ inline void store4(double *p, double a, double b, double c, double d)
    {
      reinterpret_cast<double2 *>(p)[0] = make_double2(a, b);
      reinterpret_cast<double2 *>(p)[1] = make_double2(c, d);
    }

    // `condition ? a : b`, which the compiler cannot see through. A chain of ordinary
    // selects over the entries of an array, one of which a run-time index picks, is
    // recognised as indexing the array with it, and an array indexed at run time moves
    // from the registers to local memory (slow, off-chip); written as the PTX
    // instruction the select would become anyway, it stays a select.
    __device__ inline float opaque_select(bool condition, float a, float b)
    {
      float result;
      asm("{ .reg .pred p; setp.ne.s32 p, %3, 0; selp.f32 %0, %1, %2, p; }"
          : "=f"(result)
          : "f"(a), "f"(b), "r"(static_cast<int>(condition)));
      return result;
    }
    __device__ inline double opaque_select(bool condition, double a, double b)
    {
      double result;
      asm("{ .reg .pred p; setp.ne.s32 p, %3, 0; selp.f64 %0, %1, %2, p; }"
          : "=d"(result)
          : "d"(a), "d"(b), "r"(static_cast<int>(condition)));
      return result;
    }

    // What the threads share. Column k of W as step k finds it (A's part: the pivot and
    // the l_i L(k, k) below it) is kept after the step: at the end it is L's column k,
    // once divided by L(k, k), and the kernel writes L from here, row by row. (A pitch
    // of block + 4 keeps a warp's 8 rows of a column 16-byte aligned, for vector
    // loads.) Row k of W left of the diagonal (X's part) is only needed during step k:
    // two buffers, k % 2, so that step k + 1's can be written while step k's is read.
    template <typename T>
    struct Shared
    {
      T column[block][block + 4];
      T row[2][block];
      T inverse_root[block]; // 1 / L(k, k), for the output
    };

    // Step k's row and column of W, copied to shared memory by the warp that owns row
    // k and the lanes that own column k. Column k's index in a lane's columns,
    // `column_j`, is a template parameter: known at compile time, it keeps the entries
    // in registers (an array indexed at run time moves to local memory). The row's
    // index among the warp's rows is picked by selects, for the same reason.
    template <int column_j, typename T>
    __device__ void publish(const Entries<T> &entry, int k, Shared<T> &shared)
    {
      if (warp() == k / rows_per_thread)
#pragma unroll
        for (int j = 0; j < columns_per_thread; ++j)
          {
            T value = entry[0][j];
#pragma unroll
            for (int i = 1; i < rows_per_thread; ++i)
              value = opaque_select(k % rows_per_thread == i, entry[i][j], value);
            shared.row[k % 2][owned_column(j)] = value;
          }
      if (lane() == k % lanes)
#pragma unroll
        for (int i = 0; i < rows_per_thread; i += 4)
          store4(&shared.column[k][first_row() + i], entry[i][column_j], entry[i + 1][column_j],
                 entry[i + 2][column_j], entry[i + 3][column_j]);
    }

    // Step k of the elimination, k in lanes' column index column_j (k / 32); false at a
    // pivot that is not positive. See the header for the algorithm. Three things make
    // the step little more than one multiply-add per entry that changes:
    //  - no square root: l_i v_j = (A(i, k) / L(k, k)) (u_j / L(k, k)) = A(i, k) (u_j /
    //    A(k, k)), with u_j the entries v_j is made of; one division per step, whose
    //    latency the loads of the u_j and A(i, k) hide. L(k, k) itself is only needed
    //    for the output;
    //  - row k of X is not divided by L(k, k) in the registers: its readers divide it
    //    (above), and the output does for the row's final values;
    //  - column k, which leaves A and enters X, is not set to −l_i / L(k, k) but kept
    //    as it is, A(i, k) = l_i L(k, k), with v_k = 0: the true column is the kept one
    //    times s_k = −1 / A(k, k), and since every later step changes X by row
    //    operations, a column kept in its own scale stays so. The output multiplies by
    //    s_k.
    // A warp whose rows all lie at or above row k has nothing to do.
    template <int column_j, typename T>
    __device__ bool eliminate(Entries<T> &entry, int k, int w, Shared<T> &shared)
    {
      const T pivot = shared.column[k][k]; // the same for every thread
      const T *const row_k = shared.row[k % 2], *const column_k = shared.column[k];
      const bool rows_below = first_row() + rows_per_thread - 1 > k; // the same for the warp
      T u[columns_per_thread], l[rows_per_thread / 4][4];
#pragma unroll
      for (int j = 0; j < columns_per_thread; ++j)
        {
          const int c = owned_column(j);
          if (j < column_j) // c < k: X's part of row k
            u[j] = row_k[c];
          else if (j > column_j) // c > k: A(c, k), by symmetry from column k
            u[j] = column_k[c];
          else
            u[j] = c < k ? row_k[c] : c == k ? T(0) : column_k[c];
        }
      if (rows_below)
#pragma unroll
        for (int i = 0; i < rows_per_thread; i += 4)
          load4(&column_k[first_row() + i], l[i / 4]);
      if (!(pivot > T(0)))
        return false;
      const T inverse_pivot = T(1) / pivot;
      if (rows_below)
#pragma unroll
        for (int i = 0; i < rows_per_thread; ++i)
          {
            // Rows at or above k lose nothing: l = 0 (a multiply-add by zero costs less
            // than a branch around it).
            const T li = first_row() + i > k ? l[i / 4][i % 4] : T(0);
#pragma unroll
            for (int j = 0; j < columns_per_thread; ++j)
              entry[i][j] = fma(-li, u[j] * inverse_pivot, entry[i][j]);
          }
      // Step k + 1's row and column: column k + 1 has the same index j, or the next.
      const int next = k + 1;
      if (next < w)
        {
          if (next % lanes != 0)
            publish<column_j>(entry, next, shared);
          else if constexpr (column_j + 1 < columns_per_thread)
            publish<column_j + 1>(entry, next, shared);
        }
      __syncthreads();
      return true;
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
            const int r = first_row() + i, c = owned_column(j);
            entry[i][j] = c > r ? T(0) : r < w ? a[static_cast<long>(r) * ld + c] : T(r == c);
          }
      // Every thread reads info before any can write it (that needs a barrier below).
      bool failed = failed_before(info);
      int columns_done = 0;
      if (!failed)
        {
          publish<0>(entry, 0, shared);
          __syncthreads();
          // The four copies of the step, one per column index j (the same for every
          // thread: a branch the whole block takes together).
          for (; columns_done < w; ++columns_done)
            {
              const int k = columns_done;
              const bool ok = k < lanes       ? eliminate<0>(entry, k, w, shared)
                              : k < 2 * lanes ? eliminate<1>(entry, k, w, shared)
                              : k < 3 * lanes ? eliminate<2>(entry, k, w, shared)
                                              : eliminate<3>(entry, k, w, shared);
              if (!ok)
                {
                  if (threadIdx.x == 0)
                    *info = column_offset + k + 1;
                  failed = true;
                  break;
                }
            }
        }
      // L(k, k) = sqrt(A(k, k)) for the columns eliminated, then X and L.
      for (int c = threadIdx.x; c < columns_done; c += threads)
        shared.inverse_root[c] = T(1) / sqrt(shared.column[c][c]);
      __syncthreads();
      // X(r, c) = W(r, c) / L(r, r) · s_c below the diagonal, 1 / L(r, r) on it; zero
      // after a failure (here or in an earlier block).
#pragma unroll
      for (int i = 0; i < rows_per_thread; ++i)
#pragma unroll
        for (int j = 0; j < columns_per_thread; ++j)
          {
            const int r = first_row() + i, c = owned_column(j);
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
