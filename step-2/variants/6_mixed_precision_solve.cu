#include "7_panel_by_halves.cuh"
#include "8_base_block_in_registers.cuh"
#include "6_mixed_precision_solve.cuh"

#include <lab/cuda_check.h>

#include <cmath>
#include <limits>

namespace step2
{
  namespace
  {
    // The factor's starting point, A's lower triangle rounded to float (a copy when T is
    // float; above the diagonal nothing is read or written), and in the same pass
    // ‖A‖_F² of the symmetric matrix, summed in double, each entry below the diagonal
    // twice: the stopping test's norm, without reading A a second time. Each thread
    // adds up a stretch of entries, each warp its threads' sums, and one atomic per
    // warp adds them to *sum (zero before the launch).
    template <typename T>
    __global__ void round_lower_to_float(const T *a, int n, int ld, float *f, double *sum)
    {
      double local = 0;
      const long count = static_cast<long>(n) * n;
      for (long e = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; e < count;
           e += static_cast<long>(gridDim.x) * blockDim.x)
        {
          const long row = e / n, column = e % n;
          if (column > row)
            continue;
          const T v = a[row * ld + column];
          f[row * ld + column] = static_cast<float>(v);
          local += (column < row ? 2 : 1) * double(v) * double(v);
        }
      for (int offset = 16; offset > 0; offset /= 2)
        local += __shfl_down_sync(0xffffffffu, local, offset);
      if (threadIdx.x % 32 == 0)
        atomicAdd(sum, local);
    }

    // d = r rounded to float, the right-hand side of a correction's solve.
    template <typename T>
    __global__ void round_to_float(const T *r, int n, float *d)
    {
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        d[i] = static_cast<float>(r[i]);
    }

    // x = x + d, in the working precision.
    template <typename T>
    __global__ void add_correction(T *x, int n, const float *d)
    {
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] += static_cast<T>(d[i]);
    }

    // Grid-stride launches: over the n² entries of a matrix, and over a vector.
    constexpr int matrix_blocks = 1024, matrix_threads = 256;
    constexpr int vector_blocks = 256, vector_threads = 256;

    // cuBLAS's norm, by precision.
    double norm2(cublasHandle_t h, int n, const float *v)
    {
      float result = 0;
      LAB_CHECK(cublasSnrm2(h, n, v, 1, &result)); // waits for the value
      return result;
    }
    double norm2(cublasHandle_t h, int n, const double *v)
    {
      double result = 0;
      LAB_CHECK(cublasDnrm2(h, n, v, 1, &result));
      return result;
    }
  } // namespace

  template <typename T>
  MixedPrecisionSolve<T>::MixedPrecisionSolve(int n, int ld, int panel_width, lab::Cublas &cublas, Stored stored,
                                              const lab::Gemm<float> &gemm)
    : n_(n), ld_(ld), residual_fill_(residual_fill_mode(stored)), cublas_(cublas), potrs_(n, ld),
      factor_(static_cast<std::size_t>(n) * ld),
      workspace_(panel_by_halves_workspace<float>(n, panel_width)), correction_(n), residual_(n), norm_(1),
      info_(1)
  {
    args_.a = factor_.data();
    args_.n = n;
    args_.ld = ld;
    args_.info = info_.data();
    args_.workspace = workspace_.data();
    args_.panel_width = panel_width;
    args_.gemm = gemm ? gemm : lab::cublas_gemm(cublas, lab::CublasMath::tf32); // also the update's
  }

  template <typename T>
  void MixedPrecisionSolve<T>::factorize(const T *a, cudaStream_t s)
  {
    LAB_CHECK(cudaMemsetAsync(norm_.data(), 0, sizeof(double), s));
    round_lower_to_float<<<matrix_blocks, matrix_threads, 0, s>>>(a, n_, ld_, factor_.data(), norm_.data());
    LAB_CHECK_LAUNCH();
    args_.stream = s;
    factorize_8_base_block_in_registers(args_);
  }

  template <typename T>
  int MixedPrecisionSolve<T>::solve(const T *a, const T *b, T *x, cudaStream_t s)
  {
    rounds_ = 0;
    converged_ = false;
    factorize(a, s);
    int info = 0;
    LAB_CHECK(cudaMemcpyAsync(&info, info_.data(), sizeof(int), cudaMemcpyDeviceToHost, s));
    // ‖A‖_F, for the stopping test below (summed while rounding A), in the same wait.
    double norm_a = 0;
    LAB_CHECK(cudaMemcpyAsync(&norm_a, norm_.data(), sizeof(double), cudaMemcpyDeviceToHost, s));
    LAB_CHECK(cudaStreamSynchronize(s));
    if (info != 0)
      return info;
    norm_a = std::sqrt(norm_a);

    // x = 0 and r = b: the first round is then the plain solve.
    LAB_CHECK(cudaMemsetAsync(x, 0, sizeof(T) * n_, s));
    LAB_CHECK(cudaMemcpyAsync(residual_.data(), b, sizeof(T) * n_, cudaMemcpyDeviceToDevice, s));
    cublas_.bind(s);
    const cublasHandle_t handle = cublas_.get();
    const T minus_one = -1, one = 1;
    const double eps = std::numeric_limits<T>::epsilon();
    double previous = std::numeric_limits<double>::infinity();
    for (;;)
      {
        // 1. d = (L Lᵀ)^{-1} r in float, by cuSOLVER's potrs on our factor (L by rows),
        //    and x = x + d.
        round_to_float<<<vector_blocks, vector_threads, 0, s>>>(residual_.data(), n_, correction_.data());
        LAB_CHECK_LAUNCH();
        potrs_.solve(factor_.data(), CusolverCholesky<float>::Factor::by_rows, correction_.data(), 1, n_,
                     info_.data(), s);
        add_correction<<<vector_blocks, vector_threads, 0, s>>>(x, n_, correction_.data());
        LAB_CHECK_LAUNCH();
        // 2. r = b - A x, from one triangle of A (SYMV: a symmetric matrix times a
        //    vector), the faster one where A is stored whole (residual_fill_mode).
        LAB_CHECK(cudaMemcpyAsync(residual_.data(), b, sizeof(T) * n_, cudaMemcpyDeviceToDevice, s));
        LAB_CHECK(symv(handle, residual_fill_, n_, &minus_one, a, ld_, x, &one, residual_.data()));
        // 3. Done when the residual no longer halves (the rounding in computing it is
        //    then all that is left of it), or is zero, or is not a number (written so
        //    that NaN, for which every comparison is false, stops the rounds too).
        const double r = norm2(handle, n_, residual_.data());
        if (r == 0 || !(r <= previous / 2) || rounds_ == max_rounds)
          {
            converged_ = r <= std::sqrt(double(n_)) * eps * norm_a * norm2(handle, n_, x);
            break;
          }
        previous = r;
        // 4. One more round.
        ++rounds_;
      }
    return 0;
  }

  template class MixedPrecisionSolve<float>;
  template class MixedPrecisionSolve<double>;
} // namespace step2
