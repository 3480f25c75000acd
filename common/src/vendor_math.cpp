#include <lab/vendor_math.h>

#include <cublas_v2.h>
#include <cusolverDn.h>

#include <cstdlib>

namespace lab
{
  namespace
  {
    std::string name_of(cublasMath_t mode)
    {
      switch (mode)
        {
        case CUBLAS_DEFAULT_MATH:
          return "default math (the native precision)";
        case CUBLAS_PEDANTIC_MATH:
          return "pedantic math";
        case CUBLAS_TF32_TENSOR_OP_MATH:
          return "TF32 tensor-op math";
        case CUBLAS_FP32_EMULATED_BF16X9_MATH:
          return "FP32 emulated by BF16x9";
        case CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH:
          return "FP64 emulated in fixed point";
        default:
          return "math mode " + std::to_string(int(mode));
        }
    }

    std::string name_of(int strategy)
    {
      switch (strategy)
        {
        case CUDA_EMULATION_STRATEGY_DEFAULT:
          return "DEFAULT";
        case CUDA_EMULATION_STRATEGY_PERFORMANT:
          return "PERFORMANT";
        case CUDA_EMULATION_STRATEGY_EAGER:
          return "EAGER";
        default:
          return std::to_string(strategy);
        }
    }
  } // namespace

  // A library too old to know a query answers it with an error status: the line then
  // says so for that part instead of stopping the program.
  std::string vendor_math_line()
  {
    std::string blas_part = "cuBLAS: no handle", solver_part = "cuSOLVER: no handle";
    cublasHandle_t blas = nullptr;
    if (cublasCreate(&blas) == CUBLAS_STATUS_SUCCESS)
      {
        cublasMath_t mode = CUBLAS_DEFAULT_MATH;
        cublasEmulationStrategy_t strategy = CUBLAS_EMULATION_STRATEGY_DEFAULT;
        blas_part = cublasGetMathMode(blas, &mode) == CUBLAS_STATUS_SUCCESS ? "cuBLAS " + name_of(mode)
                                                                             : "cuBLAS math mode not reported";
        blas_part += cublasGetEmulationStrategy(blas, &strategy) == CUBLAS_STATUS_SUCCESS
                       ? ", emulation strategy " + name_of(int(strategy))
                       : ", emulation strategy not reported";
        cublasDestroy(blas);
      }
    const char *environment = std::getenv("CUBLAS_EMULATION_STRATEGY");
    blas_part += std::string(" (CUBLAS_EMULATION_STRATEGY ") +
                 (environment ? std::string("= ") + environment : std::string("unset")) + ")";

    cusolverDnHandle_t solver = nullptr;
    if (cusolverDnCreate(&solver) == CUSOLVER_STATUS_SUCCESS)
      {
        cusolverMathMode_t mode = CUSOLVER_DEFAULT_MATH;
        cudaEmulationStrategy_t strategy = CUDA_EMULATION_STRATEGY_DEFAULT;
        solver_part = cusolverDnGetMathMode(solver, &mode) != CUSOLVER_STATUS_SUCCESS
                        ? "cuSOLVER math mode not reported"
                        : mode == CUSOLVER_DEFAULT_MATH ? "cuSOLVER default math (the native precision)"
                                                        : "cuSOLVER FP32 emulated by BF16x9";
        solver_part += cusolverDnGetEmulationStrategy(solver, &strategy) == CUSOLVER_STATUS_SUCCESS
                         ? ", emulation strategy " + name_of(int(strategy))
                         : ", emulation strategy not reported";
        cusolverDnDestroy(solver);
      }
    return "vendor math: " + blas_part + "; " + solver_part;
  }
} // namespace lab
