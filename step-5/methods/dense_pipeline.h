#pragma once
// @sect3{The dense pipeline: the thesis' method, stage by stage}
//
// The thesis restores an image by treating H as what it is in the model, an n × n
// matrix, and by solving the regularised normal equations with dense linear algebra:
// @f[ (H^TH + \lambda I)\, f = H^T g. @f]
// Every stage is one of the earlier steps of the course:
//  1. build H from the PSF (blur_gpu.h);
//  2. form A = HᵀH + λI, a symmetric product of which only the lower triangle is
//     needed (gram_matrix.h: step-4's kernels, or cuBLAS), and the right-hand side
//     b = Hᵀg, a product with one column;
//  3. factorise A = L Lᵀ with step-2's variant 10 (by halves: pipeline_stages.h), its products
//     through the same lab::Gemm;
// and then one of two routes to f:
//  (a) the thesis' route: X = L⁻¹ by step-3's best triangular inverse (recursive),
//      A⁻¹ = XᵀX by a triangular product (step-3's SPD inverse), f = A⁻¹ b;
//  (b) two triangular solves by step-3's blocked substitution: L y = b, Lᵀ f = y.
// Route (b) does 2n² flops after the factorisation where route (a) does about
// 4n³/3 (n³/3 for the inverse, n³ for XᵀX) before it can even start on b, and the
// explicit inverse loses accuracy: its error grows with A's condition number times
// the rounding unit, where the solves are backward stable (the docs page shows both).
//
// The products are a parameter, so that the same code runs on step-4's kernels and on
// cuBLAS's: the difference between the two runs is the cost of the course's own
// products. A third run is the vendor's pipeline, cuBLAS for the products (SYRK for
// A) and cuSOLVER's potrf and potrs. Each stage is timed by CUDA events on the stream.
//
// A colour picture's three channels share H, so they share A and its factor: a
// pipeline made for k channels forms A and its right-hand sides B = Hᵀ[g₁ … g_k] once
// (one product each: channel_layout.h), factorises A once, and solves for the
// channels one after another (channels_together.h says what that saves, and why one
// after another).

#include "gpu/blur_gpu.h"
#include "methods/pipeline_stages.h"

#include <cusolver_cholesky.h> // step-2: cuSOLVER's potrf and potrs

#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/gemm.h>

#include <cstddef>
#include <functional>

namespace step5
{
  template <typename T>
  class DensePipeline
  {
  public:
    // Allocates everything for rows × cols images of @p channels channels: H, A and
    // (with the inverse route) X, n² numbers each, and the workspaces of the
    // factorisation, the inverse and the solves. Nothing is allocated while a stage
    // runs.
    DensePipeline(int rows, int cols, bool with_inverse, int channels = 1);

    // The GPU memory the constructor takes (and cuSOLVER's workspace, roughly).
    static double device_bytes(int rows, int cols, bool with_inverse, int channels = 1);

    // The course's pipeline on the products @p gemm: f_solve by route (b) and, when
    // the pipeline has the inverse route, f_inverse by route (a) (else ignored).
    // g, f_solve, f_inverse: images on the device, the pipeline's channels one after
    // another, as for the vendor's runs below. The two runs with a solver of their own
    // solve one channel (their solvers take one right-hand side).
    StageTimes run(const DevicePsf<T> &psf, T lambda, const T *g, const lab::Gemm<T> &gemm, T *f_solve,
                   T *f_inverse);

    // A pipeline whose factorisation and solves are one call: A and b by the products
    // @p gemm, then f = A⁻¹ b by @p solve_system(A, b, f), which reads A's lower
    // triangle and returns LAPACK's info (0, or the failing column + 1). Step-5 uses it
    // for TF32: A and b by step4::gemm_tf32 and step-2's mixed-precision solve, whose
    // refinement brings f to FP32 accuracy for that A. Its time counts as the
    // factorisation's (times.factor); times.solve stays 0.
    StageTimes run_with_solver(const DevicePsf<T> &psf, T lambda, const T *g, const lab::Gemm<T> &gemm,
                               const std::function<int(const T *, const T *, T *)> &solve_system, T *f);

    // The vendor's pipeline with cuSOLVER's mixed-precision solver in place of potrf
    // and potrs (step-2's CusolverMixedPrecision, beside the TF32 pipeline above): A
    // and b the vendor's way, A then completed to the whole symmetric matrix (an LU
    // solver reads all of it), then f = A⁻¹ b by @p solve_system(A, b, f), which may
    // overwrite A and returns LAPACK's info. Its time, the completion included, counts
    // as the factorisation's.
    StageTimes run_vendor_with_solver(const DevicePsf<T> &psf, T lambda, const T *g, lab::Cublas &cublas,
                                      const std::function<int(T *, const T *, T *)> &solve_system, T *f);

    // The vendor's pipeline, the way the vendor runs fastest: H stored for SYRK's
    // faster transposition, A by cuBLAS's SYRK (gram_matrix.h), b by its GEMM, then
    // cuSOLVER's potrf and potrs with LOWER (times in build, normal, factor, solve).
    StageTimes run_vendor(const DevicePsf<T> &psf, T lambda, const T *g, lab::Cublas &cublas, T *f)
    {
      return solve_by_vendor(psf, lambda, g, cublas, f, false);
    }

    // The thesis' formula, f = (HHᵀ + λI)⁻¹ Hᵀ g, on the vendor's routines: the same
    // as the right one only when HᵀH = HHᵀ. For the comparison of quality only.
    StageTimes run_thesis_formula(const DevicePsf<T> &psf, T lambda, const T *g, lab::Cublas &cublas, T *f)
    {
      return solve_by_vendor(psf, lambda, g, cublas, f, true);
    }

  private:
    // Refuses (std::logic_error) a run of one channel on a pipeline made for more.
    void require_one_channel() const;
    // Stages 1 and 2 with the given products: H by rows and A's lower triangle by the
    // recursion of gram_matrix.h on them or, given @p vendor, the vendor's way (H
    // stored as SYRK runs fastest, A by cuBLAS's SYRK: gram_matrix.h); A = HHᵀ + λI
    // instead when @p thesis. B = Hᵀ G, the channels as its columns (n × k by rows).
    void form_system(const DevicePsf<T> &psf, T lambda, const T *g, const lab::Gemm<T> &gemm, lab::Cublas *vendor,
                     bool thesis, StageTimes &times);
    // potrf and potrs on the system of the right formula or of the thesis' one.
    StageTimes solve_by_vendor(const DevicePsf<T> &psf, T lambda, const T *g, lab::Cublas &cublas, T *f,
                               bool thesis);
    // Reads the factorisation's info (a synchronisation, after the stage's events).
    int failed_column() const;

    int rows_, cols_, n_, channels_;
    bool with_inverse_;
    // b_: B, n × k by rows; solution_: the inverse route's F = A⁻¹B in the same
    // layout, before it goes to the caller's f channel by channel.
    lab::DeviceBuffer<T> h_, a_, x_, b_, solution_;
    lab::DeviceBuffer<T> cholesky_workspace_, inverse_workspace_, solve_workspace_;
    lab::DeviceBuffer<int> info_;
    step2::CusolverCholesky<T> cusolver_;
  };
} // namespace step5
