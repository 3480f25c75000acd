#include "solve_and_spd_inverse/chained_substitution.cuh"

#include <variants/diagonal_block_inverse.cuh> // step-2: inverse_tile, allow_shared_memory, ceil_div

#include <cuda/atomic>

namespace step3
{
  namespace
  {
    constexpr int warps = 16, threads = 32 * warps;
    constexpr int small = step2::inverse_tile; // the tile inverses: 64×64
    constexpr int prefetch_distance = 4;       // tiles requested ahead of the one in use

    // The shape of the walk: block rows of NB rows, tiles of NB × NB entries, each
    // warp NB/16 rows of a tile, each lane NB/32 columns of those rows (lane, lane + 32,
    // ...: a warp reads 32 neighbouring entries per load, whole 128-byte lines).
    template <int NB>
    struct Shape
    {
      static constexpr int rows_per_warp = NB / warps;
      static constexpr int cols_per_lane = NB / 32;
      static constexpr int diagonal_tiles = NB / small; // G: the 64×64 tiles on the diagonal
      // Shared memory: the G inverses and the G(G−1)/2 tiles between them, padded to
      // 65 columns (a column read hits 32 banks); the warps' partial sums; r and x.
      static constexpr int stored_tiles = diagonal_tiles * (diagonal_tiles + 1) / 2;
      template <typename T>
      static constexpr int shared_bytes = static_cast<int>(sizeof(T)) *
                                          (stored_tiles * small * (small + 1) + warps * NB + 2 * NB);
      static_assert(NB % small == 0 && NB % warps == 0, "a block row is whole tiles and whole warps");
    };

    // The lower triangle, as far as the walk may read it: entry (r, c) exists for
    // c ≤ r < n and, in a band factor, r − c ≤ bandwidth. Other entries read as zero.
    template <typename T>
    struct LowerTriangle
    {
      const T *l;
      int n, ld, bandwidth;

      __device__ bool stored(int r, int c) const { return r < n && c <= r && (bandwidth < 0 || r - c <= bandwidth); }
      __device__ const T *at(int r, int c) const { return l + static_cast<long>(r) * ld + c; }
      __device__ T get(int r, int c) const { return stored(r, c) ? __ldg(at(r, c)) : T(0); }
    };

    // Which tiles block row (or, transposed, block column) @p block reads, in order,
    // and which x each multiplies. The order is that in which the x become final, so
    // that the walk waits only at its end. Forward: the tiles L_ij left of the
    // diagonal, j from the first the band reaches up to i − 1; tile t needs x_j, j =
    // first + t, final once j + 1 blocks are solved. Backward: the tiles L_ji below the
    // diagonal block, j from the last the band reaches up to i + 1; the solve runs from
    // the bottom, so x_j is final once blocks − j blocks are.
    template <int NB, bool transposed>
    struct Walk
    {
      int block, blocks, first, count;

      __device__ Walk(int block_, int n, int bandwidth) : block(block_), blocks(step2::ceil_div(n, NB))
      {
        const int row = block * NB;
        if constexpr (!transposed)
          {
            first = bandwidth < 0 ? 0 : max(0, row - bandwidth) / NB;
            count = block - first;
          }
        else
          {
            const int last_row = bandwidth < 0 ? n - 1 : min(n - 1, row + NB - 1 + bandwidth);
            first = last_row / NB; // counting down to block + 1
            count = max(0, first - block);
          }
      }
      // The other block of tile t: its column (forward) or its row (backward).
      __device__ int other(int t) const { return transposed ? first - t : first + t; }
      __device__ int row(int t) const { return (transposed ? other(t) : block) * NB; }
      __device__ int col(int t) const { return (transposed ? block : other(t)) * NB; }
      __device__ int solved_needed(int t) const { return transposed ? blocks - other(t) : other(t) + 1; }
    };

    // Asks the L2 cache to fetch the tile at (row, col), one 128-byte line per
    // request, without waiting for it. A line is requested at an entry the walk will
    // read: never outside the triangle or the band.
    template <typename T, int NB>
    __device__ void prefetch_tile(const LowerTriangle<T> &lower, int row, int col)
    {
      constexpr int per_line = 128 / sizeof(T), lines_per_row = NB / per_line;
      for (int e = threadIdx.x; e < NB * lines_per_row; e += threads)
        {
          const int r = row + e / lines_per_row, c_first = col + e % lines_per_row * per_line;
          const int c = lower.bandwidth < 0 ? c_first : max(c_first, r - lower.bandwidth);
          if (c < c_first + per_line && lower.stored(r, c))
            asm volatile("prefetch.global.L2 [%0];" ::"l"(lower.at(r, c)));
        }
    }

    // The warp's lane 0 waits until at least @p needed blocks are solved; returns what
    // it saw, to every lane. The acquire load pairs with the release store of the block
    // that raised the count, and __syncwarp passes the ordering on to the other lanes:
    // after it, every x of the solved blocks is visible to the whole warp.
    __device__ int wait_until_solved(int *solved, int needed, int known)
    {
      if (needed <= known)
        return known;
      int seen = known;
      if (threadIdx.x % 32 == 0)
        {
          cuda::atomic_ref<int, cuda::thread_scope_device> counter(*solved);
          while ((seen = counter.load(cuda::memory_order_acquire)) < needed)
            ;
        }
      seen = __shfl_sync(0xffffffffu, seen, 0);
      __syncwarp();
      return seen;
    }

    template <typename T>
    __device__ T warp_sum(T s)
    {
      for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, offset);
      return s;
    }

    // out = M in, or out −= M in (M 64×64 in shared memory, or its transpose): 8
    // threads per row, each 8 products, summed across the 8 lanes.
    template <typename T>
    __device__ void multiply_small(const T (*m)[small + 1], bool transposed, const T *in, T *out, bool subtract)
    {
      const int row = threadIdx.x / 8, part = threadIdx.x % 8;
      T s = 0;
      for (int k = part; k < small; k += 8)
        s += (transposed ? m[k][row] : m[row][k]) * in[k];
      for (int offset = 4; offset > 0; offset /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, offset);
      if (part == 0)
        out[row] = subtract ? out[row] - s : s;
    }

    template <typename T, int NB, bool transposed>
    __global__ void __launch_bounds__(threads)
      chained_substitution(LowerTriangle<T> lower, const T *inverses, T *b, int ldb, ChainCounters *counters)
    {
      using S = Shape<NB>;
      constexpr int G = S::diagonal_tiles;
      extern __shared__ unsigned char shared_bytes[];
      auto tiles = reinterpret_cast<T(*)[small][small + 1]>(shared_bytes);
      T *partial = &tiles[S::stored_tiles][0][0]; // warps × NB
      T *r = partial + warps * NB, *x = r + NB;
      // tiles[s]: the inverse of diagonal tile s; tiles[G + s(s−1)/2 + t]: L's tile (s, t), t < s.
      const auto between = [&](int s, int t) { return tiles[G + s * (s - 1) / 2 + t]; };

      __shared__ int ticket;
      if (threadIdx.x == 0)
        ticket = atomicAdd(&counters->ticket, 1);
      __syncthreads();
      const int n = lower.n, order = ticket; // this block's place in the chain
      const Walk<NB, transposed> walk(transposed ? step2::ceil_div(n, NB) - 1 - order : order, n, lower.bandwidth);
      const int first_row = walk.block * NB;
      const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
      for (int t = 0; t < prefetch_distance && t < walk.count; ++t)
        prefetch_tile<T, NB>(lower, walk.row(t), walk.col(t));

      // The right-hand side b_i, and the diagonal block into shared memory, while the
      // tiles arrive: nothing that can be loaded early waits for the chain.
      const T rhs = threadIdx.x < NB && first_row + threadIdx.x < n
                      ? __ldcg(b + static_cast<long>(first_row + threadIdx.x) * ldb)
                      : T(0);
      for (int e = threadIdx.x; e < small * small; e += threads)
        {
          const int i = e / small, j = e % small;
          for (int s = 0; s < G; ++s)
            {
              const int rows = min(small, n - first_row - s * small); // of inverse s (the last may be short)
              tiles[s][i][j] = i < rows && j <= i ? inverses[static_cast<long>(first_row + s * small + i) * small + j]
                                                  : T(0);
              for (int t = 0; t < s; ++t)
                between(s, t)[i][j] = lower.get(first_row + s * small + i, first_row + t * small + j);
            }
        }

      // The walk: each thread sums its entries of every tile times x.
      T sums[transposed ? S::cols_per_lane : S::rows_per_warp] = {};
      int known = 0; // blocks known to be solved
      for (int t = 0; t < walk.count; ++t)
        {
          if (t + prefetch_distance < walk.count)
            prefetch_tile<T, NB>(lower, walk.row(t + prefetch_distance), walk.col(t + prefetch_distance));
          const int row0 = walk.row(t) + warp * S::rows_per_warp, col0 = walk.col(t) + lane;
          T a[S::rows_per_warp][S::cols_per_lane];
          for (int q = 0; q < S::rows_per_warp; ++q)
            for (int v = 0; v < S::cols_per_lane; ++v)
              a[q][v] = lower.get(row0 + q, col0 + 32 * v);
          known = wait_until_solved(&counters->solved, walk.solved_needed(t), known);
          // x from memory through L2 only (__ldcg): this SM's L1 may still hold b there.
          if constexpr (!transposed)
            for (int v = 0; v < S::cols_per_lane; ++v)
              {
                const T xv = __ldcg(b + static_cast<long>(col0 + 32 * v) * ldb);
                for (int q = 0; q < S::rows_per_warp; ++q)
                  sums[q] += a[q][v] * xv;
              }
          else
            for (int q = 0; q < S::rows_per_warp; ++q)
              {
                const T xq = row0 + q < n ? __ldcg(b + static_cast<long>(row0 + q) * ldb) : T(0);
                for (int v = 0; v < S::cols_per_lane; ++v)
                  sums[v] += a[q][v] * xq;
              }
        }

      // r = b_i − the sums: per row across a warp's lanes (forward), per column across
      // the warps (backward).
      if constexpr (!transposed)
        for (int q = 0; q < S::rows_per_warp; ++q)
          {
            const T s = warp_sum(sums[q]);
            if (lane == 0)
              partial[warp * S::rows_per_warp + q] = s;
          }
      else
        for (int v = 0; v < S::cols_per_lane; ++v)
          partial[warp * NB + lane + 32 * v] = sums[v];
      __syncthreads();
      if (threadIdx.x < NB)
        {
          const int k = threadIdx.x;
          T s = 0;
          if constexpr (!transposed)
            s = partial[k];
          else
            for (int w = 0; w < warps; ++w)
              s += partial[w * NB + k];
          r[k] = rhs - s;
        }
      __syncthreads();

      // The diagonal block: x_s = L_ss^{-1} r_s, tile after tile, each x_s subtracted
      // from the r of the tiles still to come (below it forward, above it backward).
      for (int step = 0; step < G; ++step)
        {
          const int s = transposed ? G - 1 - step : step;
          multiply_small(tiles[s], transposed, r + s * small, x + s * small, false);
          __syncthreads();
          for (int u = 0; u < G; ++u)
            if (transposed ? u < s : u > s)
              multiply_small(transposed ? between(s, u) : between(u, s), transposed, x + s * small, r + u * small,
                             true);
          __syncthreads();
        }

      // Publish x_i: written by the first NB threads; after the barrier, one warp
      // raises the count, once the block before it in the chain has (so the count never
      // skips one; the walk has usually seen that already). The release store makes
      // every write before the barrier visible with it, the pattern of cooperative
      // groups' grid barrier.
      if (threadIdx.x < NB && first_row + threadIdx.x < n)
        b[static_cast<long>(first_row + threadIdx.x) * ldb] = x[threadIdx.x];
      __syncthreads();
      if (warp == 0)
        {
          wait_until_solved(&counters->solved, order, known);
          if (lane == 0)
            cuda::atomic_ref<int, cuda::thread_scope_device>(counters->solved).store(order + 1,
                                                                                     cuda::memory_order_release);
        }
    }

    template <typename T, int NB, bool transposed>
    void launch(const LowerTriangle<T> &lower, const T *inverses, T *b, int ldb, ChainCounters *counters,
                cudaStream_t stream)
    {
      constexpr int bytes = Shape<NB>::template shared_bytes<T>;
      step2::allow_shared_memory<chained_substitution<T, NB, transposed>>(bytes);
      chained_substitution<T, NB, transposed>
        <<<step2::ceil_div(lower.n, NB), threads, bytes, stream>>>(lower, inverses, b, ldb, counters);
      LAB_CHECK_LAUNCH();
    }
  } // namespace

  template <typename T>
  void launch_chained_substitution(const T *l, int n, int ld, lab::Op op, int bandwidth, const T *inverses, T *b,
                                   int ldb, ChainCounters *counters, cudaStream_t stream)
  {
    if (n == 0)
      return;
    LAB_CHECK(cudaMemsetAsync(counters, 0, sizeof(ChainCounters), stream));
    const LowerTriangle<T> lower{l, n, ld, bandwidth};
    constexpr int rows = 128; // NB
    if (op == lab::Op::none)
      launch<T, rows, false>(lower, inverses, b, ldb, counters, stream);
    else
      launch<T, rows, true>(lower, inverses, b, ldb, counters, stream);
  }

  template void launch_chained_substitution(const float *, int, int, lab::Op, int, const float *, float *, int,
                                            ChainCounters *, cudaStream_t);
  template void launch_chained_substitution(const double *, int, int, lab::Op, int, const double *, double *, int,
                                            ChainCounters *, cudaStream_t);
} // namespace step3
