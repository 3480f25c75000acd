#pragma once
// @sect3{Variant 6: mixed precision, and a solve brought back to full accuracy}
//
// On an H100 or H200 the tensor cores multiply TF32 numbers (FP32's exponent, 10 bits
// of mantissa instead of 23) several times faster than the FP32 units multiply FP32
// ones. A factorisation whose products all run in TF32 (the fastest FP32
// factorisation, variant 8 (8_base_block_in_registers.cuh), with a TF32 product as
// CholeskyArgs::gemm, which then serves the trailing update and the panels alike; only
// the base blocks of 128 rows, factorised in registers, stay in FP32) is
// correspondingly faster, and less accurate: each product rounds its inputs
// to 11 significant bits, ε_TF32 = 2^-10 ≈ 10^-3 where FP32 has 2^-23 ≈ 1.2·10^-7.
// How much of that reaches the factor depends on the matrix (the results page shows
// it for the test matrices).
//
// The panels' products are on the chain of the factorisation, which at n = 16384 is
// nearly all of its time once the update runs in TF32: in TF32 they took the factor
// from 22.9 to 15.9 ms there (H200), for a factor 30 times less accurate (residual
// 1·10^-5 instead of 4·10^-7), which the refinement repairs: in float in as many
// rounds from n = 4096 on and at most one more below, in double in one to three
// more (the results page).
//
// For solving A x = b that loss can be repaired, cheaply. Iterative refinement, with
// x = 0 and r = b to start:
//  1. solve L Lᵀ d = r with the inexact factor, and set x = x + d (the first time,
//     this is the plain solve);
//  2. r = b − A x, in the working precision with the original A (a matrix-vector
//     product, n² flops);
//  3. stop when ‖r‖ no longer halves from one round to the next: what is left is then
//     the rounding in computing r itself;
//  4. otherwise go to 1: one more round.
// LAPACK's `dsposv` stops earlier, as soon as ‖r‖ ≤ √n ε ‖A‖_F ‖x‖ (ε of the working
// precision). That bound is loose: at n = 16384 in float it is 1.5·10^-5 in the
// backward error ‖r‖/(‖A‖_F ‖x‖), where spotrs reaches 1.6·10^-10, and the TF32
// factor's first solution meets it at every size tested. Stopping there would be
// faster and tens to hundreds of times less accurate than the solve it is compared
// with (the tests see 50 to 260 times at n ≤ 1025); going on until the rounds stall
// gives potrs's accuracy (the results page compares the two errors).
// Each round costs two triangular solves and a product with A, O(n²) against the
// factorisation's n³/3. Each multiplies the error by about κ(A)·u_factor, so for a
// matrix that is not too badly conditioned (here κ = 10³, and the TF32 factor's
// residual about 10^-7 to 10^-6) a few rounds reach the accuracy of a factorisation in
// the working precision. For κ(A)·u_factor ≳ 1 the refinement no longer converges:
// the solver stops when the rounds stall, or after `max_rounds`, and `converged()`
// says whether LAPACK's test was met.
//
// The working precision T is float or double; the factor is float in both.
// - T = float: A x = b in FP32, refined from a TF32 factor: variant 6 as it began.
// - T = double: A x = b in FP64 from a float factor of A rounded to float, as LAPACK's
//   `dsposv` does it (there with an FP32 factor). On an H200 an FP32 factor does not
//   pay: the FP64 tensor cores run dpotrf at 40 TFLOP/s, the FP32 units variant 8 at
//   about 31. A TF32 factor does, if the rounds that bring its ~10^-7 to double's
//   ~10^-16 cost less than the difference; the results page measures whether they do.
//   Each round rounds r to float for the solve and adds d to x in double, and the
//   residual is DSYMV's, on the double A.
// If the refinement does not converge, LAPACK factorises again in double; this
// solver reports it (`converged()`) and leaves that choice to its caller. The same
// holds for a double A with entries beyond float's range: rounded to float they are
// infinite, the factor or the residual is not a number, and the rounds stop there
// with `converged()` false (LAPACK checks for that before it factorises). x is the
// last round's, which after rounds that stall is not always the best of them.
//
// The triangular solves are cuSOLVER's potrs with our factor: the comparison with
// potrf + potrs is then between the factorisations and the rounds, nothing else.

#include "../cholesky_variants.h"
#include "../cusolver_cholesky.h"

#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/residuals.h>

#include <cmath>

namespace step2
{
  // cuBLAS's symmetric matrix times a vector, y = α A x + β y, for both precisions: the
  // residual's product (tools/vendor-configurations times the same call).
  inline cublasStatus_t symv(cublasHandle_t h, cublasFillMode_t fill, int n, const float *alpha, const float *a,
                             int ld, const float *x, const float *beta, float *y)
  {
    return cublasSsymv(h, fill, n, alpha, a, ld, x, 1, beta, y, 1);
  }
  inline cublasStatus_t symv(cublasHandle_t h, cublasFillMode_t fill, int n, const double *alpha, const double *a,
                             int ld, const double *x, const double *beta, double *y)
  {
    return cublasDsymv(h, fill, n, alpha, a, ld, x, 1, beta, y, 1);
  }

  template <typename T>
  class MixedPrecisionSolve
  {
  public:
    // Its name among the variants (`--variant 6` picks it). It is not in the list
    // `variants<T>()`: the list holds factorisations, this is a solve.
    static constexpr const char *name = "6_mixed_precision_solve";
    // LAPACK's `dsposv` allows 30 (ITERMAX); the halving test stops far earlier
    // wherever the refinement converges.
    static constexpr int max_rounds = 30;
    // What the caller stores of the symmetric A: its lower triangle by rows (step-5
    // computes no more), or the whole matrix (step-2 does).
    enum class Stored
    {
      lower_triangle,
      whole
    };
    // The fill mode of the residual's SYMV. cuBLAS reads by columns, so A's lower
    // triangle by rows is its UPPER one, and its LOWER one is our upper triangle.
    // tools/vendor-configurations times both on a matrix stored whole (H200, the
    // committed results/nvidia-h200/vendor_configurations.txt): SSYMV LOWER is within 2%
    // of UPPER up to n = 16384 (UPPER the faster there) and 1.53 times faster at 32768
    // (1.55 against 2.36 ms); DSYMV LOWER is within 3% of UPPER at 8192 and 1.88 times
    // faster at 16384 (0.53 against 0.99 ms), 1.82 times at 32768. So where A is stored
    // whole, which triangle to read is free and the residual reads LOWER, the fastest
    // or within 3% of it at every size; where only the lower triangle
    // exists it must read UPPER and pays for it (a symmetric product of the course's
    // own that reads the lower triangle by rows at memory speed would not: not written
    // yet, the results page lists it).
    static constexpr cublasFillMode_t residual_fill_mode(Stored stored)
    {
      return stored == Stored::whole ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    }

    // For n×n matrices with leading dimension ld. @p gemm is every product of the (float)
    // factorisation, the trailing update's and the panels'; left empty, cuBLAS's in TF32.
    // (Step-5 passes step-4's step4::gemm_tf32.) cuBLAS also computes the residuals and
    // the norms.
    MixedPrecisionSolve(int n, int ld, int panel_width, lab::Cublas &cublas, Stored stored,
                        const lab::Gemm<float> &gemm = {});

    // x = A^{-1} b (device vectors of n entries); of A only what the constructor was
    // told is stored is read (the factorisation reads the lower triangle), and A
    // (device) is not changed. Returns LAPACK's info of the float factorisation: 0,
    // or the failing column + 1 (x is then not computed; in double, a matrix positive
    // definite in double can fail once rounded to float). Waits for the GPU between
    // rounds (the host decides whether to go on).
    int solve(const T *a, const T *b, T *x, cudaStream_t stream = nullptr);

    // The factorisation alone, of A rounded to float, into factor() (for its time and
    // residual).
    void factorize(const T *a, cudaStream_t stream = nullptr);
    const lab::DeviceBuffer<float> &factor() const { return factor_; }

    // Correction rounds of the last solve: the corrections added after the first
    // solution, the last of them the one that no longer halved the residual (so 1
    // means one correction that did not help); and whether it ended below
    // √n ε ‖A‖_F ‖x‖, ε of T.
    int rounds() const { return rounds_; }
    bool converged() const { return converged_; }

  private:
    int n_, ld_;
    cublasFillMode_t residual_fill_;
    lab::Cublas &cublas_;
    CusolverCholesky<float> potrs_;
    CholeskyArgs<float> args_;
    lab::DeviceBuffer<float> factor_, workspace_, correction_;
    lab::DeviceBuffer<T> residual_;
    lab::DeviceBuffer<double> norm_;
    lab::DeviceBuffer<int> info_;
    int rounds_ = 0;
    bool converged_ = false;
  };

  // @sect3{How accurate the TF32 factor is}
  //
  // The factor's residual ‖L Lᵀ − A‖_F / ‖A‖_F cannot meet FP32's bound c·n·ε: the
  // products round their inputs to TF32. How far from it may a correct factor be?
  //
  // The trailing update. Entry (i, j) of L Lᵀ is Σ_k L_ik L_jk, and the update computes
  // those products with each factor rounded to 11 significant bits (a relative error
  // of 2^-11, or 2^-10 where the hardware drops the extra bits): a product's error is
  // at most 2·2^-10 |L_ik||L_jk|, and the entry's at most 2^-9 Σ_k |L_ik||L_jk|
  // ≤ 2^-9 √(A_ii A_jj) (Cauchy–Schwarz, with Σ_k L_ik² = A_ii). Over all entries the
  // Frobenius norm of that bound is 2^-9 Σ_i A_ii, and the trace is at most √n ‖A‖_F:
  // a bound 2^-9 √n. It grows with √n, not n: at n = 1025 it is 0.06, where 4 n·2^-10
  // would be 4.0 and let an all-zero factor (residual 1) pass.
  //
  // The panels. Below each diagonal block the factor is L21 = A21 X11ᵀ, with X11 = L11^{-1}
  // (the course's panel solve), and that product is TF32 too. Its error E (entries up
  // to 2^-9 Σ_m |A21(i, m)||X11(k, m)|) reaches L Lᵀ as E L11ᵀ, and through X11 the
  // diagonal block's condition enters: ‖X11‖₂ ‖L11‖₂ = κ(L11) ≤ √κ(A), since the block
  // being factorised belongs to a Schur complement of A, whose eigenvalues lie between
  // A's. Taken with random signs (a worst case would add a factor √n_b from
  // ‖X11‖_F ≤ √n_b ‖X11‖₂, and sum over the panels), that is about 2^-9 √κ(A): an
  // estimate, not a bound.
  //
  // Hence the tolerance 2^-9 (√n + √κ(A)), plus FP32's 4 n ε for the base blocks and
  // the accumulation; below 0.13 at every size the tests use (κ = 10³). Measured
  // residuals are far smaller, because the rounding errors have random signs: about
  // 10^-6 with the panels' products in FP32, 1–5·10^-5 with them in TF32 (n from 257
  // to 32768, H200).
  inline double tf32_factor_tolerance(int n, double condition)
  {
    return std::ldexp(1.0, -9) * (std::sqrt(double(n)) + std::sqrt(condition)) + lab::tolerance<float>(4, n);
  }
} // namespace step2
