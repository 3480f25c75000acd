#pragma once
// @sect3{The kernels, as a list}
//
// The program, the tests and later steps reach the kernels through this list: a name
// (the file name without its extension), the idea in one line, whether it accepts
// transposed operands, and its launcher. A launcher takes the arguments and a
// stream, checks the launch, and returns at once (the kernel runs asynchronously).

#include "gemm.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace step4
{
  template <typename T>
  struct GemmKernel
  {
    std::string name;
    std::string idea;
    bool transposes;
    void (*launch)(const GemmArgs<T> &, cudaStream_t);
  };

  // Kernels 1 to 11, in teaching order: all FP32, all checked against FP32 accuracy.
  const std::vector<GemmKernel<float>> &fp32_kernels();
  // Kernel 12, on the tensor cores: FP32 in and out, TF32 inside (a looser check).
  const GemmKernel<float> &tf32_kernel();
  // Kernel 13: kernel 10 in double precision.
  const GemmKernel<double> &fp64_kernel();

  // The kernel a name refers to (a number such as "9" or a full name such as
  // "9_warp_tiling"), or nullptr.
  const GemmKernel<float> *find_float_kernel(const std::string &name);

  // @sect3{The course's product, for later steps}
  //
  // step4::gemm is the fastest kernel for each precision, for any shape (also empty
  // ones, and k = 0) and both transposes. It is an object rather than two overloaded
  // functions so that it converts to a lab::Gemm of either precision, which is how
  // step-5 plugs it into step-2's Cholesky and step-3's inverse:
  // `lab::Gemm<float> product = step4::gemm;`.
  struct CourseGemm
  {
    void operator()(const GemmArgs<float> &g, cudaStream_t stream = nullptr) const;
    void operator()(const GemmArgs<double> &g, cudaStream_t stream = nullptr) const;
  };
  inline constexpr CourseGemm gemm{};
} // namespace step4
