#pragma once
// @sect3{Hopper's instructions, in inline PTX (kernels 16 to 19)}
//
// The warpgroup MMA, the TMA, the mbarriers, setmaxnreg and the clusters' barriers
// have no C++ functions in CUDA (CUTLASS wraps them in its own); the course writes
// each as a function of one or two PTX instructions, used by kernels 16 to 19
// (16_wgmma_tf32.cuh says what each unit does, 18_wgmma_multicast.cuh what a cluster
// is). Shared-memory addresses are 32-bit offsets in the shared window
// (what `__cvta_generic_to_shared` returns). The functions exist only in the sm_90a
// compilation (`__CUDA_ARCH_FEAT_SM90_ALL`), like the kernels' bodies.

#include <cuda.h> // CUtensorMap

#include <cstdint>

// A wgmma m64n256 names its 128 sums per thread one by one, as asm operands %0 to
// %127: the list is written here once, for both forms of the instruction below.
#define STEP4_WGMMA_SUMS \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define STEP4_WGMMA_SUM_OPERANDS(d) \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
  "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

namespace step4
{
  // The dynamic shared memory of a ring of `stages` stages (see StageRing): the stages,
  // two barriers of 8 bytes per stage, and room to move the start to a multiple of 1024
  // bytes.
  constexpr int ring_shared_bytes(int stages, int stage_bytes)
  {
    return stages * stage_bytes + 2 * stages * 8 + 1024;
  }

#ifdef __CUDA_ARCH_FEAT_SM90_ALL
  namespace hopper
  {
    // An mbarrier that completes a phase after `count` arrivals (and, where announced,
    // the arrival of the announced bytes).
    __device__ __forceinline__ void barrier_init(std::uint32_t barrier, int count)
    {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(barrier), "r"(count));
    }

    // The barriers are written by ordinary stores and used by the TMA: make them
    // visible to the async proxy.
    __device__ __forceinline__ void fence_barrier_init()
    {
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }

    __device__ __forceinline__ void arrive(std::uint32_t barrier)
    {
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(barrier) : "memory");
    }

    // Arrive, and announce `bytes` that the TMA will deliver in this phase.
    __device__ __forceinline__ void arrive_expect_bytes(std::uint32_t barrier, int bytes)
    {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier),
                   "r"(bytes)
                   : "memory");
    }

    // @sect3{Clusters (kernel 18)}
    //
    // The blocks of a cluster (kernel 18) are numbered 0, 1, ... within it; each may
    // address the others' shared memory.
    __device__ __forceinline__ unsigned cluster_rank()
    {
      unsigned rank;
      asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
      return rank;
    }

    // Every thread of every block of the cluster: arrive, and wait for all the others.
    // What a thread wrote to shared memory before (its own block's or another's) is
    // seen by every thread after ("release" and "acquire"). The whole warp must call it
    // together.
    __device__ __forceinline__ void cluster_sync()
    {
      asm volatile("barrier.cluster.arrive.release.aligned;\n"
                   "barrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
    }

    // Barriers that the other blocks of the cluster will use: make their
    // initialisation visible to the whole cluster (before a cluster_sync).
    __device__ __forceinline__ void fence_barrier_init_for_cluster()
    {
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }

    // Arrive on the barrier at `barrier` in the shared memory of the cluster's block
    // `rank` (this block's own, or another's): `mapa` turns the offset in this block's
    // shared memory into the address of the same offset in that block's.
    __device__ __forceinline__ void arrive_in_block(std::uint32_t barrier, unsigned rank)
    {
      asm volatile("{\n"
                   ".reg .b32 remote;\n"
                   "mapa.shared::cluster.u32 remote, %0, %1;\n"
                   "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
                   "}" ::"r"(barrier),
                   "r"(rank)
                   : "memory");
    }

    // Wait until the phase of parity `parity` has completed. (try_wait suspends the
    // thread for a while in hardware before it says no; the loop asks again.)
    __device__ __forceinline__ void wait(std::uint32_t barrier, unsigned parity)
    {
      asm volatile("{\n"
                   ".reg .pred done;\n"
                   "retry:\n"
                   "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                   "@!done bra retry;\n"
                   "}" ::"r"(barrier),
                   "r"(parity)
                   : "memory");
    }

    // The TMA: the box at (k0, row0) of the tensor map's matrix into shared memory at
    // `tile`, its bytes counted off at `barrier`.
    __device__ __forceinline__ void copy_box(const CUtensorMap &map, std::uint32_t tile,
                                             std::uint32_t barrier, int k0, int row0)
    {
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3}], [%4];" ::"r"(tile),
                   "l"(&map), "r"(k0), "r"(row0), "r"(barrier)
                   : "memory");
    }

    // The same box written into the shared memory of every block of the cluster named
    // in the bit mask `blocks` (bit r: block r), at the same offset `tile` in each, and
    // counted off at the barrier at offset `barrier` in each: one read from L2, several
    // copies ("multicast").
    __device__ __forceinline__ void copy_box_to_blocks(const CUtensorMap &map, std::uint32_t tile,
                                                       std::uint32_t barrier, int k0, int row0,
                                                       std::uint16_t blocks)
    {
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                   ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(tile),
                   "l"(&map), "r"(k0), "r"(row0), "r"(barrier), "h"(blocks)
                   : "memory");
    }

    // A tile's descriptor for wgmma: rows of 128 bytes (32 floats of k), swizzled in
    // groups of 8 rows (1024 bytes, the "stride byte offset" from one group to the
    // next), the 128-byte swizzle (mode 1 in bits 62-63). The start address is in
    // units of 16 bytes; moving it 32 bytes along a row selects the next 8 values of
    // k (the swizzle is applied to the final address, so this works inside a row).
    // The "leading byte offset" is unused for k-major swizzled tiles.
    __device__ __forceinline__ std::uint64_t descriptor(std::uint32_t tile)
    {
      return std::uint64_t((tile & 0x3ffff) >> 4) | std::uint64_t(1) << 16 |
             std::uint64_t(1024 >> 4) << 32 | std::uint64_t(1) << 62;
    }

    // The warpgroup's registers hold sums that wgmma is about to read: order the
    // earlier writes before it.
    __device__ __forceinline__ void wgmma_fence()
    {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    }
    __device__ __forceinline__ void wgmma_commit()
    {
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    }
    // Wait until at most `pending` committed groups are still running.
    template <int pending>
    __device__ __forceinline__ void wgmma_wait()
    {
      asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(pending) : "memory");
    }

    // Tell the compiler that the asynchronous wgmma may read and write `d`: it must
    // not move or copy the sums across this point.
    __device__ __forceinline__ void keep_in_place(float (&d)[128])
    {
#pragma unroll
      for (int i = 0; i < 128; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
    }

    // d += A·B for a 64×8 slice of A and an 8×256 slice of B, both TF32, k-major, in
    // shared memory, given by their descriptors; d is the warpgroup's 64×256 block of
    // sums, 128 per thread. The operands after the descriptors: a predicate that says
    // "add to d" (false would mean d = A·B; the sums start at zero instead, so it is
    // always true here), and the scales of A and B (1: not negated).
    __device__ __forceinline__ void wgmma_64x256x8(float (&d)[128], std::uint64_t a,
                                                   std::uint64_t b)
    {
      asm volatile("{\n"
                   ".reg .pred accumulate;\n"
                   "setp.ne.b32 accumulate, %130, 0;\n"
                   "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" STEP4_WGMMA_SUMS
                   "}, %128, %129, accumulate, 1, 1;\n"
                   "}"
                   : STEP4_WGMMA_SUM_OPERANDS(d)
                   : "l"(a), "l"(b), "r"(1));
    }

    // The same with A in registers (kernel 17): the warpgroup's 64×8 slice of A is
    // held by its 128 threads, four values each, in the layout of the tensor cores'
    // fragments. The warp w of the group holds rows 16w to 16w + 15; its lane l holds
    // row 16w + l/4 in a[0] and a[2] and row 16w + l/4 + 8 in a[1] and a[3], at k =
    // l % 4 in a[0] and a[1] and at k = l % 4 + 4 in a[2] and a[3]. The instruction
    // reads these registers asynchronously, like the sums: they must keep their
    // values until a wgmma_wait has seen the group end (the compiler knows this and
    // keeps them).
    __device__ __forceinline__ void wgmma_64x256x8(float (&d)[128], const float (&a)[4],
                                                   std::uint64_t b)
    {
      asm volatile("{\n"
                   ".reg .pred accumulate;\n"
                   "setp.ne.b32 accumulate, %133, 0;\n"
                   "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" STEP4_WGMMA_SUMS
                   "}, {%128, %129, %130, %131}, %132, accumulate, 1, 1;\n"
                   "}"
                   : STEP4_WGMMA_SUM_OPERANDS(d)
                   : "r"(__float_as_uint(a[0])), "r"(__float_as_uint(a[1])),
                     "r"(__float_as_uint(a[2])), "r"(__float_as_uint(a[3])), "l"(b), "r"(1));
    }

    // Give the warpgroup's threads `registers` each (the producer fewer, the consumers more).
    template <int registers>
    __device__ __forceinline__ void set_registers_down()
    {
      asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(registers));
    }
    template <int registers>
    __device__ __forceinline__ void set_registers_up()
    {
      asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(registers));
    }

    // @sect3{The ring of stages}
    //
    // Kernels 16 to 19 keep Config::stages stages of Config::stage_bytes in dynamic
    // shared memory, from its first multiple of 1024 bytes (the swizzle needs that),
    // A's tile first in each stage; after the stages, two `mbarrier`s per stage. Stage
    // s holds the steps s, s + stages, ...; its barriers full[s] and empty[s] complete
    // one phase per round of the ring, so in round r of stage s the consumers wait for
    // parity r % 2 on full[s], and the producer for the end of round r − 1 on empty[s]
    // (in round 0 this is the phase "before the first", which a fresh barrier counts
    // as complete, so the producer starts at once). Config::shared_bytes must be
    // ring_shared_bytes(stages, stage_bytes), and Config::consumer_warps says how many
    // warps of a block consume (each releases every stage once per round).
    //
    // In a cluster of Config::cluster blocks (kernel 18; 1 for kernels 16, 17 and 19) the
    // blocks share A's tile: each copies 1/cluster of its rows, the same stage of every
    // block of the cluster receives it (copy_a). So block b's producer may refill a
    // stage only once the consumers of <i>every</i> block are done with it: empty[s]
    // counts the consumer warps of the whole cluster, and each consumer warp arrives on
    // empty[s] of every block (release). And no block may end while another can still
    // write to its shared memory or arrive on its barriers (leave).
    template <typename Config>
    class StageRing
    {
    public:
      __device__ explicit StageRing(const unsigned char *shared_memory)
        : start_(static_cast<std::uint32_t>(__cvta_generic_to_shared(shared_memory))),
          tiles_((start_ + 1023) & ~1023u), barriers_(tiles_ + Config::stages * Config::stage_bytes)
      {}
      __device__ std::uint32_t a_tile(int s) const { return tiles_ + s * Config::stage_bytes; }
      __device__ std::uint32_t b_tile(int s) const { return a_tile(s) + Config::a_bytes; }
      __device__ std::uint32_t full(int s) const { return barriers_ + 8 * s; }
      __device__ std::uint32_t empty(int s) const { return barriers_ + 8 * (Config::stages + s); }
      // How far a stage's tiles lie from the start of the dynamic shared memory, in
      // bytes: for reading them with ordinary loads.
      __device__ std::uint32_t a_tile_offset(int s) const { return a_tile(s) - start_; }
      __device__ std::uint32_t b_tile_offset(int s) const { return b_tile(s) - start_; }

      // Called by every thread of the block. full[s]: one arrival (the producer's,
      // with the byte count) plus the bytes; empty[s]: one arrival per consumer warp
      // of the cluster. The barriers are initialised by ordinary stores, the TMA
      // updates them through the async proxy: hence the fence before the block's only
      // __syncthreads(); in a cluster, the other blocks use them too, and the whole
      // cluster waits until all are ready.
      __device__ void initialise() const
      {
        if (threadIdx.x == 0)
          {
            for (int s = 0; s < Config::stages; ++s)
              {
                barrier_init(full(s), 1);
                barrier_init(empty(s), Config::consumer_warps * Config::cluster);
              }
            fence_barrier_init();
            if constexpr (Config::cluster > 1)
              fence_barrier_init_for_cluster();
          }
        if constexpr (Config::cluster > 1)
          cluster_sync();
        else
          __syncthreads();
      }

      // The producer's copy of A's tile (Config::bm rows, k-major) for the step at
      // `k0` into stage s: one box, or in a cluster this block's slice of the rows,
      // sent to every block.
      __device__ void copy_a(const CUtensorMap &a_map, int s, int k0, int row0) const
      {
        if constexpr (Config::cluster == 1)
          copy_box(a_map, a_tile(s), full(s), k0, row0);
        else
          {
            const unsigned rank = cluster_rank();
            copy_box_to_blocks(a_map, a_tile(s) + rank * (Config::a_bytes / Config::cluster), full(s), k0,
                               row0 + rank * (Config::bm / Config::cluster), (1u << Config::cluster) - 1);
          }
      }

      // A consumer warp is done with stage s (called by one lane).
      __device__ void release(int s) const
      {
        if constexpr (Config::cluster == 1)
          arrive(empty(s));
        else
          for (unsigned rank = 0; rank < Config::cluster; ++rank)
            arrive_in_block(empty(s), rank);
      }

      // The end of the kernel, for every thread: in a cluster, wait until every block
      // is done (the other blocks' last copies into this one have arrived with their
      // steps, but their consumers' last arrivals on this block's barriers may not).
      __device__ void leave() const
      {
        if constexpr (Config::cluster > 1)
          {
            __syncwarp();
            cluster_sync();
          }
      }

      // The copies of one step, by one thread, once the step's stage is empty:
      // `copy(s, step)` issues them into stage s, counted off at full(s).
      template <typename Copy>
      __device__ void refill(int step, Copy copy) const
      {
        const int s = step % Config::stages;
        wait(empty(s), (step / Config::stages + 1) % 2);
        arrive_expect_bytes(full(s), Config::stage_bytes);
        copy(s, step);
      }

      // The producer warpgroup of kernels 16 to 18: it gives up registers to the
      // consumers, and one thread, the block's first, issues every copy, step after
      // step; the warpgroup's other threads are idle.
      template <typename Copy>
      __device__ void produce(int steps, Copy copy) const
      {
        set_registers_down<Config::producer_registers>();
        if (threadIdx.x == 0)
          for (int step = 0; step < steps; ++step)
            refill(step, copy);
      }

      // A consumer's wait for the tiles of `step`; returns its stage.
      __device__ int wait_for_step(int step) const
      {
        const int s = step % Config::stages;
        wait(full(s), step / Config::stages % 2);
        return s;
      }

    private:
      std::uint32_t start_, tiles_, barriers_;
    };
  } // namespace hopper
#endif

} // namespace step4
