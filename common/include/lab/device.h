#pragma once
/// @file
/// @brief Which GPU is there, if any.
///
/// The course's programs run their CPU parts on any machine. They ask once, at the
/// start, whether a CUDA device can be used; any error from the runtime (no driver, no
/// GPU, a driver too old for this toolkit) means "no device", and the GPU parts are
/// skipped with one line saying why.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace lab
{
  /// What the programs need to know about the GPU (device 0).
  struct DeviceInfo
  {
    /// True when a CUDA device is usable; otherwise #why_not says why.
    bool present = false;
    /// The runtime's error message when no device is usable.
    std::string why_not;
    /// Marketing name, e.g. "NVIDIA H100 80GB HBM3".
    std::string name;
    /// Compute capability, major and minor (9.0 for Hopper).
    int major = 0;
    /// Compute capability, minor part.
    int minor = 0;
    /// Number of streaming multiprocessors.
    int multiprocessors = 0;
    /// Global memory in bytes.
    std::size_t total_memory = 0;
    /// Global memory free at the time of the query, in bytes.
    std::size_t free_memory = 0;
  };

  /// Queries device 0. Never throws: failures give `present == false`.
  DeviceInfo query_device();

  /// One line for a program's header: "NVIDIA H100 80GB HBM3, compute capability 9.0,
  /// 132 SMs, 79.1 GiB" or "no CUDA device (why)".
  std::string describe(const DeviceInfo &device);

  /// The `# gpu:` line of a results table (lab::TableHeader::gpu): describe() of the
  /// device the program ran on, or "none (GPU part skipped)" when it ran without one.
  std::string describe_for_table(const DeviceInfo &device);

  /// Whether this machine must use its GPU: `LAB_REQUIRE_GPU=1` in the environment.
  /// A GPU machine's runs set it (tools/gpu-node does), so that a device that cannot
  /// be used (a driver problem, a busy or broken GPU) fails the run loudly instead of
  /// turning every GPU part and GPU test into a quiet "skipped".
  bool gpu_required();

  /// The device a program runs on: none when @p cpu_only (the --cpu-only flag), else
  /// query_device(). Prints the program header's "GPU: ..." line, which says why the
  /// GPU part is skipped when there is no device to use; under gpu_required() a
  /// missing device is an error instead (a std::runtime_error saying why).
  DeviceInfo select_device(bool cpu_only);

  /// One property of the GPU in use (the current device), such as
  /// cudaDevAttrMultiProcessorCount; a CUDA error throws. For code that adapts to the
  /// GPU, e.g. a launcher choosing its tiles by the number of SMs.
  int current_device_attribute(cudaDeviceAttr attribute);
} // namespace lab
