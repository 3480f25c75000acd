#pragma once
// For the planted tests of the timing harnesses (steps 2 to 5, issue 54): the fault of
// code that computes on its first call only, keeps the answer in a buffer of its own
// (where no poisoning of the output reaches it) and hands that copy back on every later
// call, in the time of a copy. Each step's test wraps its own honest code in one.

#include <lab/cuda_check.h>
#include <lab/device_buffer.h>

#include <cuda_runtime.h>

#include <cstddef>

namespace lab_test
{
  template <typename T>
  class FirstAnswerKept
  {
  public:
    // On the first call @p compute() writes the @p count numbers at @p output (on the
    // device), and they are kept; on every later call the kept ones are copied there
    // instead, on @p stream.
    template <typename Compute>
    void operator()(T *output, std::size_t count, Compute &&compute, cudaStream_t stream = nullptr)
    {
      if (kept_.count() == 0)
        {
          compute();
          kept_ = lab::DeviceBuffer<T>(count);
          LAB_CHECK(cudaMemcpyAsync(kept_.data(), output, count * sizeof(T), cudaMemcpyDeviceToDevice, stream));
          return;
        }
      LAB_CHECK(cudaMemcpyAsync(output, kept_.data(), count * sizeof(T), cudaMemcpyDeviceToDevice, stream));
    }

  private:
    lab::DeviceBuffer<T> kept_{0};
  };
} // namespace lab_test
