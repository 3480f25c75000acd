#pragma once
// @sect3{Running the methods}
//
// What running a GPU method on one image takes, whatever the method and whether the
// blur is one PSF or a field: the problem on the device, the timing of a fast method
// and of a pipeline's stages, and the result a pipeline gives back. The lists of
// methods (restoration.h, and varying_restoration.h for a field) use these.

#include "gpu/blur_gpu.h"
#include "methods/fft_filter.h"
#include "methods/method_result.h"
#include "methods/restoration.h"
#include "model/blur_model.h"
#include "model/psf.h"
#include "model/psf_field.h"

#include <lab/cublas_gemm.h>
#include <lab/compare.h>
#include <lab/device_buffer.h>
#include <lab/fresh_inputs.h>
#include <lab/matrix.h>
#include <lab/timer.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace step5
{
  // The degraded image and the PSF go to the device once; every GPU method reads them
  // from there and writes its f into `f`; a dense pipeline makes two at a time, and
  // writes its inverse route's into `f_inverse`. Both are poisoned (NaN) before every
  // run of every method, so that a method that writes nothing shows NaN instead of the
  // image the method before it left.
  //
  // A timed run (start_run, end_run) also gets a fresh input (lab/fresh_inputs.h): g
  // times 2^e, with e drawn for the run from a seed no program can know. Every method
  // is linear in g, and a power of two changes no rounding, so its f comes out as 2^e
  // times the f of g, and end_run multiplies it back; a method that handed back an
  // earlier run's image would be off by a factor of 2 at least. Where the caller knows
  // the model (backward_error_of_run), each run's image is then checked by its η,
  // untimed, and a method is judged by the worst of its runs (measure_backward_errors).
  template <typename T>
  struct DeviceProblem
  {
    DeviceProblem(const Psf &psf, const lab::Matrix<double> &degraded)
      : rows(degraded.rows()), cols(degraded.cols()), psf(psf), g(lab::convert<T>(degraded)), f(degraded.size()),
        f_inverse(degraded.size())
    {}

    // The same for a PSF field (psf_field.h), its table of weights on the device.
    DeviceProblem(const SampledField &field, const lab::Matrix<double> &degraded)
      : rows(degraded.rows()), cols(degraded.cols()), psf(field), g(lab::convert<T>(degraded)), f(degraded.size()),
        f_inverse(degraded.size())
    {}

    lab::Matrix<double> download(const lab::DeviceBuffer<T> &image) const
    {
      lab::Matrix<T> values(rows, cols);
      image.download(values);
      return lab::convert<double>(values);
    }

    void poison_outputs()
    {
      f.poison();
      f_inverse.poison();
    }

    // Before a timed run: the outputs poisoned, g scaled by a fresh 2^e.
    void start_run()
    {
      poison_outputs();
      fresh.next();
      lab::scale_on_gpu(g.data(), g.count(), fresh.exponent());
    }

    // After it: g as it was, and the outputs multiplied back by 2^-e.
    void end_run()
    {
      for (lab::DeviceBuffer<T> *buffer : {&g, &f, &f_inverse})
        lab::scale_on_gpu(buffer->data(), buffer->count(), -fresh.exponent());
    }

    // The worse of @p worst and the η of the run's @p image for the normal equations,
    // where backward_error_of_run is given (else @p worst).
    double worse_run(double worst, const lab::DeviceBuffer<T> &image) const
    {
      return backward_error_of_run ? lab::nan_max(worst, backward_error_of_run(download(image))) : worst;
    }

    int rows, cols;
    DevicePsf<T> psf;
    lab::DeviceBuffer<T> g, f, f_inverse;
    lab::FreshScale fresh;
    // η of an image for the normal equations of this problem (report/checks.h), given
    // by the caller that holds the model; empty: the runs are not checked one by one.
    std::function<double(const lab::Matrix<double> &)> backward_error_of_run;
  };

  // The image's problem on the device, made once per image where there is a GPU
  // (@p use_gpu), none without: λ's search (image_lambda.h) and the GPU methods share
  // it, so that the image, and a field's table of weights, the largest upload of a
  // run, go to the device once. @p blur is the PSF or the sampled field.
  template <typename T, typename Blur>
  std::optional<DeviceProblem<T>> problem_on_device(bool use_gpu, const Blur &blur, const lab::Matrix<double> &degraded)
  {
    std::optional<DeviceProblem<T>> problem;
    if (use_gpu)
      problem.emplace(blur, degraded);
    return problem;
  }

  // The problem, or null where there is none.
  template <typename T>
  DeviceProblem<T> *pointer_to(std::optional<DeviceProblem<T>> &problem)
  {
    return problem ? &*problem : nullptr;
  }

  // A fast method, run by @p run (one call = one restoration into its argument): once
  // untimed (the first call of a kernel or a library pays for loading it), then
  // @p reps times into a poisoned f on a fresh input, and the median counts. Where it
  // solves the normal equations (@p equations), every run's image is checked.
  template <typename T>
  MethodResult time_fast_method(DeviceProblem<T> &problem, int reps, MethodResult result,
                                const std::function<void(T *)> &run, Equations equations = Equations::normal)
  {
    run(problem.f.data());
    std::vector<double> samples;
    for (int rep = 0; rep < reps; ++rep)
      {
        lab::EventTimer timer;
        problem.start_run();
        timer.start();
        run(problem.f.data());
        timer.stop();
        samples.push_back(timer.milliseconds());
        problem.end_run();
        if (equations == Equations::normal)
          result.worst_run_backward_error = problem.worse_run(result.worst_run_backward_error, problem.f);
      }
    result.milliseconds = lab::median(samples);
    result.image = problem.download(problem.f);
    return result;
  }

  // The stage times of a pipeline run @p runs times: each stage's median.
  inline StageTimes median_times(int runs, const std::function<StageTimes()> &run)
  {
    std::vector<StageTimes> samples;
    for (int rep = 0; rep < runs; ++rep)
      samples.push_back(run());
    StageTimes times = samples.front();
    using Stage = double StageTimes::*;
    for (const Stage stage : {&StageTimes::build, &StageTimes::normal, &StageTimes::factor, &StageTimes::invert,
                              &StageTimes::inverse, &StageTimes::apply, &StageTimes::solve})
      times.*stage = lab::median(samples, stage);
    return times;
  }

  // Why a direct method gave no image: its factorisation found A not positive definite
  // at @p column (λ = 0 with a singular H).
  inline std::string not_positive_definite(long column)
  {
    return "A = H^T H + lambda I is not positive definite (column " + std::to_string(column) +
           "): take lambda > 0";
  }

  // A pipeline's result from its stage times and its f: its time is that of the route
  // it took, and only that route's stages are kept.
  template <typename T>
  MethodResult pipeline_result(MethodResult result, const StageTimes &times, const DeviceProblem<T> &problem,
                               const lab::DeviceBuffer<T> &f, bool inverse_route)
  {
    result.stages = times;
    if (times.failed_column >= 0)
      result.failure = not_positive_definite(times.failed_column);
    else
      {
        result.image = problem.download(f);
        result.milliseconds = inverse_route ? times.inverse_route() : times.solve_route();
        if (inverse_route)
          result.stages.solve = 0;
        else
          result.stages.invert = result.stages.inverse = result.stages.apply = 0;
      }
    return result;
  }

  // @sect3{The runs of one method each}
  //
  // restoration.cu runs each method of the list so, and the list for a PSF field
  // (varying_restoration.h) the same runs on the field's DeviceProblem: the dense
  // pipelines (each with both routes, and the vendor's), the band pipeline (the
  // field's picture sets its band), conjugate gradients, the FFT filter with @p psf on
  // a boundary, and the CPU methods on A's stencil and b (Gauss–Seidel's time
  // including @p set_up, the stencil's and b's).
  template <typename T>
  void run_dense_methods(DeviceProblem<T> &problem, const RestoreOptions &options, lab::Cublas &cublas,
                         std::vector<MethodResult> &results);
  template <typename T>
  MethodResult run_band_method(DeviceProblem<T> &problem, const PsfField &psf, const RestoreOptions &options);
  template <typename T>
  MethodResult run_cg_method(DeviceProblem<T> &problem, const RestoreOptions &options);
  template <typename T>
  MethodResult run_fft_method(DeviceProblem<T> &problem, const Psf &psf, FftBoundary boundary,
                              const lab::Matrix<double> &degraded, const RestoreOptions &options);
  void run_cpu_methods(const NormalStencil &stencil, const lab::Matrix<double> &b, double set_up,
                       const RestoreOptions &options, std::vector<MethodResult> &results);
} // namespace step5
