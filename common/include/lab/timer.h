#pragma once
/// @file
/// @brief Timing: CUDA events for GPU work, a steady clock for CPU work, and the
/// median of repeated runs.
///
/// A kernel launch returns at once, long before the GPU has finished. A host clock
/// read after a launch measures only the launch. CUDA events are markers placed in
/// the GPU's stream of work; the GPU stamps each with its own clock when it gets there,
/// so the time between two events is the time the GPU spent on the work between them.
///
/// One run is not a measurement: the first run pays for loading the kernel and warming
/// caches, and later runs scatter. The course warms up first, then runs the work
/// `reps` times, and reports the median, which an outlier cannot drag.
///
/// The warm-up lasts at least lab::warm_up_milliseconds, not one run, because a GPU
/// under sustained load changes speed. Measured on an H200: after 0.05 to 0.1 s of
/// back-to-back TF32 products at n = 8192 its power management lowers the SM clock
/// from 1980 MHz to about 1600 MHz, and cuBLAS's product goes from 2.63 to 2.95 to
/// 3.08 ms, every kernel's likewise, and stays there while the load lasts. With one
/// warm-up run, whichever product of a comparison was timed first (cuBLAS, in the
/// course's programs) ran on a cool GPU and the next ones on a hot one, up to 13%
/// slower for nothing they did. Warmed up for longer than that, every product is
/// timed under sustained load, as a long computation runs.
///
/// What the warm-up cannot do: where the work keeps the GPU at its power limit (700 W
/// on the H200, reached by dense products on random data), the clock keeps moving,
/// between about 1.4 and 2.0 GHz within a second, and a product timed for a few tens
/// of milliseconds sees one part of that swing and the product timed after it
/// another. Measured on an H200, the share of cuBLAS's speed that one kernel reached
/// moved by up to 9 points from run to run at the same size.
///
/// So where the question is how fast a kernel is *compared with* the vendor's routine,
/// the course times the two alternately (median_gpu_milliseconds_alternately): the
/// vendor, the kernel, the vendor, the kernel, ..., each run a few milliseconds after
/// the other, so that both of a pair see the same clock, and it reports the median
/// over the pairs of the ratio of their times. The clock cancels in each ratio; what
/// is left is what the kernel does with a cycle against what the vendor does with it.
/// The two medians of the times themselves still move with the clock. Measured on an
/// H200 with a clock probe before every run, both runs of a pair saw the same clock
/// within 2%, and one kernel's share of DGEMM came out at 75.2 to 75.3% in every order
/// of the pairs, where timed one after the other it had read 82 and 88%. (What
/// alternate runs cannot show is a kernel that draws more power per flop and so, run
/// alone for long, would be clocked lower than the vendor: step-4's results page
/// measures that separately, and for the course's kernels the alternate share is the
/// lower one.)

#include <cuda_runtime.h>

#include <chrono>
#include <functional>
#include <utility>
#include <vector>

namespace lab
{
  /// A CUDA event (RAII): a marker in a stream that the GPU time-stamps when it
  /// reaches it.
  class CudaEvent
  {
  public:
    CudaEvent();
    ~CudaEvent();
    CudaEvent(const CudaEvent &) = delete;
    CudaEvent &operator=(const CudaEvent &) = delete;

    /// Places the marker in @p stream (default: the legacy default stream).
    void record(cudaStream_t stream = nullptr);
    /// The underlying handle.
    cudaEvent_t get() const { return event_; }

  private:
    cudaEvent_t event_ = nullptr;
  };

  /// Milliseconds of GPU time from @p start to @p stop; waits until @p stop has been
  /// reached.
  double milliseconds_between(const CudaEvent &start, const CudaEvent &stop);

  /// Times GPU work between start() and stop() with a pair of events.
  class EventTimer
  {
  public:
    /// Records the start marker in @p stream.
    void start(cudaStream_t stream = nullptr) { start_.record(stream); }
    /// Records the stop marker in @p stream.
    void stop(cudaStream_t stream = nullptr) { stop_.record(stream); }
    /// GPU milliseconds between the markers; waits for the stop marker.
    double milliseconds() const { return milliseconds_between(start_, stop_); }

  private:
    CudaEvent start_, stop_;
  };

  /// Times CPU work with the steady (monotonic) clock.
  class HostTimer
  {
  public:
    /// Starts (or restarts) the clock.
    void start() { start_ = std::chrono::steady_clock::now(); }
    /// Milliseconds since start().
    double milliseconds() const
    {
      const auto now = std::chrono::steady_clock::now();
      return std::chrono::duration<double, std::milli>(now - start_).count();
    }

  private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  };

  /// The median of @p samples (the mean of the middle two for an even count; NaN when
  /// empty or when any sample is NaN, which has no place in an ordering).
  double median(std::vector<double> samples);

  /// The median of one member of each sample, e.g.
  /// `median(runs, &GpuTimes::kernel_ms)`.
  template <typename Sample>
  double median(const std::vector<Sample> &samples, double Sample::*member)
  {
    std::vector<double> values;
    values.reserve(samples.size());
    for (const Sample &s : samples)
      values.push_back(s.*member);
    return median(std::move(values));
  }

  /// How long every measurement warms up at least (see the top of this file): twice
  /// the longest settling time measured on the H200.
  inline constexpr double warm_up_milliseconds = 200;

  /// The GPU time of @p work, as the course measures it everywhere: a warm-up of at
  /// least warm_up_milliseconds, then the median of @p reps runs, each between two
  /// CUDA events on the default stream. @p prepare, when given, runs before each
  /// repetition (also those of the warm-up), outside the timed interval: for work that
  /// must start from fresh data. @p after, when given, runs after each, untimed: to
  /// check every result, not only the last.
  double median_gpu_milliseconds(int reps, const std::function<void()> &work,
                                 const std::function<void()> &prepare = {},
                                 const std::function<void()> &after = {});

  /// The median over @p samples of `sample.*numerator / sample.*denominator`, one ratio
  /// per sample (NaN when empty or when any ratio is NaN). For pairs of runs that saw
  /// the same clock this is not the ratio of the two medians: a pair run at a low
  /// clock and one at a high clock give the same ratio, but different times.
  template <typename Sample>
  double median_ratio(const std::vector<Sample> &samples, double Sample::*numerator,
                      double Sample::*denominator)
  {
    std::vector<double> ratios;
    ratios.reserve(samples.size());
    for (const Sample &s : samples)
      ratios.push_back(s.*numerator / s.*denominator);
    return median(std::move(ratios));
  }

  /// What timing a piece of work alternately with a yardstick gives.
  struct AlternateTimes
  {
    double yardstick_ms; ///< the median time of the yardstick's runs
    double work_ms;      ///< the median time of the work's runs
    /// The median over the pairs of (yardstick time) / (work time): the work's speed
    /// as a fraction of the yardstick's, 1.1 for work that is 10% faster.
    double relative_speed;
  };

  /// Times @p yardstick (typically the vendor's routine) and @p work alternately, each
  /// between two CUDA events on the default stream, as pairs: a warm-up of at least
  /// warm_up_milliseconds of pairs, then @p reps pairs (see the top of this file for
  /// why). @p prepare, when given, runs before every run of either, untimed. The work
  /// runs last, so what it leaves is its own result. @p after_work, when given, runs
  /// after every run of the work (the warm-up's included), untimed: to check every
  /// result the work gives, not only its last, so that code which computes the right
  /// answer only when it is watched cannot pass.
  AlternateTimes median_gpu_milliseconds_alternately(int reps,
                                                     const std::function<void()> &yardstick,
                                                     const std::function<void()> &work,
                                                     const std::function<void()> &prepare = {},
                                                     const std::function<void()> &after_work = {});

  /// Calls @p run to warm up, at least once and until warm_up_milliseconds have passed
  /// (their results are dropped), then @p reps times, and returns the results of the
  /// timed calls. @p run returns a time in milliseconds, or a struct of several times.
  template <typename Run>
  auto repeat(int reps, Run &&run)
  {
    const HostTimer warm_up;
    do
      run();
    while (warm_up.milliseconds() < warm_up_milliseconds);
    std::vector<decltype(run())> samples;
    samples.reserve(reps);
    for (int i = 0; i < reps; ++i)
      samples.push_back(run());
    return samples;
  }
} // namespace lab
