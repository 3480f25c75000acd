// Restoring at any λ, and the best λ in hindsight (see exact_restorer.h).
#include "exact_restorer.h"

#include "methods/conjugate_gradients.h"
#include "methods/restoration.h"
#include "methods/sparse_cholesky.h"
#include "model/blur_model.h"
#include "model/varying_blur.h"

#include <lab/image_quality.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace restore_benchmark
{
  struct ExactRestorer::Gpu
  {
    Gpu(const step5::SampledField &field, const lab::Matrix<double> &degraded)
      : problem(field, degraded), cg(degraded.rows(), degraded.cols())
    {}
    step5::DeviceProblem<float> problem;
    step5::ConjugateGradients<float> cg;
  };

  ExactRestorer::ExactRestorer(const step5::SampledField &field, const lab::Matrix<double> &degraded, bool use_gpu)
    : field_(field)
  {
    if (use_gpu)
      gpu_ = std::make_unique<Gpu>(field, degraded);
    else if (!step5::have_cholmod())
      throw std::logic_error("ExactRestorer: no GPU and no CHOLMOD to restore with");
    else
      b_ = step5::blur_transpose(field, degraded);
  }

  ExactRestorer::~ExactRestorer() = default;

  step5::DeviceProblem<float> *ExactRestorer::problem() { return gpu_ ? &gpu_->problem : nullptr; }

  lab::Matrix<double> ExactRestorer::restore(double lambda)
  {
    if (gpu_)
      {
        step5::DeviceProblem<float> &p = gpu_->problem;
        p.f.poison();
        gpu_->cg.solve(p.psf, static_cast<float>(lambda), p.g.data(), p.f.data(), step5::iterative_tolerance<float>(),
                       step5::cg_iteration_limit(p.rows, p.cols));
        return p.download(p.f);
      }
    return step5::sparse_cholesky_solve(step5::normal_matrix_stencil(field_, lambda), b_).f;
  }

  BestLambda best_lambda_in_hindsight(ExactRestorer &restorer, const lab::Matrix<double> &original,
                                      const step5::LambdaRange &range)
  {
    int restorations = 0;
    // A restoration that failed (empty) or holds NaN scores −∞: never the best.
    const auto psnr_at = [&](double exponent) {
      ++restorations;
      const lab::Matrix<double> f = restorer.restore(std::pow(10.0, exponent));
      const double psnr = f.size() == 0 ? NAN : lab::psnr(original, f);
      return std::isnan(psnr) ? -INFINITY : psnr;
    };
    const double low = std::log10(range.smallest), high = std::min(0.0, std::log10(range.largest));
    const int steps = std::max(2, static_cast<int>(std::lround((high - low) * 6)));
    const auto grid = [&](int i) { return low + (high - low) * i / steps; };
    int best = 0;
    double best_psnr = psnr_at(grid(0));
    for (int i = 1; i <= steps; ++i)
      {
        const double psnr = psnr_at(grid(i));
        if (psnr > best_psnr)
          {
            best = i;
            best_psnr = psnr;
          }
      }
    // Golden-section search (lambda_choice.h) for the largest PSNR between the best
    // point's neighbours: the smallest −PSNR.
    const step5::Minimum minimum = step5::golden_section_minimum([&](double x) { return -psnr_at(x); },
                                                                 grid(std::max(best - 1, 0)),
                                                                 grid(std::min(best + 1, steps)), 0.01);
    double exponent = grid(best);
    if (-minimum.value > best_psnr)
      {
        best_psnr = -minimum.value;
        exponent = minimum.x;
      }
    return {std::pow(10.0, exponent), best_psnr, restorations};
  }
} // namespace restore_benchmark
