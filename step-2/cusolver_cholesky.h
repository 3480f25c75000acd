#pragma once
// @sect3{cuSOLVER, the yardstick}
//
// Every variant is timed against cuSOLVER's Cholesky, `cusolverDnXpotrf`, in the same
// run on the same matrix, called the way a competent user of cuSOLVER would call it.
// cuSOLVER, like LAPACK, stores matrices by columns, the course by rows. Our A is
// symmetric and stored whole, and a symmetric matrix is the same matrix by rows and by
// columns: the course's buffer is A to cuSOLVER as it is, and either fill mode
// factorises it. They are not equally fast. On an H200, LOWER takes 39.8 ms at
// n = 16384 in float where UPPER takes 57.0 ms (1.43×; 1.55× in double), and the
// course's program `vendor-configurations` measures every such choice on the GPU at
// hand (the H200's: results/nvidia-h200/vendor_configurations.txt). So we ask for LOWER.
//
// The factor then comes back as L by columns: read by rows, Lᵀ in the upper triangle,
// while the lower triangle still holds A. `to_course_layout` copies it into the lower
// triangle, where the course's checks and the next stages read L; it runs outside
// every timing (a program says so where it matters), and afterwards the buffer holds
// L both ways: by rows in its lower triangle, by columns in its upper.
//
// One thing LOWER gets wrong. On a matrix that is not positive definite, cuSOLVER
// 13.0's LOWER path misreports where it failed when the failing column is the last
// of a block of 64: info = 0 (success) when that column is the matrix's last (n = 64,
// 128, … 4096 were tried), one column too late otherwise (n = 126, c = 63). UPPER
// reports every case right. The factor itself shows the truth: the failing pivot's
// square root is NaN. So `factorize` follows potrf with one small kernel that reads
// the diagonal and corrects info to the first column whose diagonal is not a positive
// number, as LAPACK defines it (a few microseconds, inside the timing: a user of
// LOWER who needs the right answer pays it too). tests/cusolver_wrappers_gpu_test.cpp
// tries the cases.
//
// `solve` is `cusolverDnXpotrs`, A X = B by the two triangular solves. It reads the
// factor from either triangle, and here too the choice is measured: with the factor as
// potrf left it (LOWER) when a solve follows cuSOLVER's own factorisation, since
// moving it would cost more than the solve; with the course's L by rows (to cuSOLVER,
// Lᵀ by columns: UPPER) when the factor is one of ours or has been converted, which
// for one right-hand side is also the faster of the two (1.9 against 2.1 ms at
// n = 16384 in float on an H200; equal for many right-hand sides). B is column-major
// to cuSOLVER: nrhs columns of ldb entries each, which for one right-hand side is just
// the vector. The workspace is queried and allocated once, outside the timing.

#include <lab/cusolver.h>
#include <lab/device_buffer.h>

#include <cstddef>
#include <vector>

namespace step2
{
  template <typename T>
  class CusolverCholesky
  {
  public:
    // The configuration, measured (tools/vendor-configurations reads these).
    static constexpr cublasFillMode_t fill_mode = CUBLAS_FILL_MODE_LOWER;
    static constexpr bool uses_64_bit_api = true;

    // Where a factor given to `solve` lies.
    enum class Factor
    {
      as_potrf_left_it, // L by columns (LOWER)
      by_rows           // the course's L by rows in the lower triangle (UPPER)
    };
    // potrs's fill mode for a factor that lies so: by rows it is UPPER, which for one
    // right-hand side is also the faster (see above).
    static constexpr cublasFillMode_t fill_mode_of(Factor f)
    {
      return f == Factor::as_potrf_left_it ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    }

    // Prepares a factorisation of n×n matrices with leading dimension ld.
    CusolverCholesky(int n, int ld);

    // Factorises a (device, A stored whole) in place on @p stream; info (device) as
    // LAPACK's, corrected (see above). L comes back by columns.
    void factorize(T *a, int *info, cudaStream_t stream = nullptr);

    // Copies the factor that `factorize` left into a's lower triangle by rows.
    void to_course_layout(T *a, cudaStream_t stream = nullptr) const;

    // Overwrites the nrhs columns of b (device) with A^{-1} b, given A's factor, which
    // lies as @p where says.
    void solve(const T *factor, Factor where, T *b, int nrhs, int ldb, int *info, cudaStream_t stream = nullptr);

  private:
    int n_, ld_;
    lab::Cusolver cusolver_;
    std::size_t device_bytes_ = 0, host_bytes_ = 0;
    lab::DeviceBuffer<unsigned char> device_workspace_;
    std::vector<unsigned char> host_workspace_;
  };

  // a(i, j) = a(j, i) below the diagonal of an n×n row-major matrix: the upper
  // triangle mirrored into the lower one, on @p stream. How a factor cuSOLVER computed
  // by columns becomes the course's L by rows.
  template <typename T>
  void mirror_upper_to_lower(T *a, int n, int ld, cudaStream_t stream);
} // namespace step2
