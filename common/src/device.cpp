#include <lab/device.h>

#include <lab/cuda_check.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace lab
{
  DeviceInfo query_device()
  {
    DeviceInfo info;
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaSuccess && count == 0)
      {
        info.why_not = "the driver reports no GPU";
        return info;
      }
    cudaDeviceProp properties{};
    if (status == cudaSuccess)
      status = cudaGetDeviceProperties(&properties, 0);
    // cudaMemGetInfo creates the context: a device that is listed but cannot be used
    // (busy, in a bad state) fails here rather than at the first real allocation.
    if (status == cudaSuccess)
      status = cudaMemGetInfo(&info.free_memory, &info.total_memory);
    if (status != cudaSuccess)
      {
        info.why_not = cudaGetErrorString(status);
        // Clear the error so that it does not resurface at an unrelated later call.
        cudaGetLastError();
        return info;
      }
    info.present = true;
    info.name = properties.name;
    info.major = properties.major;
    info.minor = properties.minor;
    info.multiprocessors = properties.multiProcessorCount;
    return info;
  }

  std::string describe(const DeviceInfo &device)
  {
    if (!device.present)
      return "no CUDA device (" + device.why_not + ")";
    char text[256];
    std::snprintf(text, sizeof text, "%s, compute capability %d.%d, %d SMs, %.1f GiB",
                  device.name.c_str(), device.major, device.minor,
                  device.multiprocessors, device.total_memory / 1073741824.0);
    return text;
  }

  std::string describe_for_table(const DeviceInfo &device)
  {
    return device.present ? describe(device) : "none (GPU part skipped)";
  }

  bool gpu_required()
  {
    const char *value = std::getenv("LAB_REQUIRE_GPU");
    return value && std::string(value) == "1";
  }

  DeviceInfo select_device(bool cpu_only)
  {
    if (cpu_only)
      {
        std::printf("GPU: not used (--cpu-only): the GPU part is skipped\n");
        return {};
      }
    DeviceInfo device = query_device();
    if (!device.present && gpu_required())
      throw std::runtime_error(describe(device) + ", and LAB_REQUIRE_GPU=1 asks for one");
    std::printf("GPU: %s%s\n", describe(device).c_str(),
                device.present ? "" : ": the GPU part is skipped");
    return device;
  }

  int current_device_attribute(cudaDeviceAttr attribute)
  {
    int device = 0, value = 0;
    LAB_CHECK(cudaGetDevice(&device));
    LAB_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
    return value;
  }
} // namespace lab
