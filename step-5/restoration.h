#pragma once
// @sect3{Every method on one degraded image}
//
// The program restores each degraded image with every method of the step and
// compares them; this is the one place that knows the list. Each method gives back
// its image, its time (and the dense ones their stages), and how well it solved the
// equations: the backward error of the normal equations,
// @f[ \eta = \frac{\|b - A f\|}{\|A\|\,\|f\| + \|b\|}, \qquad A = H^TH + \lambda I,\ b = H^Tg, @f]
// computed on the CPU in double from the model (blur_model.h), with ‖A‖ bounded by
// ‖p‖₁² + λ, for every method, never taken from what a method says about itself;
// the iterative ones also report the relative residual they reached, which is checked
// beside η. The thesis' formula and the FFT filters solve other equations, and η is
// that of their own: (HHᵀ + λI) f = Hᵀg, and the periodic model of fft_model.h. That
// checks that each solved what it meant to solve; the PSNR tells what solving the
// wrong equations costs.

#include "band_pipeline.h"
#include "dense_pipeline.h"
#include "iteration_report.h"
#include "psf.h"
#include "sparse_cholesky.h"

#include <lab/cublas_gemm.h>
#include <lab/matrix.h>

#include <string>
#include <vector>

namespace step5
{
  // What to run.
  struct RestoreOptions
  {
    double lambda = 1e-3;
    int reps = 1;              // timed runs of each fast method (median); the dense ones: see dense_reps
    int dense_reps = 1;        // timed runs of each dense pipeline (they take seconds at 256²)
    bool dense = true;         // whether the dense pipelines run (they need n² memory)
    int band_reps = 1;         // timed runs of the band pipeline (seconds at 1024²)
    bool band = true;          // whether the band pipeline runs (it needs n·(b + 3nb) memory)
    bool thesis_formula = false; // also the thesis' formula (on cuSOLVER)
    bool tf32 = false;         // in float: the TF32 pipeline (on its own H and A, tf32_pipeline_bytes more)
    bool irs = false;          // with it: cuSOLVER's IRS solver (step-2's CusolverMixedPrecision)
    bool cg = true;            // conjugate gradients, matrix-free
    bool fft = true;           // the two FFT filters
    bool gauss_seidel = true;  // Gauss–Seidel on the CPU (slow: small images only)
    double gauss_seidel_tolerance = 1e-4; // its stopping tolerance on the relative residual
    int gauss_seidel_sweeps = 2000;       // and the most sweeps it may take
    bool sparse_cholesky = false; // CHOLMOD's sparse Cholesky on the CPU (where have_cholmod())
    bool use_gpu = true;
  };

  // The equations a method solves, against which its η is computed.
  enum class Equations
  {
    normal,   // (HᵀH + λI) f = Hᵀg: the direct and iterative methods
    thesis,   // (HHᵀ + λI) f = Hᵀg: the thesis' formula
    periodic, // the periodic model on the image: the periodic FFT filter
    mirrored  // the periodic model on the mirrored extension: the mirrored FFT filter
  };

  struct MethodResult
  {
    std::string name;          // e.g. "dense_course_solve": also the image's file name
    std::string description;   // one line for the console
    lab::Matrix<double> image;
    double milliseconds = 0;   // the whole method, from g on the GPU to f on the GPU
    DenseTimes stages;         // the dense and band pipelines' stages
    bool has_stages = false;
    SparseCholeskyReport sparse; // the sparse Cholesky's stages and what it found
    bool has_sparse_stages = false;
    Equations equations = Equations::normal;
    double backward_error = 0; // η above, for the method's own equations
    IterationReport iterations; // CG and Gauss–Seidel
    bool iterative = false;
    double tolerance = 0;      // the iterative methods' stopping tolerance, or a direct
                               // method's own bound on η (TF32); 0: the precision's
    std::string failure;       // empty, or why the method did not produce an image
  };

  // The tolerances of the checks: how small η must be for a direct method, in the
  // precision's unit roundoff u: 10·√n·u for the solves (Cholesky is backward stable
  // with a constant growing like n, in practice like √n), plus κ·u for the explicit
  // inverse, whose error grows with A's condition number κ ≤ (‖p‖₁² + λ)/λ.
  double direct_tolerance(int n, double unit_roundoff);
  double inverse_tolerance(int n, double unit_roundoff, const Psf &psf, double lambda);

  // The GPU memory the TF32 pipeline needs beside H and A (a dense pipeline without the
  // inverse route), for n pixels.
  double tf32_pipeline_bytes(int n);

  // The iterative methods' stopping tolerance on the relative residual.
  template <typename T>
  double iterative_tolerance();

  // Restores @p degraded (a rows × cols image, values as recorded) with every method
  // the options allow, in precision T; Gauss–Seidel and the sparse Cholesky in double
  // on the CPU.
  template <typename T>
  std::vector<MethodResult> restore_with_every_method(const Psf &psf, const lab::Matrix<double> &degraded,
                                                      const RestoreOptions &options, lab::Cublas *cublas);

  // η of @p f for @p equations of @p psf, @p degraded and λ, as the checks compute it;
  // for Equations::mirrored, @p f is the filter's whole result on the extension
  // (FftFilter::extended_result).
  double backward_error(const Psf &psf, const lab::Matrix<double> &degraded, double lambda,
                        const lab::Matrix<double> &f, Equations equations = Equations::normal);
} // namespace step5
