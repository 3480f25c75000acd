// Kernel 18: kernel 17 in clusters of two blocks that share A's tile (see
// 18_wgmma_multicast.cuh).
#include "kernels/18_wgmma_multicast.cuh"

#include "kernels/17_wgmma_b_as_stored_kernel.cuh"

namespace step4
{
  // Kernel 17's sizes, in clusters of two blocks: each copies 128 of the 256 rows of
  // A's tile (17_wgmma_b_as_stored_kernel.cuh).
  void launch_18_wgmma_multicast(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_wgmma_b_as_stored<WgmmaBAsStoredConfig<2>>("18_wgmma_multicast", g, stream);
  }
} // namespace step4
