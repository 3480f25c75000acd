// The list of kernels (see gemm_kernels.h).
#include "gemm_kernels.h"

#include "kernels/10_double_buffered.cuh"
#include "kernels/11_autotuned.cuh"
#include "kernels/12_tensor_cores_tf32.cuh"
#include "kernels/13_double_precision.cuh"
#include "kernels/14_tensor_cores_fp64.cuh"
#include "kernels/15_async_pipeline.cuh"
#include "kernels/16_wgmma_tf32.cuh"
#include "kernels/17_wgmma_b_as_stored.cuh"
#include "kernels/18_wgmma_multicast.cuh"
#include "kernels/19_dmma_tma.cuh"
#include "kernels/20_ozaki_int8.cuh"
#include "kernels/1_naive.cuh"
#include "kernels/2_shared_tiles_16.cuh"
#include "kernels/3_coalesced.cuh"
#include "kernels/4_shared_tiles_32.cuh"
#include "kernels/5_register_blocking_1d.cuh"
#include "kernels/6_register_blocking_2d.cuh"
#include "kernels/7_vectorized_loads.cuh"
#include "kernels/8_conflict_free_smem.cuh"
#include "kernels/9_warp_tiling.cuh"

#include <cstdio>
#include <utility>

namespace step4
{
  const std::vector<GemmKernel<float>> &fp32_kernels()
  {
    static const std::vector<GemmKernel<float>> kernels = {
      {"1_naive", "one thread per entry, threads along rows (uncoalesced)", transposes_too,
       launch_1_naive},
      {"2_shared_tiles_16", "16x16 tiles in shared memory (the 2011 kernel)", transposes_too,
       launch_2_shared_tiles_16},
      {"3_coalesced", "kernel 1 with threads along columns (coalesced)", transposes_too,
       launch_3_coalesced},
      {"4_shared_tiles_32", "32x32 tiles: more reuse, full 128-byte rows", transposes_too,
       launch_4_shared_tiles_32},
      {"5_register_blocking_1d", "8 entries per thread, a column", transposes_too,
       launch_5_register_blocking_1d},
      {"6_register_blocking_2d", "8x8 entries per thread, outer products", transposes_too,
       launch_6_register_blocking_2d},
      {"7_vectorized_loads", "16-byte loads, A tile transposed", plain_product_only,
       launch_7_vectorized_loads},
      {"8_conflict_free_smem", "split fragments, padded tile: no bank conflicts",
       plain_product_only, launch_8_conflict_free_smem},
      {"9_warp_tiling", "warp tiles of 64x32", plain_product_only, launch_9_warp_tiling},
      {"10_double_buffered", "two stages, cp.async: copy while computing", transposes_too,
       launch_10_double_buffered},
      {"11_autotuned", "kernel 10 with tile sizes measured on this GPU", transposes_too,
       launch_11_autotuned},
      {"15_async_pipeline", "every tile by cp.async, 3 stages, copies between the FFMAs",
       transposes_too, launch_15_async_pipeline},
    };
    return kernels;
  }

  const std::vector<GemmKernel<float>> &tf32_kernels()
  {
    static const std::vector<GemmKernel<float>> kernels = {
      {"12_tensor_cores_tf32", "WMMA on the tensor cores, TF32 inputs", plain_product_only,
       launch_12_tensor_cores_tf32},
      {"16_wgmma_tf32", "Hopper: wgmma fed by the TMA, warp-specialised, 4 stages",
       transposes_too, launch_16_wgmma_tf32, wgmma_available},
      {"17_wgmma_b_as_stored", "kernel 16 computing C^T = B^T A^T: B as stored, via registers",
       transposes_too, launch_17_wgmma_b_as_stored, wgmma_available},
      {"18_wgmma_multicast", "kernel 17 in clusters of two blocks that share A's tile (TMA multicast)",
       transposes_too, launch_18_wgmma_multicast, wgmma_available},
    };
    return kernels;
  }

  const std::vector<GemmKernel<double>> &fp64_kernels()
  {
    static const std::vector<GemmKernel<double>> kernels = {
      {"13_double_precision", "kernel 10 in double precision", transposes_too,
       launch_13_double_precision},
      {"14_tensor_cores_fp64", "DMMA on the FP64 tensor cores, multi-stage cp.async",
       transposes_too, launch_14_tensor_cores_fp64, fp64_tensor_cores_available},
      {"19_dmma_tma", "Hopper: DMMA fed by the TMA, mbarriers, cuBLAS's tiles (64x32 warps, m16n8k8)",
       transposes_too, launch_19_dmma_tma, wgmma_available},
      {"20_ozaki_int8", "the Ozaki scheme II: exact INT8 products of residues, rebuilt by the CRT",
       transposes_too, launch_20_ozaki_int8},
    };
    return kernels;
  }

  // A kernel of @p kernels called @p name, or by the number in front of its name.
  template <typename T>
  const GemmKernel<T> *find_kernel(const std::vector<GemmKernel<T>> &kernels,
                                   const std::string &name)
  {
    for (const GemmKernel<T> &kernel : kernels)
      if (kernel.name == name || kernel.name.substr(0, kernel.name.find('_')) == name)
        return &kernel;
    return nullptr;
  }

  const GemmKernel<float> *find_float_kernel(const std::string &name)
  {
    const GemmKernel<float> *kernel = find_kernel(fp32_kernels(), name);
    return kernel ? kernel : find_kernel(tf32_kernels(), name);
  }

  const GemmKernel<double> *find_double_kernel(const std::string &name)
  {
    return find_kernel(fp64_kernels(), name);
  }

  // An empty C (m or n zero) needs no work, and a grid of zero blocks would be a launch
  // error: return at once. (k = 0 is a real product: C = β·C.) In float, kernel 15: on
  // the H100 it was faster than kernel 11 on every shape of the sweep (the square
  // sizes, the thin k = 256 product and the transposed ones).
  //
  // A lower triangle (lab::Output::lower_triangle): kernels 14 to 19 leave out
  // the tiles above the diagonal themselves, in one launch; the other kernels compute
  // it block column by block column (lab::lower_triangle_by_block_columns).
  void CourseGemm::operator()(const GemmArgs<float> &g, cudaStream_t stream) const
  {
    if (g.shape.m > 0 && g.shape.n > 0)
      launch_15_async_pipeline(g, stream);
  }

  // In double, the FP64 tensor cores where the GPU has them (asked once, then
  // remembered), fed by the TMA on Hopper, else the ordinary FP64 units.
  void CourseGemm::operator()(const GemmArgs<double> &g, cudaStream_t stream) const
  {
    if (g.shape.m == 0 || g.shape.n == 0)
      return;
    if (wgmma_available())
      launch_19_dmma_tma(g, stream);
    else if (fp64_tensor_cores_available())
      launch_14_tensor_cores_fp64(g, stream);
    else if (g.output == lab::Output::lower_triangle)
      lab::lower_triangle_by_block_columns(g, *this, stream);
    else
      launch_13_double_precision(g, stream);
  }

  // In TF32: where wgmma runs, kernel 16 for op(B) = Bᵀ, which is k-major as stored,
  // and for op(B) = B, which they read as stored, kernel 18 where the product has
  // tiles enough for clusters to pay (multicast_pays) and kernel 17 elsewhere; else
  // kernel 12 for A·B and kernel 15 for the transposed shapes (see gemm_kernels.h).
  // (Kernel 18 is as fast as 17 on the square sizes from 2048 up and twice as fast on
  // step-5's HᵀH at n = 65536, where k is long and A's tiles are read from the L2 half
  // as often; on products with fewer tiles than SMs it is 3 to 13% slower, see the
  // results page.)
  void CourseGemmTf32::operator()(const GemmArgs<float> &g, cudaStream_t stream) const
  {
    if (g.shape.m == 0 || g.shape.n == 0)
      return;
    if (wgmma_available())
      {
        if (g.shape.op_b == Op::transpose)
          launch_16_wgmma_tf32(g, stream);
        else if (multicast_pays(g.shape))
          launch_18_wgmma_multicast(g, stream);
        else
          launch_17_wgmma_b_as_stored(g, stream);
      }
    else if (g.output == lab::Output::lower_triangle)
      lab::lower_triangle_by_block_columns(g, *this, stream);
    else if (g.shape.op_a == Op::none && g.shape.op_b == Op::none)
      launch_12_tensor_cores_tf32(g, stream);
    else
      launch_15_async_pipeline(g, stream);
  }

  // Kernel 20 where its integer products outweigh its passes (see gemm_kernels.h; the
  // thresholds are the H200's, step-4's results page has the measurements).
  bool runs_on_kernel_20(const GemmArgs<double> &g)
  {
    const GemmShape &s = g.shape;
    const bool large = s.m >= 4096 && s.n >= 4096 && s.k >= 4096 && double(s.m) * s.n * s.k > 4096.0 * 4096 * 4096;
    return large && g.output == lab::Output::whole && wgmma_available();
  }

  std::string Kernel20Tally::summary() const
  {
    char text[160];
    std::snprintf(text, sizeof text, "kernel 20 took %d of the %d products, %.0f%% of the flops, and left %d of them to the double kernel",
                  taken, products, flops > 0 ? 100 * flops_taken / flops : 0.0, fell_back);
    return text;
  }

  lab::Gemm<double> tallied(lab::Gemm<double> product, Kernel20Tally &tally)
  {
    return [product = std::move(product), &tally](const GemmArgs<double> &g, cudaStream_t stream) {
      product(g, stream);
      const double flops = g.output == lab::Output::whole ? g.shape.flops() : g.shape.flops() / 2;
      ++tally.products;
      tally.flops += flops;
      if (runs_on_kernel_20(g))
        {
          ++tally.taken;
          tally.flops_taken += flops;
          tally.fell_back += !last_ozaki_report().fell_back.empty();
        }
    };
  }

  lab::Gemm<double> with_kernel_20(lab::Gemm<double> rest)
  {
    return [rest = std::move(rest)](const GemmArgs<double> &g, cudaStream_t stream) {
      if (runs_on_kernel_20(g))
        launch_20_ozaki_int8(g, stream);
      else
        rest(g, stream);
    };
  }

  void CourseGemmOzaki::operator()(const GemmArgs<double> &g, cudaStream_t stream) const
  {
    static const lab::Gemm<double> product = with_kernel_20(lab::Gemm<double>(gemm));
    product(g, stream);
  }
} // namespace step4
