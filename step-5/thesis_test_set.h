#pragma once
// @sect3{The thesis' test set}
//
// The thesis restored a 64 × 64 image blurred and sharpened, each without noise,
// with salt-and-pepper and with Gaussian noise, and gave the MSE of each result
// (its table 6.3). The same six cases here, and three more with a one-sided trail,
// which the thesis did not try: nine, in float with the course's dense pipeline
// (two solves) and with the thesis' own formula beside it, MSE and PSNR of the
// degraded and of the restored image. λ is the thesis' own 10⁻³ for every case by
// default, so that the table compares with its figures; --lambda's number where one
// is given; and with --lambda gcv or discrepancy GCV for each case (the discrepancy
// principle has nothing to measure without noise). Every method that runs is checked
// as in the sweep, by η computed on the host for the equations it solves
// (report/checks.h): the restored image must solve the normal equations, the thesis'
// formula its own, whatever the PSNR says.

#include "model/psf.h"
#include "settings.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>

namespace step5
{
  // The nine cases on a @p side × @p side phantom, @p blur_psf the blur of the first
  // three; one line each, their checks in @p checks, and the table test_set.dat.
  void run_test_set(const Settings &settings, const Psf &blur_psf, int side, lab::Checks &checks,
                    lab::Cublas *cublas);
} // namespace step5
