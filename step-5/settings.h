#pragma once
// @sect3{What the program was asked to do}
//
// The command line's settings, which the program (step-5.cu) and the thesis' test set
// (thesis_test_set.h) share, with the device they run on and the test of what fits
// there.

#include "methods/dense_pipeline.h"
#include "methods/restoration.h"
#include "methods/sparse_cholesky.h"

#include <lab/cli.h>
#include <lab/device.h>
#include <lab/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace step5
{
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
    bool psf_given = false;              // whether --psf was on the command line
    bool noise_given = false;            // whether --noise was on the command line
    std::string lambda = "auto";         // --lambda: a number, auto, gcv or discrepancy
    std::uint64_t seed = 1;              // --seed: of the noise
    std::string image_file;              // --image: a PGM instead of the phantom
    std::string degraded_file;           // --degraded: restore only
    std::string reference_file;          // --reference: the original of --degraded
    std::vector<std::string> methods = method_families; // --method: which ones run
    bool methods_given = false;                         // whether --method was on the command line
    lab::DeviceInfo device;
    bool use_gpu = false;

    bool wants(const std::string &family) const
    {
      return std::find(methods.begin(), methods.end(), family) != methods.end();
    }

    // The one test of GPU memory: whether @p bytes fit in the GPU's free memory, a
    // tenth kept free.
    bool fits_on_gpu(double bytes) const { return use_gpu && bytes <= 0.9 * double(device.free_memory); }
  };

  // The dense pipelines' GPU memory on a rows × cols image: three n × n matrices,
  // n = rows·cols (dense_pipeline.h).
  template <typename T>
  double dense_bytes(int rows, int cols)
  {
    return DensePipeline<T>::device_bytes(rows, cols, true);
  }

  template <typename T>
  bool dense_fits(const Settings &settings, int rows, int cols)
  {
    return settings.fits_on_gpu(dense_bytes<T>(rows, cols));
  }

  // @sect3{How far each method goes, and how often it is timed}
  //
  // Gauss–Seidel on the CPU only up to this side: its sweeps are sequential, and
  // their number grows with A's condition number (see the results page).
  constexpr int gauss_seidel_limit = 64;
  // The sparse Cholesky (CHOLMOD, CPU, double) up to this side: at 512² its stencil
  // and factor take a few GB of host memory and seconds; it runs once per image.
  constexpr int sparse_cholesky_limit = 512;

  // The CPU methods, Gauss–Seidel and the sparse Cholesky (both in double), run with
  // the first precision asked for only: they are the same computation in both.
  template <typename T>
  bool first_precision(const Settings &settings)
  {
    return std::is_same_v<T, float> || !settings.options.wants_float();
  }

  // Whether Gauss–Seidel and CHOLMOD run on a rows × cols image in precision T: asked
  // for, in the first precision, and within their limits (CHOLMOD where the build has
  // it).
  template <typename T>
  bool runs_gauss_seidel(const Settings &settings, int rows, int cols)
  {
    return settings.wants("gauss-seidel") && first_precision<T>(settings) && std::max(rows, cols) <= gauss_seidel_limit;
  }

  template <typename T>
  bool runs_cholmod(const Settings &settings, int rows, int cols)
  {
    return settings.wants("cholmod") && first_precision<T>(settings) && have_cholmod() &&
           rows * cols <= sparse_cholesky_limit * sparse_cholesky_limit;
  }

  // The line that says what did not fit: @p what_needs is its subject and verb, "dense
  // pipelines skipped: they need".
  inline void say_skipped_for_memory(const Settings &settings, const std::string &what_needs, double bytes)
  {
    std::printf("    %s %s of GPU memory, %s free\n", what_needs.c_str(), lab::format_bytes(std::size_t(bytes)).c_str(),
                lab::format_bytes(settings.device.free_memory).c_str());
  }

  // How often the dense pipelines run on an image of n pixels. They take a fraction of
  // a second up to 128², and the time printed is the median of several runs, which
  // also leaves out the first run's one-time costs (cuBLAS choosing and loading its
  // kernels for each new shape: measured up to twice the pipeline's time at 128² when
  // no smaller size ran before). At 256² they take seconds each, and one run is
  // timed: the one-time costs are then about 1%.
  inline int dense_repetitions(const Settings &settings, int n)
  {
    return n <= 128 * 128 ? settings.options.reps : 1;
  }

  // The band pipeline takes well under a second up to 512²: the median of several
  // runs there, one run at 1024².
  inline int band_repetitions(const Settings &settings, int n)
  {
    return n <= 512 * 512 ? settings.options.reps : 1;
  }

  // What the restoration of an image and that of a PSF field share: λ, the
  // repetitions, and which of CG, the FFT filters and the CPU's methods run. Whether
  // the dense and band pipelines fit in memory each caller decides.
  template <typename T>
  RestoreOptions common_restore_options(const Settings &settings, int rows, int cols, double lambda)
  {
    const int n = rows * cols;
    RestoreOptions options;
    options.lambda = lambda;
    options.use_gpu = settings.use_gpu;
    options.reps = settings.options.reps;
    options.dense_reps = dense_repetitions(settings, n);
    options.band_reps = band_repetitions(settings, n);
    options.cg = settings.wants("cg");
    options.fft = settings.wants("fft");
    options.gauss_seidel = runs_gauss_seidel<T>(settings, rows, cols);
    options.sparse_cholesky = runs_cholmod<T>(settings, rows, cols);
    return options;
  }
} // namespace step5
