#pragma once
/// @file
/// @brief Checked CUDA, cuBLAS and cuSOLVER calls: a failure throws lab::cuda_error.
///
/// Every call into the CUDA runtime or a CUDA library returns a status. Ignoring it
/// means that an error surfaces later, at an unrelated call, or never. Wrap every call:
/// @code
///   LAB_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
///   my_kernel<<<grid, block>>>(...);
///   LAB_CHECK_LAUNCH();
/// @endcode
/// The exception names the call, the file and the line; only `main` decides what to
/// do with it (print one line, return 1). Library code never ends the program itself.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <stdexcept>
#include <string>

namespace lab
{
  /// A failed CUDA runtime or library call. what() reads
  /// "cudaMalloc(&p, bytes) failed: out of memory (cudaErrorMemoryAllocation) at file:line".
  class cuda_error : public std::runtime_error
  {
  public:
    /// @p call is the source text of the call, @p reason what went wrong.
    cuda_error(const std::string &call, const std::string &reason, const char *file,
               int line);
  };

  /// Throws cuda_error unless @p status is cudaSuccess.
  void check(cudaError_t status, const char *call, const char *file, int line);
  /// Throws cuda_error unless @p status is CUBLAS_STATUS_SUCCESS.
  void check(cublasStatus_t status, const char *call, const char *file, int line);
  /// Throws cuda_error unless @p status is CUSOLVER_STATUS_SUCCESS.
  void check(cusolverStatus_t status, const char *call, const char *file, int line);
} // namespace lab

/// Checks the status returned by a CUDA runtime, cuBLAS or cuSOLVER call.
#define LAB_CHECK(call) ::lab::check((call), #call, __FILE__, __LINE__)

/// Checks a kernel launch. A launch returns nothing: a bad configuration (too many
/// threads, too much shared memory) is reported by the next cudaGetLastError().
/// Errors inside the running kernel appear at the next synchronising call.
#define LAB_CHECK_LAUNCH() \
  ::lab::check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
