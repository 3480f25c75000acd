// GPU tests of a colour picture's direct methods (channels_together.h). Every dense
// route (the course's pipeline on step-4's and on cuBLAS's products, solves and
// inverse, and the vendor's) and the band pipeline, made for three channels, give
// each channel the image the same pipeline made for one channel gives it alone, on a
// picture whose three channels differ (a mixed-up column shows as an O(1) error), at
// an odd, non-square size, float and double, outputs poisoned; each channel's image
// solves its own equations (η from the CPU model, not the pipeline's word); the
// program's own comparison passes on it and fails on a planted difference and on
// NaN; a pipeline made for three channels refuses a run whose solver takes one. Exits
// with 77 (CTest: skipped) without a GPU.
#include "methods/band_pipeline.h"
#include "methods/channels_together.h"
#include "methods/dense_pipeline.h"
#include "methods/method_runs.h"
#include "model/blur_model.h"
#include "model/psf.h"
#include "report/checks.h"
#include "test_support.h"

#include <gemm_kernels.h> // step-4: step4::gemm

#include <lab/checks.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/precision.h>
#include <lab/test_images.h>
#include <lab_catch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{
  using namespace step5_test;
  using step5::Psf;

  constexpr int rows = 37, cols = 29; // n = 1073: no multiple of any tile or panel
  constexpr double lambda = 1e-2;

  // Three different channels: a phantom, random pixels and their mix, each blurred
  // by @p psf with its own noise.
  std::vector<Image> three_channels(const Psf &psf)
  {
    const Image phantom = lab::shepp_logan(cols);
    Image first(rows, cols), second = random_image(rows, cols, 5), third(rows, cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        {
          first(r, c) = phantom(r % cols, c);
          third(r, c) = 0.5 * first(r, c) + 0.3 * second(r, c);
        }
    std::vector<Image> channels;
    std::uint64_t seed = 11;
    for (const Image &f : {first, second, third})
      channels.push_back(lab::add_gaussian_noise(step5::blur(psf, f), 0.01, seed++));
    return channels;
  }

  // The channels one after another on the device.
  template <typename T>
  lab::DeviceBuffer<T> upload(const std::vector<Image> &channels)
  {
    std::vector<T> values;
    for (const Image &channel : channels)
      for (std::size_t i = 0; i < channel.size(); ++i)
        values.push_back(static_cast<T>(channel.data()[i]));
    lab::DeviceBuffer<T> buffer(values.size());
    buffer.copy_from_host(values.data(), values.size());
    return buffer;
  }

  template <typename T>
  Image download(const lab::DeviceBuffer<T> &buffer)
  {
    std::vector<T> values(buffer.count());
    buffer.copy_to_host(values.data(), values.size());
    Image image(rows, cols);
    for (std::size_t i = 0; i < image.size(); ++i)
      image.data()[i] = static_cast<double>(values[i]);
    return image;
  }

  // max |x| over the pixels.
  double largest_magnitude(const Image &image)
  {
    double largest = 0;
    for (std::size_t i = 0; i < image.size(); ++i)
      largest = std::max(largest, std::abs(image.data()[i]));
    return largest;
  }

  template <typename T>
  void check_channels_together()
  {
    CAPTURE(lab::precision_name<T>());
    const Psf psf = step5::gaussian_psf(1.2, 5);
    const std::vector<Image> channels = three_channels(psf);
    const step5::PsfField field = step5::constant_field(psf);
    const step5::SampledField sampled = step5::sample_field(field, rows, cols);
    lab::Cublas cublas;
    step5::RestoreOptions options;
    options.lambda = lambda;
    std::vector<step5::DeviceProblem<T>> problems;
    for (const Image &channel : channels)
      problems.emplace_back(psf, channel);
    std::vector<step5::DeviceProblem<T> *> on_device;
    for (step5::DeviceProblem<T> &problem : problems)
      on_device.push_back(&problem);
    const step5::ChannelsTogether together = step5::restore_channels_together<T>(field, on_device, options, cublas);
    const std::vector<std::string> names = {"dense_course_solve", "dense_course_inverse", "dense_cublas_solve",
                                            "dense_cublas_inverse", "dense_cusolver", "band_course_solve"};
    REQUIRE(together.channels.size() == 3);
    REQUIRE(together.routes.size() == names.size());

    // Each channel alone, by the same pipelines made for one channel.
    const double u = std::numeric_limits<T>::epsilon() / 2;
    const step5::Tolerances tolerances = step5::tolerances(rows * cols, u, psf, lambda);
    const double condition = (sum_of(psf) * sum_of(psf) + lambda) / lambda;
    step5::DevicePsf<T> device_psf(psf);
    step5::DensePipeline<T> dense(rows, cols, true);
    step5::BandPipeline<T> band(psf, rows, cols, step4::gemm);
    for (int c = 0; c < 3; ++c)
      {
        CAPTURE(c);
        const lab::DeviceBuffer<T> g = upload<T>({channels[c]});
        lab::DeviceBuffer<T> f(g.count()), f_inverse(g.count());
        std::vector<Image> alone;
        for (const lab::Gemm<T> &gemm : {lab::Gemm<T>(step4::gemm), lab::cublas_gemm_exact<T>(cublas)})
          {
            f.poison();
            f_inverse.poison();
            REQUIRE(dense.run(device_psf, T(lambda), g.data(), gemm, f.data(), f_inverse.data()).failed_column == -1);
            alone.push_back(download(f));
            alone.push_back(download(f_inverse));
          }
        f.poison();
        REQUIRE(dense.run_vendor(device_psf, T(lambda), g.data(), cublas, f.data()).failed_column == -1);
        alone.push_back(download(f));
        f.poison();
        REQUIRE(band.run(device_psf, T(lambda), g.data(), f.data()).failed_column == -1);
        alone.push_back(download(f));

        for (std::size_t m = 0; m < names.size(); ++m)
          {
            const step5::MethodResult &result = together.channels[c][m];
            CAPTURE(result.name);
            REQUIRE(result.name == names[m]);
            REQUIRE(result.failure.empty());
            CHECK(result.channels_together == 3);
            const bool inverse = names[m].find("inverse") != std::string::npos;
            const double tolerance = inverse ? tolerances.inverse : tolerances.direct;
            // The same image as alone, to rounding amplified by κ (and NaN fails).
            const double difference = max_difference(result.image, alone[m]);
            CAPTURE(difference);
            CHECK(difference <= 4 * condition * tolerance * largest_magnitude(alone[m]));
            // And the channel's own equations, from the CPU model.
            const double eta = step5::backward_error(psf, channels[c], lambda, result.image,
                                                     step5::Equations::normal);
            CAPTURE(eta, tolerance);
            CHECK(eta <= tolerance);
          }
      }

    lab::Checks checks;
    step5::report_channels_together(together, sampled, lambda, u, "test", checks);
    CHECK(checks.failed() == 0);
    CHECK(checks.passed() == static_cast<int>(names.size()));
  }

  TEST_CASE("a pipeline made for three channels gives each the image it gives alone")
  {
    check_channels_together<float>();
    check_channels_together<double>();
  }

  TEST_CASE("the comparison of channels together fails on a planted difference and on NaN")
  {
    const step5::SampledField sampled = step5::sample_field(step5::constant_field(step5::gaussian_psf(1.2, 5)), rows,
                                                            cols);
    for (const double planted : {0.5, std::nan("")})
      {
        CAPTURE(planted);
        step5::ChannelsTogether together;
        together.channels.resize(3);
        step5::TogetherAgainstAlone route;
        route.description = "planted";
        route.together_ms = 1;
        route.alone_ms = 1;
        route.difference = planted;
        together.routes.push_back(route);
        lab::Checks checks;
        step5::report_channels_together(together, sampled, lambda, 0x1p-24, "planted", checks);
        CHECK(checks.failed() == 1);
      }
  }

  TEST_CASE("a pipeline made for three channels refuses a run whose solver takes one")
  {
    lab::Cublas cublas;
    step5::DensePipeline<float> pipeline(7, 5, false, 3);
    step5::DevicePsf<float> psf(step5::gaussian_psf(1.0, 3));
    lab::DeviceBuffer<float> g(3 * 35), f(3 * 35);
    const auto solve = [](const float *, const float *, float *) { return 0; };
    CHECK_THROWS_AS(pipeline.run_with_solver(psf, 0.01f, g.data(), step4::gemm, solve, f.data()), std::logic_error);
  }
} // namespace
