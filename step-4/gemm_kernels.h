#pragma once
// @sect3{The kernels, as a list}
//
// The program, the tests and later steps reach the kernels through this list: a name
// (the file name without its extension), the idea in one line, whether it accepts
// transposed operands, and its launcher. A launcher takes the arguments and a
// stream, checks the launch, and returns at once (the kernel runs asynchronously).
// A kernel that needs hardware not every GPU has (kernel 14: FP64 tensor cores) also
// says whether it can run on this one.

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
    bool (*available)() = nullptr;

    // Whether the kernel can run on the current GPU (kernels without a test: always).
    bool runs_here() const { return available == nullptr || available(); }
  };

  // Kernels 1 to 11 and 15, in teaching order: all FP32 on the ordinary cores (SIMT), all
  // checked against FP32 accuracy. (Kernel 15 came after the tensor-core and double
  // kernels 12 to 14, and continues kernel 10.)
  const std::vector<GemmKernel<float>> &fp32_kernels();
  // Kernel 12, on the tensor cores: FP32 in and out, TF32 inside (a looser check).
  const GemmKernel<float> &tf32_kernel();
  // Kernels 13 and 14, in double precision: kernel 10 on the ordinary FP64 units, and
  // the FP64 tensor cores (GPUs of compute capability 8.0 and newer).
  const std::vector<GemmKernel<double>> &fp64_kernels();

  // The kernel a name refers to (a number such as "9" or a full name such as
  // "9_warp_tiling"), or nullptr: among the float kernels (1 to 12, 15) and the double
  // ones (13 and 14).
  const GemmKernel<float> *find_float_kernel(const std::string &name);
  const GemmKernel<double> *find_double_kernel(const std::string &name);

  // @sect3{The course's product, for later steps}
  //
  // step4::gemm is the fastest kernel for each precision, for any shape (also empty
  // ones, and k = 0) and both transposes: kernel 15 in float; in double kernel 14
  // where the GPU has FP64 tensor cores, else kernel 13. It is an object rather than
  // two overloaded functions so that it converts to a lab::Gemm of either precision,
  // which is how step-5 plugs it into step-2's Cholesky and step-3's inverse:
  // `lab::Gemm<float> product = step4::gemm;`.
  struct CourseGemm
  {
    void operator()(const GemmArgs<float> &g, cudaStream_t stream = nullptr) const;
    void operator()(const GemmArgs<double> &g, cudaStream_t stream = nullptr) const;
  };
  inline constexpr CourseGemm gemm{};
} // namespace step4
