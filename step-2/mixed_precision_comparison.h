#pragma once
// @sect3{Variant 6 against cuSOLVER: solving A x = b in mixed precision}
//
// Time to solution for one right-hand side in T (float or double), three ways, each
// the median of `reps` runs: cuSOLVER's potrf + potrs in T (LOWER, the factor as potrf
// left it), cuSOLVER's own mixed-precision solver (cusolver_mixed_precision.h) with
// TF32 as its lowest precision, and variant 6 (A rounded to float for the factor, the
// TF32 factorisation, the refinement rounds in T); and the TF32 factorisation alone,
// with its residual against A. The vendor's solver offers four refinement methods;
// each is timed and the fastest kept, so that the yardstick is the vendor at its best
// in this run and on this matrix. The backward errors ‖b − A x‖/(‖A‖_F ‖x‖) are
// computed in double on the host. The checks: variant 6's error below √n ε, LAPACK's
// test for a solve in T (`dsposv`); cuSOLVER's IRS below what LAPACK's infinity-norm
// test guarantees in this measure, n^1.5 ε (irs_error_bound); the page compares both
// with potrs's. cuSOLVER's handle and workspace are the caller's, the ones its potrf line
// used.

#include "cusolver_cholesky.h"
#include "gpu_timing.h"
#include "size_result.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>

#include <string>

namespace step2
{
  // Runs the three on @p device's matrix, prints one line and records the checks
  // under @p context.
  template <typename T>
  MixedPrecisionComparison run_mixed_precision(DeviceMatrix<T> &device, CusolverCholesky<T> &cusolver, int reps,
                                               lab::Cublas &cublas, int panel_width, lab::Checks &checks,
                                               const std::string &context);
} // namespace step2
