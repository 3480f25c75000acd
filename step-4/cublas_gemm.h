#pragma once
// @sect3{cuBLAS, the yardstick}
//
// Every kernel is timed against cuBLAS in the same run, on the same data. cuBLAS
// stores matrices by columns (the Fortran convention), the course by rows. No copy is
// needed: a row-major m×n matrix is, read by columns, its n×m transpose. So the
// row-major product C = op(A)·op(B) is the column-major product
// @f$C^T = \mathrm{op}(B)^T \mathrm{op}(A)^T@f$: cuBLAS is called with B and A swapped
// and m and n swapped, and each operand keeps its own transpose flag.
//
// FP32 and TF32: since CUDA 11, cuBLAS may use the tensor cores in TF32 for an FP32
// product when allowed to. The course's FP32 kernels are compared with pure FP32
// (CUBLAS_COMPUTE_32F, TF32 off), the tensor-core kernel with TF32 allowed
// (CUBLAS_COMPUTE_32F_FAST_TF32).

#include "gemm.h"

#include <cublas_v2.h>

namespace step4
{
  enum class CublasMath
  {
    fp32,
    tf32
  };

  // A cuBLAS handle (created once: creating one costs far more than a GEMM).
  class Cublas
  {
  public:
    Cublas();
    ~Cublas();
    Cublas(const Cublas &) = delete;
    Cublas &operator=(const Cublas &) = delete;

    void gemm(const GemmArgs<float> &g, CublasMath math, cudaStream_t stream = nullptr);
    void gemm(const GemmArgs<double> &g, cudaStream_t stream = nullptr);

  private:
    cublasHandle_t handle_ = nullptr;
  };
} // namespace step4
