#include <lab/vendor_math.h>

#include <lab/cublas_gemm.h>
#include <lab/cusolver.h>

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
    const Cublas blas;
    cublasMath_t blas_mode = CUBLAS_DEFAULT_MATH;
    cublasEmulationStrategy_t blas_strategy = CUBLAS_EMULATION_STRATEGY_DEFAULT;
    std::string line = cublasGetMathMode(blas.get(), &blas_mode) == CUBLAS_STATUS_SUCCESS
                         ? "vendor math: cuBLAS " + name_of(blas_mode)
                         : "vendor math: cuBLAS math mode not reported";
    line += cublasGetEmulationStrategy(blas.get(), &blas_strategy) == CUBLAS_STATUS_SUCCESS
              ? ", emulation strategy " + name_of(int(blas_strategy))
              : ", emulation strategy not reported";
    const char *environment = std::getenv("CUBLAS_EMULATION_STRATEGY");
    line += std::string(" (CUBLAS_EMULATION_STRATEGY ") +
            (environment ? std::string("= ") + environment : std::string("unset")) + ")";

    const Cusolver solver;
    cusolverMathMode_t solver_mode = CUSOLVER_DEFAULT_MATH;
    cudaEmulationStrategy_t solver_strategy = CUDA_EMULATION_STRATEGY_DEFAULT;
    line += cusolverDnGetMathMode(solver.get(), &solver_mode) != CUSOLVER_STATUS_SUCCESS
              ? "; cuSOLVER math mode not reported"
              : solver_mode == CUSOLVER_DEFAULT_MATH ? "; cuSOLVER default math (the native precision)"
                                                     : "; cuSOLVER FP32 emulated by BF16x9";
    line += cusolverDnGetEmulationStrategy(solver.get(), &solver_strategy) == CUSOLVER_STATUS_SUCCESS
              ? ", emulation strategy " + name_of(int(solver_strategy))
              : ", emulation strategy not reported";
    return line;
  }
} // namespace lab
