#include "solve_and_spd_inverse/chained_substitution.cuh"

#include <variants/diagonal_block_inverse.cuh> // step-2: inverse_tile, allow_shared_memory, ceil_div

#include <lab/dependent_launch.h>

#include <cooperative_groups.h>
#include <cuda/std/bit>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cstdint>

namespace step3
{
  namespace
  {
    namespace cg = cooperative_groups;

#if __CUDA_ARCH__ >= 900
#define LAB_CLUSTER_SCOPE "cluster"
#else
#define LAB_CLUSTER_SCOPE "cta"
#endif

    // The thread block cluster a block runs in. On a GPU without clusters (before
    // Hopper) the kernel is launched without, and each block is a cluster of one: every
    // x then travels through the mailbox in global memory.
    struct Cluster
    {
#if __CUDA_ARCH__ >= 900
      cg::cluster_group group = cg::this_cluster();
      __device__ int size() const { return static_cast<int>(group.num_blocks()); }
      __device__ int rank() const { return static_cast<int>(group.block_rank()); }
      __device__ void sync() const { group.sync(); }
      // The address of *p in the shared memory of block @p rank of the cluster.
      template <typename P>
      __device__ P *in_block(P *p, int rank) const
      {
        return group.map_shared_rank(p, rank);
      }
#else
      __device__ int size() const { return 1; }
      __device__ int rank() const { return 0; }
      __device__ void sync() const { __syncthreads(); }
      template <typename P>
      __device__ P *in_block(P *p, int) const
      {
        return p;
      }
#endif
    };

    constexpr int warps = 16, threads = 32 * warps;
    constexpr int small = step2::inverse_tile; // the tile inverses: 64×64
    constexpr int NB = 128;                    // the rows of a block row
    constexpr int rows_per_warp = NB / warps;  // 8
    constexpr int cols_per_lane = NB / 32;     // 4
    // Forward, the block's warps pass a barrier before every second tile of a walk of
    // at most 256 tiles (see the walk below for why).
    constexpr int forward_barrier_every = 2, forward_barrier_longest_walk = 256;
    static_assert(NB == 2 * small && rows_per_warp == 8, "Λ is built from two tile inverses; 8 rows per warp");

    // The columns a lane holds of a tile: 16 bytes at a time (4 floats or 2 doubles),
    // the lanes side by side, so that a warp reads a row of the tile with 128-bit
    // loads; column v of the lane's four is
    //   (v / per_load · 32 + lane) · per_load + v % per_load.
    template <typename T>
    struct Fragment
    {
      static constexpr int per_load = 16 / sizeof(T);
      static __device__ int column(int v, int lane) { return (v / per_load * 32 + lane) * per_load + v % per_load; }
    };

    // The lower triangle, as far as the walk may read it: entry (r, c) exists for
    // c ≤ r < n and, in a band factor, r − c ≤ bandwidth. Other entries read as zero.
    template <typename T>
    struct LowerTriangle
    {
      const T *l;
      int n, ld, bandwidth;
      bool aligned; // every row starts on 16 bytes: whole 16-byte loads are allowed

      __device__ bool stored(int r, int c) const { return r < n && c <= r && (bandwidth < 0 || r - c <= bandwidth); }
      __device__ const T *at(int r, int c) const { return l + static_cast<long>(r) * ld + c; }
      __device__ T get(int r, int c) const { return stored(r, c) ? __ldg(at(r, c)) : T(0); }

      // The lane's four entries of row r of the tile at column col: two or one 16-byte
      // loads where all the entries they cover are stored, one entry at a time where
      // not (at the diagonal, at the band's edge, or on rows that are not aligned).
      __device__ void get_fragment(int r, int col, int lane, T (&out)[cols_per_lane]) const
      {
        constexpr int per_load = Fragment<T>::per_load;
        using Load = cuda::std::conditional_t<sizeof(T) == 4, float4, double2>;
        for (int u = 0; u < cols_per_lane / per_load; ++u)
          {
            const int c = col + Fragment<T>::column(u * per_load, lane);
            if (aligned && stored(r, c) && stored(r, c + per_load - 1))
              {
                const Load v = __ldg(reinterpret_cast<const Load *>(at(r, c)));
                const T *e = reinterpret_cast<const T *>(&v);
                for (int k = 0; k < per_load; ++k)
                  out[u * per_load + k] = e[k];
              }
            else
              for (int k = 0; k < per_load; ++k)
                out[u * per_load + k] = get(r, c + k);
          }
      }
    };

    // Which tiles block row (or, transposed, block column) @p block reads, in order,
    // and which x each multiplies. The order is that in which the x become final, so
    // that the walk waits only at its end. Forward: the tiles L_ij left of the
    // diagonal, j from the first the band reaches up to i − 1. Backward: the tiles L_ji
    // below the diagonal block, j from the last the band reaches down to i + 1: the
    // solve runs from the bottom. A block's place in the chain is how many blocks are
    // solved before it: its index forward, blocks − 1 − its index backward.
    template <bool transposed>
    struct Walk
    {
      int block, blocks, first, count;

      __device__ Walk(int place, int n, int bandwidth) : blocks(step2::ceil_div(n, NB))
      {
        block = transposed ? blocks - 1 - place : place;
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
      // The place in the chain of the block whose x tile t multiplies.
      __device__ int place(int t) const { return transposed ? blocks - 1 - other(t) : other(t); }
    };

    // A mailbox: x_j appears in entry j once final. Before the launch every entry holds
    // `empty`, all bits one: a NaN, but not the one arithmetic produces, and send()
    // never writes it (an x that carries it is sent as the usual quiet NaN). The value
    // is its own signal, so no flag and no fence: a reader waits until the entries it
    // needs are no longer `empty`. Two kinds, with the same entries:
    //  - in global memory, n entries, for x between clusters (scope: the GPU);
    //  - in the shared memory of each block, for x from earlier blocks of its own
    //    cluster, which write it there directly: the SMs of a cluster can address each
    //    other's shared memory (distributed shared memory). Scope: the cluster.
    template <typename T>
    struct Mailbox
    {
      using Bits = cuda::std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;
      static constexpr Bits empty = ~Bits(0);

      // Relaxed loads and stores through a generic address, in PTX (libcu++'s
      // atomic_ref names no cluster scope): single entries, and 16 bytes of entries at
      // once for the readers (each entry on its own, as a mailbox needs). GPUs before
      // Hopper have no clusters and no cluster scope: there the kernel never uses the
      // mailbox in shared memory, and its code is compiled with the scope of the block.
      static constexpr int per_load = 16 / sizeof(T);
      using Group = Bits[per_load];

      template <bool cluster>
      static __device__ void store(T *entry, Bits bits)
      {
        if constexpr (cluster && sizeof(T) == 4)
          asm volatile("st.relaxed." LAB_CLUSTER_SCOPE ".b32 [%0], %1;" ::"l"(entry), "r"(bits) : "memory");
        else if constexpr (cluster)
          asm volatile("st.relaxed." LAB_CLUSTER_SCOPE ".b64 [%0], %1;" ::"l"(entry), "l"(bits) : "memory");
        else if constexpr (sizeof(T) == 4)
          asm volatile("st.relaxed.gpu.b32 [%0], %1;" ::"l"(entry), "r"(bits) : "memory");
        else
          asm volatile("st.relaxed.gpu.b64 [%0], %1;" ::"l"(entry), "l"(bits) : "memory");
      }
      template <bool cluster>
      static __device__ void load(const T *entry, Group &g)
      {
        if constexpr (cluster && sizeof(T) == 4)
          asm volatile("ld.relaxed." LAB_CLUSTER_SCOPE ".v4.b32 {%0, %1, %2, %3}, [%4];"
                       : "=r"(g[0]), "=r"(g[1]), "=r"(g[2]), "=r"(g[3])
                       : "l"(entry)
                       : "memory");
        else if constexpr (cluster)
          asm volatile("ld.relaxed." LAB_CLUSTER_SCOPE ".v2.b64 {%0, %1}, [%2];" : "=l"(g[0]), "=l"(g[1]) : "l"(entry) : "memory");
        else if constexpr (sizeof(T) == 4)
          asm volatile("ld.relaxed.gpu.v4.b32 {%0, %1, %2, %3}, [%4];"
                       : "=r"(g[0]), "=r"(g[1]), "=r"(g[2]), "=r"(g[3])
                       : "l"(entry)
                       : "memory");
        else
          asm volatile("ld.relaxed.gpu.v2.b64 {%0, %1}, [%2];" : "=l"(g[0]), "=l"(g[1]) : "l"(entry) : "memory");
      }

      template <bool cluster>
      static __device__ void send(T *entry, T value)
      {
        const Bits bits = cuda::std::bit_cast<Bits>(value);
        store<cluster>(entry,
                       bits == empty ? cuda::std::bit_cast<Bits>(cuda::std::numeric_limits<T>::quiet_NaN()) : bits);
      }
      // The K entries at @p entry[index[k]], once all are final, where the indices come
      // in runs of per_load (16 bytes, 16-byte aligned): one load per run. Entries at
      // index ≥ @p valid (rows past n, which no block sends) are zero. All loads are in
      // flight together: one round trip per try, and a try reads only the runs that
      // still hold an `empty` entry. (A run that reaches past n reads entries there:
      // both mailboxes have room for whole runs.)
      template <bool cluster, int K>
      static __device__ void receive(const T *entry, const int (&index)[K], int valid, T (&value)[K])
      {
        static_assert(K % per_load == 0, "whole runs");
        constexpr int runs = K / per_load;
        Group bits[runs];
        const auto fetch = [&](int g) {
          const int first = index[g * per_load];
          if (first < valid)
            load<cluster>(entry + first, bits[g]);
          for (int k = 0; k < per_load; ++k)
            if (first + k >= valid)
              bits[g][k] = 0;
        };
        const auto arrived = [&](int g) {
          bool all = true;
          for (int k = 0; k < per_load; ++k)
            all = all && bits[g][k] != empty;
          return all;
        };
        for (int g = 0; g < runs; ++g)
          fetch(g);
        for (;;)
          {
            bool all = true;
            for (int g = 0; g < runs; ++g)
              all = all && arrived(g);
            if (all)
              break;
            for (int g = 0; g < runs; ++g)
              if (!arrived(g))
                fetch(g);
          }
        for (int k = 0; k < K; ++k)
          value[k] = cuda::std::bit_cast<T>(bits[k / per_load][k % per_load]);
      }
    };

    // The sums of 8 values across a warp, 8 per lane, in 9 shuffles instead of 8 · 5:
    // at each of the first three steps a lane keeps half of its values, adding its
    // partner's other half. Lane l returns the sum of value l / 4 (four lanes hold
    // each).
    template <typename T>
    __device__ T sum_of_eight(T (&v)[8], int lane)
    {
      for (int half = 4, offset = 16; half >= 1; half /= 2, offset /= 2)
        {
          const bool upper = lane & offset;
          for (int q = 0; q < half; ++q)
            {
              const T keep = upper ? v[q + half] : v[q], give = upper ? v[q] : v[q + half];
              v[q] = keep + __shfl_xor_sync(0xffffffffu, give, offset);
            }
        }
      T s = v[0];
      s += __shfl_xor_sync(0xffffffffu, s, 2);
      s += __shfl_xor_sync(0xffffffffu, s, 1);
      return s;
    }

    // Λ = L_ii^{-1}, NB × NB, from step-2's two 64×64 tile inverses Λ_0, Λ_1:
    //   Λ = [Λ_0 0; −Λ_1 L_10 Λ_0  Λ_1].
    // The empty upper right quarter holds L_10, then L_10 Λ_0, on the way. Two 64×64
    // products before the walk starts, off the chain.
    template <typename T>
    __device__ void load_diagonal_inverse(T (*inverse)[NB + 1], const LowerTriangle<T> &lower, const T *inverses,
                                          int first_row)
    {
      const int n = lower.n;
      // A fixed count of entries per thread (32), unrolled, so that the compiler can put
      // a thread's loads in flight together. (Building Λ took about 19 µs per block on
      // the H200, measured with time stamps, three times what the first version spent
      // loading its diagonal block. The products below on 4×4 blocks per thread, instead
      // of 8 entries of a column, saved 2 to 4 µs of a solve at n ≤ 1024 and nothing
      // measurable at 16384; where the rest goes has not been measured.)
#pragma unroll
      for (int k = 0; k < NB * NB / threads; ++k)
        {
          const int e = k * threads + threadIdx.x, i = e / NB, j = e % NB, s = i / small;
          const int rows = min(small, n - first_row - s * small); // of inverse s (the last may be short)
          if (j / small == s)
            inverse[i][j] = i % small < rows && j % small <= i % small
                              ? inverses[static_cast<long>(first_row + i) * small + j % small]
                              : T(0);
          else if (s == 0) // the upper right quarter: L_10
            inverse[i][j] = lower.get(first_row + small + i, first_row + j - small);
        }
      __syncthreads();
      // out = A B for 64×64 blocks of `inverse`: 256 threads, each a 4×4 block of out
      // (rows row0 … row0 + 3, columns col, col + 16, col + 32, col + 48), the other
      // 256 idle. Per step of k a thread reads 4 + 4 entries for 16 multiply-adds.
      constexpr int computing = 256, side = 4;
      const bool computes = threadIdx.x < computing;
      const int col = threadIdx.x % (small / side), row0 = threadIdx.x / (small / side) * side;
      const auto column = [&](int j) { return col + j * (small / side); };
      const auto product = [&](int a_row, int a_col, int b_row, int b_col, T (&out)[side][side]) {
        for (int i = 0; i < side; ++i)
          for (int j = 0; j < side; ++j)
            out[i][j] = 0;
        for (int k = 0; k < small; ++k)
          {
            T a[side], b[side];
            for (int i = 0; i < side; ++i)
              a[i] = inverse[a_row + row0 + i][a_col + k];
            for (int j = 0; j < side; ++j)
              b[j] = inverse[b_row + k][b_col + column(j)];
            for (int i = 0; i < side; ++i)
              for (int j = 0; j < side; ++j)
                out[i][j] += a[i] * b[j];
          }
      };
      T p[side][side];
      if (computes)
        product(0, small, 0, 0, p); // L_10 Λ_0
      __syncthreads();
      if (computes)
        for (int i = 0; i < side; ++i)
          for (int j = 0; j < side; ++j)
            inverse[row0 + i][small + column(j)] = p[i][j];
      __syncthreads();
      if (computes)
        product(small, small, 0, small, p); // Λ_1 (L_10 Λ_0)
      __syncthreads();
      if (computes)
        for (int i = 0; i < side; ++i)
          for (int j = 0; j < side; ++j)
            {
              inverse[small + row0 + i][column(j)] = -p[i][j];
              inverse[row0 + i][small + column(j)] = T(0);
            }
      __syncthreads();
    }

    // Launched in clusters of chain_cluster_blocks blocks where the GPU has clusters,
    // which it runs at the same time, each on its own SM.
    template <typename T, bool transposed>
    __global__ void __launch_bounds__(threads)
      chained_substitution(LowerTriangle<T> lower, const T *inverses, T *b, int ldb, T *posted, int *tickets)
    {
      extern __shared__ unsigned char shared_bytes[];
      auto inverse = reinterpret_cast<T(*)[NB + 1]>(shared_bytes); // Λ
      T *partial = &inverse[NB][0];                                // warps × NB (backward)
      T *r = partial + warps * NB;                                 // b_i − the sums
      T *mailbox = r + NB; // chain_cluster_blocks × NB: x of the cluster's blocks, by rank

      // The kernel after this one (back substitution after forward, or the erase) may
      // start now, on the SMs this one leaves free: until it waits for this one, it
      // only prepares (below).
      lab::allow_next_kernel_to_start();

      // Places in the chain go to whole clusters, in the order they start: the
      // cluster's first block takes a ticket, and the others read it from its shared
      // memory. The cluster then holds places C·ticket ... C·ticket + C − 1, one per
      // block by its rank. A block waits only for blocks of earlier tickets, which have
      // started, or for blocks of its own cluster, which run beside it: it never waits
      // for a block that is not running (not all fit at once). The cluster's barrier
      // comes before any block touches another's shared memory: a block may only be
      // written to, or read from, once it has started (compute-sanitizer's racecheck
      // caught a first version that handed out the ticket before it).
      const Cluster cluster;
      const int C = cluster.size(), rank = cluster.rank();
      __shared__ int ticket;
      if (rank == 0 && threadIdx.x == 0)
        ticket = atomicAdd(tickets, 1) + 1; // the counter starts at −1 (below)
      for (int e = threadIdx.x; e < C * NB; e += threads)
        reinterpret_cast<typename Mailbox<T>::Bits *>(mailbox)[e] = Mailbox<T>::empty;
      cluster.sync(); // every block has started, the ticket is taken, the mailboxes are empty
      const int n = lower.n, blocks = step2::ceil_div(n, NB);
      const int first_place = *cluster.in_block(&ticket, 0) * C, place = first_place + rank;
      if (place < blocks)
        {
          const Walk<transposed> walk(place, n, lower.bandwidth);
          const int first_row = walk.block * NB;
          const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
          int columns[cols_per_lane], rows[rows_per_warp]; // of a tile, this lane's
          for (int v = 0; v < cols_per_lane; ++v)
            columns[v] = Fragment<T>::column(v, lane);
          for (int q = 0; q < rows_per_warp; ++q)
            rows[q] = warp * rows_per_warp + q;

          // Λ, before this kernel waits for the one before it: the tile inverses were
          // final before this kernel was launched (launch_chained_substitution's
          // contract). Back substitution after forward builds its Λ beside forward's
          // last blocks, off both chains: 19 µs per block, measured.
          load_diagonal_inverse(inverse, lower, inverses, first_row);
          // b_i is forward's result when this is back substitution: only after the wait.
          lab::wait_for_previous_kernel();
          if (threadIdx.x < NB)
            r[threadIdx.x] = first_row + threadIdx.x < n ? b[static_cast<long>(first_row + threadIdx.x) * ldb] : T(0);
          __syncthreads();

          // The walk: each thread sums its entries of every tile times x. The tile is
          // loaded before its x is awaited, so that when x arrives only the products
          // are left. x comes from the global mailbox, or for the tiles of blocks of
          // this cluster from the block's own.
          //
          // Forward, the warps of the block wait at a barrier before every second
          // tile. Without it they drift apart, each at its own pace through its rows
          // of the tiles (the time stamps on the results page showed a block finishing
          // up to 9 µs after its first warp had its last x), and forward, where every
          // warp needs all 128 x of the block before, each link waited for the block's
          // slowest warp. Held together, the warps ask for a tile's rows at the same
          // time, and forward became as fast as backward (H200, one triangle): 0.35
          // instead of 0.53 ms at n = 16384 in float, 0.52 instead of 0.74 ms in
          // double, 0.90 instead of 1.06 ms at 32768 in float, and in a band of 1100
          // (n = 20000) 0.37 instead of 0.55 ms in float, 0.57 instead of 1.18 ms in
          // double. A barrier before every tile was as fast up to 16384 and slower at
          // 32768 (0.94 ms), one before every fourth slower at 16384 (0.39 ms).
          // Backward, a warp needs only the 8 x of one warp of the block before, the
          // warps are chains of their own, and a barrier made it slower (0.37 instead
          // of 0.33 ms at 16384): it is left out there. And it is left out of walks
          // longer than 256 tiles, the block rows of a dense L beyond n = 32768: those
          // start when the GPU has room for them, find the x they need known, and are
          // limited by how fast one SM reads, which a barrier only holds up. In float
          // at n = 65536 forward took 2.74 ms without barriers, 2.93 ms with one in
          // every block row and 2.64 ms as here (double: 4.86, 4.92 and 4.73 ms).
          const bool held_together = !transposed && walk.count <= forward_barrier_longest_walk;
          T sums[transposed ? cols_per_lane : rows_per_warp] = {};
          for (int t = 0; t < walk.count; ++t)
            {
              if (held_together && t % forward_barrier_every == 0)
                __syncthreads(); // walk.count is the same for every thread of the block
              T a[rows_per_warp][cols_per_lane];
              for (int q = 0; q < rows_per_warp; ++q)
                lower.get_fragment(walk.row(t) + rows[q], walk.col(t), lane, a[q]);
              const int from = walk.place(t), base = walk.other(t) * NB;
              const auto receive = [&](const auto &index, auto &x) {
                if (from >= first_place)
                  Mailbox<T>::template receive<true>(mailbox + (from - first_place) * NB, index, n - base, x);
                else
                  Mailbox<T>::template receive<false>(posted + base, index, n - base, x);
              };
              if constexpr (!transposed)
                {
                  T x[cols_per_lane];
                  receive(columns, x);
                  for (int q = 0; q < rows_per_warp; ++q)
                    for (int v = 0; v < cols_per_lane; ++v)
                      sums[q] += a[q][v] * x[v];
                }
              else
                {
                  T x[rows_per_warp];
                  receive(rows, x);
                  for (int q = 0; q < rows_per_warp; ++q)
                    for (int v = 0; v < cols_per_lane; ++v)
                      sums[v] += a[q][v] * x[q];
                }
            }

          // r = b_i − the sums: per row across a warp's lanes (forward), per column
          // across the warps (backward).
          if constexpr (!transposed)
            {
              const T s = sum_of_eight(sums, lane);
              if (lane % 4 == 0)
                r[warp * rows_per_warp + lane / 4] -= s;
            }
          else
            {
              for (int v = 0; v < cols_per_lane; ++v)
                partial[warp * NB + columns[v]] = sums[v];
              __syncthreads();
              if (threadIdx.x < NB)
                for (int w = 0; w < warps; ++w)
                  r[threadIdx.x] -= partial[w * NB + threadIdx.x];
            }
          __syncthreads();

          // x_i = op(Λ) r: each warp its 8 rows, the lanes along the row, summed as
          // before; the lane that holds a row's sum publishes it at once: into the
          // mailboxes of the cluster's later blocks (the next one is waiting for it),
          // into the global mailbox for the other clusters, and into b.
          T products[rows_per_warp];
          for (int q = 0; q < rows_per_warp; ++q)
            {
              products[q] = 0;
              for (int k = lane; k < NB; k += 32)
                products[q] += (transposed ? inverse[k][rows[q]] : inverse[rows[q]][k]) * r[k];
            }
          const T x = sum_of_eight(products, lane);
          const int row = warp * rows_per_warp + lane / 4;
          if (lane % 4 == 0 && first_row + row < n)
            {
              for (int to = rank + 1; to < C && first_place + to < blocks; ++to)
                Mailbox<T>::template send<true>(cluster.in_block(mailbox, to) + rank * NB + row, x);
              Mailbox<T>::template send<false>(posted + first_row + row, x);
              b[static_cast<long>(first_row + row) * ldb] = x;
            }
        }
      // No block leaves while another of its cluster may still write into its shared
      // memory.
      cluster.sync();
    }

    template <typename T>
    constexpr int shared_bytes =
      static_cast<int>(sizeof(T)) * (NB * (NB + 1) + warps * NB + NB + chain_cluster_blocks * NB);

    // Whether to launch in clusters: the GPU runs them, and the kernel's code uses them.
    // As for step-4's kernel 14, what counts is the virtual architecture the code was
    // compiled for (ptxVersion): a build for sm_80 that the driver compiles for an H100
    // just in time reports 80, and its code has no clusters (Cluster above). Asked of
    // the runtime once.
    template <typename Kernel>
    bool launch_in_clusters(Kernel kernel)
    {
      static const bool yes = [&] {
        int device = 0, clusters = 0;
        LAB_CHECK(cudaGetDevice(&device));
        LAB_CHECK(cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, device));
        cudaFuncAttributes attributes{};
        LAB_CHECK(cudaFuncGetAttributes(&attributes, kernel));
        return clusters != 0 && attributes.ptxVersion >= 90;
      }();
      return yes;
    }

    template <typename T, bool transposed>
    void launch(const LowerTriangle<T> &lower, const T *inverses, T *b, int ldb, T *posted, int *tickets,
                bool clusters, cudaStream_t stream)
    {
      const auto kernel = chained_substitution<T, transposed>;
      step2::allow_shared_memory<chained_substitution<T, transposed>>(shared_bytes<T>);
      const int blocks = step2::ceil_div(lower.n, NB);
      cudaLaunchConfig_t config{};
      cudaLaunchAttribute attributes[2];
      config.blockDim = threads;
      config.dynamicSmemBytes = shared_bytes<T>;
      config.stream = stream;
      config.gridDim = blocks;
      config.attrs = attributes;
      if (lab::can_overlap_previous_kernel<chained_substitution<T, transposed>>())
        attributes[config.numAttrs++] = lab::overlap_previous_kernel();
      if (clusters && launch_in_clusters(kernel))
        { // the grid in whole clusters; the blocks past the last block row only wait
          config.gridDim = step2::ceil_div(blocks, chain_cluster_blocks) * chain_cluster_blocks;
          cudaLaunchAttribute &cluster = attributes[config.numAttrs++];
          cluster.id = cudaLaunchAttributeClusterDimension;
          cluster.val.clusterDim.x = chain_cluster_blocks;
          cluster.val.clusterDim.y = cluster.val.clusterDim.z = 1;
        }
      LAB_CHECK(cudaLaunchKernelEx(&config, kernel, lower, inverses, b, ldb, posted, tickets));
      LAB_CHECK_LAUNCH();
    }
  } // namespace

  namespace
  {
    // One direction's part of the workspace: the ticket counter, then the mailbox in
    // whole 16-byte runs.
    std::size_t direction_elements(int n)
    {
      return chain_ticket_elements + static_cast<std::size_t>(step2::ceil_div(n, 4)) * 4;
    }
  } // namespace

  std::size_t chain_workspace_elements(int n) { return 2 * direction_elements(n); }

  template <typename T>
  void reset_chain_workspace(T *workspace, int n, cudaStream_t stream)
  {
    // The mailboxes to `empty` and the ticket counters to −1, in one memset: all bits
    // one is both, and the first ticket handed out is −1 + 1 = 0.
    LAB_CHECK(cudaMemsetAsync(workspace, 0xff, sizeof(T) * chain_workspace_elements(n), stream));
  }

  template <typename T>
  void launch_chained_substitution(const T *l, int n, int ld, lab::Op op, int bandwidth, const T *inverses, T *b,
                                   int ldb, T *workspace, cudaStream_t stream, bool clusters)
  {
    if (n == 0)
      return;
    T *direction = workspace + (op == lab::Op::none ? 0 : direction_elements(n));
    int *tickets = reinterpret_cast<int *>(direction);
    T *posted = direction + chain_ticket_elements;
    const bool aligned = reinterpret_cast<std::uintptr_t>(l) % 16 == 0 && (ld * sizeof(T)) % 16 == 0;
    const LowerTriangle<T> lower{l, n, ld, bandwidth, aligned};
    if (op == lab::Op::none)
      launch<T, false>(lower, inverses, b, ldb, posted, tickets, clusters, stream);
    else
      launch<T, true>(lower, inverses, b, ldb, posted, tickets, clusters, stream);
  }

  template void reset_chain_workspace(float *, int, cudaStream_t);
  template void reset_chain_workspace(double *, int, cudaStream_t);
  template void launch_chained_substitution(const float *, int, int, lab::Op, int, const float *, float *, int,
                                            float *, cudaStream_t, bool);
  template void launch_chained_substitution(const double *, int, int, lab::Op, int, const double *, double *, int,
                                            double *, cudaStream_t, bool);
} // namespace step3
