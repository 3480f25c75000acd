// Every method on one image blurred by a PSF field (see varying_restoration.h).
#include "methods/varying_restoration.h"

#include "methods/method_runs.h"
#include "methods/piecewise_fft.h"
#include "model/varying_blur.h"
#include "report/checks.h"

#include <lab/compare.h>
#include <lab/fresh_inputs.h>
#include <lab/timer.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace step5
{
  const std::vector<std::string> &varying_method_names()
  {
    static const std::vector<std::string> names = {
      "dense_course_solve", "dense_course_inverse", "dense_cublas_solve", "dense_cublas_inverse", "dense_cusolver",
      "band_course_solve",  "cg",                   "cholmod",            "gauss_seidel",         "fft_mean",
      "fft_piecewise",      "band_mean_psf",        "cg_mean_psf"};
    return names;
  }

  namespace
  {
    MethodResult renamed(MethodResult result, const std::string &name, const std::string &description)
    {
      result.name = name;
      result.description = description;
      return result;
    }

    // @sect3{The piecewise FFT, and its check}
    //
    // Timed like every fast method. Its check: each region's filter must solve its own
    // model (the mirrored extension of g, the region's PSF) as the mirrored FFT filter
    // does; η is the worst of the R² regions', computed from the whole (extended)
    // result that each filter keeps from the last timed run.
    template <typename T>
    MethodResult run_piecewise_method(DeviceProblem<T> &problem, const SampledField &field,
                                      const lab::Matrix<double> &degraded, const VaryingOptions &options)
    {
      const T lambda = static_cast<T>(options.lambda);
      PiecewiseFft<T> piecewise(field, options.regions, FftBoundary::mirrored);
      const std::string regions = std::to_string(options.regions);
      MethodResult result = time_fast_method<T>(
        problem, options.reps,
        blank_result("fft_piecewise", "piecewise FFT, " + regions + " x " + regions + " regions, mirrored",
                     MethodKind::filter),
        [&](T *f) { piecewise.apply(lambda, problem.g.data(), f); }, Equations::mirrored);
      result.equations = Equations::mirrored;
      double worst = 0;
      for (int k = 0; k < options.regions * options.regions; ++k)
        {
          const FftFilter<T> &filter = piecewise.filter(k);
          lab::Matrix<T> values(filter.extended_rows(), filter.extended_cols());
          filter.extended_result().download(values);
          lab::scale(values, -problem.fresh.exponent()); // the last run's input was 2^e g
          worst = lab::nan_max(worst, backward_error(piecewise.psf(k), degraded, options.lambda,
                                                     lab::convert<double>(values), Equations::mirrored));
        }
      result.backward_error = worst;
      return result;
    }

    // The GPU methods, on the field's problem and on the mean PSF's.
    template <typename T>
    void run_gpu_methods(DeviceProblem<T> &problem, const PsfField &field, const SampledField &sampled,
                         const Psf &mean, const lab::Matrix<double> &degraded, const VaryingOptions &options,
                         lab::Cublas &cublas, std::vector<MethodResult> &results)
    {
      if (options.dense)
        run_dense_methods(problem, options, cublas, results);
      if (options.band)
        results.push_back(run_band_method(problem, field, options));
      if (options.cg)
        results.push_back(run_cg_method(problem, options));

      if (!options.fft && !options.band && !options.cg)
        return;
      DeviceProblem<T> mean_problem(mean, degraded);
      if (options.fft)
        {
          results.push_back(renamed(run_fft_method(mean_problem, mean, FftBoundary::mirrored, degraded, options),
                                    "fft_mean", "FFT filter, the field's mean PSF, mirrored"));
          results.push_back(run_piecewise_method(problem, sampled, degraded, options));
        }
      if (options.band)
        results.push_back(renamed(run_band_method(mean_problem, constant_field(mean), options), "band_mean_psf",
                                  "band, the mean PSF (invariant), two solves"));
      if (options.cg)
        results.push_back(renamed(run_cg_method(mean_problem, options), "cg_mean_psf",
                                  "conjugate gradients, the mean PSF (invariant)"));
    }

    bool solves_the_mean_psf(const MethodResult &m) { return m.name == "band_mean_psf" || m.name == "cg_mean_psf"; }
  } // namespace

  // @sect3{The list}
  //
  // b = Hᵀg of the field in double on the CPU: the CPU methods' right-hand side, and
  // the checks'. The CPU methods on the field's stencil (varying_blur.h). Then every
  // image's η for the equations its method solves: the field's, or the mean PSF's;
  // the FFT filters' were measured by their runs.
  template <typename T>
  std::vector<MethodResult> restore_with_field(const PsfField &field, const SampledField &sampled,
                                               const lab::Matrix<double> &degraded, const VaryingOptions &options,
                                               DeviceProblem<T> *problem, lab::Cublas *cublas)
  {
    if (options.use_gpu && (problem == nullptr || cublas == nullptr))
      throw std::invalid_argument("step5::restore_with_field: the GPU methods need the field's problem on the "
                                  "device and a cuBLAS handle");
    std::vector<MethodResult> results = options.made_together;
    const Psf &mean = sampled.mean;
    lab::HostTimer timer;
    const lab::Matrix<double> b = blur_transpose(sampled, degraded);
    const double b_milliseconds = timer.milliseconds();
    if (options.use_gpu)
      run_gpu_methods<T>(*problem, field, sampled, mean, degraded, options, *cublas, results);
    if (options.sparse_cholesky || options.gauss_seidel)
      {
        timer.start();
        const NormalStencil stencil = normal_matrix_stencil(sampled, options.lambda);
        run_cpu_methods(stencil, b, b_milliseconds + timer.milliseconds(), options, results);
      }

    const double bound = normal_matrix_norm_bound(sampled);
    for (MethodResult &m : results)
      {
        if (!m.failure.empty() || m.equations != Equations::normal)
          continue;
        m.backward_error = solves_the_mean_psf(m)
                             ? backward_error(mean, degraded, options.lambda, m.image, Equations::normal)
                             : backward_error_of(bound, b, blur_transpose(sampled, blur(sampled, m.image)),
                                                 options.lambda, m.image);
      }
    return results;
  }

  template std::vector<MethodResult> restore_with_field<float>(const PsfField &, const SampledField &,
                                                               const lab::Matrix<double> &, const VaryingOptions &,
                                                               DeviceProblem<float> *, lab::Cublas *);
  template std::vector<MethodResult> restore_with_field<double>(const PsfField &, const SampledField &,
                                                                const lab::Matrix<double> &, const VaryingOptions &,
                                                                DeviceProblem<double> *, lab::Cublas *);
} // namespace step5
