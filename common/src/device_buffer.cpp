#include <lab/device_buffer.h>
#include <lab/format.h>

#include <string>

namespace lab
{
  void *device_allocate(std::size_t bytes)
  {
    // An empty buffer holds nothing and needs no GPU: a program can declare its
    // buffers empty and fill them only when a GPU is present.
    if (bytes == 0)
      return nullptr;
    void *pointer = nullptr;
    const cudaError_t status = cudaMalloc(&pointer, bytes);
    if (status == cudaErrorMemoryAllocation)
      {
        // Clear the error so that later calls do not report it again, then say how much
        // memory there is, so that the user can pick a size that fits.
        cudaGetLastError();
        std::size_t free_bytes = 0, total_bytes = 0;
        cudaMemGetInfo(&free_bytes, &total_bytes);
        throw cuda_error("cudaMalloc of " + format_bytes(bytes),
                         "out of device memory (" + format_bytes(free_bytes) +
                           " free of " + format_bytes(total_bytes) + ")",
                         __FILE__, __LINE__);
      }
    check(status, "cudaMalloc", __FILE__, __LINE__);
    return pointer;
  }

  void device_free(void *pointer) noexcept
  {
    // cudaFree(nullptr) is a no-op. An error here (a crashed kernel, say) was already
    // reported by the call that saw it first; a destructor must not throw.
    cudaFree(pointer);
  }
} // namespace lab
