#include "methods/gauss_seidel.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace step5
{
  namespace
  {
    double residual_norm(const NormalStencil &a, const lab::Matrix<double> &b, const lab::Matrix<double> &f)
    {
      double sum = 0;
      for (int r = 0; r < b.rows(); ++r)
        for (int c = 0; c < b.cols(); ++c)
          {
            const double residual = b(r, c) - apply_row(a, f, r, c);
            sum += residual * residual;
          }
      return std::sqrt(sum);
    }

    // @sect3{One sweep}
    //
    // Pixel by pixel, row by row (the order in which they are stacked into the
    // vector), equation i is made to hold exactly: its residual b_i − (A f)_i, taken
    // with the newest values of all the pixels, is divided by A_ii and added to f_i.
    // That is the update of gauss_seidel.h written as a correction, which spares
    // skipping the diagonal inside the loop. Pixels before i in the sweep already
    // have their new values, those after it their old ones.
    void sweep(const NormalStencil &a, const lab::Matrix<double> &b, lab::Matrix<double> &f)
    {
      // @exercise{gauss_seidel_sweep, 1}
      // One Gauss-Seidel sweep, in place: for every pixel (r, c) in row order, add to
      // f(r, c) its row's residual, b(r, c) - (A f) at (r, c) (`apply_row(a, f, r, c)`),
      // divided by the diagonal `a.at(r, c, 0, 0)`. The pixels before it in the sweep
      // are already new: that is what makes it Gauss-Seidel and not Jacobi.
      for (int r = 0; r < a.image_rows; ++r)
        for (int c = 0; c < a.image_cols; ++c)
          f(r, c) += (b(r, c) - apply_row(a, f, r, c)) / a.at(r, c, 0, 0);
      // @end-exercise
    }
  } // namespace

  // @sect3{Sweeping to a tolerance}
  //
  // The stopping test needs the true residual ‖b − A f‖, and computing it costs as
  // much as a sweep. Checking after every sweep would double the work, so the
  // residual is computed before the first sweep (the f given may already solve the
  // equations), then after every `sweeps_per_check` sweeps and after the last one
  // allowed: the iterations reported may exceed the least number that would have
  // done by up to `sweeps_per_check` − 1, a small price against a method that needs
  // hundreds of sweeps.
  //
  // A zero on A's diagonal (a pixel that no pixel of g sees, with λ = 0) makes the
  // method undefined: that is refused before the first sweep, not discovered as NaNs
  // in the result. A b of zeros has the solution f = 0, and no relative residual.
  IterationReport gauss_seidel(const NormalStencil &a, const lab::Matrix<double> &b, lab::Matrix<double> &f,
                               double tolerance, int max_sweeps)
  {
    constexpr int sweeps_per_check = 10;
    if (b.rows() != a.image_rows || b.cols() != a.image_cols || f.rows() != a.image_rows ||
        f.cols() != a.image_cols)
      throw std::invalid_argument("step5::gauss_seidel: b and f must be images of the stencil's size");
    for (int r = 0; r < a.image_rows; ++r)
      for (int c = 0; c < a.image_cols; ++c)
        if (!(a.at(r, c, 0, 0) > 0))
          throw std::runtime_error("Gauss-Seidel needs a positive diagonal, but A(i, i) = " +
                                   std::to_string(a.at(r, c, 0, 0)) + " at pixel (" + std::to_string(r) + ", " +
                                   std::to_string(c) + "): A is singular (take a lambda > 0)");

    IterationReport report;
    const double b_norm = norm(b);
    if (b_norm == 0)
      {
        f = lab::Matrix<double>(a.image_rows, a.image_cols);
        report.converged = true;
        return report;
      }
    report.relative_residual = residual_norm(a, b, f) / b_norm;
    while (report.relative_residual > tolerance && report.iterations < max_sweeps)
      {
        sweep(a, b, f);
        ++report.iterations;
        if (report.iterations % sweeps_per_check == 0 || report.iterations == max_sweeps)
          report.relative_residual = residual_norm(a, b, f) / b_norm;
      }
    report.converged = report.relative_residual <= tolerance;
    return report;
  }
} // namespace step5
