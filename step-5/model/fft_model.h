#pragma once
// @sect3{The FFT filters' own equations, on the CPU}
//
// The FFT filters (fft_filter.h) do not solve this step's equations, but they do
// solve equations of their own, exactly up to rounding, and are checked against those:
// the periodic filter solves the regularised normal equations of a periodic blur,
// @f[ (C^TC + \lambda I) f = C^T g, @f]
// with C the circular convolution by the PSF (pixels leaving one edge come back at the
// opposite one), and the mirrored filter solves the same equations on the 2R × 2C
// mirrored extension of g, of which it keeps the top-left R × C part. A PSF placed
// one pixel off, a wrong extension or a missing 1/(R·C) gives a large backward error
// (blur_model.h) against these equations, where a check for finite numbers saw
// nothing. These functions are that model, pixel by pixel.

#include "model/psf.h"

#include <lab/matrix.h>

namespace step5
{
  // C f: g(r, c) = Σ p(u, v) f((r − u + c_r) mod R, (c − v + c_c) mod C), the blur of
  // blur_model.h with wrap-around instead of a zero boundary.
  lab::Matrix<double> periodic_blur(const Psf &psf, const lab::Matrix<double> &image);

  // Cᵀ g: the correlation with the same PSF, with wrap-around.
  lab::Matrix<double> periodic_blur_transpose(const Psf &psf, const lab::Matrix<double> &image);

  // η of @p f for the periodic model's equations (CᵀC + λI) f = Cᵀ g (f and g of one
  // size: R × C for the periodic filter; for the mirrored one, the whole solution on
  // the extension and mirrored(g), lambda_choice.h).
  double periodic_backward_error(const Psf &psf, const lab::Matrix<double> &g, double lambda,
                                 const lab::Matrix<double> &f);
} // namespace step5
