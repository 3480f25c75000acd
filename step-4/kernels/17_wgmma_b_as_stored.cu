// Kernel 17: TF32 with wgmma, B read as stored (see 17_wgmma_b_as_stored.cuh).
#include "kernels/17_wgmma_b_as_stored.cuh"

#include "kernels/17_wgmma_b_as_stored_kernel.cuh"

namespace step4
{
  // @sect3{Launching}
  //
  // The sizes, the kernel and its launcher are in 17_wgmma_b_as_stored_kernel.cuh,
  // shared with kernel 18.
  void launch_17_wgmma_b_as_stored(const GemmArgs<float> &g, cudaStream_t stream)
  {
    launch_wgmma_b_as_stored<WgmmaBAsStoredConfig<1>>("17_wgmma_b_as_stored", g, stream);
  }
} // namespace step4
