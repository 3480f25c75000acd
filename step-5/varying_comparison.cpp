// The comparison for a PSF field (see varying_comparison.h).
#include "varying_comparison.h"

#include "methods/band_pipeline.h"
#include "image_lambda.h"
#include "methods/varying_restoration.h"
#include "photographs.h"
#include "model/lambda_option.h"
#include "model/varying_blur.h"
#include "report/checks.h"
#include "report/report.h"
#include "report/varying_table.h"

#include <lab/cli.h>
#include <lab/format.h>
#include <lab/pgm.h>
#include <lab/precision.h>
#include <lab/step_main.h>
#include <lab/table.h>
#include <lab/test_images.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>


namespace step5
{
  namespace
  {
    // The sides of the field's sweep: from 128², where the dense pipelines still run,
    // to 1024², where only the band pipeline, CG and the FFT do.
    const std::vector<int> varying_full_sweep = {128, 256, 512, 1024};
    const std::vector<int> varying_quick_sweep = {32, 64};

    // The piecewise FFT's regions along each side: 4 × 4, or fewer on a tiny image.
    int piecewise_regions(int rows, int cols) { return std::min({4, rows, cols}); }

    // @sect3{A picture of the field}
    //
    // The PSFs of 7 × 7 pixels spread evenly over the image, each drawn where its
    // pixel lies, every weight a 4 × 4 block, scaled to its PSF's largest weight (so
    // that a wide PSF shows its shape, not only its faintness), on a grey background:
    // the corners' wider Gaussians, or the streaks turning around the centre.
    lab::Matrix<double> field_picture(const SampledField &field)
    {
      const int samples = 7, zoom = 4, gap = 3;
      const int cell_rows = field.rows * zoom + gap, cell_cols = field.cols * zoom + gap;
      lab::Matrix<double> picture(samples * cell_rows + gap, samples * cell_cols + gap);
      for (int r = 0; r < picture.rows(); ++r)
        for (int c = 0; c < picture.cols(); ++c)
          picture(r, c) = 0.25;
      for (int i = 0; i < samples; ++i)
        for (int j = 0; j < samples; ++j)
          {
            const int r = i * (field.image_rows - 1) / (samples - 1), c = j * (field.image_cols - 1) / (samples - 1);
            const double *taps = field.taps_of(r, c);
            double largest = 0;
            for (int t = 0; t < field.rows * field.cols; ++t)
              largest = std::max(largest, std::abs(taps[t]));
            for (int u = 0; u < field.rows * zoom; ++u)
              for (int v = 0; v < field.cols * zoom; ++v)
                picture(gap + i * cell_rows + u, gap + j * cell_cols + v) =
                  largest > 0 ? std::abs(taps[(u / zoom) * field.cols + v / zoom]) / largest : 0;
          }
      return picture;
    }

    void write_field_picture(const std::string &folder, const std::string &kind, const SampledField &field, int side)
    {
      char name[64];
      std::snprintf(name, sizeof name, "/varying_%s_field_s%04d", kind.c_str(), side);
      write_image(folder + name, field_picture(field));
    }

    // @sect3{Which methods run}
    template <typename T>
    VaryingOptions varying_options(const Settings &settings, const PsfField &field, int rows, int cols, double lambda)
    {
      VaryingOptions options{common_restore_options<T>(settings, rows, cols, lambda)};
      options.regions = piecewise_regions(rows, cols);
      // The dense pipelines beside the field's table and the problem's images.
      const double dense = dense_bytes<T>(rows, cols) + field_memory_needed<T>(field, std::max(rows, cols), false)
                                                          .device_bytes;
      options.dense = settings.wants("dense") && settings.fits_on_gpu(dense);
      if (settings.use_gpu && settings.wants("dense") && !options.dense)
        say_skipped_for_memory(settings, "dense pipelines skipped: they need", dense);
      options.band = settings.wants("band");
      return options;
    }

    // The checks' tolerances for the field: a backward stable solve's, and the
    // explicit inverse's, whose κ is bounded with the field's ‖HᵀH‖ (varying_blur.h).
    Tolerances field_tolerances(const SampledField &field, int n, double unit_roundoff, double lambda)
    {
      const double direct = direct_tolerance(n, unit_roundoff);
      const double condition = lambda > 0 ? (normal_matrix_norm_bound(field) + lambda) / lambda : 1e12;
      return {direct, direct + condition * unit_roundoff};
    }

    // One image through the field in precision T: the methods, their lines and
    // checks, and the line with λ and the gain.
    template <typename T>
    std::vector<MethodResult> restore_through_field(const Settings &settings, const PsfField &field,
                                                    const SampledField &sampled, const lab::Matrix<double> &original,
                                                    const lab::Matrix<double> &degraded, const ImageLambda &lambda,
                                                    DeviceProblem<T> *problem, const std::string &label,
                                                    lab::Checks &checks, lab::Cublas *cublas,
                                                    std::vector<MethodResult> made_together = {})
    {
      const int rows = degraded.rows(), cols = degraded.cols();
      VaryingOptions options = varying_options<T>(settings, field, rows, cols, lambda.lambda);
      options.made_together = std::move(made_together);
      const std::vector<MethodResult> results =
        restore_with_field<T>(field, sampled, degraded, options, problem, cublas);
      const double u = std::numeric_limits<T>::epsilon() / 2;
      report_methods(results, original, degraded, field_tolerances(sampled, rows * cols, u, lambda.lambda), label,
                     checks);
      report_gain(results, original, degraded, lambda.lambda, lambda.rule, label, checks);
      return results;
    }

    // @sect3{λ for a degraded image}
    //
    // As for every image (image_lambda.h): the periodic rules see the field's mean
    // PSF; where the rule is the discrepancy principle and a GPU is there (@p problem,
    // the field's problem on the device), their λ is only the start of the search on
    // the field's own equations, and both lines are printed, so that the output shows
    // how far apart they are.
    template <typename T>
    ImageLambda field_lambda(const Settings &settings, const SampledField &sampled,
                             const lab::Matrix<double> &degraded, std::optional<double> sigma,
                             DeviceProblem<T> *problem)
    {
      return choose_image_lambda<T>(settings.lambda, sampled, sampled.mean, degraded, sigma, problem,
                                    " (the field's mean PSF)");
    }

    std::vector<std::string> field_notes(const Settings &settings, const PsfField &field)
    {
      return {"psf field: " + field.name, "noise: " + settings.noise, "lambda: " + lambda_text(settings.lambda),
              "piecewise FFT: 4 x 4 regions (fewer on images smaller than 4 pixels)",
              settings.use_gpu ? "the discrepancy principle solves the field's own equations (CG, from the mean PSF's "
                                 "periodic choice); GCV sees the field's mean PSF"
                               : "the lambda rule sees the field's mean PSF (without a GPU)"};
    }

    // @sect3{The sweep}
    template <typename T>
    void run_varying_sweep(const Settings &settings, const PsfField &field, const Noise &noise,
                           const std::vector<int> &sides, lab::Checks &checks, lab::Cublas *cublas)
    {
      const std::string precision = lab::precision_name<T>();
      const std::string folder = settings.options.out + "/step-5";
      VaryingTable table;
      for (const int side : sides)
        {
          const SampledField sampled = sample_field(field, side, side);
          write_field_picture(folder + "/images", kind_of(field), sampled, side);
          for (const VaryingImage kind : {VaryingImage::phantom, VaryingImage::photograph})
            {
              const bool phantom = kind == VaryingImage::phantom;
              const std::string name = phantom ? "phantom" : "photograph";
              const lab::Matrix<double> original = phantom ? lab::shepp_logan(side) : photograph(side);
              if (original.size() == 0)
                {
                  std::printf("\n%s %d x %d: not in step-5/data (there at 128 x 128 and 256 x 256, and at the sides "
                              "that divide 128), skipped\n",
                              name.c_str(), side, side);
                  continue;
                }
              const lab::Matrix<double> blurred = blur(sampled, original);
              const lab::Matrix<double> degraded = add_noise(blurred, noise, settings.seed);
              std::printf("\n%s %d x %d (n = %d), %s, psf field %s: band %s\n", name.c_str(), side, side, side * side,
                          precision.c_str(), field.name.c_str(),
                          lab::format_bytes(std::size_t(BandPipeline<T>::device_bytes(field, side, side))).c_str());
              std::optional<DeviceProblem<T>> problem = problem_on_device<T>(settings.use_gpu, sampled, degraded);
              const ImageLambda lambda =
                field_lambda<T>(settings, sampled, degraded, noise_level(blurred, degraded), pointer_to(problem));
              const std::string label = precision + " " + name + " s=" + std::to_string(side);
              const std::vector<MethodResult> results = restore_through_field<T>(
                settings, field, sampled, original, degraded, lambda, pointer_to(problem), label, checks, cublas);
              char prefix[64];
              std::snprintf(prefix, sizeof prefix, "varying_%s_%s_s%04d_%s", kind_of(field).c_str(), name.c_str(), side,
                            precision.c_str());
              write_images(folder + "/images", prefix, original, degraded, results);
              table.add(kind, lambda.lambda, original, degraded, results);
            }
        }
      table.write(folder + "/varying_" + kind_of(field) + "_" + precision + ".dat", precision, settings.device,
                  settings.options.reps, field_notes(settings, field));
    }
  } // namespace

  // @sect3{The memory a side needs, and the refusal}
  template <typename T>
  lab::Memory field_memory_needed(const PsfField &field, int side, bool with_band)
  {
    const double pixels = double(side) * side;
    const double table = sampled_field_bytes(field, side, side) / sizeof(double);
    const double band = with_band ? BandPipeline<T>::device_bytes(field, side, side) : 0;
    return {table * sizeof(double) + pixels * 64 * sizeof(double), table * sizeof(T) + band + pixels * 16 * sizeof(T)};
  }

  template lab::Memory field_memory_needed<float>(const PsfField &, int, bool);
  template lab::Memory field_memory_needed<double>(const PsfField &, int, bool);

  void refuse_field_sizes_that_do_not_fit(const Settings &settings, const PsfField &field,
                                          const std::vector<int> &sides)
  {
    for (const int side : sides)
      check_field(field, side, side);
    const bool with_band = settings.wants("band");
    lab::for_each_precision(settings.options, [&](auto zero) {
      using T = decltype(zero);
      lab::refuse_sizes_that_do_not_fit(
        sides, [&](int side) { return field_memory_needed<T>(field, side, with_band); },
        std::string(lab::precision_name<T>()) + ", the field " + field.name + (with_band ? " and its band" : "") +
          ": an image of side n",
        settings.use_gpu);
    });
  }

  void run_varying_comparison(const Settings &settings, const PsfField &field, const Noise &noise,
                              lab::Checks &checks, lab::Cublas *cublas)
  {
    const std::vector<int> sides = lab::choose_sizes(settings.options, varying_full_sweep, varying_quick_sweep);
    refuse_field_sizes_that_do_not_fit(settings, field, sides);
    lab::prepare_output_folder(settings.options.out + "/step-5/images");
    lab::for_each_precision(settings.options, [&](auto zero) {
      run_varying_sweep<decltype(zero)>(settings, field, noise, sides, checks, cublas);
    });
  }

  // @sect3{One image through the field}
  template <typename T>
  std::vector<MethodResult>
  restore_through_field_in_precision(const Settings &settings, const PsfField &field, const SampledField &sampled,
                                     const lab::Matrix<double> &original, const lab::Matrix<double> &degraded,
                                     const ImageLambda &lambda, DeviceProblem<T> *problem, const std::string &prefix,
                                     lab::Checks &checks, lab::Cublas *cublas, std::vector<MethodResult> made_together)
  {
    const std::string folder = settings.options.out + "/step-5";
    lab::prepare_output_folder(folder + "/images");
    const std::string precision = lab::precision_name<T>();
    const std::vector<MethodResult> results =
      restore_through_field<T>(settings, field, sampled, original, degraded, lambda, problem, precision + " " + prefix,
                               checks, cublas, std::move(made_together));
    const std::string name = prefix + "_varying_" + kind_of(field) + "_" + precision;
    write_images(folder + "/images", name, original, degraded, results);
    VaryingTable table;
    table.add(VaryingImage::given, lambda.lambda, original, degraded, results);
    table.write(folder + "/" + name + ".dat", precision, settings.device, settings.options.reps,
                field_notes(settings, field));
    return results;
  }

  template std::vector<MethodResult> restore_through_field_in_precision<float>(
    const Settings &, const PsfField &, const SampledField &, const lab::Matrix<double> &,
    const lab::Matrix<double> &, const ImageLambda &, DeviceProblem<float> *, const std::string &, lab::Checks &,
    lab::Cublas *, std::vector<MethodResult>);
  template std::vector<MethodResult> restore_through_field_in_precision<double>(
    const Settings &, const PsfField &, const SampledField &, const lab::Matrix<double> &,
    const lab::Matrix<double> &, const ImageLambda &, DeviceProblem<double> *, const std::string &, lab::Checks &,
    lab::Cublas *, std::vector<MethodResult>);

  std::vector<std::vector<MethodResult>>
  restore_through_field_in_each_precision(const Settings &settings, const PsfField &field, const SampledField &sampled,
                                          const lab::Matrix<double> &original, const lab::Matrix<double> &degraded,
                                          std::optional<double> sigma, const std::string &prefix, lab::Checks &checks,
                                          lab::Cublas *cublas)
  {
    std::vector<std::vector<MethodResult>> each_precision;
    // One λ for both precisions, chosen in the first (float's range, if float runs, is
    // the narrower).
    std::optional<ImageLambda> chosen;
    lab::for_each_precision(settings.options, [&](auto zero) {
      using T = decltype(zero);
      std::optional<DeviceProblem<T>> problem = problem_on_device<T>(settings.use_gpu, sampled, degraded);
      if (!chosen)
        chosen = field_lambda<T>(settings, sampled, degraded, sigma, pointer_to(problem));
      each_precision.push_back(restore_through_field_in_precision<T>(settings, field, sampled, original, degraded,
                                                                     *chosen, pointer_to(problem), prefix, checks,
                                                                     cublas));
    });
    return each_precision;
  }
} // namespace step5
