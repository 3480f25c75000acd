// Operands for the TMA: the pass, the scratch, the tensor maps (see tma_operands.cuh).
#include "kernels/tma_operands.cuh"

#include "kernels/launch.cuh"
#include "kernels/tile_copy.cuh"

#include <cudaTypedefs.h> // the type of cuTensorMapEncodeTiled

#include <cstdint>
#include <stdexcept>
#include <string>

namespace step4
{
  // @sect3{The pass}
  //
  // A transposing pass through 32×32 tiles of shared memory: each read and each write
  // coalesced, the tile padded by one column so that the transposed reads do not
  // conflict; or, where the layout is right but the alignment is not, a plain copy by
  // the same kernel. Source: `rows` × `cols` with leading dimension `ld`; the result
  // is its transpose (cols × rows) or a copy.
  template <bool transpose>
  __global__ void __launch_bounds__(256)
    relayout_pass(const float *source, int ld, int rows, int cols, float *result, int result_ld)
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

  namespace
  {
    int round_up_to_4(int extent) { return ceil_div(extent, 4) * 4; }

    // One operand: the stored_rows × stored_cols matrix at `data` (leading dimension
    // `ld`), laid out as its kernel wants it already (`stored_as_wanted`) or not.
    class OperandLayout
    {
    public:
      OperandLayout(const float *data, int ld, int stored_rows, int stored_cols,
                    bool stored_as_wanted)
        : data_(data), ld_(ld), stored_rows_(stored_rows), stored_cols_(stored_cols),
          stored_as_wanted_(stored_as_wanted),
          pass_(!stored_as_wanted || !allows_vector_loads(data, ld))
      {}

      // The scratch its pass needs: copied, stored_rows rows of
      // round_up_to_4(stored_cols); transposed, stored_cols rows of
      // round_up_to_4(stored_rows); nothing without a pass.
      std::size_t scratch_floats() const
      {
        if (!pass_)
          return 0;
        return stored_as_wanted_ ? std::size_t(stored_rows_) * round_up_to_4(stored_cols_)
                                 : std::size_t(stored_cols_) * round_up_to_4(stored_rows_);
      }

      TmaOperand prepare(float *scratch, cudaStream_t stream) const
      {
        if (!pass_)
          return {data_, ld_};
        const int result_ld = round_up_to_4(stored_as_wanted_ ? stored_cols_ : stored_rows_);
        const dim3 grid(ceil_div(stored_cols_, 32), ceil_div(stored_rows_, 32));
        if (stored_as_wanted_)
          relayout_pass<false><<<grid, 256, 0, stream>>>(data_, ld_, stored_rows_,
                                                          stored_cols_, scratch, result_ld);
        else
          relayout_pass<true><<<grid, 256, 0, stream>>>(data_, ld_, stored_rows_,
                                                         stored_cols_, scratch, result_ld);
        LAB_CHECK_LAUNCH();
        return {scratch, result_ld};
      }

    private:
      const float *data_;
      int ld_, stored_rows_, stored_cols_;
      bool stored_as_wanted_, pass_;
    };
  } // namespace

  TmaOperands prepare_operands(const GemmArgs<float> &g, BLayout b_layout, cudaStream_t stream)
  {
    const GemmShape &s = g.shape;
    if (s.k == 0)
      return {{g.a, g.lda}, {g.b, g.ldb}, nullptr};
    const OperandLayout a(g.a, g.lda, s.a_rows(), s.a_cols(), s.op_a == Op::none);
    const Op b_as_wanted = b_layout == BLayout::k_major ? Op::transpose : Op::none;
    const OperandLayout b(g.b, g.ldb, s.b_rows(), s.b_cols(), s.op_b == b_as_wanted);
    float *scratch = allocate_pass_scratch(a.scratch_floats() + b.scratch_floats(), stream);
    return {a.prepare(scratch, stream), b.prepare(scratch + a.scratch_floats(), stream), scratch};
  }

  // @sect3{The scratch}
  //
  // The pool behind allocate_pass_scratch (cudaMallocFromPoolAsync, cudaFreeAsync).
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

  float *allocate_pass_scratch(std::size_t floats, cudaStream_t stream)
  {
    float *scratch = nullptr;
    if (floats > 0)
      LAB_CHECK(cudaMallocFromPoolAsync(reinterpret_cast<void **>(&scratch),
                                        floats * sizeof(float), scratch_pool(), stream));
    return scratch;
  }

  void free_pass_scratch(float *scratch, cudaStream_t stream)
  {
    if (scratch)
      LAB_CHECK(cudaFreeAsync(scratch, stream));
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

  namespace
  {
    // A matrix of `rows` rows of `cols` elements of type `type`, `ld` elements apart, in
    // boxes of box_cols × box_rows, with the 128-byte swizzle and zeros outside it.
    template <typename T>
    CUtensorMap tensor_map(CUtensorMapDataType type, const T *data, int ld, int rows, int cols,
                           int box_cols, int box_rows)
    {
      CUtensorMap map;
      const cuuint64_t extent[2] = {cuuint64_t(cols), cuuint64_t(rows)};
      const cuuint64_t row_bytes[1] = {cuuint64_t(ld) * sizeof(T)};
      const cuuint32_t box[2] = {cuuint32_t(box_cols), cuuint32_t(box_rows)};
      const cuuint32_t element_strides[2] = {1, 1};
      const CUresult result = encode_tensor_map()(
        &map, type, 2, const_cast<T *>(data), extent, row_bytes, box, element_strides,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (result != CUDA_SUCCESS)
        throw std::runtime_error("cuTensorMapEncodeTiled failed with error " +
                                 std::to_string(int(result)));
      return map;
    }
  } // namespace

  // The data type is TF32, not FP32: the TMA then rounds every float to the nearest
  // TF32 value as it copies. Declared FLOAT32, the bits arrive as they are and the
  // tensor cores drop the last 13: on an H100 that gave kernel 16 2.5 times the error
  // of cuBLAS and kernel 12 (6.9·10⁻⁵ against 2.8·10⁻⁵ at n = 4096), at the same
  // speed; with TFLOAT32 the errors are theirs.
  CUtensorMap tf32_tensor_map(const float *data, int ld, int rows, int cols, int box_cols,
                              int box_rows)
  {
    return tensor_map(CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, data, ld, rows, cols, box_cols, box_rows);
  }

  // Doubles arrive as they are.
  CUtensorMap fp64_tensor_map(const double *data, int ld, int rows, int cols, int box_cols,
                              int box_rows)
  {
    return tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT64, data, ld, rows, cols, box_cols, box_rows);
  }

  // @sect3{Whether they run here}
  //
  // Kernels 16 to 19 run where the GPU is of compute capability 9.0 (sm_90a code runs
  // there and nowhere else) and the build compiled their bodies (CMake defines
  // STEP4_WGMMA_BUILT for the sm_90a build of these files).
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
} // namespace step4
