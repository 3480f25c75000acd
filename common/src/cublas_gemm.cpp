#include <lab/cublas_gemm.h>

#include <lab/cuda_check.h>

namespace lab
{
  namespace
  {
    cublasOperation_t cublas_op(Op op) { return op == Op::none ? CUBLAS_OP_N : CUBLAS_OP_T; }
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
    const GemmShape &s = g.shape;
    if (s.m == 0 || s.n == 0)
      return;
    bind(stream);
    const cublasComputeType_t compute =
      math == CublasMath::fp32 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_FAST_TF32;
    LAB_CHECK(cublasGemmEx(handle_, cublas_op(s.op_b), cublas_op(s.op_a), s.n, s.m, s.k,
                           &g.alpha, g.b, CUDA_R_32F, g.ldb, g.a, CUDA_R_32F, g.lda,
                           &g.beta, g.c, CUDA_R_32F, g.ldc, compute, CUBLAS_GEMM_DEFAULT));
  }

  void Cublas::gemm(const GemmArgs<double> &g, cudaStream_t stream)
  {
    const GemmShape &s = g.shape;
    if (s.m == 0 || s.n == 0)
      return;
    bind(stream);
    // cublasGemmEx in FP64 rather than cublasDgemm: the same product, and on an H200 as
    // fast or faster in every transposition (12% at n = 4096 without transposes;
    // tools/vendor-configurations).
    LAB_CHECK(cublasGemmEx(handle_, cublas_op(s.op_b), cublas_op(s.op_a), s.n, s.m, s.k, &g.alpha, g.b, CUDA_R_64F,
                           g.ldb, g.a, CUDA_R_64F, g.lda, &g.beta, g.c, CUDA_R_64F, g.ldc, CUBLAS_COMPUTE_64F,
                           CUBLAS_GEMM_DEFAULT));
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
