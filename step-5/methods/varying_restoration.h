#pragma once
// @sect3{Every method on one image blurred by a PSF field}
//
// The list of restoration.h for a PSF field (psf_field.h), in three groups:
//  - the methods that take H as it is and solve the field's own equations
//    (HᵀH + λI) f = Hᵀg: the dense pipeline on step-4's kernels and the vendor's, the
//    band pipeline, conjugate gradients, and on the CPU CHOLMOD and Gauss–Seidel;
//  - what the FFT can do instead (piecewise_fft.h): the filter with the field's mean
//    PSF, and the piecewise FFT of R × R regions, both on the mirrored extension;
//  - the band pipeline and CG once more, on the invariant blur of the mean PSF (same
//    picture, same band): their times are what the field's methods cost against the
//    invariant blur at the same size and support, and their PSNR what solving the
//    equations exactly, but of the wrong blur, gives.
// Each method's η is that of the equations it solves (report/checks.h): the field's
// for the first group, the mean PSF's for the last, and for the FFT filters their own
// model on the mirrored extension (the piecewise FFT's: the worst of its regions'
// filters, each against its region's PSF).

#include "methods/method_result.h"
#include "methods/method_runs.h"
#include "methods/restoration.h"
#include "model/psf_field.h"

#include <lab/cublas_gemm.h>
#include <lab/matrix.h>

#include <string>
#include <vector>

namespace step5
{
  // What to run: restoration.h's options (fft: the two FFT approximations; the TF32,
  // IRS and thesis pipelines are the invariant blur's and stay off) and the piecewise
  // FFT's regions.
  struct VaryingOptions : RestoreOptions
  {
    int regions = 4; // the piecewise FFT's R
  };

  // The methods' names, in the order they run and of the table's columns
  // (report/varying_table.h).
  const std::vector<std::string> &varying_method_names();

  // Restores @p degraded with every method the options allow, in precision T (the CPU
  // methods in double), each result's η measured: @p field as described (its picture
  // sets the band), @p sampled its table for the image's size, @p problem the field's
  // problem on the device (made once for the image, and already used to choose λ:
  // exact_lambda.h), which the GPU methods need when options.use_gpu (without it, or
  // without @p cublas, they throw std::invalid_argument).
  template <typename T>
  std::vector<MethodResult> restore_with_field(const PsfField &field, const SampledField &sampled,
                                               const lab::Matrix<double> &degraded, const VaryingOptions &options,
                                               DeviceProblem<T> *problem, lab::Cublas *cublas);
} // namespace step5
