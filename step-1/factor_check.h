// @sect3{The check of a factor}
//
// Every factor of this step, the CPU's and the GPU thread's, of the sweep's matrices
// and of a matrix of your own, is judged the same way: the residual
// @f$\|LL^T - A\|_F / \|A\|_F@f$ computed in double from what the factorisation wrote
// (lab::cholesky_residual), at most @f$c\,n\varepsilon@f$ with c = 4. The classical
// backward error bound of the Cholesky factorisation is a small multiple of
// @f$n\varepsilon\|A\|@f$; in practice the residual stays far below it. A factor with
// an entry never written (NaN) has a NaN residual, and NaN never passes
// (lab::Checks). The tests feed this check wrong factors and see it say FAIL
// (tests/cholesky_cpu_test.cpp, "planted: ...").
#pragma once

#include <lab/checks.h>
#include <lab/matrix.h>
#include <lab/residuals.h>

#include <string>

namespace step1
{
  constexpr double residual_constant = 4;

  template <typename T>
  double residual_tolerance(int n)
  {
    return lab::tolerance<T>(residual_constant, n);
  }

  // The residual of one factor and whether it passed.
  struct FactorCheck
  {
    double residual;
    bool passed;
  };

  // Checks @p factor of @p a and records the verdict in @p checks under @p what.
  template <typename T>
  FactorCheck check_factor(lab::Checks &checks, const std::string &what, const lab::Matrix<T> &a,
                           const lab::Matrix<T> &factor)
  {
    const double residual = lab::cholesky_residual(a, factor);
    return {residual, checks.at_most(what, residual, residual_tolerance<T>(a.rows()))};
  }
} // namespace step1
