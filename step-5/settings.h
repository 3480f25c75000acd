#pragma once
// @sect3{What the program was asked to do}
//
// The command line's settings, which the program (step-5.cu) and the thesis' test set
// (thesis_test_set.h) share, with the device they run on and the test of what fits
// there.

#include "methods/dense_pipeline.h"

#include <lab/cli.h>
#include <lab/device.h>

#include <algorithm>
#include <cstdint>
#include <string>
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
} // namespace step5
