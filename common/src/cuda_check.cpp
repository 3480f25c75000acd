#include <lab/cuda_check.h>

namespace lab
{
  cuda_error::cuda_error(const std::string &call, const std::string &reason,
                         const char *file, int line)
    : std::runtime_error(call + " failed: " + reason + " at " + file + ":" +
                         std::to_string(line))
  {}

  void check(cudaError_t status, const char *call, const char *file, int line)
  {
    if (status != cudaSuccess)
      throw cuda_error(call,
                       std::string(cudaGetErrorString(status)) + " (" +
                         cudaGetErrorName(status) + ")",
                       file, line);
  }

  void check(cublasStatus_t status, const char *call, const char *file, int line)
  {
    if (status != CUBLAS_STATUS_SUCCESS)
      throw cuda_error(call, cublasGetStatusName(status), file, line);
  }

  // cuSOLVER has no function that names its status codes, so we name them here.
  namespace
  {
    const char *cusolver_status_name(cusolverStatus_t status)
    {
      switch (status)
        {
          case CUSOLVER_STATUS_NOT_INITIALIZED:
            return "CUSOLVER_STATUS_NOT_INITIALIZED";
          case CUSOLVER_STATUS_ALLOC_FAILED:
            return "CUSOLVER_STATUS_ALLOC_FAILED";
          case CUSOLVER_STATUS_INVALID_VALUE:
            return "CUSOLVER_STATUS_INVALID_VALUE";
          case CUSOLVER_STATUS_ARCH_MISMATCH:
            return "CUSOLVER_STATUS_ARCH_MISMATCH";
          case CUSOLVER_STATUS_EXECUTION_FAILED:
            return "CUSOLVER_STATUS_EXECUTION_FAILED";
          case CUSOLVER_STATUS_INTERNAL_ERROR:
            return "CUSOLVER_STATUS_INTERNAL_ERROR";
          case CUSOLVER_STATUS_NOT_SUPPORTED:
            return "CUSOLVER_STATUS_NOT_SUPPORTED";
          default:
            return "cuSOLVER error";
        }
    }
  } // namespace

  void check(cusolverStatus_t status, const char *call, const char *file, int line)
  {
    if (status != CUSOLVER_STATUS_SUCCESS)
      throw cuda_error(call,
                       std::string(cusolver_status_name(status)) + " (status " +
                         std::to_string(static_cast<int>(status)) + ")",
                       file, line);
  }
} // namespace lab
