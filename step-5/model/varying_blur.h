#pragma once
// @sect3{The blur of a PSF field, on the CPU}
//
// The CPU reference of psf_field.h's model, in the forms blur_model.h gives the
// invariant blur: g = H f and Hᵀg pixel by pixel, H entry by entry, and
// A = HᵀH + λI as a stencil. Each is blur_model.h's loop with one change: the
// weights are those of the pixel of g in question, p_q, where they were the one PSF.
//
//  - H f: pixel q of g sums p_q(u, v) f(q_r − u + c_r, q_c − v + c_c);
//  - Hᵀ y: pixel i of the result collects what every pixel q of y sent it,
//    @f[ (H^Ty)(r, c) = \sum_{u, v} p_q(u, v)\, y(q), \quad q = (r + u - c_r,\; c + v - c_c), @f]
//    the correlation of blur_model.h, but each weight taken from the PSF of the pixel
//    q it is read at (and nothing from a q outside the image);
//  - A(i, j) = Σ_q H(q, i) H(q, j): pixel q of g, seeing pixels i and j of f with
//    weights p_q(·) each, adds their product. Which pixels q see both i and j depends
//    only on how far apart i and j are, not on the weights: A has exactly the
//    invariant blur's sparsity, the same stencil of (2p.rows − 1) × (2p.cols − 1)
//    offsets, and the same band b = (p.rows − 1)·C + p.cols − 1 (band_matrix.h). What
//    the field changes is the values: the stencil differs from pixel to pixel
//    everywhere, not just near the border.
//
// For a constant field (stride 0) every function here adds the same products in the
// same order as blur_model.h's, and gives its results bit for bit (the tests check).

#include "model/blur_model.h"
#include "model/psf_field.h"

#include <lab/matrix.h>

namespace step5
{
  // g = H f for the field (f of the field's image size).
  lab::Matrix<double> blur(const SampledField &field, const lab::Matrix<double> &image);

  // Hᵀ y for the field.
  lab::Matrix<double> blur_transpose(const SampledField &field, const lab::Matrix<double> &image);

  // The n × n matrix H of the field, row by row (n = the field's pixels).
  template <typename T>
  lab::Matrix<T> blur_matrix(const SampledField &field);

  // A = HᵀH + λI as a stencil, for the CPU methods (Gauss–Seidel, CHOLMOD).
  NormalStencil normal_matrix_stencil(const SampledField &field, double lambda);

  // A bound on ‖HᵀH‖₂: ‖H‖₁‖H‖∞, the largest column sum of |H| times the largest row
  // sum. For one PSF both are at most Σ|p|, the bound blur_model.h uses; for a field
  // they differ (a pixel of f may be seen by more weight than a pixel of g sees).
  double normal_matrix_norm_bound(const SampledField &field);

  // The backward error η of blur_model.h for the field's equations
  // (HᵀH + λI) f = b, f from its image.
  double backward_error_of(const SampledField &field, const lab::Matrix<double> &b, double lambda,
                           const lab::Matrix<double> &f);
} // namespace step5
