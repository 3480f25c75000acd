#include <lab/fresh_inputs.h>

#include <lab/cuda_check.h>

#include <algorithm>

namespace lab
{
  namespace
  {
    template <typename T>
    __global__ void scale_by_power_of_two(T *data, std::size_t count, int exponent)
    {
      for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < count;
           e += std::size_t(gridDim.x) * blockDim.x)
        data[e] = ldexp(data[e], exponent);
    }
  } // namespace

  template <typename T>
  void scale_on_gpu(T *data, std::size_t count, int exponent, cudaStream_t stream)
  {
    if (count == 0 || exponent == 0)
      return;
    constexpr int threads = 256;
    const int blocks = static_cast<int>(std::min<std::size_t>(1024, (count + threads - 1) / threads));
    scale_by_power_of_two<<<blocks, threads, 0, stream>>>(data, count, exponent);
    LAB_CHECK_LAUNCH();
  }

  template void scale_on_gpu(float *, std::size_t, int, cudaStream_t);
  template void scale_on_gpu(double *, std::size_t, int, cudaStream_t);
} // namespace lab
