#pragma once
// @sect3{Launching kernels 16 to 18}
//
// All are launched alike: the operands in the layouts the kernel wants (passes where
// needed, their scratch from the pool), the tensor maps, one block per tile of C, and
// the scratch back to the pool, all in stream order. They differ in B's layout and so
// in B's tensor map, which `b_map_of` makes from the prepared B. k = 0 runs no step of
// the loop: the maps are never read and stay empty.
//
// Kernel 18 runs in clusters of Config::cluster blocks along a row of the grid: the
// row is rounded up to whole clusters (a tile past the edge of C computes zeros from
// the TMA's fill and stores nothing), the size of a cluster is a launch attribute,
// which the triple-chevron launch cannot pass, and each block copies 1/cluster of A's
// rows, so A's box is that high.

#include "kernels/launch.cuh"
#include "kernels/tma_operands.cuh"

#include <stdexcept>
#include <string>

namespace step4
{
  template <typename Config, auto kernel, typename BMapOf>
  void launch_wgmma(const char *name, const GemmArgs<float> &g, BLayout b_layout,
                    BMapOf b_map_of, cudaStream_t stream)
  {
    if (!wgmma_available())
      throw std::runtime_error(std::string(name) + " needs a GPU of compute capability 9.0 "
                                                   "and a build for it (CMAKE_CUDA_ARCHITECTURES=90)");
    const GemmShape &s = g.shape;
    if (s.m == 0 || s.n == 0)
      return;
    const TmaOperands operands = prepare_operands(g, b_layout, stream);
    CUtensorMap a_map{}, b_map{};
    if (s.k > 0)
      {
        a_map = tf32_tensor_map(operands.a.data, operands.a.ld, s.m, s.k, Config::bk,
                                Config::bm / Config::cluster);
        b_map = b_map_of(operands.b);
      }
    allow_shared_memory<kernel>(Config::shared_bytes);
    const dim3 grid(ceil_div(s.n, Config::bn * Config::cluster) * Config::cluster, ceil_div(s.m, Config::bm));
    if constexpr (Config::cluster == 1)
      kernel<<<grid, Config::threads, Config::shared_bytes, stream>>>(a_map, b_map, g);
    else
      {
        cudaLaunchAttribute cluster{};
        cluster.id = cudaLaunchAttributeClusterDimension;
        cluster.val.clusterDim.x = Config::cluster;
        cluster.val.clusterDim.y = 1;
        cluster.val.clusterDim.z = 1;
        cudaLaunchConfig_t launch{};
        launch.gridDim = grid;
        launch.blockDim = dim3(Config::threads);
        launch.dynamicSmemBytes = Config::shared_bytes;
        launch.stream = stream;
        launch.attrs = &cluster;
        launch.numAttrs = 1;
        LAB_CHECK(cudaLaunchKernelEx(&launch, kernel, a_map, b_map, g));
      }
    LAB_CHECK_LAUNCH();
    free_pass_scratch(operands.scratch, stream);
  }
} // namespace step4
