#pragma once
// @sect3{The comparison for a PSF field}
//
// When --psf names a field (psf_field.h: `lens:…`, `rotation:…`, a grid file), the
// program asks the question of this part of the course: what does each method make of
// a blur that no single PSF describes? It blurs the phantom and the camera photograph with the
// field at every size of its sweep (128² to 1024², the quick run 32² and 64²), adds
// the noise, and restores each with every method of varying_restoration.h that fits:
// the methods that take H as it is, the FFT's two approximations, and band and CG on
// the mean PSF for the invariant times. λ is chosen by the rule asked for: the
// discrepancy principle on the field's own equations (exact_lambda.h), started from
// its choice on the field's mean PSF; GCV, which needs one PSF's spectrum
// (lambda_choice.h), and any rule without a GPU, on the mean PSF alone. One line
// per method, the checks, the images, a picture of the field, and the table
// varying_KIND_PRECISION.dat (report/varying_table.h; KIND lens, rotation or grid, so
// that the fields' tables can lie in one folder). --image and --degraded restore one
// image through the field the same way.
//
// The photograph is step-5/data's at 128² and 256², and at the sides that divide 128
// the 128² one shrunk by averaging blocks of pixels; the data holds no larger one, and
// the larger sizes run with the phantom alone (the output says so).
//
// What cannot fit is refused before any work (exit code 2, one line with the bytes
// needed and available): on the host the field's table in double and the images; on
// the GPU its table in the working precision and, when the band pipeline is asked
// for, the band of HᵀH + λI with its workspaces (band_pipeline.h). A band that does
// not fit is a support too large for the size: the band grows with the picture's
// side times the image's.

#include "methods/method_result.h"
#include "methods/method_runs.h"
#include "model/lambda_option.h"
#include "model/noise.h"
#include "model/psf_field.h"
#include "settings.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>
#include <lab/matrix.h>
#include <lab/memory.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace step5
{
  // The memory a side s of the field's sweep needs in precision T: host and device
  // bytes as above (the band's only when @p with_band).
  template <typename T>
  lab::Memory field_memory_needed(const PsfField &field, int side, bool with_band);

  // Refuses (lab::bad_input) before any work a field larger than an image of the
  // sweep, and a side whose memory (field_memory_needed) does not fit, in each
  // precision asked for.
  void refuse_field_sizes_that_do_not_fit(const Settings &settings, const PsfField &field,
                                          const std::vector<int> &sides);

  // The phantom and the photograph through the field at every side of the sweep.
  void run_varying_comparison(const Settings &settings, const PsfField &field, const Noise &noise,
                              lab::Checks &checks, lab::Cublas *cublas);

  // One image restored through the field in precision T, its images written under
  // @p prefix and its table as PREFIX_varying_KIND_PRECISION.dat; the PSNR against
  // @p original when there is one; @p sampled the field's table for the image's size;
  // @p lambda its λ, @p problem the image's problem on the device (null without a
  // GPU); @p made_together the results of a colour picture's direct pipelines for this
  // channel (channels_together.h), reported with the others.
  template <typename T>
  std::vector<MethodResult>
  restore_through_field_in_precision(const Settings &settings, const PsfField &field, const SampledField &sampled,
                                     const lab::Matrix<double> &original, const lab::Matrix<double> &degraded,
                                     const ImageLambda &lambda, DeviceProblem<T> *problem, const std::string &prefix,
                                     lab::Checks &checks, lab::Cublas *cublas,
                                     std::vector<MethodResult> made_together = {});

  // The same in each precision asked for, with one λ for both, its images
  // written under @p prefix and its table as PREFIX_varying_KIND_PRECISION.dat; the PSNR
  // against @p original when there is one; @p sampled the field's table for the
  // image's size; @p sigma the noise's level for the discrepancy principle, none
  // where it is not known (then estimated from the image). Returns each precision's
  // results, in the order they ran.
  std::vector<std::vector<MethodResult>>
  restore_through_field_in_each_precision(const Settings &settings, const PsfField &field, const SampledField &sampled,
                                          const lab::Matrix<double> &original, const lab::Matrix<double> &degraded,
                                          std::optional<double> sigma, const std::string &prefix, lab::Checks &checks,
                                          lab::Cublas *cublas);
} // namespace step5
