#pragma once
// @sect3{Variant 6 against cuSOLVER: solving A x = b in mixed precision}
//
// Time to solution for one right-hand side, three ways, each the median of `reps`
// runs: cuSOLVER's spotrf + spotrs (LOWER, the factor as potrf left it), cuSOLVER's
// own mixed-precision solver (cusolver_mixed_precision.h), and variant 6 (the copy of
// A it factorises, the TF32 factorisation, the refinement rounds); and the TF32
// factorisation alone, with its residual. The backward errors
// ‖b − A x‖/(‖A‖_F ‖x‖) are computed in double on the host. The check: each mixed
// solver's error below √n ε, LAPACK's test for an FP32 solve (`dsposv`); the page
// compares variant 6's with spotrs's. cuSOLVER's handle and workspace are the
// caller's, the ones its potrf line used.

#include "cusolver_cholesky.h"
#include "gpu_timing.h"
#include "size_result.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>

#include <string>

namespace step2
{
  // Runs the three on @p device's matrix (float only: variant 6 is), prints one line
  // and records the checks under @p context.
  MixedPrecisionComparison run_mixed_precision(DeviceMatrix<float> &device, CusolverCholesky<float> &cusolver,
                                               int reps, lab::Cublas &cublas, int panel_width,
                                               lab::Checks &checks, const std::string &context);
} // namespace step2
