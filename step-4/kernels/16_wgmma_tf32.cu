// Kernel 16: TF32 with wgmma, fed by the TMA (see 16_wgmma_tf32.cuh).
#include "kernels/16_wgmma_tf32.cuh"

#include "kernels/launch.cuh"
#include "kernels/tile_copy.cuh"

#include <cuda.h>         // the tensor map's types (the driver is reached at run time)
#include <cudaTypedefs.h> // the type of cuTensorMapEncodeTiled

#include <cstdint>
#include <stdexcept>
#include <string>

namespace step4
{
  // @sect3{The sizes}
  //
  // Block tile 128×256, 32 values of k per stage (one 128-byte row of floats, the
  // widest row the 128-byte swizzle takes), four stages of 16 + 32 KB: 192 KB of the
  // 227 KB an SM has. Two consumer warpgroups of 64 rows each and one producer: 384
  // threads, one block per SM. Blocks walk C in bands of 8 tile rows (launch.cuh).
  struct WgmmaConfig
  {
    static constexpr int bm = 128, bn = 256, bk = 32, stages = 4, band = 8;
    static constexpr int consumers = bm / 64;
    static constexpr int threads = 128 * (1 + consumers);
    static constexpr int a_bytes = bm * bk * 4, b_bytes = bn * bk * 4;
    static constexpr int stage_bytes = a_bytes + b_bytes;
    // The stages, the barriers (two of 8 bytes per stage) and room to move the start
    // to a multiple of 1024 bytes, which the swizzle needs.
    static constexpr int shared_bytes = stages * stage_bytes + 2 * stages * 8 + 1024;
    // The registers per thread each role asks for with setmaxnreg (multiples of 8):
    // 128 × 40 + 256 × 232 = 64512 of the SM's 65536.
    static constexpr int producer_registers = 40, consumer_registers = 232;
  };
  // A lower triangle's tiles on the diagonal (the kernel says why this bounds them).
  static_assert(WgmmaConfig::bn % WgmmaConfig::bm == 0 && WgmmaConfig::bn - 1 <= lab::lower_triangle_overhang);

  // @sect3{The instructions, in inline PTX}
  //
  // Each function is one or two PTX instructions; shared-memory addresses are 32-bit
  // offsets in the shared window (what `__cvta_generic_to_shared` returns). They exist
  // only in the sm_90a compilation (`__CUDA_ARCH_FEAT_SM90_ALL`), like the kernel's body.
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
      asm volatile(
        "{\n"
        ".reg .pred accumulate;\n"
        "setp.ne.b32 accumulate, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
        "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
        "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
        "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
        "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
        "}, %128, %129, accumulate, 1, 1;\n"
        "}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
          "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
          "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
          "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
          "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
          "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
          "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
          "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(a), "l"(b), "r"(1));
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
  } // namespace hopper
#endif

  // @sect3{The kernel}
  //
  // Warpgroup 0 produces, warpgroups 1 and 2 consume (the header explains the
  // roles). Stage s of the ring holds step s % stages; its barriers full[s] and
  // empty[s] complete one phase per round of the ring, so round r of stage s waits for
  // parity r % 2 on full[s] (the consumers) and for the end of round r − 1 on
  // empty[s] (the producer; in round 0 this is the phase "before the first", which a
  // fresh barrier counts as complete, so the producer starts at once).
  template <typename Config>
  __global__ void __launch_bounds__(Config::threads, 1)
    wgmma_kernel(const __grid_constant__ CUtensorMap a_map,
                 const __grid_constant__ CUtensorMap b_map, GemmArgs<float> g)
  {
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    constexpr int stages = Config::stages, bk = Config::bk;
    extern __shared__ unsigned char shared_memory[];
    const std::uint32_t start = static_cast<std::uint32_t>(__cvta_generic_to_shared(shared_memory));
    const std::uint32_t tiles = (start + 1023) & ~1023u;
    const std::uint32_t barriers = tiles + stages * Config::stage_bytes;
    const auto a_tile = [&](int s) { return tiles + s * Config::stage_bytes; };
    const auto b_tile = [&](int s) { return a_tile(s) + Config::a_bytes; };
    const auto full = [&](int s) { return barriers + 8 * s; };
    const auto empty = [&](int s) { return barriers + 8 * (stages + s); };

    int tile_row, tile_col;
    band_order(Config::band, tile_row, tile_col);
    const int row0 = tile_row * Config::bm, col0 = tile_col * Config::bn;
    // Only C's lower triangle (lab::Output::lower_triangle): a tile wholly above the
    // diagonal returns at once, as in kernels 14 and 15; one the diagonal crosses is
    // computed whole. Its first column, a multiple of bn = 2 bm, is then at most its
    // first row (both are multiples of bm, at most bm − 1 apart), so it reaches at most
    // bn − 1 = 255 columns right of the diagonal: within lab::lower_triangle_overhang.
    if (g.output == lab::Output::lower_triangle && col0 > row0 + Config::bm - 1)
      return;
    const int steps = ceil_div(g.shape.k, bk);
    const int warpgroup = threadIdx.x / 128;

    // full[s]: one arrival (the producer's, with the byte count) plus the bytes.
    // empty[s]: one arrival per consumer warp.
    if (threadIdx.x == 0)
      {
        for (int s = 0; s < stages; ++s)
          {
            hopper::barrier_init(full(s), 1);
            hopper::barrier_init(empty(s), 4 * Config::consumers);
          }
        hopper::fence_barrier_init();
      }
    __syncthreads();

    if (warpgroup == 0)
      {
        // The producer: one thread issues every copy, the rest of the warpgroup is idle.
        hopper::set_registers_down<Config::producer_registers>();
        if (threadIdx.x == 0)
          for (int step = 0; step < steps; ++step)
            {
              const int s = step % stages;
              hopper::wait(empty(s), (step / stages + 1) % 2);
              hopper::arrive_expect_bytes(full(s), Config::stage_bytes);
              hopper::copy_box(a_map, a_tile(s), full(s), step * bk, row0);
              hopper::copy_box(b_map, b_tile(s), full(s), step * bk, col0);
            }
      }
    else
      {
        // A consumer: rows 64·(warpgroup − 1) to 64·warpgroup − 1 of the block tile,
        // all 256 columns. Each step is bk / 8 = 4 wgmma along the stage's k; the group
        // of step s − 1 is waited for only after step s is issued, and its stage is
        // then handed back to the producer.
        hopper::set_registers_up<Config::consumer_registers>();
        const int consumer = warpgroup - 1;
        const int warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
        float d[128];
#pragma unroll
        for (int i = 0; i < 128; ++i)
          d[i] = 0.0f;
        hopper::keep_in_place(d);
        for (int step = 0; step < steps; ++step)
          {
            const int s = step % stages;
            hopper::wait(full(s), step / stages % 2);
            hopper::wgmma_fence();
#pragma unroll
            for (int p = 0; p < bk / 8; ++p)
              hopper::wgmma_64x256x8(d, hopper::descriptor(a_tile(s) + consumer * 64 * 128 + p * 32),
                                     hopper::descriptor(b_tile(s) + p * 32));
            hopper::wgmma_commit();
            hopper::keep_in_place(d);
            hopper::wgmma_wait<1>();
            if (step > 0 && lane == 0)
              hopper::arrive(empty((step + stages - 1) % stages));
          }
        hopper::wgmma_wait<0>();
        hopper::keep_in_place(d);

        // The epilogue: sum i of this thread belongs to row 16·warp + lane / 4 (+ 8
        // for i % 4 >= 2) of the warpgroup's 64, column 8·(i / 4) + 2·(lane % 4)
        // (+ 1 for odd i).
        const int row = row0 + 64 * consumer + 16 * warp + lane / 4;
#pragma unroll
        for (int i = 0; i < 128; ++i)
          {
            const int r = row + i % 4 / 2 * 8;
            const int c = col0 + i / 4 * 8 + lane % 4 * 2 + i % 2;
            if (r < g.shape.m && c < g.shape.n)
              g.store(r, c, d[i]);
          }
      }
#endif
  }

  // @sect3{Operands the TMA cannot read as they are}
  //
  // wgmma wants both operands k-major, and the TMA wants a matrix that starts on a
  // 16-byte boundary and rows a multiple of 16 bytes long. An operand that is not like
  // that (B as stored, A transposed, or a matrix with an odd leading dimension) is
  // first written out k-major into a scratch buffer, rows rounded up to 4 floats: a
  // transposing pass through 32×32 tiles of shared memory (each read and each write
  // coalesced; the tile is padded by one column so that the transposed reads do not
  // conflict), or, for an operand that is k-major but misaligned, a plain copy by
  // the same kernel. Source: `rows` × `cols` with leading dimension `ld`; the result
  // is its transpose (cols × rows) or a copy.
  template <bool transpose>
  __global__ void __launch_bounds__(256)
    k_major_copy(const float *source, int ld, int rows, int cols, float *result, int result_ld)
  {
    __shared__ float tile[32][33];
    const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    const int x = threadIdx.x % 32, y = threadIdx.x / 32;
    for (int i = y; i < 32; i += 8)
      if (row0 + i < rows && col0 + x < cols)
        tile[i][x] = source[static_cast<long>(row0 + i) * ld + col0 + x];
    __syncthreads();
    for (int i = y; i < 32; i += 8)
      if (transpose && col0 + i < cols && row0 + x < rows)
        result[static_cast<long>(col0 + i) * result_ld + row0 + x] = tile[x][i];
      else if (!transpose && row0 + i < rows && col0 + x < cols)
        result[static_cast<long>(row0 + i) * result_ld + col0 + x] = tile[i][x];
  }

  // The scratch buffers come from a memory pool of this file's own, allocated and
  // freed in stream order around the product (cudaMallocFromPoolAsync and
  // cudaFreeAsync): after the first call the pool keeps the memory (its release
  // threshold is unlimited), so a repeated product allocates nothing, and products
  // on different streams never share a buffer.
  cudaMemPool_t scratch_pool()
  {
    static const cudaMemPool_t pool = [] {
      int device = 0;
      LAB_CHECK(cudaGetDevice(&device));
      cudaMemPoolProps props{};
      props.allocType = cudaMemAllocationTypePinned;
      props.location.type = cudaMemLocationTypeDevice;
      props.location.id = device;
      cudaMemPool_t created;
      LAB_CHECK(cudaMemPoolCreate(&created, &props));
      std::uint64_t keep_all = UINT64_MAX;
      LAB_CHECK(cudaMemPoolSetAttribute(created, cudaMemPoolAttrReleaseThreshold, &keep_all));
      return created;
    }();
    return pool;
  }

  void release_wgmma_scratch()
  {
    if (!wgmma_available())
      return; // nothing was ever allocated
    LAB_CHECK(cudaDeviceSynchronize()); // the last product's scratch is free only once it has run
    LAB_CHECK(cudaMemPoolTrimTo(scratch_pool(), 0));
  }

  // @sect3{Tensor maps}
  //
  // cuTensorMapEncodeTiled is a function of the driver API (libcuda), which the
  // course does not link; the runtime hands out its address (once).
  PFN_cuTensorMapEncodeTiled_v12000 encode_tensor_map()
  {
    static const auto encode = [] {
      void *function = nullptr;
      cudaDriverEntryPointQueryResult found{};
      LAB_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000,
                                                 cudaEnableDefault, &found));
      if (found != cudaDriverEntryPointSuccess)
        throw std::runtime_error("the driver has no cuTensorMapEncodeTiled");
      return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
    }();
    return encode;
  }

  // A k-major operand as the TMA sees it: `rows` rows of k floats, `ld` apart; boxes of
  // bk × box_rows, 128-byte swizzle, zeros outside. The data type is TF32, not FP32:
  // the TMA then rounds every float to the nearest TF32 value as it copies. Declared
  // FLOAT32, the bits arrive as they are and the tensor cores drop the last 13: on an
  // H100 that gave 2.5 times the error of cuBLAS and kernel 12 (6.9·10⁻⁵ against
  // 2.8·10⁻⁵ at n = 4096), at the same speed; with TFLOAT32 the errors are theirs.
  // (k = 0 runs no step; this function is not called then.)
  CUtensorMap k_major_map(const float *data, int ld, int rows, int k, int box_rows)
  {
    CUtensorMap map;
    const cuuint64_t extent[2] = {cuuint64_t(k), cuuint64_t(rows)};
    const cuuint64_t row_bytes[1] = {cuuint64_t(ld) * sizeof(float)};
    const cuuint32_t box[2] = {WgmmaConfig::bk, cuuint32_t(box_rows)};
    const cuuint32_t element_strides[2] = {1, 1};
    const CUresult result = encode_tensor_map()(
      &map, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, 2, const_cast<float *>(data), extent, row_bytes,
      box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
      throw std::runtime_error("cuTensorMapEncodeTiled failed with error " +
                               std::to_string(int(result)));
    return map;
  }

  // One operand on its way to the kernel: the matrix as stored if the TMA can read it
  // k-major (`pass` false), else a k-major copy in `scratch`, which must then hold
  // stored_cols × round_up_to_4(stored_rows) floats (transposed) or stored_rows ×
  // round_up_to_4(stored_cols) (copied).
  struct KMajorOperand
  {
    const float *data;
    int ld;
  };

  int round_up_to_4(int extent) { return ceil_div(extent, 4) * 4; }

  KMajorOperand k_major(const float *data, int ld, int stored_rows, int stored_cols,
                        bool k_major_as_stored, bool pass, float *scratch, cudaStream_t stream)
  {
    if (!pass)
      return {data, ld};
    const int ld_k = round_up_to_4(k_major_as_stored ? stored_cols : stored_rows);
    const dim3 grid(ceil_div(stored_cols, 32), ceil_div(stored_rows, 32));
    if (k_major_as_stored)
      k_major_copy<false><<<grid, 256, 0, stream>>>(data, ld, stored_rows, stored_cols,
                                                     scratch, ld_k);
    else
      k_major_copy<true><<<grid, 256, 0, stream>>>(data, ld, stored_rows, stored_cols,
                                                    scratch, ld_k);
    LAB_CHECK_LAUNCH();
    return {scratch, ld_k};
  }

  // @sect3{Launching}
  //
  // Kernel 16 runs where the GPU is of compute capability 9.0 (sm_90a code runs there
  // and nowhere else) and the build compiled its body (CMake defines
  // STEP4_WGMMA_BUILT for the sm_90a build of this file).
  bool wgmma_available()
  {
    static const bool available = [] {
#ifdef STEP4_WGMMA_BUILT
      int device = 0, major = 0, minor = 0;
      return cudaGetDevice(&device) == cudaSuccess &&
             cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) ==
               cudaSuccess &&
             cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) ==
               cudaSuccess &&
             major == 9 && minor == 0;
#else
      return false;
#endif
    }();
    return available;
  }

  // The product: the passes that an operand needs (their scratch from the pool), the
  // tensor maps, the kernel, and the scratch back to the pool, all in stream order.
  // k = 0 runs no step of the loop: the maps are never read and stay empty.
  void launch_16_wgmma_tf32(const GemmArgs<float> &g, cudaStream_t stream)
  {
    using Config = WgmmaConfig;
    if (!wgmma_available())
      throw std::runtime_error("16_wgmma_tf32 needs a GPU of compute capability 9.0 and a "
                               "build for it (CMAKE_CUDA_ARCHITECTURES=90)");
    const GemmShape &s = g.shape;
    if (s.m == 0 || s.n == 0)
      return;
    CUtensorMap a_map{}, b_map{};
    float *scratch = nullptr;
    if (s.k > 0)
      {
        // op(A) must be m × k k-major, op(B) as n × k (that is, Bᵀ) k-major.
        const bool a_pass = s.op_a == Op::transpose || !allows_vector_loads(g.a, g.lda);
        const bool b_pass = s.op_b == Op::none || !allows_vector_loads(g.b, g.ldb);
        const std::size_t a_floats = a_pass ? std::size_t(s.m) * round_up_to_4(s.k) : 0;
        const std::size_t b_floats = b_pass ? std::size_t(s.n) * round_up_to_4(s.k) : 0;
        if (a_pass || b_pass)
          LAB_CHECK(cudaMallocFromPoolAsync(reinterpret_cast<void **>(&scratch),
                                            (a_floats + b_floats) * sizeof(float),
                                            scratch_pool(), stream));
        const KMajorOperand a = k_major(g.a, g.lda, s.a_rows(), s.a_cols(),
                                        s.op_a == Op::none, a_pass, scratch, stream);
        const KMajorOperand b = k_major(g.b, g.ldb, s.b_rows(), s.b_cols(),
                                        s.op_b == Op::transpose, b_pass, scratch + a_floats,
                                        stream);
        a_map = k_major_map(a.data, a.ld, s.m, s.k, Config::bm);
        b_map = k_major_map(b.data, b.ld, s.n, s.k, Config::bn);
      }
    constexpr auto kernel = wgmma_kernel<Config>;
    allow_shared_memory<kernel>(Config::shared_bytes);
    const dim3 grid(ceil_div(s.n, Config::bn), ceil_div(s.m, Config::bm));
    kernel<<<grid, Config::threads, Config::shared_bytes, stream>>>(a_map, b_map, g);
    LAB_CHECK_LAUNCH();
    if (scratch)
      LAB_CHECK(cudaFreeAsync(scratch, stream));
  }
} // namespace step4
