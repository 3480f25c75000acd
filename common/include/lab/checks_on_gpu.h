#pragma once
/// @file
/// @brief Full checks on the GPU: a product on every entry, and a Cholesky factor's
/// residual on every entry, against references in double computed by cuBLAS.
///
/// A check on the host costs as much as the work it checks: at n = 8192 a product's
/// reference is 10¹² multiply-adds, minutes on a CPU, so the host can only look at a
/// sample, and a sample misses a single wrong entry. The GPU computes the same
/// reference in double with the vendor's routines in milliseconds (cuBLAS DGEMM and
/// DSYRK, on double copies of the inputs), so every entry can be checked. The vendor's
/// double-precision routines are the yardstick here, not the code under test: a float
/// kernel is compared with a double reference; a double kernel with a reference that
/// rounds as much as it does, which the tolerances of the checks allow for.
///
/// The copies in double cost device memory: each check says how much it needs, and
/// where the GPU has not that much free, it returns nothing and the caller falls back
/// to its sampled check on the host (and says so).
/// @code
///   auto check = lab::GemmCheckOnGpu<float>::prepare(args);  // A, B, C on the device
///   if (check)
///     error = check->error(c_device, ldc);                  // every entry
/// @endcode

#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/gemm.h>

#include <cstddef>
#include <optional>

namespace lab
{
  /// Whether @p bytes of device memory are free now, with room to spare for cuBLAS's
  /// handle and workspace.
  bool fits_on_gpu(std::size_t bytes);

  /// The check of one product C = α op(A) op(B) + β C on every entry, with the error of
  /// step-4's gemm_check.h: max over (i, j) of
  /// |Ĉ_ij − C_ij| / (|α| Σ_p |op(A)_ip| |op(B)_pj| + |β| |C_ij|) (lab::entry_error),
  /// NaN when any entry is NaN. Both the reference C and the bracket are computed once,
  /// in double, by two cuBLAS DGEMMs (the second on |A| and |B|), so that any number of
  /// results of the same product (one per kernel) can then be checked for the cost of
  /// reading them.
  template <typename T>
  class GemmCheckOnGpu
  {
  public:
    /// Device bytes the check of a product of this shape holds: A and B, the reference
    /// and the bracket, all in double.
    static std::size_t bytes_needed(const GemmShape &shape);

    /// Computes the reference of the product that @p problem describes: its shape,
    /// scalars and device pointers A and B, and C as the product's input (read only
    /// when β ≠ 0; a product that overwrites C must be prepared before it runs).
    /// Nothing when the GPU has not bytes_needed() free.
    static std::optional<GemmCheckOnGpu> prepare(const GemmArgs<T> &problem);

    /// The error of @p result, the m×n product on the device with leading dimension
    /// @p ld, on every entry.
    double error(const T *result, int ld) const;

  private:
    GemmCheckOnGpu(const GemmArgs<T> &problem);

    GemmShape shape_;
    DeviceBuffer<double> reference_, bound_;
  };

  /// Device bytes cholesky_residual_on_gpu needs for an n×n matrix: A and L in double.
  std::size_t cholesky_residual_bytes(int n);

  /// ‖L Lᵀ − A‖_F / ‖A‖_F in double on every entry, like lab::cholesky_residual on the
  /// host (L from the lower triangle of @p factor, diagonal included, whatever is above
  /// it ignored; A from the lower triangle of @p a), from n×n matrices on the device
  /// with leading dimension @p ld: L Lᵀ − A by one cuBLAS DSYRK on double copies, its
  /// norm by a reduction on the GPU. NaN in L gives NaN. Nothing when the GPU has not
  /// cholesky_residual_bytes(n) free.
  template <typename T>
  std::optional<double> cholesky_residual_on_gpu(const T *a, const T *factor, int n, int ld);

  /// The same for matrices on the host, copied to the GPU first (the copies need
  /// another two n×n matrices of T).
  template <typename T>
  std::optional<double> cholesky_residual_on_gpu(const Matrix<T> &a, const Matrix<T> &factor);
} // namespace lab
