#pragma once
// @sect3{λ from the field's own equations}
//
// Both rules of lambda_choice.h see the image through the periodic model of one PSF.
// For a PSF field the only one at hand is the field's mean, and the mean of a field is
// a different blur: the rotation's streaks point every way around the centre, so their
// mean is a round smudge that blurs every direction a little, where each streak blurs
// one direction much and the other not at all. Seen through the mean PSF the degraded
// image keeps detail (across each streak) that the round smudge would have erased, and
// the rule, to explain that detail, chooses a λ too small: on the rotation's phantom
// at 256², 0.0104 (about 27.0 dB), where the best λ is about 0.026 (28.1 dB; a sweep
// of λ on the CPU), and at 512² and 1024² 0.007 and 0.008, which restored the phantom
// 2.5 and 4.5 dB below the degraded image (results page).
//
// The discrepancy principle itself needs no periodic model, only ‖H f_λ − g‖², and for
// the field that is a solve of its own equations (HᵀH + λI) f_λ = Hᵀg, then one blur.
// Conjugate gradients (conjugate_gradients.h) applies the field as it is, in
// milliseconds at every size of the sweep, so the rule can afford the few solves that
// lambda_choice.h's search needs, started from the periodic rule's λ of the mean PSF.
// On the same phantoms it chooses 0.027 at every size (28.1 dB at 256², and 0.66 dB
// above the degraded image at 512²), in 4 or 5 solves; at 1024² the restoration
// still stays 0.55 dB below the degraded image, whose 31.4 dB leave little to gain. GCV has no such cure: its trace of
// A(λ) would need n solves (or a random estimate of it), so without the noise's level
// the rules still see the mean PSF.
#include "methods/method_runs.h"
#include "model/lambda_choice.h"

#include <lab/matrix.h>

namespace step5
{
  // The λ in @p range at which the field's own residual ‖H f_λ − g‖² meets n σ² (σ the
  // noise's level per pixel, g = @p degraded), f_λ from conjugate gradients in
  // precision T to the iterative methods' tolerance (restoration.h), the search
  // started at @p start. @p problem is the field's problem on the device, the one the
  // methods then restore (its f and f_inverse are overwritten). The text says how many
  // solves the search took and how long (they are not part of any method's time, as
  // choosing λ by the periodic rules is not).
  template <typename T>
  ResidualSearch choose_field_lambda_by_discrepancy(DeviceProblem<T> &problem, const lab::Matrix<double> &degraded,
                                                    double sigma, const LambdaRange &range, double start);
} // namespace step5
