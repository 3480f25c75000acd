// Kernel 18: kernel 17 in clusters of two blocks that share A's tile (see
// 18_wgmma_multicast.cuh).
#include "kernels/18_wgmma_multicast.cuh"

#include "kernels/17_wgmma_b_as_stored_kernel.cuh"

#include <lab/device.h>

namespace step4
{
  // Kernel 17's sizes, in clusters of two blocks: each copies 128 of the 256 rows of
  // A's tile (17_wgmma_b_as_stored_kernel.cuh).
  void launch_18_wgmma_multicast(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_wgmma_b_as_stored<WgmmaBAsStoredConfig<2>>("18_wgmma_multicast", g, stream);
  }

  bool multicast_pays(const GemmShape &shape)
  {
    using Config = WgmmaBAsStoredConfig<2>;
    const long tiles = long(ceil_div(shape.m, Config::bm)) * ceil_div(shape.n, Config::bn);
    return tiles >= lab::current_device_attribute(cudaDevAttrMultiProcessorCount);
  }
} // namespace step4
