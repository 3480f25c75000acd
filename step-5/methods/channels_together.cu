// A colour picture: one factorisation for three channels (see channels_together.h).
#include "methods/channels_together.h"

#include "methods/band_pipeline.h"
#include "methods/dense_pipeline.h"
#include "methods/method_runs.h"
#include "model/varying_blur.h"
#include "report/checks.h"

#include <gemm_kernels.h> // step-4: step4::gemm, the course's product

#include <lab/device_buffer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace step5
{
  namespace
  {
    // The picture's channels on the device, one image after another, and room for two
    // restorations of them (a dense pipeline's two routes), poisoned before every run.
    template <typename T>
    struct ChannelsOnDevice
    {
      ChannelsOnDevice(const PsfField &field, const SampledField &sampled,
                       const std::vector<lab::Matrix<double>> &channels)
        : psf(field.varies() ? DevicePsf<T>(sampled) : DevicePsf<T>(field.psf)), rows(channels.front().rows()),
          cols(channels.front().cols()), k(static_cast<int>(channels.size())),
          g(static_cast<std::size_t>(rows) * cols * k), f(g.count()), f_inverse(g.count())
      {
        std::vector<T> values;
        for (const lab::Matrix<double> &channel : channels)
          for (std::size_t i = 0; i < channel.size(); ++i)
            values.push_back(static_cast<T>(channel.data()[i]));
        g.copy_from_host(values.data(), values.size());
      }

      void poison()
      {
        f.poison();
        f_inverse.poison();
      }

      // Channel c of the images in @p images.
      lab::Matrix<double> download(const lab::DeviceBuffer<T> &images, int c) const
      {
        std::vector<T> all(images.count());
        images.copy_to_host(all.data(), all.size());
        lab::Matrix<double> channel(rows, cols);
        const long n = static_cast<long>(rows) * cols;
        for (long i = 0; i < n; ++i)
          channel.data()[i] = static_cast<double>(all[c * n + i]);
        return channel;
      }

      DevicePsf<T> psf;
      int rows, cols, k;
      lab::DeviceBuffer<T> g, f, f_inverse;
    };

    // A route: its result's name and description, and whether it is the inverse one.
    struct Route
    {
      std::string name, description;
      bool inverse_route;
    };

    // The stages of @p times that @p route took, and their sum.
    StageTimes route_stages(StageTimes times, bool inverse_route)
    {
      if (inverse_route)
        times.solve = 0;
      else
        times.invert = times.inverse = times.apply = 0;
      return times;
    }

    double route_milliseconds(const StageTimes &times, bool inverse_route)
    {
      return inverse_route ? times.inverse_route() : times.solve_route();
    }

    // The largest difference of @p a from @p b, relative to b's largest value; NaN
    // anywhere gives NaN.
    double relative_difference(const lab::Matrix<double> &a, const lab::Matrix<double> &b)
    {
      double largest = 0, scale = 0;
      for (std::size_t i = 0; i < b.size(); ++i)
        {
          const double d = std::abs(a.data()[i] - b.data()[i]);
          if (std::isnan(d))
            return std::nan("");
          largest = std::max(largest, d);
          scale = std::max(scale, std::abs(b.data()[i]));
        }
      return scale > 0 ? largest / scale : largest;
    }

    // Adds a route's results to every channel and its comparison: @p together and
    // @p alone the stage times of the two runs, @p together_images and @p alone_images
    // where their images are.
    template <typename T>
    void record(ChannelsTogether &out, const Route &route, const StageTimes &together, const StageTimes &alone,
                const ChannelsOnDevice<T> &picture, const lab::DeviceBuffer<T> &together_images,
                const ChannelsOnDevice<T> &first, const lab::DeviceBuffer<T> &alone_images)
    {
      TogetherAgainstAlone comparison;
      comparison.description = route.description;
      comparison.inverse_route = route.inverse_route;
      comparison.together = route_stages(together, route.inverse_route);
      comparison.alone = route_stages(alone, route.inverse_route);
      comparison.together_ms = route_milliseconds(together, route.inverse_route);
      comparison.alone_ms = route_milliseconds(alone, route.inverse_route);
      const bool failed = together.failed_column >= 0 || alone.failed_column >= 0;
      comparison.difference =
        failed ? std::nan("")
               : relative_difference(picture.download(together_images, 0), first.download(alone_images, 0));
      for (int c = 0; c < picture.k; ++c)
        {
          MethodResult result = blank_result(route.name, route.description + ", together",
                                             MethodKind::pipeline);
          result.channels_together = picture.k;
          result.stages = comparison.together;
          if (together.failed_column >= 0)
            result.failure = not_positive_definite(together.failed_column);
          else
            {
              result.milliseconds = comparison.together_ms;
              result.image = picture.download(together_images, c);
            }
          out.channels[c].push_back(std::move(result));
        }
      out.routes.push_back(comparison);
    }
  } // namespace

  // @sect3{The runs}
  //
  // Each pipeline is made for the picture's k channels and run, then made again for
  // one channel and run on the first: one at a time, so that the GPU holds only one
  // set of n² matrices. The repetitions and the median are the per-channel runs' own
  // (method_runs.h).
  template <typename T>
  ChannelsTogether restore_channels_together(const PsfField &field, const SampledField &sampled,
                                             const std::vector<lab::Matrix<double>> &degraded,
                                             const RestoreOptions &options, lab::Cublas &cublas)
  {
    ChannelsOnDevice<T> picture(field, sampled, degraded);
    ChannelsOnDevice<T> first(field, sampled, {degraded.front()});
    const int rows = picture.rows, cols = picture.cols;
    const T lambda = static_cast<T>(options.lambda);
    ChannelsTogether out;
    out.channels.resize(degraded.size());

    if (options.dense)
      {
        struct Products
        {
          std::string name, description;
          lab::Gemm<T> gemm;
        };
        const std::vector<Products> products = {{"course", "step-4's kernels", lab::Gemm<T>(step4::gemm)},
                                                {"cublas", "cuBLAS", lab::cublas_gemm_exact<T>(cublas)}};
        // The course's pipeline on either product: both routes from one run, recorded
        // before the next product's run overwrites their images.
        for (const Products &p : products)
          {
            const auto run_on = [&](ChannelsOnDevice<T> &on) {
              DensePipeline<T> pipeline(rows, cols, true, on.k);
              return median_times(options.dense_reps, [&] {
                on.poison();
                return pipeline.run(on.psf, lambda, on.g.data(), p.gemm, on.f.data(), on.f_inverse.data());
              });
            };
            const StageTimes t = run_on(picture), a = run_on(first);
            const std::string name = "dense_" + p.name, words = "dense, " + p.description;
            record(out, {name + "_solve", words + ", two solves", false}, t, a, picture, picture.f, first, first.f);
            record(out, {name + "_inverse", words + ", inverse (thesis)", true}, t, a, picture, picture.f_inverse,
                   first, first.f_inverse);
          }
        const auto vendor_on = [&](ChannelsOnDevice<T> &on) {
          DensePipeline<T> pipeline(rows, cols, false, on.k);
          return median_times(options.dense_reps, [&] {
            on.poison();
            return pipeline.run_vendor(on.psf, lambda, on.g.data(), cublas, on.f.data());
          });
        };
        const StageTimes t = vendor_on(picture), a = vendor_on(first);
        record(out, {"dense_cusolver", "dense, cuBLAS + cuSOLVER potrf/potrs", false}, t, a, picture, picture.f, first,
               first.f);
      }

    if (options.band)
      {
        const auto band_on = [&](ChannelsOnDevice<T> &on) {
          BandPipeline<T> pipeline(field, rows, cols, lab::Gemm<T>(step4::gemm), 0, on.k);
          const auto run = [&] {
            on.poison();
            return pipeline.run(on.psf, lambda, on.g.data(), on.f.data());
          };
          if (options.band_reps > 1)
            run();
          return median_times(options.band_reps, run);
        };
        const StageTimes t = band_on(picture), a = band_on(first);
        record(out, {"band_course_solve", "band, step-4's kernels, two solves", false}, t, a, picture, picture.f,
               first, first.f);
      }
    return out;
  }

  // @sect3{The report}
  void report_channels_together(const ChannelsTogether &together, const SampledField &sampled, double lambda,
                                double unit_roundoff, const std::string &label, lab::Checks &checks)
  {
    if (together.routes.empty())
      return;
    const int k = static_cast<int>(together.channels.size());
    const int n = sampled.image_rows * sampled.image_cols;
    const double condition = lambda > 0 ? (normal_matrix_norm_bound(sampled) + lambda) / lambda : 1e12;
    const double direct = direct_tolerance(n, unit_roundoff), inverse = direct + condition * unit_roundoff;
    std::printf("    the direct methods, one factorisation for the %d channels, against the first channel alone:\n", k);
    const std::string separately = "x" + std::to_string(k) + " ms";
    std::printf("    %-46s %11s %11s %11s %7s  %s\n", "method", "together ms", "alone ms", separately.c_str(), "saves",
                "first channel: difference (at most)");
    for (const TogetherAgainstAlone &route : together.routes)
      {
        const double bound = 4 * condition * (route.inverse_route ? inverse : direct);
        const bool same = checks.at_most(label + " " + route.description + ": channels together = the first alone",
                                         route.difference, bound);
        const double separately = k * route.alone_ms;
        std::printf("    %-46s %11.2f %11.2f %11.2f %6.0f%%  %.2e (%.1e)%s\n", route.description.c_str(),
                    route.together_ms, route.alone_ms, separately, 100 * (1 - route.together_ms / separately),
                    route.difference, bound, same ? "" : "  FAIL");
      }
  }

  template ChannelsTogether restore_channels_together<float>(const PsfField &, const SampledField &,
                                                             const std::vector<lab::Matrix<double>> &,
                                                             const RestoreOptions &, lab::Cublas &);
  template ChannelsTogether restore_channels_together<double>(const PsfField &, const SampledField &,
                                                              const std::vector<lab::Matrix<double>> &,
                                                              const RestoreOptions &, lab::Cublas &);
} // namespace step5
