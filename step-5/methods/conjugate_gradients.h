#pragma once
// @sect3{Conjugate gradients, matrix-free}
//
// The dense pipeline stores A = HᵀH + λI, n² numbers, to use it n times over. But A
// is needed only as an operation: A v = Hᵀ(H v) + λ v is two small convolutions and
// a sum, 2·k² flops per pixel for a k × k PSF (blur_gpu.h), with nothing stored.
// Conjugate gradients needs exactly that. Each iteration applies A once, takes two
// dot products, and updates three vectors:
// @f[ q = A p,\quad \alpha = \frac{r^Tr}{p^Tq},\quad f \leftarrow f + \alpha p,\quad
//      r \leftarrow r - \alpha q,\quad \beta = \frac{r_{new}^Tr_{new}}{r^Tr},\quad p \leftarrow r + \beta p, @f]
// starting from f = 0, r = p = b = Hᵀg. In exact arithmetic it would finish in at
// most n steps; in practice the residual falls by about
// (√κ − 1)/(√κ + 1) per iteration, κ = A's condition number, which λ bounds:
// κ ≤ (‖p‖₁² + λ)/λ. With λ = 10⁻³ that is a few hundred iterations at most, each a
// handful of kernel launches over n pixels: milliseconds where the dense pipeline
// takes seconds, and no memory beyond six images.

#include "gpu/blur_gpu.h"
#include "methods/iteration_report.h"

#include <lab/device_buffer.h>

namespace step5
{
  // The most steps conjugate gradients is given on a rows × cols image: ten per
  // unknown, far beyond the n steps that would do in exact arithmetic, so that only a
  // solve that does not converge at all reaches it.
  inline int cg_iteration_limit(int rows, int cols) { return 10 * rows * cols; }

  template <typename T>
  class ConjugateGradients
  {
  public:
    // The work vectors for rows × cols images (allocated once, outside any timing).
    ConjugateGradients(int rows, int cols);

    // Solves (HᵀH + λI) f = Hᵀg from f = 0 until ‖b − A f‖ ≤ tolerance · ‖b‖ or
    // @p max_iterations; f (device) holds the result. The residual reported is
    // recomputed from f at the end, not the recurrence's (which drifts from the true
    // one in floating point).
    IterationReport solve(const DevicePsf<T> &psf, T lambda, const T *g, T *f, double tolerance,
                          int max_iterations);

  private:
    // q = A v = Hᵀ(H v) + λ v; returns vᵀq.
    double apply_normal_matrix(const DevicePsf<T> &psf, T lambda, const T *v, T *q);

    int rows_, cols_, n_;
    lab::DeviceBuffer<T> b_, r_, p_, q_, blurred_;
    lab::DeviceBuffer<double> dot_; // a dot product's sum, accumulated on the device
  };
} // namespace step5
