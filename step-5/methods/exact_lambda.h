#pragma once
// @sect3{λ from the exact equations}
//
// Both rules of lambda_choice.h see the image through a periodic model: one PSF,
// wrapping around a mirrored image. That is what makes them cheap, and it is not the
// model the restoration solves. Two mismatches remain however the periodic image is
// prepared. For a PSF field the only PSF at hand is the field's mean, and the mean of
// a field is a different blur: the rotation's streaks point every way around the
// centre, so their mean is a round smudge that blurs every direction a little, where
// each streak blurs one direction much and the other not at all. Seen through the
// mean PSF the degraded image keeps detail (across each streak) that the round smudge
// would have erased, and the rule, to explain that detail, chooses a λ too small: on
// the rotation's phantom at 256², 0.0104 (about 27.0 dB), where the best λ is about
// 0.026 (28.1 dB; a sweep of λ on the CPU), and at 512² and 1024² 0.007 and 0.008,
// which restored the phantom 2.5 and 4.5 dB below the degraded image (results page).
// And for one PSF, the periodic model on a mirrored image is a reflecting boundary,
// the data's a zero one; leaving out the rim (lambda_choice.h) removes most of that
// difference, not all.
//
// The discrepancy principle itself needs no periodic model, only ‖H f_λ − g‖², and
// that is a solve of the exact equations (HᵀH + λI) f_λ = Hᵀg, zero boundary and
// field included, then one blur. Conjugate gradients (conjugate_gradients.h) applies
// H as it is, in milliseconds at every size of the sweep, so the rule can afford the
// few solves that lambda_choice.h's search needs, started from the periodic rule's λ.
// On the rotation's phantoms it chooses 0.027 at every size (28.1 dB at 256², and
// 0.66 dB above the degraded image at 512²), in 4 or 5 solves. GCV has no such cure:
// its trace of A(λ) would need n solves (or a random estimate of it), so it stays
// with the periodic model.
//
// Without a GPU the same search runs on the CPU with CHOLMOD's sparse Cholesky, where
// the build has it and the image is small enough for a factorisation per λ to take
// seconds; elsewhere the periodic choice stands, and the output says so.
#include "methods/method_runs.h"
#include "model/lambda_choice.h"

#include <lab/matrix.h>

#include <vector>

namespace step5
{
  // The λ in @p range at which the exact residual ‖H f_λ − g‖² meets n σ² (σ the
  // noise's level per pixel, g = @p degraded), f_λ from conjugate gradients in
  // precision T to the iterative methods' tolerance (restoration.h), the search
  // started at @p start. @p problems holds the image's problem on the device (one PSF or
  // a field), the one the methods then restore (its f and f_inverse are overwritten);
  // a colour picture's channels share one λ (their direct methods share one
  // factorisation, channels_together.h), and for them the residuals and the targets
  // add up: one problem per channel of @p degraded, and σ the channels' RMS level, so
  // that the target is the sum of the channels' n σ_c². The text says how many solves
  // the search took and how long (they are not part of any method's time, as choosing
  // λ by the periodic rules is not).
  template <typename T>
  ResidualSearch choose_lambda_by_exact_discrepancy(const std::vector<DeviceProblem<T> *> &problems,
                                                    const std::vector<lab::Matrix<double>> &degraded, double sigma,
                                                    const LambdaRange &range, double start);

  // The same without a GPU, each f_λ by CHOLMOD's sparse Cholesky (sparse_cholesky.h)
  // in double: a factorisation per λ for all channels, about a second at 256² (where
  // have_cholmod()). @p field is the blur, one PSF as constant_field's.
  ResidualSearch choose_lambda_by_exact_discrepancy_on_cpu(const SampledField &field,
                                                           const std::vector<lab::Matrix<double>> &degraded,
                                                           double sigma, const LambdaRange &range, double start);
} // namespace step5
