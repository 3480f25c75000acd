#include <lab/cublas_gemm.h>

#include <lab/cuda_check.h>

namespace lab
{
  namespace
  {
    cublasOperation_t cublas_op(Op op) { return op == Op::none ? CUBLAS_OP_N : CUBLAS_OP_T; }

    // The cuBLAS names of T and of the arithmetic a product runs in.
    template <typename T>
    struct CublasTypes
    {
      cudaDataType_t data;
      cublasComputeType_t compute;
    };

    // All of C in one call (m, n > 0).
    template <typename T>
    void whole_product(cublasHandle_t handle, const GemmArgs<T> &g, CublasTypes<T> types)
    {
      const GemmShape &s = g.shape;
      LAB_CHECK(cublasGemmEx(handle, cublas_op(s.op_b), cublas_op(s.op_a), s.n, s.m, s.k, &g.alpha, g.b, types.data,
                             g.ldb, g.a, types.data, g.lda, &g.beta, g.c, types.data, g.ldc, types.compute,
                             CUBLAS_GEMM_DEFAULT));
    }

    // @sect3{The lower triangle in one call}
    //
    // cuBLAS has no product that computes only a triangle of C for any A and B (SYRK
    // does it for C = A Aᵀ, SYRKX for a product known to be symmetric). But it has the
    // batched product: many products of one shape, each with its own pointers, in one
    // launch. The lower triangle of C, cut into square tiles, is such a batch: tile
    // (I, J) with I ≥ J is op(A)'s row block I times op(B)'s column block J. Measured on
    // an H200 (C −= P Pᵀ, P m × 1024, float, median of 7), one batch of 256 × 256 tiles
    // against the same triangle in block columns 1024 wide, one product each:
    //   m = 14336: 4.36 ms against 5.51 (48.3 against 38.2 TFLOP/s of the triangle's flops)
    //   m =  8192: 1.48 ms against 1.93
    //   m =  4096: 0.55 ms against 0.54
    // The block columns compute their squares on the diagonal whole (7% more flops at
    // 14336) and each launch ends in a partly filled wave; the batch fills the GPU once.
    // (In double, with P m × 512, the two were within 10% either way. With a long inner
    // dimension the batch is slow in double: step-5's HᵀH at n = k = 65536 as one batch
    // ran at 33 TFLOP/s, where cuBLAS's large GEMMs run at 53; gram_matrix.h.)
    constexpr int tile = lower_triangle_overhang;

    // Tile t of the lower triangle's full tiles, counted down the block columns (column
    // J holds the tiles J ... side − 1), as the three pointers cuBLAS reads. With the
    // operands swapped for cuBLAS's column order (as in whole_product), the batch's
    // "A" is op(B)'s column block J and its "B" is op(A)'s row block I.
    template <typename T>
    __global__ void lower_tile_pointers(GemmArgs<T> g, int side, const T **b_tiles, const T **a_tiles, T **c_tiles)
    {
      const int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (t >= side * (side + 1) / 2)
        return;
      int column = 0, first = 0; // first: the number of the column's first tile
      while (first + side - column <= t)
        first += side - column++;
      const GemmArgs<T> tile_product = g.block((column + t - first) * tile, column * tile, tile, tile);
      a_tiles[t] = tile_product.a;
      b_tiles[t] = tile_product.b;
      c_tiles[t] = tile_product.c;
    }

    // The lower triangle: the full tiles in one batch, then what is left of the last
    // rows (m not a multiple of the tile) as two ordinary products, the strip below the
    // tiles and the square in the corner.
    template <typename T>
    void lower_triangle(cublasHandle_t handle, const GemmArgs<T> &g, CublasTypes<T> types, cudaStream_t stream)
    {
      const int m = g.shape.m, side = m / tile, full = side * tile, count = side * (side + 1) / 2;
      if (count > 0)
        {
          // The pointer arrays live in memory allocated in stream order (cudaMallocAsync),
          // so that two products in flight never share them, also inside a CUDA graph.
          void *arrays = nullptr;
          LAB_CHECK(cudaMallocAsync(&arrays, 3 * sizeof(T *) * count, stream));
          const T **b_tiles = static_cast<const T **>(arrays), **a_tiles = b_tiles + count;
          T **c_tiles = static_cast<T **>(arrays) + 2 * count;
          constexpr int threads = 256;
          lower_tile_pointers<<<(count + threads - 1) / threads, threads, 0, stream>>>(g, side, b_tiles, a_tiles,
                                                                                       c_tiles);
          LAB_CHECK_LAUNCH();
          const GemmShape &s = g.shape;
          LAB_CHECK(cublasGemmBatchedEx(handle, cublas_op(s.op_b), cublas_op(s.op_a), tile, tile, s.k, &g.alpha,
                                        reinterpret_cast<const void *const *>(b_tiles), types.data, g.ldb,
                                        reinterpret_cast<const void *const *>(a_tiles), types.data, g.lda, &g.beta,
                                        reinterpret_cast<void *const *>(c_tiles), types.data, g.ldc, count,
                                        types.compute, CUBLAS_GEMM_DEFAULT));
          LAB_CHECK(cudaFreeAsync(arrays, stream));
        }
      if (full == m)
        return;
      if (full > 0)
        whole_product(handle, g.block(full, 0, m - full, full), types);
      whole_product(handle, g.block(full, full, m - full, m - full), types);
    }

    template <typename T>
    void product(cublasHandle_t handle, const GemmArgs<T> &g, CublasTypes<T> types, cudaStream_t stream)
    {
      if (g.output == Output::lower_triangle)
        lower_triangle(handle, g, types, stream);
      else
        whole_product(handle, g, types);
    }
  } // namespace

  Cublas::Cublas() { LAB_CHECK(cublasCreate(&handle_)); }

  Cublas::~Cublas() { cublasDestroy(handle_); }

  // cuBLAS keeps scratch memory (a workspace) for some of its algorithms, by default
  // one for the handle. Two products that run at the same time on two streams, as in
  // step-2's look-ahead, would then share it. So every stream gets its own, allocated
  // when the stream is first seen. While a stream is being captured into a CUDA graph
  // nothing may be allocated; a stream first seen then runs its products without a
  // workspace (cuBLAS then picks algorithms that need none).
  void Cublas::bind(cudaStream_t stream)
  {
    constexpr std::size_t workspace_bytes = std::size_t(32) << 20; // cuBLAS's advice for Hopper
    LAB_CHECK(cublasSetStream(handle_, stream)); // also resets the workspace
    auto workspace = workspaces_.find(stream);
    if (workspace == workspaces_.end())
      {
        cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
        LAB_CHECK(cudaStreamIsCapturing(stream, &capture));
        if (capture != cudaStreamCaptureStatusNone)
          {
            LAB_CHECK(cublasSetWorkspace(handle_, nullptr, 0));
            return;
          }
        workspace = workspaces_.emplace(stream, DeviceBuffer<unsigned char>(workspace_bytes)).first;
      }
    LAB_CHECK(cublasSetWorkspace(handle_, workspace->second.data(), workspace_bytes));
  }

  // An empty C needs no work, and cuBLAS would refuse its leading dimension; k = 0 is
  // a real product (C = β C) and goes to cuBLAS like any other.
  void Cublas::gemm(const GemmArgs<float> &g, CublasMath math, cudaStream_t stream)
  {
    if (g.shape.m == 0 || g.shape.n == 0)
      return;
    bind(stream);
    product(handle_, g,
            {CUDA_R_32F, math == CublasMath::fp32 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_FAST_TF32}, stream);
  }

  // cublasGemmEx in FP64 rather than cublasDgemm: the same product, and on an H200 as
  // fast or faster in every transposition (12% at n = 4096 without transposes;
  // tools/vendor-configurations).
  void Cublas::gemm(const GemmArgs<double> &g, cudaStream_t stream)
  {
    if (g.shape.m == 0 || g.shape.n == 0)
      return;
    bind(stream);
    product(handle_, g, {CUDA_R_64F, CUBLAS_COMPUTE_64F}, stream);
  }

  Gemm<float> cublas_gemm(Cublas &cublas, CublasMath math)
  {
    return [&cublas, math](const GemmArgs<float> &g, cudaStream_t stream) {
      cublas.gemm(g, math, stream);
    };
  }

  Gemm<double> cublas_gemm(Cublas &cublas)
  {
    return [&cublas](const GemmArgs<double> &g, cudaStream_t stream) { cublas.gemm(g, stream); };
  }
} // namespace lab
