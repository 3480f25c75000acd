#pragma once
// @sect3{What an iterative method reports}
//
// The direct methods finish in a known number of operations; an iterative one stops
// when its residual is small enough, or when it gives up. Both Gauss–Seidel and
// conjugate gradients say how far they got, in the same terms.

namespace step5
{
  struct IterationReport
  {
    int iterations = 0;           // sweeps (Gauss–Seidel) or iterations (CG) done
    double relative_residual = 0; // ‖b − A f‖ / ‖b‖ at the end
    bool converged = false;       // whether relative_residual ≤ the tolerance
  };
} // namespace step5
