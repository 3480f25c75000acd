#include <lab/cuda_check.h>
#include <lab/timer.h>

#include <algorithm>
#include <cmath>

namespace lab
{
  CudaEvent::CudaEvent() { LAB_CHECK(cudaEventCreate(&event_)); }

  CudaEvent::~CudaEvent() { cudaEventDestroy(event_); }

  void CudaEvent::record(cudaStream_t stream) { LAB_CHECK(cudaEventRecord(event_, stream)); }

  double milliseconds_between(const CudaEvent &start, const CudaEvent &stop)
  {
    LAB_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    LAB_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return ms;
  }

  double median(std::vector<double> samples)
  {
    if (samples.empty() ||
        std::any_of(samples.begin(), samples.end(), [](double x) { return std::isnan(x); }))
      return std::nan("");
    const std::size_t middle = samples.size() / 2;
    std::nth_element(samples.begin(), samples.begin() + middle, samples.end());
    if (samples.size() % 2 == 1)
      return samples[middle];
    // For an even count, the other middle value is the largest of the lower half.
    const double below = *std::max_element(samples.begin(), samples.begin() + middle);
    return 0.5 * (below + samples[middle]);
  }

  namespace
  {
    // One run of @p work between the events, after @p prepare (untimed).
    double time_once(const std::function<void()> &work, const std::function<void()> &prepare,
                     CudaEvent &start_marker, CudaEvent &stop_marker)
    {
      if (prepare)
        prepare();
      start_marker.record();
      work();
      stop_marker.record();
      return milliseconds_between(start_marker, stop_marker);
    }
  } // namespace

  double median_gpu_milliseconds(int reps, const std::function<void()> &work,
                                 const std::function<void()> &prepare, const std::function<void()> &after)
  {
    CudaEvent start, stop;
    return median(repeat(reps, [&] {
      const double ms = time_once(work, prepare, start, stop);
      if (after)
        after();
      return ms;
    }));
  }

  AlternateTimes median_gpu_milliseconds_alternately(int reps,
                                                     const std::function<void()> &yardstick,
                                                     const std::function<void()> &work,
                                                     const std::function<void()> &prepare,
                                                     const std::function<void()> &after_work)
  {
    struct Pair
    {
      double yardstick_ms, work_ms;
    };
    CudaEvent start, stop;
    const std::vector<Pair> pairs = repeat(reps, [&] {
      const double yardstick_ms = time_once(yardstick, prepare, start, stop);
      const Pair pair{yardstick_ms, time_once(work, prepare, start, stop)};
      if (after_work)
        after_work();
      return pair;
    });
    return {median(pairs, &Pair::yardstick_ms), median(pairs, &Pair::work_ms),
            median_ratio(pairs, &Pair::yardstick_ms, &Pair::work_ms)};
  }
} // namespace lab
