#pragma once
// @sect3{Variant 6: mixed precision, and a solve brought back to full accuracy}
//
// On an H100 or H200 the tensor cores multiply TF32 numbers (FP32's exponent, 10 bits
// of mantissa instead of 23) several times faster than the FP32 units multiply FP32
// ones. A factorisation whose trailing update runs in TF32 (variant 5 with a TF32
// product as CholeskyArgs::update_gemm; the panels stay in FP32) is correspondingly
// faster, and less accurate: each product rounds its inputs to 11 significant bits,
// ε_TF32 = 2^-10 ≈ 10^-3 where FP32 has 2^-23 ≈ 1.2·10^-7. How much of that reaches
// the factor depends on the matrix (the results page shows it for the test matrices).
//
// For solving A x = b that loss can be repaired, cheaply. Iterative refinement:
//  1. x = (L L^T)^{-1} b, with the inexact factor;
//  2. r = b − A x, in FP32 with the original A (a matrix-vector product, n² flops);
//  3. stop when ‖r‖ no longer halves from one round to the next: what is left is then
//     the rounding in computing r itself, in FP32;
//  4. otherwise solve for the correction, L L^T d = r, set x = x + d, go to 2.
// Each round costs two triangular solves and a product with A, O(n²) against the
// factorisation's n³/3. Each multiplies the error by about κ(A)·u_TF32, so for a
// matrix that is not too badly conditioned (here κ = 10³, u_TF32 ≈ 5·10^-4) a few
// rounds reach the accuracy of an FP32 factorisation. For κ(A) ≳ 1/u_TF32 the
// refinement no longer converges: the solver stops after `max_rounds`, and
// `converged()` says whether ‖r‖ ≤ √n ε ‖A‖_F ‖x‖ (LAPACK's test for an FP32 solve in
// `dsposv`; ε of FP32) was reached.
//
// The triangular solves are cuSOLVER's potrs with our factor: the comparison with
// spotrf + spotrs is then between the factorisations and the rounds, nothing else.
//
// This variant is for float only. In double, the products already run on the FP64
// tensor cores; the double counterpart (factorise in FP32, refine in FP64, LAPACK's
// `dsposv`) is an extension to try (see the results page).

#include "../cholesky_variants.h"
#include "../cusolver_cholesky.h"

#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>

namespace step2
{
  class MixedPrecisionSolve
  {
  public:
    static constexpr int max_rounds = 10;

    // For n×n matrices with leading dimension ld. The products of the factorisation:
    // @p gemm for the panels (FP32), @p update_gemm for the trailing update (TF32);
    // left empty, cuBLAS's in those modes. (Step-5 passes step-4's step4::gemm and
    // step4::gemm_tf32.) cuBLAS also computes the residuals and the norms.
    MixedPrecisionSolve(int n, int ld, int panel_width, lab::Cublas &cublas, const lab::Gemm<float> &gemm = {},
                        const lab::Gemm<float> &update_gemm = {});

    // x = A^{-1} b (device vectors of n entries); only A's lower triangle is read, and
    // A (device) is not changed. Returns
    // LAPACK's info of the factorisation: 0, or the failing column + 1 (x is then not
    // computed). Waits for the GPU between rounds (the host decides whether to go on).
    int solve(const float *a, const float *b, float *x, cudaStream_t stream = nullptr);

    // The factorisation alone, into factor() (for its time and residual).
    void factorize(const float *a, cudaStream_t stream = nullptr);
    const lab::DeviceBuffer<float> &factor() const { return factor_; }

    // Correction rounds of the last solve, and whether it ended below √n ε ‖A‖_F ‖x‖.
    int rounds() const { return rounds_; }
    bool converged() const { return converged_; }

  private:
    int n_, ld_;
    lab::Cublas &cublas_;
    CusolverCholesky<float> potrs_;
    CholeskyArgs<float> args_;
    lab::DeviceBuffer<float> factor_, workspace_, residual_;
    lab::DeviceBuffer<double> norm_;
    lab::DeviceBuffer<int> info_;
    int rounds_ = 0;
    bool converged_ = false;
  };
} // namespace step2
