#pragma once
// @sect3{A colour picture: one factorisation for three channels}
//
// A colour picture is three images, red, green and blue, blurred by the same lens: the
// same H for all three. With one λ for the picture (image_lambda.h says how it is
// chosen), A = HᵀH + λI is the same matrix for the three channels, and so is its
// Cholesky factor. What differs is only the right-hand side, b_c = Hᵀg_c. A direct
// method has no reason to factorise A three times: it factorises it once and then
// solves for each channel with the same factor.
//
// Of a pipeline's work only the right-hand sides and the solves grow with the
// channels, and they are the small part: the dense pipeline's factorisation costs
// n³/3 flops and its solves 2n² per channel, the band's n·b² and 4n·b per channel. So
// the three channels should cost about what one does.
//
// The solves could take the three channels at once, as the three columns of one
// right-hand side (step-3's substitution takes any number); they do not, because for
// one column step-3 has a faster method, the chained kernel that solves a whole
// triangle in one launch, where several columns go through the blocked substitution,
// two products per block of 64 rows. Measured on an H200 in float, the band of a 256²
// colour picture: the three columns at once took 27.0 ms of solves, where one channel's
// chained solves take about 2 ms (the results page has the figures after the change).
// So each channel is solved on its own, one chained solve after another; only the
// dense pipeline's product B = Hᵀ[g_r g_g g_b] and its inverse route's A⁻¹B take the
// three columns at once (channel_layout.h). This file runs each direct pipeline once for the picture,
// made for its k channels (DensePipeline and BandPipeline take a channel count), and
// once more on the first channel alone, as one pipeline per channel would: the
// first run's time against three of the second's is what one factorisation saves,
// measured in the same run. The second run is also a check: its image is the first
// channel's image of the first run, up to the rounding of a different order of
// operations (the products that form the right-hand sides take three columns instead
// of one), and a mix-up of the channels would show as an O(1) difference.
//
// The iterative and FFT methods have nothing to share (CG's iterations depend on the
// right-hand side; the FFT filter is already a few milliseconds): they restore the
// channels one after another. The TF32 pipelines, whose solvers take one right-hand
// side, are left out of a colour picture.

#include "methods/method_result.h"
#include "methods/method_runs.h"
#include "methods/restoration.h"
#include "model/psf_field.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>
#include <lab/matrix.h>

#include <string>
#include <vector>

namespace step5
{
  // One pipeline's route, run for the picture and for its first channel alone.
  struct TogetherAgainstAlone
  {
    std::string description;      // the route's console line
    StageTimes together, alone;   // the stage times of the two runs (the route's stages only)
    double together_ms = 0, alone_ms = 0; // the route's whole time in each
    double difference = 0;        // max |f_together − f_alone| / max |f_alone| on the first channel
    bool inverse_route = false;   // the thesis' inverse route (its error bound is the inverse's)
  };

  // What restoring the channels together gives: each channel's results, one per route
  // in the same order for every channel (their images that channel's; their stages and
  // time the whole picture's, MethodResult::channels_together), and each route's
  // comparison.
  struct ChannelsTogether
  {
    std::vector<std::vector<MethodResult>> channels;
    std::vector<TogetherAgainstAlone> routes;
  };

  // The dense pipelines (each route, and the vendor's) where @p options.dense, and the
  // band pipeline where @p options.band, on the picture whose channels' problems on the
  // device are @p problems (method_runs.h: one PSF or the field, the same for all; the
  // first channel's alone runs use its problem, whose f and f_inverse they overwrite),
  // blurred by @p field (one PSF as constant_field's), with options.lambda, in
  // precision T.
  template <typename T>
  ChannelsTogether restore_channels_together(const PsfField &field, const std::vector<DeviceProblem<T> *> &problems,
                                             const RestoreOptions &options, lab::Cublas &cublas);

  // Prints one line per route, the picture's time against three channels alone, and
  // checks that the first channel's images agree to within 4 κ(A) times the route's
  // tolerance on η (a backward stable solve's for the solves, the explicit inverse's
  // for the inverse route: report/checks.h), κ(A) ≤ (‖HᵀH‖ + λ)/λ bounded with
  // @p sampled. @p label names the checks.
  void report_channels_together(const ChannelsTogether &together, const SampledField &sampled, double lambda,
                                double unit_roundoff, const std::string &label, lab::Checks &checks);
} // namespace step5
