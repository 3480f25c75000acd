#pragma once
// @sect3{Gauss–Seidel, the iteration the thesis featured}
//
// Gauss–Seidel solves A f = b by sweeping over the unknowns in order and solving
// equation i for f_i with the newest values of all the others:
// @f[ f_i \leftarrow \Big(b_i - \sum_{j \ne i} A_{ij} f_j\Big) / A_{ii}. @f]
// For a symmetric positive definite A it always converges, but the error shrinks per
// sweep by a factor close to 1 when A is ill-conditioned, which a deblurring matrix
// with a small λ is. Here it runs on the CPU, over the normal matrix's stencil
// (blur_model.h): a sweep costs one pass over the stencils, and the sweep is
// sequential by nature (pixel i needs pixel i − 1's new value).

#include "methods/iteration_report.h"
#include "model/blur_model.h"

#include <lab/matrix.h>

namespace step5
{
  // Sweeps until ‖b − A f‖ ≤ tolerance · ‖b‖ or @p max_sweeps sweeps, starting from
  // the @p f given (f and b have the stencil's image size); f holds the result.
  IterationReport gauss_seidel(const NormalStencil &a, const lab::Matrix<double> &b,
                               lab::Matrix<double> &f, double tolerance, int max_sweeps);
} // namespace step5
