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

  double median_gpu_milliseconds(int reps, const std::function<void()> &work,
                                 const std::function<void()> &prepare)
  {
    CudaEvent start, stop;
    return median(repeat(reps, [&] {
      if (prepare)
        prepare();
      start.record();
      work();
      stop.record();
      return milliseconds_between(start, stop);
    }));
  }
} // namespace lab
