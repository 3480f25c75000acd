#include "7_panel_by_halves.cuh"
#include "6_mixed_precision_solve.cuh"

#include <lab/cuda_check.h>

#include <cmath>
#include <limits>

namespace step2
{
  namespace
  {
    // ‖A‖_F² of the symmetric n×n matrix from its lower triangle (what lies above the
    // diagonal is not read: a caller may have computed only the lower half), summed in
    // double: each entry below the diagonal counts twice. Each thread adds up a
    // stretch of entries, each warp its threads' sums, and one atomic per warp adds
    // them to *sum.
    __global__ void add_squares(const float *a, int n, int ld, double *sum)
    {
      double local = 0;
      const long count = static_cast<long>(n) * n;
      for (long e = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; e < count;
           e += static_cast<long>(gridDim.x) * blockDim.x)
        {
          const long row = e / n, column = e % n;
          if (column > row)
            continue;
          const double v = a[row * ld + column];
          local += (column < row ? 2 : 1) * v * v;
        }
      for (int offset = 16; offset > 0; offset /= 2)
        local += __shfl_down_sync(0xffffffffu, local, offset);
      if (threadIdx.x % 32 == 0)
        atomicAdd(sum, local);
    }

    float norm2(cublasHandle_t handle, int n, const float *v)
    {
      float result = 0;
      LAB_CHECK(cublasSnrm2(handle, n, v, 1, &result)); // waits for the value
      return result;
    }
  } // namespace

  MixedPrecisionSolve::MixedPrecisionSolve(int n, int ld, int panel_width, lab::Cublas &cublas,
                                           const lab::Gemm<float> &gemm, const lab::Gemm<float> &update_gemm)
    : n_(n), ld_(ld), cublas_(cublas), potrs_(n, ld),
      factor_(static_cast<std::size_t>(n) * ld),
      workspace_(panel_by_halves_workspace<float>(n, panel_width)), residual_(n), norm_(1),
      info_(1)
  {
    args_.a = factor_.data();
    args_.n = n;
    args_.ld = ld;
    args_.info = info_.data();
    args_.workspace = workspace_.data();
    args_.panel_width = panel_width;
    args_.gemm = gemm ? gemm : lab::cublas_gemm(cublas, lab::CublasMath::fp32);
    args_.update_gemm = update_gemm ? update_gemm : lab::cublas_gemm(cublas, lab::CublasMath::tf32);
  }

  void MixedPrecisionSolve::factorize(const float *a, cudaStream_t s)
  {
    LAB_CHECK(cudaMemcpy2DAsync(factor_.data(), sizeof(float) * ld_, a, sizeof(float) * ld_,
                                sizeof(float) * n_, n_, cudaMemcpyDeviceToDevice, s));
    args_.stream = s;
    factorize_7_panel_by_halves(args_);
  }

  int MixedPrecisionSolve::solve(const float *a, const float *b, float *x, cudaStream_t s)
  {
    rounds_ = 0;
    converged_ = false;
    factorize(a, s);
    int info = 0;
    LAB_CHECK(cudaMemcpyAsync(&info, info_.data(), sizeof(int), cudaMemcpyDeviceToHost, s));
    // ‖A‖_F, for the stopping test below, in the same wait.
    LAB_CHECK(cudaMemsetAsync(norm_.data(), 0, sizeof(double), s));
    add_squares<<<1024, 256, 0, s>>>(a, n_, ld_, norm_.data());
    LAB_CHECK_LAUNCH();
    double norm_a = 0;
    LAB_CHECK(cudaMemcpyAsync(&norm_a, norm_.data(), sizeof(double), cudaMemcpyDeviceToHost, s));
    LAB_CHECK(cudaStreamSynchronize(s));
    if (info != 0)
      return info;
    norm_a = std::sqrt(norm_a);

    // 1. The first solution. The solves are cuSOLVER's potrs on our factor, L by rows.
    constexpr auto ours = CusolverCholesky<float>::Factor::by_rows;
    LAB_CHECK(cudaMemcpyAsync(x, b, sizeof(float) * n_, cudaMemcpyDeviceToDevice, s));
    potrs_.solve(factor_.data(), ours, x, 1, n_, info_.data(), s);
    cublas_.bind(s);
    const cublasHandle_t handle = cublas_.get();
    const float minus_one = -1, one = 1;
    const float eps = std::numeric_limits<float>::epsilon();
    double previous = std::numeric_limits<double>::infinity();
    for (;;)
      {
        // 2. r = b - A x, from A's lower triangle alone (SYMV: a symmetric matrix
        //    times a vector). cuBLAS reads matrices by columns, so our lower triangle
        //    (row-major) is the upper one to it. The fill mode is not a choice here:
        //    the caller may have computed only that triangle (step-5 does), and
        //    mirroring it for the other fill mode would read and write n² numbers to
        //    save nothing in a product that reads them once.
        LAB_CHECK(cudaMemcpyAsync(residual_.data(), b, sizeof(float) * n_, cudaMemcpyDeviceToDevice, s));
        LAB_CHECK(cublasSsymv(handle, residual_fill_mode, n_, &minus_one, a, ld_, x, 1, &one,
                              residual_.data(), 1));
        // 3. Done when the residual no longer halves (the rounding in computing it is
        //    then all that is left of it), or is zero.
        const double r = norm2(handle, n_, residual_.data());
        converged_ = r <= std::sqrt(double(n_)) * eps * norm_a * norm2(handle, n_, x);
        if (r == 0 || r > previous / 2 || rounds_ == max_rounds)
          break;
        previous = r;
        // 4. The correction, and the next round.
        potrs_.solve(factor_.data(), ours, residual_.data(), 1, n_, info_.data(), s);
        LAB_CHECK(cublasSaxpy(handle, n_, &one, residual_.data(), 1, x, 1));
        ++rounds_;
      }
    return 0;
  }
} // namespace step2
