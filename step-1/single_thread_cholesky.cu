#include "cholesky_loop.h"
#include "single_thread_cholesky.cuh"

#include <lab/cuda_check.h>
#include <lab/device_buffer.h>

namespace step1
{
  // A kernel is a function marked `__global__`: the CPU starts it, the GPU runs it, in
  // as many threads as the launch asks for. This one does nothing a CPU function
  // would not do: it calls the host-and-device loop and stores its result. Because it
  // runs on exactly one thread, there is no parallelism at all yet; we measure what
  // a single GPU thread costs, compared with a CPU core.
  template <typename T>
  __global__ void single_thread_cholesky_kernel(T *a, int n, int ld, int *info)
  {
    *info = cholesky_in_place(a, n, ld);
  }

  // The launch `<<<1, 1>>>` asks for a grid of one block of one thread. Launches are
  // asynchronous and return no status; a launch that the GPU refuses (a bad
  // configuration, no device) is reported by the next cudaGetLastError(), which
  // LAB_CHECK_LAUNCH() turns into an exception naming this file and line.
  template <typename T>
  void single_thread_cholesky(T *a, int n, int ld, int *info)
  {
    // @exercise{single_thread_launch, 1}
    // Starting a kernel from the CPU and checking that it started. Launch
    // `single_thread_cholesky_kernel` with a grid of one block of one thread, passing
    // it the device pointers and sizes this function received, and check the launch
    // with `LAB_CHECK_LAUNCH()` right after it.
    single_thread_cholesky_kernel<<<1, 1>>>(a, n, ld, info);
    LAB_CHECK_LAUNCH();
    // @end-exercise
  }

  // The info flag is poisoned (-1) before the launch, so a kernel that never wrote it
  // cannot pass for a successful one.
  template <typename T>
  int single_thread_cholesky(const lab::Matrix<T> &a, lab::Matrix<T> &factor)
  {
    lab::DeviceBuffer<T> a_device(a);
    lab::DeviceBuffer<int> info_device(1);
    info_device.poison();
    single_thread_cholesky(a_device.data(), a.rows(), a.ld(), info_device.data());
    factor = lab::Matrix<T>(a.rows(), a.cols(), a.ld());
    a_device.download(factor);
    int info = -1;
    info_device.copy_to_host(&info, 1);
    return info;
  }

  template void single_thread_cholesky(float *, int, int, int *);
  template void single_thread_cholesky(double *, int, int, int *);
  template int single_thread_cholesky(const lab::Matrix<float> &, lab::Matrix<float> &);
  template int single_thread_cholesky(const lab::Matrix<double> &, lab::Matrix<double> &);
} // namespace step1
