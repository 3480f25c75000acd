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
//
// `--psf lens:SIGMA_CENTRE:SIGMA_CORNER:SIZE` or `--psf rotation:ANGLE_DEGREES:SIZE`
// is a blur that changes across the image (a PSF field): then the program compares
// the methods that take H as it is with the FFT's approximations on the phantom and
// the photograph (varying_comparison.h), table `step-5/varying_KIND_<precision>.dat`.

// @sect3{Include files}
#include "gpu/gram_matrix.h"
#include "image_lambda.h"
#include "methods/band_pipeline.h"
#include "methods/channels_together.h"
#include "methods/restoration.h"
#include "methods/sparse_cholesky.h"
#include "model/lambda_option.h"
#include "model/noise.h"
#include "model/psf.h"
#include "model/psf_field.h"
#include "model/varying_blur.h"
#include "report/checks.h"
#include "report/report.h"
#include "report/tables.h"
#include "settings.h"
#include "thesis_test_set.h"
#include "varying_comparison.h"

#include <lab/checks.h>
#include <lab/cli.h>
#include <lab/cublas_gemm.h>
#include <lab/device.h>
#include <lab/forecast.h>
#include <lab/format.h>
#include <lab/memory.h>
#include <lab/pgm.h>
#include <lab/picture.h>
#include <lab/png.h>
#include <lab/precision.h>
#include <lab/program.h>
#include <lab/step_main.h>
#include <lab/test_images.h>
#include <lab/timer.h>
#include <lab/vendor_math.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace step5
{
  // @sect3{The sizes, and how far the CPU methods go}
  //
  // Image sides of the sweep: the dense matrix of s = 256 is 65536² (16 GiB in float),
  // the largest an 80 GB GPU holds three of; the band pipeline and the matrix-free
  // methods go on to s = 1024 (a band of 42 GiB in float); quick mode stops at 64
  // (4096², seconds).
  const std::vector<int> full_sweep = {32, 64, 128, 256, 512, 1024};
  const std::vector<int> quick_sweep = {32, 64};
  // @sect3{What the program refuses}
  //
  // Before the device is looked for (exit code 2, one line): a PSF or noise that does
  // not parse, and the options that do not go together. An image that cannot be read,
  // a PSF larger than the image, sizes that cannot fit and an output folder that
  // cannot be written are refused later, but still before any work.
  struct Degradation
  {
    Noise noise;
    PsfField field; // the blur as --psf gave it (its psf: the one PSF, empty for a field that varies)
  };

  // Reads the PSF and the noise the command line describes, refusing what does not
  // parse, then refuses the combinations that cannot work; returns what it read.
  Degradation refuse_bad_input(const Settings &settings)
  {
    const PsfField field = field_from_argument(settings.psf);
    const Degradation degradation{parse_noise(settings.noise), field};
    const Noise &noise = degradation.noise;
    if (!settings.degraded_file.empty() && !settings.psf_given)
      throw lab::bad_input("--degraded needs --psf: the PSF the image was blurred with");
    if (!settings.degraded_file.empty() && settings.noise_given && (noise.kind != "gaussian" || noise.amount <= 0))
      throw lab::bad_input("--noise with --degraded names the noise's level: gaussian:SIGMA with SIGMA > 0 (leave it "
                           "out to have it estimated from the image)");
    if (settings.lambda == "discrepancy" && settings.degraded_file.empty() && noise.kind == "none")
      throw lab::bad_input("--lambda discrepancy needs noise to measure, and --noise none adds none: use gcv or a "
                           "number");
    return degradation;
  }

  // @sect3{What the program says it does}
  //
  // The header's lines after the GPU line: the model, how the vendor's pipeline runs,
  // the problem, and where the sparse Cholesky runs.

  // The noise as the header states it. An image degraded elsewhere gets no noise
  // here; --noise then only names its level.
  std::string noise_text(const Settings &settings)
  {
    if (settings.degraded_file.empty())
      return settings.noise + " (seed " + std::to_string(settings.seed) + ")";
    return settings.noise_given ? "level " + settings.noise + ", added elsewhere" : "added elsewhere";
  }

  std::string images_text() { return lab::have_png() ? "PGM and PNG" : "PGM (no libpng: no PNG)"; }

  void print_sparse_cholesky_line()
  {
    if (have_cholmod())
      std::printf("sparse Cholesky (CHOLMOD, CPU): up to %d x %d pixels, once per image; %s\n",
                  sparse_cholesky_limit, sparse_cholesky_limit, openmp_wait_policy().c_str());
    else
      std::printf("sparse Cholesky (CHOLMOD, CPU): not in this build (no SuiteSparse)\n");
  }

  void print_header(const Settings &settings, const PsfField &psf)
  {
    if (psf.varies())
      std::printf("model: g = H f + noise, H = the blur of a psf field (each pixel of g its own psf, centre rows/2, "
                  "cols/2), zero boundary\n");
    else
      std::printf("model: g = H f + noise, H = convolution with the psf (centre rows/2, cols/2), zero boundary\n");
    std::printf("vendor pipeline: H stored for cuBLAS SYRK's faster transposition (by rows below n = %d, by columns "
                "from there), potrf and potrs with LOWER\n",
                vendor_h_by_columns_from);
    std::printf("psf: %s; noise: %s; lambda: %s; images: %s\n", psf.name.c_str(), noise_text(settings).c_str(),
                lambda_text(settings.lambda).c_str(), images_text().c_str());
    print_sparse_cholesky_line();
  }

  // The notes in every table's header: the PSF, the noise, λ.
  std::vector<std::string> table_notes(const Settings &settings, const Psf &psf)
  {
    return {"psf: " + psf.name, "noise: " + settings.noise, "lambda: " + lambda_text(settings.lambda)};
  }

  // @sect3{The memory a size needs}
  //
  // The matrix-free methods need a few images; the refusal of sizes that cannot fit
  // at all is about those (and the CPU's stencil for Gauss–Seidel). The dense
  // pipelines need three n × n matrices, n = s², the band pipeline n·(b + 3nb) numbers
  // (band_pipeline.h): a size whose matrices do not fit in the GPU's free memory runs
  // without them, and says so.
  template <typename T>
  lab::Memory memory_needed(int side)
  {
    const double pixels = double(side) * side;
    return {pixels * 64 * sizeof(double), pixels * 16 * sizeof(T)};
  }

  // @sect3{One image, every method}
  //
  // Which methods run on a rows × cols image in precision T: those asked for that fit,
  // each skipped one named with what it would need.
  template <typename T>
  RestoreOptions restore_options(const Settings &settings, const Psf &psf, int rows, int cols, double lambda)
  {
    const int n = rows * cols;
    RestoreOptions options = common_restore_options<T>(settings, rows, cols, lambda);
    options.dense = settings.wants("dense") && dense_fits<T>(settings, rows, cols);
    const double band_bytes = BandPipeline<T>::device_bytes(psf, rows, cols);
    options.band = settings.wants("band") && settings.fits_on_gpu(band_bytes);
    // The TF32 pipeline (float) with the dense ones. It runs after them, on its own H
    // and A, but asks for as much as the dense pipelines' three matrices and its own
    // solver's copy of A and its products' scratch: at 256² on an 80 GB GPU, where
    // H, A and those alone (64 GiB) should have fitted, it ran out of memory.
    const bool tf32_asked = std::is_same_v<T, float> && settings.wants("dense") && settings.use_gpu;
    const double tf32_bytes = dense_bytes<T>(rows, cols) + tf32_pipeline_bytes(n);
    options.tf32 = tf32_asked && settings.fits_on_gpu(tf32_bytes);
    if (tf32_asked && !options.tf32)
      say_skipped_for_memory(settings, "TF32 pipeline skipped: it needs", tf32_bytes);
    // cuSOLVER's IRS solver beside it, where its 32-bit sizes reach: at n = 65536 (a
    // 256² image, n² = 2³²) cusolverDnIRSXgesv failed with
    // CUSOLVER_STATUS_EXECUTION_FAILED on an H200 (CUDA 13.0).
    options.irs = options.tf32 && double(n) * n < 0x1p31;
    if (options.tf32 && !options.irs)
      std::printf("    cuSOLVER IRS skipped: its 32-bit interface fails at n = %d (n^2 >= 2^31)\n", n);
    if (settings.use_gpu && settings.wants("dense") && !options.dense)
      say_skipped_for_memory(settings, "dense pipelines skipped: they need", dense_bytes<T>(rows, cols));
    if (settings.use_gpu && settings.wants("band") && !options.band)
      say_skipped_for_memory(settings, "band pipeline skipped: it needs", band_bytes);
    return options;
  }

  // Restores @p degraded in precision T with every method that fits, prints the
  // lines, records the checks, and closes with the λ chosen for this image and what
  // the restoration gained over the degraded image (report.h). @p problem is the image
  // on the device (null without a GPU), which λ's search used before; @p made_together
  // the results of a colour picture's direct pipelines for this channel
  // (channels_together.h), reported with the others.
  template <typename T>
  std::vector<MethodResult> restore_image(const Settings &settings, const Psf &psf, const lab::Matrix<double> &original,
                                          const lab::Matrix<double> &degraded, const ImageLambda &lambda,
                                          const std::string &label, lab::Checks &checks, lab::Cublas *cublas,
                                          DeviceProblem<T> *problem, std::vector<MethodResult> made_together = {})
  {
    const int rows = degraded.rows(), cols = degraded.cols();
    RestoreOptions options = restore_options<T>(settings, psf, rows, cols, lambda.lambda);
    options.made_together = std::move(made_together);
    const std::vector<MethodResult> results = restore_with_every_method<T>(psf, degraded, options, cublas, problem);
    const double u = std::numeric_limits<T>::epsilon() / 2;
    report_methods(results, original, degraded, tolerances(rows * cols, u, psf, lambda.lambda), label, checks);
    report_gain(results, original, degraded, lambda.lambda, lambda.rule, label, checks);
    return results;
  }

  // λ for an image blurred by one PSF (image_lambda.h): with a GPU, searched on the
  // image's problem on the device, which the methods then restore; without, on the PSF
  // as a constant field for CHOLMOD's.
  template <typename T>
  ImageLambda choose_psf_lambda(const Settings &settings, const Psf &psf, const lab::Matrix<double> &degraded,
                                std::optional<double> sigma, DeviceProblem<T> *problem)
  {
    return choose_image_lambda<T>(settings.lambda, sample_field(constant_field(psf), degraded.rows(), degraded.cols()),
                                  psf, degraded, sigma, problem);
  }

  // @sect3{The sweep over image sizes}
  template <typename T>
  void run_sweep(const Settings &settings, const Psf &psf, const Noise &noise, const std::vector<int> &sides,
                 lab::Checks &checks, lab::Cublas *cublas)
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
                    lab::format_bytes(std::size_t(dense_bytes<T>(side, side))).c_str(),
                    lab::format_bytes(std::size_t(BandPipeline<T>::device_bytes(psf, side, side))).c_str());
        std::optional<DeviceProblem<T>> problem = problem_on_device<T>(settings.use_gpu, psf, degraded);
        const ImageLambda lambda =
          choose_psf_lambda<T>(settings, psf, degraded, noise_level(psf, original, degraded), pointer_to(problem));
        lab::HostTimer timer;
        const std::string label = precision + " s=" + std::to_string(side);
        const std::vector<MethodResult> results =
          restore_image<T>(settings, psf, original, degraded, lambda, label, checks, cublas, pointer_to(problem));
        // The forecast extrapolates the time of one repetition.
        if (dense)
          forecast.record(n, timer.milliseconds() / 1000 / dense_repetitions(settings, n));
        char prefix[32];
        std::snprintf(prefix, sizeof prefix, "s%03d_%s", side, precision.c_str());
        write_images(folder + "/images", prefix, original, degraded, results);
        tables.add(lambda.lambda, original, degraded, results);
      }
    tables.write(folder + "/", precision, settings.device, settings.options.reps, table_notes(settings, psf));
  }

  // @sect3{Restoring an image of your own}
  //
  // One grey image in precision T, every method, the images written under @p prefix
  // and its tables; the PSNR against @p original when there is one. @p lambda and
  // @p problem as for restore_image.
  template <typename T>
  std::vector<MethodResult> restore_in_precision(const Settings &settings, const Psf &psf,
                                                 const lab::Matrix<double> &original,
                                                 const lab::Matrix<double> &degraded, const ImageLambda &lambda,
                                                 const std::string &prefix, lab::Checks &checks, lab::Cublas *cublas,
                                                 DeviceProblem<T> *problem, std::vector<MethodResult> made_together = {})
  {
    const std::string folder = settings.options.out + "/step-5";
    lab::prepare_output_folder(folder + "/images");
    const std::string precision = lab::precision_name<T>();
    const std::vector<MethodResult> results = restore_image<T>(settings, psf, original, degraded, lambda,
                                                               precision + " " + prefix, checks, cublas, problem,
                                                               std::move(made_together));
    write_images(folder + "/images", prefix + "_" + precision, original, degraded, results);
    Tables tables;
    tables.add(lambda.lambda, original, degraded, results);
    tables.write(folder + "/" + prefix + "_", precision, settings.device, settings.options.reps,
                 table_notes(settings, psf));
    return results;
  }

  // The same in float and in double as asked, with one λ for both precisions, chosen
  // in the first (float's range, if float runs, is the narrower). @p sigma is the
  // noise's level, for the discrepancy principle; none where it is not known. Returns
  // each precision's results, in the order they ran.
  using EachPrecision = std::vector<std::vector<MethodResult>>;

  EachPrecision restore_in_each_precision(const Settings &settings, const Psf &psf,
                                          const lab::Matrix<double> &original, const lab::Matrix<double> &degraded,
                                          std::optional<double> sigma, const std::string &prefix, lab::Checks &checks,
                                          lab::Cublas *cublas)
  {
    std::optional<ImageLambda> chosen;
    EachPrecision each_precision;
    lab::for_each_precision(settings.options, [&](auto zero) {
      using T = decltype(zero);
      std::optional<DeviceProblem<T>> problem = problem_on_device<T>(settings.use_gpu, psf, degraded);
      if (!chosen)
        chosen = choose_psf_lambda<T>(settings, psf, degraded, sigma, pointer_to(problem));
      each_precision.push_back(restore_in_precision<T>(settings, psf, original, degraded, *chosen, prefix, checks,
                                                       cublas, pointer_to(problem)));
    });
    return each_precision;
  }

  // @sect3{A picture in grey or in colour}
  //
  // A grey picture is one channel, restored through one PSF or a field
  // (varying_comparison.h).
  void restore_grey_picture(const Settings &settings, const PsfField &field, const lab::Matrix<double> &original,
                            const lab::Matrix<double> &degraded, std::optional<double> sigma,
                            const std::string &prefix, lab::Checks &checks, lab::Cublas *cublas)
  {
    if (!field.varies())
      restore_in_each_precision(settings, field.psf, original, degraded, sigma, prefix, checks, cublas);
    else
      restore_through_field_in_each_precision(settings, field, sample_field(field, degraded.rows(), degraded.cols()),
                                              original, degraded, sigma, prefix, checks, cublas);
  }

  // A colour picture is three, which share one λ (image_lambda.h) and the direct
  // methods' factorisation (channels_together.h). In each precision: λ, chosen in the
  // first on the three channels' problems; the direct pipelines on the three channels
  // together, with their comparison against one channel alone; then each channel with
  // the other methods, the direct ones' results among them, its images and tables
  // under PREFIX_red, PREFIX_green and PREFIX_blue; then the three put back together
  // and judged over all three. @p original has no channels where it is not known;
  // @p sigmas holds each channel's noise level (none: not known).
  template <typename T>
  RestoreOptions together_options(const Settings &settings, const PsfField &field, int rows, int cols, int channels,
                                  double lambda)
  {
    RestoreOptions options = common_restore_options<T>(settings, rows, cols, lambda);
    const double table = field.varies() ? sampled_field_bytes(field, rows, cols) / sizeof(double) * sizeof(T) : 0;
    const double dense = DensePipeline<T>::device_bytes(rows, cols, true, channels) + table;
    const double band = BandPipeline<T>::device_bytes(field, rows, cols, 0, channels) + table;
    options.dense = settings.wants("dense") && settings.fits_on_gpu(dense);
    options.band = settings.wants("band") && settings.fits_on_gpu(band);
    if (settings.use_gpu && settings.wants("dense") && !options.dense)
      say_skipped_for_memory(settings, "dense pipelines skipped: they need", dense);
    if (settings.use_gpu && settings.wants("band") && !options.band)
      say_skipped_for_memory(settings, "band pipeline skipped: it needs", band);
    return options;
  }

  void restore_colour_picture(const Settings &settings, const PsfField &field, const lab::Picture &original,
                              const lab::Picture &degraded, const std::vector<std::optional<double>> &sigmas,
                              const std::string &prefix, lab::Checks &checks, lab::Cublas *cublas)
  {
    const std::vector<std::string> colours = {"red", "green", "blue"};
    const int rows = degraded.rows(), cols = degraded.cols(), k = int(degraded.channels.size());
    const bool known = !original.channels.empty();
    const SampledField sampled = sample_field(field, rows, cols);
    // The channels one by one: every method but the direct pipelines, which ran together.
    Settings one_by_one = settings;
    const auto direct = [](const std::string &family) { return family == "dense" || family == "band"; };
    one_by_one.methods.erase(std::remove_if(one_by_one.methods.begin(), one_by_one.methods.end(), direct),
                             one_by_one.methods.end());
    std::optional<ImageLambda> chosen;
    lab::for_each_precision(settings.options, [&](auto zero) {
      using T = decltype(zero);
      const std::string precision = lab::precision_name<T>();
      std::vector<std::optional<DeviceProblem<T>>> problems;
      std::vector<DeviceProblem<T> *> on_device;
      for (const lab::Matrix<double> &channel : degraded.channels)
        problems.push_back(field.varies() ? problem_on_device<T>(settings.use_gpu, sampled, channel)
                                          : problem_on_device<T>(settings.use_gpu, field.psf, channel));
      for (std::optional<DeviceProblem<T>> &problem : problems)
        if (problem)
          on_device.push_back(&*problem);
      if (!chosen)
        chosen = choose_picture_lambda<T>(settings.lambda, sampled, field.varies() ? sampled.mean : field.psf,
                                          degraded.channels, sigmas, on_device,
                                          field.varies() ? " (the field's mean PSF)" : "");
      ChannelsTogether together;
      together.channels.resize(k);
      if (settings.use_gpu)
        {
          std::printf("\n  %s, the %d channels together\n", precision.c_str(), k);
          const RestoreOptions options = together_options<T>(settings, field, rows, cols, k, chosen->lambda);
          together = restore_channels_together<T>(field, on_device, options, *cublas);
          report_channels_together(together, sampled, chosen->lambda, std::numeric_limits<T>::epsilon() / 2,
                                   precision + " " + prefix, checks);
        }
      std::vector<std::vector<MethodResult>> by_channel;
      for (int c = 0; c < k; ++c)
        {
          std::printf("\n  %s, the %s channel\n", precision.c_str(), colours[c].c_str());
          const lab::Matrix<double> reference = known ? original.channels[c] : lab::Matrix<double>();
          const std::string name = prefix + "_" + colours[c];
          DeviceProblem<T> *problem = pointer_to(problems[c]);
          by_channel.push_back(
            field.varies()
              ? restore_through_field_in_precision<T>(one_by_one, field, sampled, reference, degraded.channels[c],
                                                      *chosen, problem, name, checks, cublas, together.channels[c])
              : restore_in_precision<T>(one_by_one, field.psf, reference, degraded.channels[c], *chosen, name, checks,
                                        cublas, problem, together.channels[c]));
        }
      std::printf("\n");
      report_colour(settings.options.out + "/step-5/images", prefix + "_colour_" + precision, original, degraded,
                    by_channel, precision + " " + prefix, checks);
    });
  }

  void restore_picture(const Settings &settings, const PsfField &field, const lab::Picture &original,
                       const lab::Picture &degraded, const std::vector<std::optional<double>> &sigmas,
                       const std::string &prefix, lab::Checks &checks, lab::Cublas *cublas)
  {
    if (degraded.is_colour())
      restore_colour_picture(settings, field, original, degraded, sigmas, prefix, checks, cublas);
    else
      restore_grey_picture(settings, field, original.channels.empty() ? lab::Matrix<double>() : original.channels[0],
                           degraded.channels[0], sigmas[0], prefix, checks, cublas);
  }

  // @sect3{What a picture of a camera's size can be restored with}
  //
  // A photograph of 4000 × 3000 pixels is n = 1.2·10⁷ unknowns: its dense matrices
  // would take n² numbers (576 TB in float), its band n times the band's width, and
  // CHOLMOD's factor more than the host holds. CG and the FFT filters need a few
  // images of it on the GPU. Before any work, each method asked for that cannot run on
  // a picture of this size is found: where --method named it, the program refuses, in
  // one line with the bytes it would need and the methods that fit (exit code 2); where
  // it runs every method by default, the others run and the output says what was
  // skipped. A method that needs a GPU where there is none, or a library the build
  // lacks, is skipped and said so, as everywhere in the course, not refused. A picture
  // whose images alone do not fit in the host's or the GPU's memory is refused.
  struct MethodLimit
  {
    std::string why;  // empty: the method can run on the picture
    bool size = true; // whether the picture's size is the reason (else: no GPU, no library)
  };

  MethodLimit limit_of(const Settings &settings, const PsfField &field, const std::string &family, int rows, int cols)
  {
    const auto gpu_bytes = [&](double bytes) {
      return "needs " + lab::format_bytes(std::size_t(bytes)) + " of GPU memory, " +
             lab::format_bytes(settings.device.free_memory) + " free";
    };
    const bool on_gpu = family == "dense" || family == "band" || family == "cg" || family == "fft";
    if (on_gpu && !settings.use_gpu)
      return {"needs a GPU", false};
    if (family == "dense" && !dense_fits<float>(settings, rows, cols))
      return {gpu_bytes(dense_bytes<float>(rows, cols))};
    if (family == "band" && !settings.fits_on_gpu(BandPipeline<float>::device_bytes(field, rows, cols)))
      return {gpu_bytes(BandPipeline<float>::device_bytes(field, rows, cols))};
    if (family == "cholmod" && !have_cholmod())
      return {"is not in this build (no SuiteSparse)", false};
    if (family == "cholmod" && double(rows) * cols > double(sparse_cholesky_limit) * sparse_cholesky_limit)
      return {"runs up to " + std::to_string(sparse_cholesky_limit) + " x " + std::to_string(sparse_cholesky_limit) +
              " pixels (its factor grows faster than the picture)"};
    if (family == "gauss-seidel" && std::max(rows, cols) > gauss_seidel_limit)
      return {"runs up to " + std::to_string(gauss_seidel_limit) + " x " + std::to_string(gauss_seidel_limit) +
              " pixels (its sweeps grow with the picture)"};
    return {"", false};
  }

  void refuse_what_cannot_restore(const Settings &settings, const PsfField &field, int rows, int cols, int channels)
  {
    const double pixels = double(rows) * cols;
    const std::string size = std::to_string(cols) + " x " + std::to_string(rows) + " picture";
    lab::for_each_precision(settings.options, [&](auto zero) {
      using T = decltype(zero);
      const lab::Memory need{channels * pixels * 64 * sizeof(double),
                             settings.use_gpu ? pixels * (16 + 3 * channels) * sizeof(T) : 0};
      lab::require_fits(std::string(lab::precision_name<T>()) + ": a " + size, need,
                        lab::available_memory(settings.use_gpu));
      std::printf("%s: a %s, %d channel%s: at most %s of host memory and %s of GPU memory for the images (the "
                  "matrix-free methods)\n",
                  lab::precision_name<T>(), size.c_str(), channels, channels > 1 ? "s" : "",
                  lab::format_bytes(std::size_t(need.host_bytes)).c_str(),
                  lab::format_bytes(std::size_t(need.device_bytes)).c_str());
    });
    std::string fit;
    for (const std::string &family : settings.methods)
      if (limit_of(settings, field, family, rows, cols).why.empty())
        fit += (fit.empty() ? "" : ", ") + family;
    for (const std::string &family : settings.methods)
      {
        const MethodLimit limit = limit_of(settings, field, family, rows, cols);
        if (limit.why.empty())
          continue;
        if (settings.methods_given && limit.size)
          throw lab::bad_input("--method " + family + ": a " + size + " " + limit.why + "; " +
                               (fit.empty() ? "no method asked for fits" : fit + " fit"));
        std::printf("%s: skipped, a %s %s\n", family.c_str(), size.c_str(), limit.why.c_str());
      }
  }

  // The picture in @p path (PNG, PGM or PPM, lab::read_picture), and what it is.
  lab::Picture read_picture_for(const std::string &option, const std::string &path)
  {
    lab::Picture picture = lab::read_picture(path);
    std::printf("%s: %s (%d x %d), %s\n", option.c_str(), path.c_str(), picture.cols(), picture.rows(),
                picture.file.describe().c_str());
    return picture;
  }

  // --image FILE: degraded here, channel by channel, by the PSF or field and the noise
  // asked for (each channel's noise drawn with its own seed); the noise's level is
  // then known, the RMS of what was added.
  void restore_image_file(const Settings &settings, const Degradation &degradation, lab::Checks &checks,
                          lab::Cublas *cublas)
  {
    const PsfField &field = degradation.field;
    const lab::Picture original = read_picture_for("--image", settings.image_file);
    check_field(field, original.rows(), original.cols());
    if (field.varies())
      refuse_field_sizes_that_do_not_fit(settings, field, {std::max(original.rows(), original.cols())});
    refuse_what_cannot_restore(settings, field, original.rows(), original.cols(), int(original.channels.size()));
    const SampledField sampled = sample_field(field, original.rows(), original.cols());
    lab::Picture degraded;
    std::vector<std::optional<double>> sigmas;
    for (std::size_t c = 0; c < original.channels.size(); ++c)
      {
        const lab::Matrix<double> blurred = blur(sampled, original.channels[c]);
        degraded.channels.push_back(add_noise(blurred, degradation.noise, settings.seed + c));
        sigmas.push_back(noise_level(blurred, degraded.channels.back()));
      }
    restore_picture(settings, field, original, degraded, sigmas, "image", checks, cublas);
  }

  // --degraded FILE with --psf: degraded elsewhere, restored here, with the PSNR
  // against --reference when it is given (the same size, and grey or colour as the
  // degraded picture is); --noise gaussian:SIGMA, if given, is the noise level the
  // discrepancy principle uses, else it is estimated from each channel.
  void restore_degraded_file(const Settings &settings, const Degradation &degradation, lab::Checks &checks,
                             lab::Cublas *cublas)
  {
    const PsfField &field = degradation.field;
    const Noise &noise = degradation.noise;
    const lab::Picture degraded = read_picture_for("--degraded", settings.degraded_file);
    lab::Picture reference;
    if (!settings.reference_file.empty())
      {
        reference = read_picture_for("--reference", settings.reference_file);
        if (reference.rows() != degraded.rows() || reference.cols() != degraded.cols())
          throw lab::bad_input("--reference: '" + settings.reference_file + "' is " + std::to_string(reference.cols()) +
                               " x " + std::to_string(reference.rows()) + ", the degraded image " +
                               std::to_string(degraded.cols()) + " x " + std::to_string(degraded.rows()));
        if (reference.is_colour() != degraded.is_colour())
          throw lab::bad_input("--reference: '" + settings.reference_file + "' is " +
                               (reference.is_colour() ? "colour" : "grey") + ", the degraded image " +
                               (degraded.is_colour() ? "colour" : "grey") + ": they must be alike");
      }
    check_field(field, degraded.rows(), degraded.cols());
    if (field.varies())
      refuse_field_sizes_that_do_not_fit(settings, field, {std::max(degraded.rows(), degraded.cols())});
    refuse_what_cannot_restore(settings, field, degraded.rows(), degraded.cols(), int(degraded.channels.size()));
    std::printf("\nrestoring %s (%d x %d) with psf %s\n", settings.degraded_file.c_str(), degraded.cols(),
                degraded.rows(), field.name.c_str());
    const std::optional<double> sigma =
      settings.noise_given && noise.kind == "gaussian" ? std::optional<double>(noise.amount) : std::nullopt;
    restore_picture(settings, field, reference, degraded, std::vector<std::optional<double>>(degraded.channels.size(), sigma),
                    "restored", checks, cublas);
  }

  // @sect3{The phantom at every size}
  //
  // The default: the sweep over image sizes in each precision asked for, then the
  // thesis' test set. Sizes that cannot fit at all are refused before any work.
  void run_phantom(const Settings &settings, const Psf &psf, const Noise &noise, lab::Checks &checks,
                   lab::Cublas *cublas)
  {
    const std::vector<int> sides = lab::choose_sizes(settings.options, full_sweep, quick_sweep);
    lab::for_each_precision(settings.options, [&](auto zero) {
      using T = decltype(zero);
      lab::refuse_sizes_that_do_not_fit(sides, memory_needed<T>,
                                        std::string(lab::precision_name<T>()) + ": an image of side n",
                                        settings.use_gpu);
    });
    for (const int side : sides)
      check_psf(psf, side, side);
    lab::prepare_output_folder(settings.options.out + "/step-5/images");
    lab::for_each_precision(settings.options, [&](auto zero) {
      run_sweep<decltype(zero)>(settings, psf, noise, sides, checks, cublas);
    });
    // The test set restores with the dense pipeline (Gauss–Seidel without a GPU).
    if (settings.wants(settings.use_gpu ? "dense" : "gauss-seidel"))
      run_test_set(settings, psf, settings.options.quick ? 32 : 64, checks, cublas);
  }

  // The image the command line asks to restore: one degraded elsewhere, one of your
  // own, or the phantom; through a PSF field that varies, the phantom and the
  // photograph (varying_comparison.h).
  void run(const Settings &settings, const Degradation &degradation, lab::Checks &checks, lab::Cublas *cublas)
  {
    if (!settings.degraded_file.empty())
      restore_degraded_file(settings, degradation, checks, cublas);
    else if (!settings.image_file.empty())
      restore_image_file(settings, degradation, checks, cublas);
    else if (degradation.field.varies())
      run_varying_comparison(settings, degradation.field, degradation.noise, checks, cublas);
    else
      run_phantom(settings, degradation.field.psf, degradation.noise, checks, cublas);
  }
  // @sect3{The command line}
  //
  // The options of every step (lab::add_common_options) and step-5's own; what they
  // cannot check alone is refuse_bad_input's.
  void add_options(CLI::App &app, Settings &settings)
  {
    lab::add_common_options(app, settings.options);
    app.add_option("--psf", settings.psf,
                   "gaussian:SIGMA:SIZE, box:SIZE, motion:LENGTH:ANGLE, trail:LENGTH:ANGLE (one-sided), "
                   "sharpen[:ALPHA], or a file of rows of numbers (row 0 the top of the picture); or a PSF field, "
                   "a file of PSFs measured on a grid (first line 'psf-grid ROWS COLS PSF_ROWS PSF_COLS', "
                   "model/psf_grid.h), or "
                   "blur that changes across the image: lens:SIGMA_CENTRE:SIGMA_CORNER:SIZE (a Gaussian whose sigma "
                   "grows with the squared distance from the centre) or rotation:ANGLE_DEGREES:SIZE (the camera "
                   "turning during the exposure), SIZE odd; with a field the program compares the methods on the "
                   "phantom and the photograph (varying_KIND_PRECISION.dat)")
      ->type_name("PSF")
      ->capture_default_str();
    app.add_option("--noise", settings.noise, "none, gaussian:SIGMA or salt-and-pepper:DENSITY")
      ->type_name("NOISE")
      ->capture_default_str();
    app.add_option("--lambda", settings.lambda,
                   "The regularisation weight: a number >= 0, or chosen for each image by discrepancy (the "
                   "discrepancy principle with the noise's level: known where this program added the noise, given "
                   "by --noise gaussian:SIGMA for --degraded, else estimated from the image), gcv (generalised "
                   "cross-validation) or auto (discrepancy; gcv where --noise none leaves nothing to measure; the "
                   "thesis' test set keeps its 0.001)")
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
    auto *image = app.add_option("--image", settings.image_file, "Restore this picture instead of the phantom: PNG, PGM or PPM, grey or colour (each channel restored)")
                    ->type_name("FILE")
                    ->excludes(app.get_option("--sizes"));
    auto *degraded = app.add_option("--degraded", settings.degraded_file,
                                    "Restore this already degraded picture, PNG, PGM or PPM, grey or colour (needs --psf; no degradation)")
                       ->type_name("FILE")
                       ->excludes(image)
                       ->excludes(app.get_option("--sizes"));
    app.add_option("--reference", settings.reference_file, "The original of --degraded, for MSE and PSNR (the same size, grey or colour alike)")
      ->type_name("FILE")
      ->needs(degraded);
  }
} // namespace step5

// @sect3{The main function}
//
// Parse the command line, refuse what cannot be done (a bad PSF, noise or λ, options
// that do not go together: exit code 2), say what runs where, run (refusing an
// unreadable image, sizes that do not fit, an output folder that cannot be written
// before any work), print the summary (exit code 1 when a check failed).
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
  add_options(app, settings);
  if (const auto exit_code = lab::parse_command_line(app, argc, argv))
    return *exit_code;
  settings.psf_given = app.get_option("--psf")->count() > 0;
  settings.methods_given = app.get_option("--method")->count() > 0;
  settings.noise_given = app.get_option("--noise")->count() > 0;

  Degradation degradation;
  return lab::run_step(
    "step-5", "step-5: deblurring by a dense direct solve, against cuSOLVER, cuFFT and conjugate gradients",
    settings.options.cpu_only,
    [&](const lab::DeviceInfo &device, lab::Checks &checks) {
      settings.device = device;
      settings.use_gpu = device.present;
      print_header(settings, degradation.field);
      if (settings.use_gpu)
        std::printf("%s\n", lab::vendor_math_line().c_str());
      const std::unique_ptr<lab::Cublas> cublas = settings.use_gpu ? std::make_unique<lab::Cublas>() : nullptr;
      run(settings, degradation, checks, cublas.get());
    },
    [&] { degradation = refuse_bad_input(settings); });
}
