// A picture's channels as the columns of a product (see channel_layout.h).
#include "gpu/channel_layout.h"

#include <lab/cuda_check.h>

namespace step5
{
  namespace
  {
    // channels(c, i) = columns(i, c): one thread per entry, the reads along the rows
    // of columns (consecutive threads, consecutive addresses), the writes k apart
    // images; with k ≤ 3 a warp's writes fall in k runs of consecutive addresses. The
    // whole copy is a few microseconds beside a solve.
    template <typename T>
    __global__ void columns_to_channels_kernel(const T *columns, int n, int k, T *channels)
    {
      const long index = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
      if (index >= static_cast<long>(n) * k)
        return;
      const long pixel = index / k, channel = index % k;
      channels[channel * n + pixel] = columns[index];
    }
  } // namespace

  template <typename T>
  void columns_to_channels(const T *columns, int n, int k, T *channels, cudaStream_t stream)
  {
    const long entries = static_cast<long>(n) * k;
    if (k == 1)
      {
        LAB_CHECK(cudaMemcpyAsync(channels, columns, entries * sizeof(T), cudaMemcpyDeviceToDevice, stream));
        return;
      }
    const int threads = 256;
    columns_to_channels_kernel<<<static_cast<unsigned>((entries + threads - 1) / threads), threads, 0, stream>>>(
      columns, n, k, channels);
    LAB_CHECK_LAUNCH();
  }

  template void columns_to_channels(const float *, int, int, float *, cudaStream_t);
  template void columns_to_channels(const double *, int, int, double *, cudaStream_t);
} // namespace step5
