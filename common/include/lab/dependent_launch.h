#pragma once
/// @file
/// @brief Kernels that start while the kernel before them on the stream is still
/// running (programmatic dependent launch, compute capability 9.0 and later).
///
/// Two kernels on one stream normally run one after the other: the second starts when
/// the last block of the first has finished and its writes are visible, and between
/// the two the GPU is idle for a few microseconds. For a chain of short kernels (a
/// one-vector solve is five: a check, tile inverses, two substitutions, an erase) those
/// gaps and every kernel's own preparations add up to a tenth of the time.
///
/// Hopper lets the second kernel start early. Launched with the attribute that
/// overlap_previous_kernel() returns, its blocks may be scheduled as soon as every
/// block of the kernel before it has called allow_next_kernel_to_start() (or has
/// finished), and they run until they call wait_for_previous_kernel(): that returns
/// once the kernel before has finished and its writes are visible. What comes before
/// the wait (taking a ticket, clearing shared memory, loading what an earlier kernel
/// wrote) overlaps the kernel before. Two rules make it safe:
///  - before its wait, a kernel reads nothing that the kernel before it may still be
///    writing;
///  - a kernel whose results a later kernel needs waits itself, before it finishes,
///    so that "finished" stays transitive along the stream.
/// On GPUs without the feature, or for code compiled for an older architecture, the
/// launch is an ordinary one and both calls do nothing.
///
/// The CUDA Programming Guide's section "Programmatic Dependent Launch and
/// Synchronization" describes the mechanism; the PTX instructions are
/// `griddepcontrol.launch_dependents` and `griddepcontrol.wait`.

#include <lab/cuda_check.h>

#include <cuda_runtime.h>

#include <cstddef>

namespace lab
{
  /// Lets the kernel after this one on the stream start (once every block of this one
  /// has called it or finished), if that kernel was launched overlapping this one.
  __device__ inline void allow_next_kernel_to_start()
  {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
  }

  /// Waits until the kernel before this one on the stream has finished and its writes
  /// are visible. Returns at once where this kernel was launched the ordinary way.
  __device__ inline void wait_for_previous_kernel()
  {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  }

  /// Whether @p kernel may start before the kernel before it has finished: the GPU has
  /// the feature, and the kernel's code was compiled for it. What counts is the virtual
  /// architecture (ptxVersion): code built for sm_80 that the driver compiles for an
  /// H100 has no wait in it and must be launched the ordinary way. Asked of the runtime
  /// once per kernel (for the device current at the first launch).
  template <auto kernel>
  bool can_overlap_previous_kernel()
  {
    static const bool yes = [] {
      int device = 0, major = 0;
      LAB_CHECK(cudaGetDevice(&device));
      LAB_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
      cudaFuncAttributes attributes{};
      LAB_CHECK(cudaFuncGetAttributes(&attributes, kernel));
      return major >= 9 && attributes.ptxVersion >= 90;
    }();
    return yes;
  }

  /// The launch attribute for cudaLaunchKernelEx that lets a kernel overlap the one
  /// before it on the stream.
  inline cudaLaunchAttribute overlap_previous_kernel()
  {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    return attribute;
  }

  /// kernel<<<grid, block, shared_bytes, stream>>>(args...), overlapping the kernel
  /// before it where can_overlap_previous_kernel<kernel>().
  template <auto kernel, typename... Args>
  void launch_overlapping_previous(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                                   const Args &...args)
  {
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared_bytes;
    config.stream = stream;
    cudaLaunchAttribute overlap = overlap_previous_kernel();
    if (can_overlap_previous_kernel<kernel>())
      {
        config.attrs = &overlap;
        config.numAttrs = 1;
      }
    LAB_CHECK(cudaLaunchKernelEx(&config, kernel, args...));
  }
} // namespace lab
