#pragma once
// @sect3{Every method on one degraded image}
//
// The program restores each degraded image with every method of the step and
// compares them; this is the one place that knows the list. Each method gives back
// its image, its time and what its kind reports (method_result.h); here too every
// image's backward error η is measured, on the CPU from the model, for the checks
// (report/checks.h).

#include "methods/method_result.h"
#include "model/psf.h"

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
    // Results made elsewhere for this image, taken as they are and reported with the
    // others: a colour picture's direct pipelines, which restore its channels together
    // (channels_together.h), for one of its channels. They come first, where the
    // dense pipelines would.
    std::vector<MethodResult> made_together;
  };

  // The GPU memory the TF32 pipeline needs beside H and A (a dense pipeline without the
  // inverse route), for n pixels.
  double tf32_pipeline_bytes(int n);

  // The iterative methods' stopping tolerance on the relative residual.
  template <typename T>
  double iterative_tolerance();

  template <typename T>
  struct DeviceProblem; // method_runs.h

  // Restores @p degraded (a rows × cols image, values as recorded) with every method
  // the options allow, in precision T; Gauss–Seidel and the sparse Cholesky in double
  // on the CPU. @p problem, where given, is the image already on the device (the one
  // λ's search used, image_lambda.h), so that it is not uploaded twice; else the GPU
  // methods make their own.
  template <typename T>
  std::vector<MethodResult> restore_with_every_method(const Psf &psf, const lab::Matrix<double> &degraded,
                                                      const RestoreOptions &options, lab::Cublas *cublas,
                                                      DeviceProblem<T> *problem = nullptr);
} // namespace step5
