// step-5: deblurring an image by a dense direct solve, and what beats it.
//
// What this program shows: the whole course at work on one problem. An image f is
// blurred by a known point-spread function and made noisy, g = H f + noise, and
// recovered by regularised least squares, (HᵀH + λI) f = Hᵀg, with the thesis'
// method: H as a dense n × n matrix (n = pixels), A = HᵀH + λI by step-4's product,
// A = L Lᵀ by step-2's Cholesky, then the explicit inverse by step-3's GETS and
// products, or two triangular solves by step-3's substitution. The same pipeline runs
// on cuBLAS products and on cuBLAS + cuSOLVER in the same run, stage by stage. Then
// the methods that beat it on the same equations: conjugate gradients without any
// matrix, an FFT filter (on another boundary model, and the PSNR shows it),
// Gauss–Seidel, which the thesis featured, and, where SuiteSparse is installed, the
// sparse direct solver a practitioner would pick on a CPU: CHOLMOD's sparse Cholesky.
//
// For each image size s (an s × s Shepp–Logan phantom; n = s² unknowns) and
// precision it prints one line per method: time, PSNR against the original, and the
// check (the backward error of the normal equations for the direct methods, the
// residual reached for the iterative ones). Then the thesis' test set: blur and
// sharpen, each without noise, with salt-and-pepper and with Gaussian noise, MSE and
// PSNR before and after. Tables: `step-5/times_<precision>.dat`, `quality_…`,
// `stages_…`, `test_set.dat`; images under `step-5/images/`.
//
// `--image FILE` restores a PGM image of your own instead of the phantom;
// `--degraded FILE --psf FILE` restores an image degraded elsewhere (no degradation
// here), `--reference FILE` then gives the original for the PSNR.

// @sect3{Include files}
#include "blur_model.h"
#include "gram_matrix.h"
#include "lambda_choice.h"
#include "psf.h"
#include "report.h"
#include "restoration.h"

#include <lab/checks.h>
#include <lab/cli.h>
#include <lab/cublas_gemm.h>
#include <lab/device.h>
#include <lab/forecast.h>
#include <lab/format.h>
#include <lab/image_quality.h>
#include <lab/memory.h>
#include <lab/pgm.h>
#include <lab/png.h>
#include <lab/program.h>
#include <lab/table.h>
#include <lab/test_images.h>
#include <lab/timer.h>
#include <lab/precision.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace step5
{
  // @sect3{What the program was asked to do}
  //
  // The methods come in families that --method picks from: "dense" is the five dense
  // pipelines (step-4's kernels and cuBLAS, each with two solves and with the
  // inverse, and cuSOLVER) and the thesis' test set, which compares with them;
  // "band" the band Cholesky, "cg" conjugate gradients, "fft" both FFT filters, and
  // the two CPU methods. All run by default; `--method band,cg` at 1024² skips what
  // only the small sizes can afford.
  const std::vector<std::string> method_families = {"dense", "band", "cg", "fft", "gauss-seidel", "cholmod"};

  struct Settings
  {
    lab::CommonOptions options;
    std::string psf = "gaussian:1.5:9"; // --psf: a description or a file
    std::string noise = "gaussian:0.01"; // --noise
    bool noise_given = false;            // whether --noise was on the command line
    std::string lambda = "auto";         // --lambda: a number, auto, gcv or discrepancy
    std::uint64_t seed = 1;              // --seed: of the noise
    std::string image_file;              // --image: a PGM instead of the phantom
    std::string degraded_file;           // --degraded: restore only
    std::string reference_file;          // --reference: the original of --degraded
    std::vector<std::string> methods = method_families; // --method: which ones run
    lab::DeviceInfo device;
    bool use_gpu = false;

    bool wants(const std::string &family) const
    {
      return std::find(methods.begin(), methods.end(), family) != methods.end();
    }
  };

  // Image sides of the sweep: the dense matrix of s = 256 is 65536² (16 GiB in float),
  // the largest an 80 GB GPU holds three of; the band pipeline and the matrix-free
  // methods go on to s = 1024 (a band of 42 GiB in float); quick mode stops at 64
  // (4096², seconds).
  const std::vector<int> full_sweep = {32, 64, 128, 256, 512, 1024};
  const std::vector<int> quick_sweep = {32, 64};
  // Gauss–Seidel on the CPU only up to this side: its sweeps are sequential, and
  // their number grows with A's condition number (see the results page).
  constexpr int gauss_seidel_limit = 64;
  // The sparse Cholesky (CHOLMOD, CPU, double) up to this side: at 512² its stencil
  // and factor take a few GB of host memory and seconds; it runs once per image.
  constexpr int sparse_cholesky_limit = 512;

  // The PSF a --psf argument names: an existing file is read, anything else is a
  // description (psf.h).
  Psf psf_from_argument(const std::string &argument)
  {
    return std::filesystem::is_regular_file(argument) ? read_psf(argument) : parse_psf(argument);
  }

  // @sect3{Degrading an image}
  //
  // --noise is "none", "gaussian:SIGMA" (standard deviation, in units of the full
  // brightness range) or "salt-and-pepper:DENSITY" (the fraction of pixels set to 0
  // or 1).
  struct Noise
  {
    std::string kind = "none";
    double amount = 0;
  };

  Noise parse_noise(const std::string &text)
  {
    const std::string forms = "none, gaussian:SIGMA (SIGMA >= 0) or salt-and-pepper:DENSITY (0 <= DENSITY <= 1)";
    if (text == "none")
      return {};
    const std::size_t colon = text.find(':');
    Noise noise;
    noise.kind = text.substr(0, colon);
    try
      {
        std::size_t used = 0;
        const std::string number = colon == std::string::npos ? "" : text.substr(colon + 1);
        noise.amount = std::stod(number, &used);
        if (used != number.size())
          throw std::invalid_argument(number);
      }
    catch (const std::logic_error &)
      {
        throw lab::bad_input("--noise: '" + text + "' is not one of " + forms);
      }
    const bool valid = std::isfinite(noise.amount) && ((noise.kind == "gaussian" && noise.amount >= 0) ||
                                                       (noise.kind == "salt-and-pepper" && noise.amount >= 0 &&
                                                        noise.amount <= 1));
    if (!valid)
      throw lab::bad_input("--noise: '" + text + "' is not one of " + forms);
    return noise;
  }

  lab::Matrix<double> degrade(const lab::Matrix<double> &original, const Psf &psf, const Noise &noise,
                              std::uint64_t seed)
  {
    const lab::Matrix<double> blurred = blur(psf, original);
    if (noise.kind == "gaussian")
      return lab::add_gaussian_noise(blurred, noise.amount, seed);
    if (noise.kind == "salt-and-pepper")
      return lab::add_salt_and_pepper(blurred, noise.amount, seed);
    return blurred;
  }

  // @sect3{Choosing λ for an image}
  //
  // --lambda is a number, used as it is, or a rule that chooses λ for each degraded
  // image (lambda_choice.h): "gcv", which needs nothing else, or "discrepancy", which
  // needs the noise's level σ. Where this program made the noise it knows σ exactly:
  // the RMS of what it added. For an image degraded elsewhere, --noise gaussian:SIGMA
  // says what it was.
  //
  // The default, "auto", takes the discrepancy principle wherever σ is known and GCV
  // where it is not (an image degraded elsewhere, its noise not stated; or no noise at
  // all). It replaced the thesis' fixed λ = 10⁻³, which suits one size of one image:
  // on the phantom it gained 0.07 dB at 256² and lost 2.3 dB at 512² and 4.6 dB at
  // 1024², where the phantom's shapes are many pixels wide, the blur hardly touches
  // them, and what a small λ lets through is mostly noise. A rule looks at each image.
  bool is_lambda_rule(const std::string &text) { return text == "auto" || text == "gcv" || text == "discrepancy"; }

  // --lambda as the header of the output and of the tables states it.
  std::string lambda_text(const std::string &lambda)
  {
    return lambda == "auto" ? "auto (per image: the discrepancy principle where the noise's level is known, else GCV)"
                            : lambda;
  }

  // The number of a --lambda that is not a rule, or NaN when the text is not one.
  double lambda_number(const std::string &text)
  {
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    const bool whole = !text.empty() && end == text.c_str() + text.size();
    return whole && std::isfinite(value) && value >= 0 ? value : std::numeric_limits<double>::quiet_NaN();
  }

  // The root mean square of the noise in @p degraded: what is left after the blur.
  double noise_level(const Psf &psf, const lab::Matrix<double> &original, const lab::Matrix<double> &degraded)
  {
    return std::sqrt(lab::mean_squared_error(blur(psf, original), degraded));
  }

  // The λ of one image, with the rule's name for the line that closes the image's
  // report (report.h) and its own account of the choice for the line before.
  struct ImageLambda
  {
    double lambda;
    std::string rule;   // "by the discrepancy principle", "by GCV", "from --lambda"
    std::string detail; // lambda_choice.h's text, or "given by --lambda"
  };

  // λ as --lambda asks, for solves in precision @p T (the floor of the range the
  // rules search, lambda_choice.h); @p sigma is the noise's level, 0 where it is not
  // known.
  template <typename T>
  ImageLambda choose_lambda(const std::string &lambda, const Psf &psf, const lab::Matrix<double> &degraded,
                            double sigma)
  {
    const LambdaRange range = lambda_range(psf, std::numeric_limits<T>::epsilon() / 2);
    const std::string rule = lambda != "auto" ? lambda : sigma > 0 ? "discrepancy" : "gcv";
    if (rule == "gcv")
      {
        const LambdaChoice choice = choose_lambda_by_gcv(psf, degraded, range);
        return {choice.lambda, "by GCV", choice.how};
      }
    if (rule == "discrepancy")
      {
        const LambdaChoice choice = choose_lambda_by_discrepancy(psf, degraded, sigma, range);
        return {choice.lambda, "by the discrepancy principle", choice.how};
      }
    return {lambda_number(lambda), "from --lambda", "given by --lambda"};
  }

  // @sect3{The memory a size needs}
  //
  // The matrix-free methods need a few images; the refusal of sizes that cannot fit
  // at all is about those (and the CPU's stencil for Gauss–Seidel). The dense
  // pipelines need three n × n matrices, n = s²: a size whose dense matrices do not
  // fit in the GPU's free memory runs without them, and says so.
  template <typename T>
  lab::Memory memory_needed(int side)
  {
    const double pixels = double(side) * side;
    return {pixels * 64 * sizeof(double), pixels * 16 * sizeof(T)};
  }

  template <typename T>
  bool dense_fits(const Settings &settings, int rows, int cols)
  {
    return settings.use_gpu &&
           DensePipeline<T>::device_bytes(rows, cols, true) <= 0.9 * double(settings.device.free_memory);
  }

  // The band pipeline needs n·(b + 3nb) numbers (band_pipeline.h).
  template <typename T>
  bool band_fits(const Settings &settings, const Psf &psf, int rows, int cols)
  {
    return settings.use_gpu &&
           BandPipeline<T>::device_bytes(psf, rows, cols) <= 0.9 * double(settings.device.free_memory);
  }

  // @sect3{The tables}
  //
  // One row per image size; every method has a column in the times table and one in
  // the quality table (NaN where it did not run), and each dense pipeline its stages.
  const std::vector<std::string> method_names = {
    "dense_course_solve", "dense_course_inverse", "dense_cublas_solve", "dense_cublas_inverse", "dense_cusolver",
    "band_course_solve",  "cg",                   "fft_periodic",       "fft_mirrored",         "gauss_seidel",
    "cholmod",            "dense_tf32_refined",   "dense_cusolver_irs"};

  // The pipelines whose stages are tabulated: name, and the methods of their two
  // routes (empty: the pipeline has no inverse route).
  struct TabulatedPipeline
  {
    std::string name, solve_method, inverse_method;
  };
  const std::vector<TabulatedPipeline> tabulated_pipelines = {
    {"course", "dense_course_solve", "dense_course_inverse"},
    {"cublas", "dense_cublas_solve", "dense_cublas_inverse"},
    {"cusolver", "dense_cusolver", ""},
    {"band", "band_course_solve", ""},
    {"tf32", "dense_tf32_refined", ""},
    {"cusolver_irs", "dense_cusolver_irs", ""}};

  // Every table starts with n (unknowns, the course's size column) and the image's
  // rows and columns.
  std::vector<std::string> method_columns(const std::string &suffix, const std::vector<std::string> &before = {})
  {
    std::vector<std::string> columns = {"n", "rows", "cols"};
    columns.insert(columns.end(), before.begin(), before.end());
    for (const std::string &name : method_names)
      columns.push_back(name + suffix);
    return columns;
  }

  std::vector<std::string> stage_columns()
  {
    std::vector<std::string> columns = {"n", "rows", "cols"};
    for (const TabulatedPipeline &pipeline : tabulated_pipelines)
      for (const std::string stage : {"build", "normal", "factor", "invert", "inverse", "apply", "solve"})
        columns.push_back(pipeline.name + "_" + stage + "_ms");
    return columns;
  }

  struct Tables
  {
    lab::Table times{method_columns("_ms")};
    lab::Table quality{method_columns("_psnr", {"lambda", "degraded_psnr"})};
    lab::Table stages{stage_columns()};

    void add(double lambda, const lab::Matrix<double> &original, const lab::Matrix<double> &degraded,
             const std::vector<MethodResult> &results)
    {
      const int rows = degraded.rows(), cols = degraded.cols();
      const double nan = std::numeric_limits<double>::quiet_NaN();
      const auto find = [&](const std::string &name) -> const MethodResult * {
        for (const MethodResult &m : results)
          if (m.name == name && m.failure.empty())
            return &m;
        return nullptr;
      };
      const double n = double(rows) * cols;
      std::vector<double> time_row = {n, double(rows), double(cols)},
                          quality_row = {n, double(rows), double(cols), lambda, psnr_or_nan(original, degraded)};
      for (const std::string &name : method_names)
        {
          const MethodResult *m = find(name);
          time_row.push_back(m ? m->milliseconds : nan);
          quality_row.push_back(m ? psnr_or_nan(original, m->image) : nan);
        }
      std::vector<double> stage_row = {n, double(rows), double(cols)};
      for (const TabulatedPipeline &pipeline : tabulated_pipelines)
        {
          const MethodResult *solve = find(pipeline.solve_method);
          const MethodResult *inverse = find(pipeline.inverse_method);
          const auto stage = [&](const MethodResult *m, double DenseTimes::*field) {
            return m ? m->stages.*field : nan;
          };
          stage_row.insert(stage_row.end(),
                           {stage(solve, &DenseTimes::build), stage(solve, &DenseTimes::normal),
                            stage(solve, &DenseTimes::factor), stage(inverse, &DenseTimes::invert),
                            stage(inverse, &DenseTimes::inverse), stage(inverse, &DenseTimes::apply),
                            stage(solve, &DenseTimes::solve)});
        }
      times.add_row(time_row);
      quality.add_row(quality_row);
      stages.add_row(stage_row);
    }
  };

  // The three tables of one sweep or image, as `path` followed by times_, quality_ and stages_ with the precision and .dat
  void write_tables(const Tables &tables, const Settings &settings, const Psf &psf, const std::string &path,
                    const std::string &precision)
  {
    const std::string gpu = settings.use_gpu ? settings.device.name : "none";
    const std::vector<std::string> notes = {"psf: " + psf.name, "noise: " + settings.noise,
                                            "lambda: " + lambda_text(settings.lambda)};
    tables.times.write(path + "times_" + precision + ".dat",
                       {"step-5 times of each method (ms)", gpu, precision, settings.options.reps, notes});
    tables.quality.write(path + "quality_" + precision + ".dat",
                         {"step-5 PSNR of each method (dB)", gpu, precision, settings.options.reps, notes});
    tables.stages.write(path + "stages_" + precision + ".dat",
                        {"step-5 stages of the dense pipelines (ms)", gpu, precision, settings.options.reps, notes});
  }

  // How often the dense pipelines run on an image of n pixels. They take a fraction of
  // a second up to 128², and the time printed is the median of several runs, which
  // also leaves out the first run's one-time costs (cuBLAS choosing and loading its
  // kernels for each new shape: measured up to twice the pipeline's time at 128² when
  // no smaller size ran before). At 256² they take seconds each, and one run is
  // timed: the one-time costs are then about 1%.
  int dense_repetitions(const Settings &settings, int n)
  {
    return n <= 128 * 128 ? settings.options.reps : 1;
  }

  // The band pipeline takes well under a second up to 512²: the median of several
  // runs there, one run at 1024².
  int band_repetitions(const Settings &settings, int n)
  {
    return n <= 512 * 512 ? settings.options.reps : 1;
  }

  // @sect3{One image, every method}
  //
  // Restores @p degraded in precision T with every method that fits, prints the
  // lines, records the checks, and closes with the λ chosen for this image and what
  // the restoration gained over the degraded image (report.h). The CPU
  // methods, Gauss–Seidel and the sparse Cholesky (both in double), run with the first
  // precision only (@p with_cpu_methods): they are the same computation in both.
  template <typename T>
  std::vector<MethodResult> restore_image(const Settings &settings, const Psf &psf, const lab::Matrix<double> &original,
                                          const lab::Matrix<double> &degraded, const ImageLambda &lambda,
                                          bool with_cpu_methods, const std::string &label, lab::Checks &checks,
                                          lab::Cublas *cublas)
  {
    const int rows = degraded.rows(), cols = degraded.cols(), n = rows * cols;
    RestoreOptions options;
    options.lambda = lambda.lambda;
    options.use_gpu = settings.use_gpu;
    options.reps = settings.options.reps;
    options.dense_reps = dense_repetitions(settings, n);
    options.dense = settings.wants("dense") && dense_fits<T>(settings, rows, cols);
    options.band_reps = band_repetitions(settings, n);
    options.band = settings.wants("band") && band_fits<T>(settings, psf, rows, cols);
    options.cg = settings.wants("cg");
    options.fft = settings.wants("fft");
    options.gauss_seidel =
      settings.wants("gauss-seidel") && with_cpu_methods && std::max(rows, cols) <= gauss_seidel_limit;
    options.sparse_cholesky = settings.wants("cholmod") && with_cpu_methods && have_cholmod() &&
                              n <= sparse_cholesky_limit * sparse_cholesky_limit;
    // The TF32 pipeline (float) with the dense ones. It runs after them, on its own H
    // and A, but asks for as much as the dense pipelines' three matrices and its own
    // solver's copy of A and its products' scratch: at 256² on an 80 GB GPU, where
    // H, A and those alone (64 GiB) should have fitted, it ran out of memory.
    const double tf32_bytes = DensePipeline<T>::device_bytes(rows, cols, true) + tf32_pipeline_bytes(n);
    options.tf32 = std::is_same_v<T, float> && settings.wants("dense") && settings.use_gpu &&
                   tf32_bytes <= 0.9 * double(settings.device.free_memory);
    if (std::is_same_v<T, float> && settings.wants("dense") && settings.use_gpu && !options.tf32)
      std::printf("    TF32 pipeline skipped: it needs %s of GPU memory, %s free\n",
                  lab::format_bytes(std::size_t(tf32_bytes)).c_str(),
                  lab::format_bytes(settings.device.free_memory).c_str());
    // cuSOLVER's IRS solver beside it, where its 32-bit sizes reach: at n = 65536 (a
    // 256² image, n² = 2³²) cusolverDnIRSXgesv failed with
    // CUSOLVER_STATUS_EXECUTION_FAILED on an H200 (CUDA 13.0).
    options.irs = options.tf32 && std::is_same_v<T, float> && double(n) * n < 0x1p31;
    if (options.tf32 && !options.irs)
      std::printf("    cuSOLVER IRS skipped: its 32-bit interface fails at n = %d (n^2 >= 2^31)\n", n);
    if (settings.use_gpu && settings.wants("dense") && !options.dense)
      std::printf("    dense pipelines skipped: they need %s of GPU memory, %s free\n",
                  lab::format_bytes(std::size_t(DensePipeline<T>::device_bytes(rows, cols, true))).c_str(),
                  lab::format_bytes(settings.device.free_memory).c_str());
    if (settings.use_gpu && settings.wants("band") && !options.band)
      std::printf("    band pipeline skipped: it needs %s of GPU memory, %s free\n",
                  lab::format_bytes(std::size_t(BandPipeline<T>::device_bytes(psf, rows, cols))).c_str(),
                  lab::format_bytes(settings.device.free_memory).c_str());
    const std::vector<MethodResult> results = restore_with_every_method<T>(psf, degraded, options, cublas);
    const double u = std::numeric_limits<T>::epsilon() / 2;
    const Tolerances tolerances{direct_tolerance(n, u), inverse_tolerance(n, u, psf, lambda.lambda)};
    report_methods(results, original, degraded, tolerances, label, checks);
    report_gain(results, original, degraded, lambda.lambda, lambda.rule);
    return results;
  }

  // @sect3{The sweep over image sizes}
  template <typename T>
  void run_sweep(const Settings &settings, const Psf &psf, const Noise &noise, const std::vector<int> &sides,
                 bool with_cpu_methods, lab::Checks &checks, lab::Cublas *cublas)
  {
    const std::string precision = lab::precision_name<T>();
    const std::string folder = settings.options.out + "/step-5";
    Tables tables;
    lab::TimeForecast forecast;
    for (const int side : sides)
      {
        const int n = side * side;
        check_psf(psf, side, side);
        // The forecast follows the dense pipelines, whose n³ work dominates where they
        // run; the band pipeline's grows as n·b² (about n² for square images).
        const bool dense = settings.wants("dense") && dense_fits<T>(settings, side, side);
        if (dense)
          forecast.announce(n);
        const lab::Matrix<double> original = lab::shepp_logan(side);
        const lab::Matrix<double> degraded = degrade(original, psf, noise, settings.seed);
        std::printf("\n%d x %d image (n = %d), %s: dense matrices %s, band %s\n", side, side, n, precision.c_str(),
                    lab::format_bytes(std::size_t(DensePipeline<T>::device_bytes(side, side, true))).c_str(),
                    lab::format_bytes(std::size_t(BandPipeline<T>::device_bytes(psf, side, side))).c_str());
        const ImageLambda lambda =
          choose_lambda<T>(settings.lambda, psf, degraded, noise_level(psf, original, degraded));
        std::printf("    lambda %g: %s\n", lambda.lambda, lambda.detail.c_str());
        lab::HostTimer timer;
        const std::string label = precision + " s=" + std::to_string(side);
        const std::vector<MethodResult> results =
          restore_image<T>(settings, psf, original, degraded, lambda, with_cpu_methods, label, checks, cublas);
        // The forecast extrapolates the time of one repetition.
        if (dense)
          forecast.record(n, timer.milliseconds() / 1000 / dense_repetitions(settings, n));
        char prefix[32];
        std::snprintf(prefix, sizeof prefix, "s%03d_%s", side, precision.c_str());
        write_images(folder + "/images", prefix, original, degraded, results);
        tables.add(lambda.lambda, original, degraded, results);
      }
    write_tables(tables, settings, psf, folder + "/", precision);
  }

  // @sect3{The thesis' test set}
  //
  // The thesis restored a 64 × 64 image blurred and sharpened, each without noise,
  // with salt-and-pepper and with Gaussian noise, and gave the MSE of each result
  // (its table 6.3). The same six cases here, and three more with a one-sided trail,
  // which the thesis did not try: nine, in float with the course's dense pipeline
  // (two solves) and with the thesis' own formula beside it, MSE and PSNR of the
  // degraded and of the restored image. λ is the thesis' own 10⁻³ for every case by
  // default, so that the table compares with its figures; --lambda's number where one
  // is given; and with --lambda gcv or discrepancy GCV for each case (the discrepancy
  // principle has nothing to measure without noise). Every method that runs is checked
  // as in the sweep, by η computed on the host for the equations it solves
  // (restoration.h): the restored image must solve the normal equations, the thesis'
  // formula its own, whatever the PSNR says.
  const std::string thesis_lambda = "0.001";

  void run_test_set(const Settings &settings, const Psf &blur_psf, int side, lab::Checks &checks,
                    lab::Cublas *cublas)
  {
    std::string per_case = settings.lambda;
    if (settings.lambda == "auto")
      per_case = thesis_lambda;
    else if (is_lambda_rule(settings.lambda))
      per_case = "gcv";
    std::printf("\nthe thesis' test set: %d x %d phantom, float, lambda: %s\n", side, side, per_case.c_str());
    std::printf("    %-28s %-22s %9s %21s %21s %16s\n", "psf", "noise", "lambda", "degraded MSE / PSNR",
                "restored MSE / PSNR", "thesis' formula");
    lab::Table table(
      {"case", "lambda", "degraded_mse", "degraded_psnr", "restored_mse", "restored_psnr", "thesis_psnr"});
    const lab::Matrix<double> original = lab::shepp_logan(side);
    // The thesis' two PSFs, and a trail, which it did not try: the PSF for which its
    // formula is wrong (the last column).
    const std::vector<Psf> psfs = {blur_psf, sharpen_psf(), trail_psf(9, 30)};
    const std::vector<std::string> noises = {"none", "salt-and-pepper:0.05", "gaussian:0.01"};
    int case_number = 0;
    for (const Psf &psf : psfs)
      for (const std::string &noise_text : noises)
        {
          const lab::Matrix<double> degraded = degrade(original, psf, parse_noise(noise_text), settings.seed);
          const double lambda =
            choose_lambda<float>(per_case, psf, degraded, noise_level(psf, original, degraded)).lambda;
          RestoreOptions options;
          options.lambda = lambda;
          options.use_gpu = settings.use_gpu;
          options.dense = dense_fits<float>(settings, side, side);
          options.band = false; // the table compares the dense solution with the thesis' formula
          options.thesis_formula = true;
          options.cg = options.fft = false;         // not in the table
          options.gauss_seidel = !settings.use_gpu; // without a GPU, the CPU's method
          const std::vector<MethodResult> results = restore_with_every_method<float>(psf, degraded, options, cublas);
          const auto psnr_of = [&](const std::string &name) {
            for (const MethodResult &m : results)
              if (m.name == name && m.failure.empty())
                return lab::psnr(original, m.image);
            return std::numeric_limits<double>::quiet_NaN();
          };
          const std::string restored_by = settings.use_gpu ? "dense_course_solve" : "gauss_seidel";
          const double restored_psnr = psnr_of(restored_by);
          const double restored_mse = std::pow(10.0, -restored_psnr / 10); // PSNR = 10 log10(1 / MSE)
          const double degraded_mse = lab::mean_squared_error(original, degraded);
          std::printf("    %-28s %-22s %9.2e %10.2e / %6.2f %10.2e / %6.2f %13s dB\n", psf.name.c_str(),
                      noise_text.c_str(), lambda, degraded_mse, lab::psnr(original, degraded), restored_mse, restored_psnr,
                      lab::format_or_dash(psnr_of("thesis_formula"), "%.2f").c_str());
          const double u = std::numeric_limits<float>::epsilon() / 2;
          const Tolerances tolerances{direct_tolerance(side * side, u), inverse_tolerance(side * side, u, psf, lambda)};
          const std::string label = "test set " + psf.name + " " + noise_text;
          for (const MethodResult &m : results)
            check_method(m, tolerances, label, checks);
          if (!std::isfinite(restored_psnr))
            checks.fail(label, restored_by + " gave no image");
          table.add_row({double(++case_number), lambda, degraded_mse, lab::psnr(original, degraded), restored_mse,
                         restored_psnr, psnr_of("thesis_formula")});
        }
    table.write(settings.options.out + "/step-5/test_set.dat",
                {"step-5 the thesis' test set: cases 1-3 blur, 4-6 sharpen, 7-9 trail; none, salt-and-pepper 0.05, "
                 "gaussian 0.01",
                 settings.use_gpu ? settings.device.name : "none", "float", 1, {"blur psf: " + blur_psf.name}});
  }

  // @sect3{Restoring an image of your own}
  //
  // One image, in float and in double as asked, every method, the images written
  // under @p prefix; the PSNR against @p original when there is one. @p sigma is the
  // noise's level, for the discrepancy principle; 0 where it is not known.
  void restore_in_each_precision(const Settings &settings, const Psf &psf, const lab::Matrix<double> &original,
                                 const lab::Matrix<double> &degraded, double sigma, const std::string &prefix,
                                 lab::Checks &checks, lab::Cublas *cublas)
  {
    const std::string folder = settings.options.out + "/step-5";
    lab::prepare_output_folder(folder + "/images");
    // One λ for both precisions: float's range, if float runs, is the narrower.
    const ImageLambda lambda = settings.options.wants_float()
                                 ? choose_lambda<float>(settings.lambda, psf, degraded, sigma)
                                 : choose_lambda<double>(settings.lambda, psf, degraded, sigma);
    std::printf("    lambda %g: %s\n", lambda.lambda, lambda.detail.c_str());
    for (const std::string precision : {"float", "double"})
      {
        if (!(precision == "float" ? settings.options.wants_float() : settings.options.wants_double()))
          continue;
        const bool first = precision == "float" || !settings.options.wants_float();
        const std::vector<MethodResult> results =
          precision == "float"
            ? restore_image<float>(settings, psf, original, degraded, lambda, first, precision, checks, cublas)
            : restore_image<double>(settings, psf, original, degraded, lambda, first, precision, checks, cublas);
        write_images(folder + "/images", prefix + "_" + precision, original, degraded, results);
        Tables tables;
        tables.add(lambda.lambda, original, degraded, results);
        write_tables(tables, settings, psf, folder + "/" + prefix + "_", precision);
      }
  }

  // --image FILE: degraded here, by the PSF and the noise asked for.
  void restore_image_file(const Settings &settings, const Psf &psf, const Noise &noise, lab::Checks &checks,
                          lab::Cublas *cublas)
  {
    const lab::Matrix<double> original = lab::read_pgm(settings.image_file);
    check_psf(psf, original.rows(), original.cols());
    std::printf("\n%s (%d x %d)\n", settings.image_file.c_str(), original.cols(), original.rows());
    const lab::Matrix<double> degraded = degrade(original, psf, noise, settings.seed);
    restore_in_each_precision(settings, psf, original, degraded, noise_level(psf, original, degraded), "image", checks,
                              cublas);
  }

  // --degraded FILE with --psf: degraded elsewhere, restored here, with the PSNR
  // against --reference when it is given; --noise gaussian:SIGMA, if given, is the
  // noise level the discrepancy principle uses (without it, the default λ is GCV's).
  void restore_degraded_file(const Settings &settings, const Psf &psf, const Noise &noise, lab::Checks &checks,
                             lab::Cublas *cublas)
  {
    const lab::Matrix<double> degraded = lab::read_pgm(settings.degraded_file);
    lab::Matrix<double> reference;
    if (!settings.reference_file.empty())
      {
        reference = lab::read_pgm(settings.reference_file);
        if (reference.rows() != degraded.rows() || reference.cols() != degraded.cols())
          throw lab::bad_input("--reference: '" + settings.reference_file + "' is " + std::to_string(reference.cols()) +
                               " x " + std::to_string(reference.rows()) + ", the degraded image " +
                               std::to_string(degraded.cols()) + " x " + std::to_string(degraded.rows()));
      }
    check_psf(psf, degraded.rows(), degraded.cols());
    std::printf("\nrestoring %s (%d x %d) with psf %s\n", settings.degraded_file.c_str(), degraded.cols(),
                degraded.rows(), psf.name.c_str());
    const double sigma = settings.noise_given && noise.kind == "gaussian" ? noise.amount : 0;
    restore_in_each_precision(settings, psf, reference, degraded, sigma, "restored", checks, cublas);
  }

  // @sect3{The phantom at every size}
  //
  // The default: the sweep over image sizes in each precision asked for, then the
  // thesis' test set. Sizes that cannot fit at all are refused before any work.
  void run_phantom(const Settings &settings, const Psf &psf, const Noise &noise, lab::Checks &checks,
                   lab::Cublas *cublas)
  {
    const std::vector<int> sides = lab::choose_sizes(settings.options, full_sweep, quick_sweep);
    if (settings.options.wants_float())
      lab::refuse_sizes_that_do_not_fit(sides, memory_needed<float>, "float: an image of side n", settings.use_gpu);
    if (settings.options.wants_double())
      lab::refuse_sizes_that_do_not_fit(sides, memory_needed<double>, "double: an image of side n", settings.use_gpu);
    for (const int side : sides)
      check_psf(psf, side, side);
    lab::prepare_output_folder(settings.options.out + "/step-5/images");
    if (settings.options.wants_float())
      run_sweep<float>(settings, psf, noise, sides, true, checks, cublas);
    if (settings.options.wants_double())
      run_sweep<double>(settings, psf, noise, sides, !settings.options.wants_float(), checks, cublas);
    // The test set restores with the dense pipeline (Gauss–Seidel without a GPU).
    if (settings.wants(settings.use_gpu ? "dense" : "gauss-seidel"))
      run_test_set(settings, psf, settings.options.quick ? 32 : 64, checks, cublas);
  }
} // namespace step5

// @sect3{The main function}
//
// Parse the command line, say what runs where, refuse what cannot be done (a bad
// PSF, noise or λ, an unreadable image, sizes that do not fit, an output folder that
// cannot be written: exit code 2), run, print the summary (exit code 1 when a check
// failed).
int main(int argc, char **argv)
{
  using namespace step5;
  Settings settings;
  CLI::App app{"step-5: deblurring an image by a dense direct solve, and what beats it.\n"
               "Model: g = H f + noise, H the convolution with the PSF (the picture of a blurred point, centre "
               "at row rows/2, column cols/2), zero boundary (nothing outside the image), images stacked row by "
               "row. Solved: (H^T H + lambda I) f = H^T g. --sizes are image sides s (n = s^2 unknowns).\n"
               "Methods: the dense pipelines (step-4's kernels, cuBLAS, cuSOLVER), the band Cholesky, conjugate "
               "gradients and the FFT filters on the GPU; Gauss-Seidel (up to 64 x 64) and, in a build with "
               "SuiteSparse, CHOLMOD's sparse Cholesky (up to 512 x 512 pixels) on the CPU.",
               "step-5"};
  lab::add_common_options(app, settings.options);
  app.add_option("--psf", settings.psf,
                 "gaussian:SIGMA:SIZE, box:SIZE, motion:LENGTH:ANGLE, trail:LENGTH:ANGLE (one-sided), sharpen[:ALPHA], or a "
                 "file of rows of numbers (row 0 the top of the picture)")
    ->type_name("PSF")
    ->capture_default_str();
  app.add_option("--noise", settings.noise, "none, gaussian:SIGMA or salt-and-pepper:DENSITY")
    ->type_name("NOISE")
    ->capture_default_str();
  app.add_option("--lambda", settings.lambda,
                 "The regularisation weight: a number >= 0, or chosen for each image by gcv (generalised "
                 "cross-validation), discrepancy (the discrepancy principle with the noise's level) or auto "
                 "(discrepancy where the noise's level is known, else gcv; the thesis' test set keeps its 0.001)")
    ->type_name("LAMBDA")
    ->check([](const std::string &text) {
      return is_lambda_rule(text) || !std::isnan(lambda_number(text))
               ? std::string()
               : "'" + text + "' is neither a number >= 0 nor auto, gcv or discrepancy";
    })
    ->capture_default_str();
  app.add_option("--seed", settings.seed, "Seed of the noise")->capture_default_str();
  app.add_option("--method", settings.methods,
                 "Only these methods, comma-separated: dense (the dense pipelines and the thesis' test set), band, "
                 "cg, fft, gauss-seidel, cholmod (default: all)")
    ->type_name("LIST")
    ->delimiter(',')
    ->check(CLI::IsMember(method_families).description(""));
  auto *image = app.add_option("--image", settings.image_file, "Restore this PGM image instead of the phantom")
                  ->type_name("FILE")
                  ->excludes(app.get_option("--sizes"));
  auto *degraded = app.add_option("--degraded", settings.degraded_file,
                                  "Restore this already degraded PGM image (needs --psf; no degradation)")
                     ->type_name("FILE")
                     ->excludes(image)
                     ->excludes(app.get_option("--sizes"));
  app.add_option("--reference", settings.reference_file, "The original of --degraded, for MSE and PSNR")
    ->type_name("FILE")
    ->needs(degraded);
  if (const auto exit_code = lab::parse_command_line(app, argc, argv))
    return *exit_code;

  return lab::run_program("step-5", [&] {
    std::printf("step-5: deblurring by a dense direct solve, against cuSOLVER, cuFFT and conjugate gradients\n");
    const Psf psf = psf_from_argument(settings.psf);
    const Noise noise = parse_noise(settings.noise);
    settings.noise_given = app.get_option("--noise")->count() > 0;
    if (!settings.degraded_file.empty() && app.get_option("--psf")->count() == 0)
      throw lab::bad_input("--degraded needs --psf: the PSF the image was blurred with");
    if (settings.lambda == "discrepancy" && !settings.degraded_file.empty() &&
        (!settings.noise_given || noise.kind != "gaussian" || noise.amount <= 0))
      throw lab::bad_input("--lambda discrepancy with --degraded needs the noise's level: --noise gaussian:SIGMA");
    if (settings.lambda == "discrepancy" && settings.degraded_file.empty() && noise.kind == "none")
      throw lab::bad_input("--lambda discrepancy needs noise to measure, and --noise none adds none: use gcv or a "
                           "number");
    settings.device = lab::select_device(settings.options.cpu_only);
    settings.use_gpu = settings.device.present;
    std::printf("model: g = H f + noise, H = convolution with the psf (centre rows/2, cols/2), zero boundary\n");
    std::printf("vendor pipeline: H stored for cuBLAS SYRK's faster transposition (by rows below n = %d, by columns "
                "from there), potrf and potrs with LOWER\n",
                vendor_h_by_columns_from);
    // An image degraded elsewhere gets no noise here; --noise then only names its level.
    const std::string noise_text = settings.degraded_file.empty() ? settings.noise + " (seed " +
                                                                      std::to_string(settings.seed) + ")"
                                   : settings.noise_given ? "level " + settings.noise + ", added elsewhere"
                                                          : "added elsewhere";
    std::printf("psf: %s; noise: %s; lambda: %s; images: %s\n", psf.name.c_str(), noise_text.c_str(),
                lambda_text(settings.lambda).c_str(),
                lab::have_png() ? "PGM and PNG" : "PGM (no libpng: no PNG)");
    if (have_cholmod())
      std::printf("sparse Cholesky (CHOLMOD, CPU): up to %d x %d pixels, once per image; %s\n",
                  sparse_cholesky_limit, sparse_cholesky_limit, openmp_wait_policy().c_str());
    else
      std::printf("sparse Cholesky (CHOLMOD, CPU): not in this build (no SuiteSparse)\n");
    std::unique_ptr<lab::Cublas> cublas = settings.use_gpu ? std::make_unique<lab::Cublas>() : nullptr;
    lab::Checks checks;
    if (!settings.degraded_file.empty())
      restore_degraded_file(settings, psf, noise, checks, cublas.get());
    else if (!settings.image_file.empty())
      restore_image_file(settings, psf, noise, checks, cublas.get());
    else
      run_phantom(settings, psf, noise, checks, cublas.get());
    std::printf("\n");
    checks.print_summary(std::cout);
    return checks.exit_code();
  });
}
