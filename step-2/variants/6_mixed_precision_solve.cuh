#pragma once
// @sect3{Variant 6: mixed precision, and a solve brought back to full accuracy}
//
// On an H100 or H200 the tensor cores multiply TF32 numbers (FP32's exponent, 10 bits
// of mantissa instead of 23) several times faster than the FP32 units multiply FP32
// ones. A factorisation whose trailing update runs in TF32 (the fastest FP32
// factorisation, variant 7 (7_panel_by_halves.cuh), with a TF32 product as
// CholeskyArgs::update_gemm; the panels stay in FP32) is correspondingly
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
#include <lab/residuals.h>

#include <cmath>

namespace step2
{
  class MixedPrecisionSolve
  {
  public:
    // Its name among the variants (`--variant 6` picks it). It is not in the list
    // `variants<T>()`: the list holds factorisations, this is a solve.
    static constexpr const char *name = "6_mixed_precision_solve";
    static constexpr int max_rounds = 10;
    // The fill mode of the residual's SYMV: cuBLAS reads by columns, so A's lower
    // triangle by rows, the only one the caller must provide, is its UPPER one.
    // tools/vendor-configurations times it against LOWER (on a full matrix): on an
    // H200 UPPER is as fast or faster up to n = 16384 but 1.56 times slower at 32768
    // (2.42 against 1.54 ms). LOWER would need the mirrored triangle, whose copy costs
    // more than the 0.9 ms it saves (step-2's results page); a symmetric product that
    // reads the triangle by rows at memory speed is issue 26's to write.
    static constexpr cublasFillMode_t residual_fill_mode = CUBLAS_FILL_MODE_UPPER;

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

  // @sect3{How accurate the TF32 factor is}
  //
  // The factor's residual ‖L Lᵀ − A‖_F / ‖A‖_F cannot meet FP32's bound c·n·ε: the
  // trailing update rounds its inputs to TF32. How far from it may a correct factor
  // be? Entry (i, j) of L Lᵀ is Σ_k L_ik L_jk, and the update computes those products
  // with each factor rounded to 11 significant bits (a relative error of 2^-11, or
  // 2^-10 where the hardware drops the extra bits): a product's error is at most
  // 2·2^-10 |L_ik||L_jk|, and the entry's at most 2^-9 Σ_k |L_ik||L_jk|
  // ≤ 2^-9 √(A_ii A_jj) (Cauchy–Schwarz, with Σ_k L_ik² = A_ii). Over all entries the
  // Frobenius norm of that bound is 2^-9 Σ_i A_ii, and the trace is at most √n ‖A‖_F.
  // Hence the bound 2^-9 √n, plus FP32's 4 n ε for the panels and the accumulation.
  // It grows with √n, not n: at n = 1025 it is 0.06, where a bound 4 n·2^-10 would be
  // 4.0 and let an all-zero factor (residual 1) pass. Measured residuals are a thousand
  // times smaller (about 10^-6): the rounding errors have random signs.
  inline double tf32_factor_tolerance(int n)
  {
    return std::ldexp(1.0, -9) * std::sqrt(double(n)) + lab::tolerance<float>(4, n);
  }
} // namespace step2
