#pragma once
/// @file
/// @brief lab::copy_block: a block of a row-major matrix copied on the device by a kernel.
///
/// `cudaMemcpy2DAsync` copies a strided block. Captured into a CUDA graph it becomes a
/// memcpy node, which is not a kernel: it has no priority attribute, unlike the kernel
/// nodes captured beside it from a high-priority stream, and the driver runs it as it
/// chooses (a copy engine, or a kernel of its own). How exactly is the driver's
/// business; what it costs a chain of small steps beside a large product is measured
/// (the probe `graph_prio`, reproduced in the step-2 and step-5 results). Measured on an H200 in step-5's band factorisation (variant 9
/// on the band of a 1024² image: 2048 panel steps, each copying a panel of 8200 × 512
/// entries on the high-priority panel chain): as a graph 3.43 s in double and 2.66 s
/// in float, launched directly 2.64 and 2.36 s. With this kernel in place of the
/// memcpy, as a graph 2.52 and 2.33 s, directly 2.60 and 2.34 s. A kernel is a kernel
/// node in a graph and in a stream alike: it runs on the SMs at the memory's speed, at
/// its stream's priority, either way. Copies that are never captured (step-3's) keep
/// the simpler `cudaMemcpy2DAsync`; those on a path that a graph records (step-2's
/// panels, which step-5's band pipeline captures) use this.

#include <cuda_runtime.h>

namespace lab
{
  /// @p destination (leading dimension @p ld_destination) = the @p rows × @p columns
  /// block at @p source (leading dimension @p ld_source), both row-major on the device,
  /// enqueued on @p stream. The two must not overlap.
  template <typename T>
  void copy_block(T *destination, int ld_destination, const T *source, int ld_source, int rows, int columns,
                  cudaStream_t stream);
} // namespace lab
