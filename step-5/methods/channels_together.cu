// A colour picture: one factorisation for three channels (see channels_together.h).
#include "methods/channels_together.h"

#include "methods/band_pipeline.h"
#include "methods/dense_pipeline.h"
#include "methods/method_runs.h"
#include "model/varying_blur.h"
#include "report/checks.h"

#include <gemm_kernels.h> // step-4: step4::gemm, the course's product

#include <lab/cuda_check.h>
#include <lab/device_buffer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <utility>

namespace step5
{
  namespace
  {
    // The picture's channels side by side on the device, one image after another,
    // copied there from the channels' own problems (method_runs.h: the images are
    // uploaded once, for λ's search), and room for two restorations of them (a dense
    // pipeline's two routes), poisoned before every run.
    template <typename T>
    struct StackedChannels
    {
      explicit StackedChannels(const std::vector<DeviceProblem<T> *> &problems)
        : k(static_cast<int>(problems.size())), n(static_cast<long>(problems.front()->rows) * problems.front()->cols),
          g(static_cast<std::size_t>(n) * k), f(g.count()), f_inverse(g.count())
      {
        for (int c = 0; c < k; ++c)
          LAB_CHECK(cudaMemcpy(g.data() + c * n, problems[c]->g.data(), n * sizeof(T), cudaMemcpyDeviceToDevice));
      }

      void poison()
      {
        f.poison();
        f_inverse.poison();
      }

      int k;
      long n;
      lab::DeviceBuffer<T> g, f, f_inverse;
    };

    // The k channel images in @p images (one download for all), as @p problem's size.
    template <typename T>
    std::vector<lab::Matrix<double>> channel_images(const lab::DeviceBuffer<T> &images, int k,
                                                    const DeviceProblem<T> &problem)
    {
      std::vector<T> all(images.count());
      images.copy_to_host(all.data(), all.size());
      const long n = static_cast<long>(problem.rows) * problem.cols;
      std::vector<lab::Matrix<double>> channels;
      for (int c = 0; c < k; ++c)
        {
          lab::Matrix<double> &channel = channels.emplace_back(problem.rows, problem.cols);
          for (long i = 0; i < n; ++i)
            channel.data()[i] = static_cast<double>(all[c * n + i]);
        }
      return channels;
    }

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
    // @p alone the stage times of the two runs, @p together_images the picture's
    // images and @p alone_image the first channel's alone.
    template <typename T>
    void record(ChannelsTogether &out, const Route &route, const StageTimes &together, const StageTimes &alone,
                const StackedChannels<T> &picture, const lab::DeviceBuffer<T> &together_images,
                const DeviceProblem<T> &first, const lab::DeviceBuffer<T> &alone_image)
    {
      TogetherAgainstAlone comparison;
      comparison.description = route.description;
      comparison.inverse_route = route.inverse_route;
      comparison.together = route_stages(together, route.inverse_route);
      comparison.alone = route_stages(alone, route.inverse_route);
      comparison.together_ms = route_milliseconds(together, route.inverse_route);
      comparison.alone_ms = route_milliseconds(alone, route.inverse_route);
      const bool failed = together.failed_column >= 0 || alone.failed_column >= 0;
      const std::vector<lab::Matrix<double>> images =
        failed ? std::vector<lab::Matrix<double>>() : channel_images(together_images, picture.k, first);
      comparison.difference = failed ? std::nan("") : relative_difference(images.front(), first.download(alone_image));
      for (int c = 0; c < picture.k; ++c)
        {
          MethodResult result = blank_result(route.name, route.description + ", together", MethodKind::pipeline);
          result.channels_together = picture.k;
          result.stages = comparison.together;
          if (together.failed_column >= 0)
            result.failure = not_positive_definite(together.failed_column);
          else if (!failed)
            {
              result.milliseconds = comparison.together_ms;
              result.image = images[c];
            }
          out.channels[c].push_back(std::move(result));
        }
      out.routes.push_back(comparison);
    }
  } // namespace

  // @sect3{The runs}
  //
  // Each pipeline is made for the picture's k channels and run, then made again for
  // one channel and run on the first channel's own problem: one at a time, so that
  // the GPU holds only one set of n² matrices. The repetitions and the median are the
  // per-channel runs' own (method_runs.h).
  template <typename T>
  ChannelsTogether restore_channels_together(const PsfField &field, const std::vector<DeviceProblem<T> *> &problems,
                                             const RestoreOptions &options, lab::Cublas &cublas)
  {
    StackedChannels<T> picture(problems);
    DeviceProblem<T> &first = *problems.front();
    const DevicePsf<T> &psf = first.psf; // the same for every channel
    const int rows = first.rows, cols = first.cols;
    const T lambda = static_cast<T>(options.lambda);
    ChannelsTogether out;
    out.channels.resize(problems.size());

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
            StageTimes together, alone;
            {
              DensePipeline<T> pipeline(rows, cols, true, picture.k);
              together = median_times(options.dense_reps, [&] {
                picture.poison();
                return pipeline.run(psf, lambda, picture.g.data(), p.gemm, picture.f.data(), picture.f_inverse.data());
              });
            }
            {
              DensePipeline<T> pipeline(rows, cols, true);
              alone = median_times(options.dense_reps, [&] {
                first.poison_outputs();
                return pipeline.run(psf, lambda, first.g.data(), p.gemm, first.f.data(), first.f_inverse.data());
              });
            }
            const std::string name = "dense_" + p.name, words = "dense, " + p.description;
            record(out, {name + "_solve", words + ", two solves", false}, together, alone, picture, picture.f, first,
                   first.f);
            record(out, {name + "_inverse", words + ", inverse (thesis)", true}, together, alone, picture,
                   picture.f_inverse, first, first.f_inverse);
          }
        StageTimes together, alone;
        {
          DensePipeline<T> pipeline(rows, cols, false, picture.k);
          together = median_times(options.dense_reps, [&] {
            picture.poison();
            return pipeline.run_vendor(psf, lambda, picture.g.data(), cublas, picture.f.data());
          });
        }
        {
          DensePipeline<T> pipeline(rows, cols, false);
          alone = median_times(options.dense_reps, [&] {
            first.poison_outputs();
            return pipeline.run_vendor(psf, lambda, first.g.data(), cublas, first.f.data());
          });
        }
        record(out, {"dense_cusolver", "dense, cuBLAS + cuSOLVER potrf/potrs", false}, together, alone, picture,
               picture.f, first, first.f);
      }

    if (options.band)
      {
        // A band pipeline for @p channels channels, run on @p g into @p f after
        // @p poison, its first run untimed where there are repetitions.
        const auto band_run = [&](int channels, const T *g, T *f, const std::function<void()> &poison) {
          BandPipeline<T> pipeline(field, rows, cols, lab::Gemm<T>(step4::gemm), 0, channels);
          const auto run = [&] {
            poison();
            return pipeline.run(psf, lambda, g, f);
          };
          if (options.band_reps > 1)
            run();
          return median_times(options.band_reps, run);
        };
        const StageTimes together = band_run(picture.k, picture.g.data(), picture.f.data(), [&] { picture.poison(); });
        const StageTimes alone = band_run(1, first.g.data(), first.f.data(), [&] { first.poison_outputs(); });
        record(out, {"band_course_solve", "band, step-4's kernels, two solves", false}, together, alone, picture,
               picture.f, first, first.f);
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

  template ChannelsTogether restore_channels_together<float>(const PsfField &,
                                                             const std::vector<DeviceProblem<float> *> &,
                                                             const RestoreOptions &, lab::Cublas &);
  template ChannelsTogether restore_channels_together<double>(const PsfField &,
                                                              const std::vector<DeviceProblem<double> *> &,
                                                              const RestoreOptions &, lab::Cublas &);
} // namespace step5
