#pragma once
/// @file
/// @brief cuBLAS's matrix product in the course's row-major convention, as a
/// lab::Gemm: FP32 (TF32 off), TF32 on the tensor cores, and FP64.
///
/// The vendor's product is the yardstick of step-4 and the product that steps 2 and 3
/// run in their own programs ("the vendor's product, which step-4 shows how to
/// write").
///
/// **Rows against columns.** cuBLAS stores matrices by columns (the Fortran
/// convention), the course by rows. No copy is needed: a row-major m×n matrix is, read
/// by columns, its n×m transpose. So the row-major product C = op(A)·op(B) is the
/// column-major product @f$C^T = \mathrm{op}(B)^T \mathrm{op}(A)^T@f$: cuBLAS is
/// called with B and A swapped and m and n swapped, and each operand keeps its own
/// transpose flag.
///
/// **A lower triangle only** (lab::Output::lower_triangle): one batched call over the
/// triangle's square tiles (see the source for why, and what it was measured against).
///
/// **FP32 and TF32.** Since CUDA 11, cuBLAS may run an FP32 product on the tensor
/// cores in TF32 (inputs rounded to 10 mantissa bits) when allowed to. The course
/// compares its FP32 code with pure FP32 (`CUBLAS_COMPUTE_32F`, TF32 off) and its
/// tensor-core code with TF32 allowed (`CUBLAS_COMPUTE_32F_FAST_TF32`).
/// @code
///   lab::Cublas cublas;                                      // one handle per program
///   lab::Gemm<float> gemm = lab::cublas_gemm(cublas, lab::CublasMath::fp32);
///   gemm(args, stream);                                      // C = alpha A B + beta C
/// @endcode

#include <lab/device_buffer.h>
#include <lab/gemm.h>

#include <cublas_v2.h>

#include <map>

namespace lab
{
  /// Which units cuBLAS may use for an FP32 product.
  enum class CublasMath
  {
    fp32, ///< FP32 throughout: the SIMT units
    tf32  ///< TF32 inputs on the tensor cores, FP32 accumulation
  };

  /// A cuBLAS handle (RAII), created once: creating one costs far more than a product.
  class Cublas
  {
  public:
    /// Creates the handle.
    Cublas();
    /// Destroys the handle.
    ~Cublas();
    Cublas(const Cublas &) = delete;
    Cublas &operator=(const Cublas &) = delete;

    /// C = α op(A) op(B) + β C in float, enqueued on @p stream.
    void gemm(const GemmArgs<float> &g, CublasMath math, cudaStream_t stream = nullptr);
    /// C = α op(A) op(B) + β C in double (DGEMM, on the FP64 tensor cores where the
    /// GPU has them), enqueued on @p stream.
    void gemm(const GemmArgs<double> &g, cudaStream_t stream = nullptr);

    /// The handle, for the other cuBLAS routines a step calls (trsm, syrk).
    cublasHandle_t get() const { return handle_; }

    /// Makes the calls that follow run on @p stream, each stream with scratch memory of
    /// its own (see the source).
    void bind(cudaStream_t stream);

  private:
    cublasHandle_t handle_ = nullptr;
    std::map<cudaStream_t, DeviceBuffer<unsigned char>> workspaces_;
  };

  /// @p cublas's float product as a lab::Gemm (the handle must outlive it).
  Gemm<float> cublas_gemm(Cublas &cublas, CublasMath math);
  /// @p cublas's double product as a lab::Gemm (the handle must outlive it).
  Gemm<double> cublas_gemm(Cublas &cublas);

  /// The product in T's own precision, what a factorisation checked against T's
  /// tolerance needs: FP32 with TF32 off for float, FP64 for double.
  template <typename T>
  Gemm<T> cublas_gemm_exact(Cublas &cublas)
  {
    if constexpr (sizeof(T) == 4)
      return cublas_gemm(cublas, CublasMath::fp32);
    else
      return cublas_gemm(cublas);
  }
} // namespace lab
