#pragma once
// @sect3{How a method is judged}
//
// Every check of a method rests on one number, the backward error of the equations
// it solves,
// @f[ \eta = \frac{\|b - A f\|}{\|A\|\,\|f\| + \|b\|}, \qquad A = H^TH + \lambda I,\ b = H^Tg, @f]
// computed on the CPU in double from the model (blur_model.h), with ‖A‖ bounded by
// ‖p‖₁² + λ, for every method, never taken from what a method says about itself;
// the iterative ones also report the relative residual they reached, which is checked
// beside η. The thesis' formula and the FFT filters solve other equations, and η is
// that of their own: (HHᵀ + λI) f = Hᵀg, and the periodic model of fft_model.h. That
// checks that each solved what it meant to solve; the PSNR tells what solving the
// wrong equations costs.

#include "methods/method_result.h"
#include "model/psf.h"

#include <lab/checks.h>
#include <lab/matrix.h>

#include <string>
#include <vector>

namespace step5
{
  // η of @p f for @p equations of @p psf, @p degraded and λ, as the checks compute it;
  // for Equations::mirrored, @p f is the filter's whole result on the extension
  // (FftFilter::extended_result).
  double backward_error(const Psf &psf, const lab::Matrix<double> &degraded, double lambda,
                        const lab::Matrix<double> &f, Equations equations = Equations::normal);

  // η of @p f for the normal equations, given b = Hᵀg: what every timed run of a GPU
  // method that solves them is checked by (method_runs.h).
  double normal_backward_error(const Psf &psf, const lab::Matrix<double> &b, double lambda,
                               const lab::Matrix<double> &f);

  // Sets η of every result that has an image, for the equations its method solves,
  // given b = Hᵀg (computed once for all the methods of an image); the mirrored
  // filter's, which needs its whole extension, is set by the filter's run.
  void measure_backward_errors(const Psf &psf, const lab::Matrix<double> &degraded, const lab::Matrix<double> &b,
                               double lambda, std::vector<MethodResult> &results);

  // The tolerances a method's η is checked against.
  struct Tolerances
  {
    double direct;  // the solves
    double inverse; // the explicit inverse
  };

  // How small η must be for a direct method, in the precision's unit roundoff u:
  // 10·√n·u for the solves (Cholesky is backward stable with a constant growing like
  // n, in practice like √n), plus κ·u for the explicit inverse, whose error grows with
  // A's condition number κ ≤ (‖p‖₁² + λ)/λ.
  double direct_tolerance(int n, double unit_roundoff);
  double inverse_tolerance(int n, double unit_roundoff, const Psf &psf, double lambda);
  Tolerances tolerances(int n, double unit_roundoff, const Psf &psf, double lambda);

  // Checks one method's result, records the check in @p checks under @p label, and
  // returns the text of its console column: a failure's reason, or η (for the
  // equations the method solves) against its tolerance, beside the reported residual
  // and the iterations of an iterative method. NaN never passes.
  std::string check_method(const MethodResult &m, const Tolerances &tolerances, const std::string &label,
                           lab::Checks &checks);
} // namespace step5
