#pragma once
// @sect3{The kernels, as a list}
//
// The program, the tests and later steps reach the kernels through this list: a name
// (the file name without its extension), the idea in one line, whether it accepts
// transposed operands, and its launcher. A launcher takes the arguments and a
// stream, checks the launch, and returns at once (the kernel runs asynchronously).
// A kernel that needs hardware not every GPU has (kernel 14: FP64 tensor cores; kernels
// 16 to 19: Hopper's TMA, and warpgroup MMA) also says whether it can run on this one.

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
    bool accepts_transposes;
    void (*launch)(const GemmArgs<T> &, cudaStream_t);
    bool (*available)() = nullptr;

    // Whether the kernel can run on the current GPU (kernels without a test: always).
    bool runs_here() const { return available == nullptr || available(); }
  };

  // The two values of GemmKernel::accepts_transposes, named so that the lists read
  // without a key: a kernel that computes op(A)·op(B) with either operand transposed,
  // or one that computes the plain A·B only (and refuses a transpose with
  // std::invalid_argument).
  constexpr bool transposes_too = true;
  constexpr bool plain_product_only = false;

  // Kernels 1 to 11 and 15, in teaching order: all FP32 on the ordinary cores (SIMT), all
  // checked against FP32 accuracy. (Kernel 15 came after the tensor-core and double
  // kernels 12 to 14, and continues kernel 10.)
  const std::vector<GemmKernel<float>> &fp32_kernels();
  // Kernels 12 and 16 to 18, on the tensor cores: FP32 in and out, TF32 inside (a looser
  // check). Kernels 16 to 18 run on compute capability 9.0 only, with a build for them.
  const std::vector<GemmKernel<float>> &tf32_kernels();
  // Kernels 13, 14 and 19, in double precision: kernel 10 on the ordinary FP64 units,
  // and the FP64 tensor cores (GPUs of compute capability 8.0 and newer; kernel 19 on
  // compute capability 9.0 only, with a build for it).
  const std::vector<GemmKernel<double>> &fp64_kernels();

  // The kernel a name refers to (a number such as "9" or a full name such as
  // "9_warp_tiling"), or nullptr: among the float kernels (1 to 12, 15 to 18) and the
  // double ones (13, 14 and 19).
  const GemmKernel<float> *find_float_kernel(const std::string &name);
  const GemmKernel<double> *find_double_kernel(const std::string &name);

  // @sect3{The course's product, for later steps}
  //
  // step4::gemm is the fastest kernel for each precision, for any shape (also empty
  // ones, and k = 0) and both transposes: kernel 15 in float; in double kernel 19 on
  // an H100 or H200 (with a build for sm_90a), else kernel 14 where the GPU has FP64
  // tensor cores, else kernel 13. It is an object rather than
  // two overloaded functions so that it converts to a lab::Gemm of either precision,
  // which is how step-5 plugs it into step-2's Cholesky and step-3's inverse:
  // `lab::Gemm<float> product = step4::gemm;`.
  struct CourseGemm
  {
    void operator()(const GemmArgs<float> &g, cudaStream_t stream = nullptr) const;
    void operator()(const GemmArgs<double> &g, cudaStream_t stream = nullptr) const;
  };
  inline constexpr CourseGemm gemm{};

  // step4::gemm_tf32 is the fastest product on the tensor cores in TF32, for any shape
  // and both transposes: kernels 17 and 18 (op(B) = B; 18 for products with at least
  // a tile per SM) and 16 (op(B) = Bᵀ) where the GPU runs them (an H100 or H200 with
  // a build for sm_90a); elsewhere kernel 12 for A·B,
  // and kernel 15, in full FP32, for the transposed shapes kernel 12 does not take
  // (more accurate, so within the TF32 tolerance too). Its results carry TF32's error (about 10⁻³ relative per product
  // instead of float's 10⁻⁷): for step-5's mixed-precision solve, where a refinement
  // in double corrects it, and for HᵀH. `lab::Gemm<float> product = step4::gemm_tf32;`.
  struct CourseGemmTf32
  {
    void operator()(const GemmArgs<float> &g, cudaStream_t stream = nullptr) const;
  };
  inline constexpr CourseGemmTf32 gemm_tf32{};

  // step4::gemm_ozaki is the fastest double product at DGEMM's accuracy where the
  // INT8 tensor cores pay: kernel 20 (the Ozaki scheme II) for a whole C with m, n and
  // k all at least 4096 and more work than 4096³ (at 4096³ it only breaks even on an
  // H200, at 8192³ it runs at 1.38 times DGEMM's speed), step4::gemm for everything
  // else: thin products, lower triangles (kernel 20 multiplies the whole square), and
  // GPUs other than Hopper's (where step4::gemm has no kernel 19, kernel 20 has not been
  // measured). Kernel 20 reads a bound on the host before its integer products,
  // so its products synchronise the host with their stream; inside a CUDA graph's
  // capture it hands the product to the double kernel itself.
  // `lab::Gemm<double> product = step4::gemm_ozaki;`.
  struct CourseGemmOzaki
  {
    void operator()(const GemmArgs<double> &g, cudaStream_t stream = nullptr) const;
  };
  inline constexpr CourseGemmOzaki gemm_ozaki{};

  // Whether step4::gemm_ozaki gives this product to kernel 20 (which may still leave it
  // to the double kernel: its report says why).
  bool runs_on_kernel_20(const GemmArgs<double> &g);

  // Kernel 20 for the products runs_on_kernel_20 names, @p rest for the others:
  // step4::gemm_ozaki is with_kernel_20(step4::gemm); step-4's `--cholesky` also runs
  // it with cuBLAS's DGEMM as the rest.
  lab::Gemm<double> with_kernel_20(lab::Gemm<double> rest);

  // What kernel 20 did in an algorithm's products (a factorisation, a pipeline): of
  // how many products and flops (a lower triangle counts half) it took how many, and
  // how many of those it left to the double kernel after all.
  struct Kernel20Tally
  {
    int products = 0, taken = 0, fell_back = 0;
    double flops = 0, flops_taken = 0;
    // "kernel 20 took 10 of the 1082 products, 64% of the flops, and left 0 of them to
    // the double kernel"
    std::string summary() const;
  };

  // @p product with each of its calls counted into @p tally (which must outlive it);
  // a product kernel 20 takes is counted as such whatever @p product does with it.
  lab::Gemm<double> tallied(lab::Gemm<double> product, Kernel20Tally &tally);
} // namespace step4
