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

  // An empty C needs no work, and cuBLAS would refuse its leading dimension; k = 0 is
  // a real product (C = β C) and goes to cuBLAS like any other.
  void Cublas::gemm(const GemmArgs<float> &g, CublasMath math, cudaStream_t stream)
  {
    const GemmShape &s = g.shape;
    if (s.m == 0 || s.n == 0)
      return;
    LAB_CHECK(cublasSetStream(handle_, stream));
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
    LAB_CHECK(cublasSetStream(handle_, stream));
    LAB_CHECK(cublasDgemm(handle_, cublas_op(s.op_b), cublas_op(s.op_a), s.n, s.m, s.k,
                          &g.alpha, g.b, g.ldb, g.a, g.lda, &g.beta, g.c, g.ldc));
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
