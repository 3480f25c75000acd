#pragma once
/// @file
/// @brief A cuSOLVER handle (RAII), for the classes of steps 2 and 3 that time the
/// vendor's factorisations and solves.
///
/// cuSOLVER's "64-bit" interface (`cusolverDnX...`) takes, besides the handle, a
/// parameter object and the number type of every matrix as a cudaDataType; the two
/// handles are made and destroyed together here, and lab::cuda_data_type names the
/// type.

#include <cusolverDn.h>

namespace lab
{
  /// CUDA_R_32F for float, CUDA_R_64F for double: the number type as cuSOLVER and
  /// cuBLAS name it.
  template <typename T>
  constexpr cudaDataType cuda_data_type = sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;

  /// A cuSOLVER dense handle with its parameter object, created once (creating one costs
  /// far more than a small factorisation).
  class Cusolver
  {
  public:
    /// Creates the handle and the parameters.
    Cusolver();
    /// Destroys both.
    ~Cusolver();
    Cusolver(const Cusolver &) = delete;
    Cusolver &operator=(const Cusolver &) = delete;

    /// Makes the calls that follow run on @p stream; returns the handle.
    cusolverDnHandle_t bind(cudaStream_t stream);
    /// The handle.
    cusolverDnHandle_t get() const { return handle_; }
    /// The parameter object of the 64-bit interface (default settings).
    cusolverDnParams_t params() const { return params_; }

  private:
    cusolverDnHandle_t handle_ = nullptr;
    cusolverDnParams_t params_ = nullptr;
  };
} // namespace lab
