// How a method is judged (see checks.h).
#include "report/checks.h"

#include "model/blur_model.h"
#include "model/fft_model.h"
#include "model/lambda_choice.h"

#include <lab/compare.h>

#include <cmath>
#include <cstdio>

namespace step5
{
  namespace
  {
    // η of @p f for @p equations, given g and b = Hᵀg.
    double backward_error_for(const Psf &psf, const lab::Matrix<double> &degraded, const lab::Matrix<double> &b,
                              double lambda, const lab::Matrix<double> &f, Equations equations)
    {
      switch (equations)
        {
        case Equations::normal:
          return normal_backward_error(psf, b, lambda, f);
        case Equations::thesis:
          return backward_error_of(psf, b, blur(psf, blur_transpose(psf, f)), lambda, f);
        case Equations::periodic:
          return periodic_backward_error(psf, degraded, lambda, f);
        case Equations::mirrored:
          break;
        }
      return periodic_backward_error(psf, mirrored(degraded), lambda, f);
    }
  } // namespace

  double backward_error(const Psf &psf, const lab::Matrix<double> &degraded, double lambda,
                        const lab::Matrix<double> &f, Equations equations)
  {
    // b = Hᵀg is the right-hand side of the normal and the thesis' equations only; the
    // FFT's equations (periodic, mirrored) are checked against g itself.
    const bool needs_b = equations == Equations::normal || equations == Equations::thesis;
    return backward_error_for(psf, degraded, needs_b ? blur_transpose(psf, degraded) : lab::Matrix<double>(), lambda,
                              f, equations);
  }

  double normal_backward_error(const Psf &psf, const lab::Matrix<double> &b, double lambda,
                               const lab::Matrix<double> &f)
  {
    return backward_error_of(psf, b, blur_transpose(psf, blur(psf, f)), lambda, f);
  }

  void measure_backward_errors(const Psf &psf, const lab::Matrix<double> &degraded, const lab::Matrix<double> &b,
                               double lambda, std::vector<MethodResult> &results)
  {
    for (MethodResult &result : results)
      if (result.failure.empty() && result.equations != Equations::mirrored)
        result.backward_error =
          lab::nan_max(result.worst_run_backward_error,
                       backward_error_for(psf, degraded, b, lambda, result.image, result.equations));
  }

  double direct_tolerance(int n, double unit_roundoff) { return 10 * std::sqrt(double(n)) * unit_roundoff; }

  double inverse_tolerance(int n, double unit_roundoff, const Psf &psf, double lambda)
  {
    const double norm = absolute_sum(psf) * absolute_sum(psf);
    const double condition = lambda > 0 ? (norm + lambda) / lambda : 1e12;
    return direct_tolerance(n, unit_roundoff) + condition * unit_roundoff;
  }

  Tolerances tolerances(int n, double unit_roundoff, const Psf &psf, double lambda)
  {
    return {direct_tolerance(n, unit_roundoff), inverse_tolerance(n, unit_roundoff, psf, lambda)};
  }

  std::string check_method(const MethodResult &m, const Tolerances &tolerances, const std::string &label,
                           lab::Checks &checks)
  {
    char text[128];
    const std::string what = label + " " + m.name;
    if (!m.failure.empty())
      {
        checks.fail(what, m.failure);
        return "FAIL: " + m.failure;
      }
    // An iterative method: what it reports, and η from its image. η ≤ ‖b − A f‖/‖b‖,
    // so a method that truly reached its tolerance passes both; one whose image does
    // not solve the equations fails the second, whatever it reports.
    if (m.kind == MethodKind::iterative)
      {
        const bool reported = checks.at_most(what + " relative residual", m.iterations.relative_residual, m.tolerance);
        const bool solved = checks.at_most(what + " backward error", m.backward_error, m.tolerance);
        std::snprintf(text, sizeof text, "residual %.1e, eta %.1e <= %.1e %s after %d iterations",
                      m.iterations.relative_residual, m.backward_error, m.tolerance,
                      reported && solved ? "ok" : "FAIL", m.iterations.iterations);
        return text;
      }
    // A direct method or a filter: η for its own equations, within the tolerance of a
    // backward stable solve (a filter's three FFTs are), the explicit inverse's where
    // it went through A⁻¹, or the method's own (TF32).
    const bool inverse_route = m.stages.invert > 0;
    const double tolerance = m.tolerance > 0 ? m.tolerance : inverse_route ? tolerances.inverse : tolerances.direct;
    const bool ok = checks.at_most(what + " backward error", m.backward_error, tolerance);
    const char *model = m.equations == Equations::thesis     ? " (HH^T + lambda I)"
                        : m.equations == Equations::periodic ? " (periodic model)"
                        : m.equations == Equations::mirrored ? " (mirrored model)"
                                                             : "";
    std::snprintf(text, sizeof text, "eta%s %.1e <= %.1e %s", model, m.backward_error, tolerance, ok ? "ok" : "FAIL");
    return text;
  }
} // namespace step5
