#pragma once
// @sect3{Restoring at any λ, and the best λ in hindsight}
//
// The benchmark asks one question of each case: how far is the λ the program chooses
// from the best one? The best is known only in hindsight, from the sharp picture: the
// λ whose restoration has the highest PSNR. Finding it takes a restoration per trial
// λ, so the restorer is the fastest exact method at hand: conjugate gradients on the
// GPU in float (step-5's conjugate_gradients.h, the field applied as it is), or
// without a GPU CHOLMOD's sparse Cholesky on the CPU in double. Both solve the same
// zero-boundary equations as every exact method of step-5.

#include "methods/method_runs.h"
#include "model/lambda_choice.h"
#include "model/psf_field.h"

#include <lab/matrix.h>

#include <memory>
#include <optional>

namespace restore_benchmark
{
  class ExactRestorer
  {
  public:
    // For @p degraded blurred by @p field; on the GPU when @p use_gpu.
    ExactRestorer(const step5::SampledField &field, const lab::Matrix<double> &degraded, bool use_gpu);
    ~ExactRestorer();

    // f_λ, the solution of (HᵀH + λI) f = Hᵀg.
    lab::Matrix<double> restore(double lambda);

    // The problem on the device, for the program's own choice of λ; null on the CPU.
    step5::DeviceProblem<float> *problem();

  private:
    struct Gpu;
    const step5::SampledField &field_;
    std::unique_ptr<Gpu> gpu_;
    lab::Matrix<double> b_; // Hᵀg, for CHOLMOD: the same for every λ
  };

  struct BestLambda
  {
    double lambda;
    double psnr;
    int restorations;
  };

  // The λ in @p range (up to 1: beyond, every blur's detail is gone) with the highest
  // PSNR against @p original: a grid of 6 points per decade, then golden-section
  // search on log λ around the grid's best point, to a hundredth of a decade.
  BestLambda best_lambda_in_hindsight(ExactRestorer &restorer, const lab::Matrix<double> &original,
                                      const step5::LambdaRange &range);
} // namespace restore_benchmark
