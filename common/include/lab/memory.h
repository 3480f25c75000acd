#pragma once
/// @file
/// @brief What a size costs in memory, and refusing a size that cannot fit before any
/// work starts.
///
/// A dense n×n matrix of floats takes 4n² bytes: 4 MiB at n = 1024, 1 GiB at 16384,
/// 149 GiB at 200000. A program that simply allocates what a size needs either fails
/// late (after the smaller sizes of the sweep ran for minutes) or, on the host, does not
/// fail at all: the operating system hands out memory it does not have and the machine
/// grinds through swap. So every step states, in one small function, what one size
/// needs on the host and on the GPU, and the program compares each size of the sweep
/// with what is available before it starts:
/// @code
///   template <typename T>
///   lab::Memory memory_needed(int n)   // in the step's program
///   {
///     const double matrix = lab::matrix_bytes<T>(n, n);
///     return {3 * matrix, matrix};     // host: A, L and a copy; device: A
///   }
///   ...
///   lab::refuse_sizes_that_do_not_fit(sizes, memory_needed<float>, "float", use_gpu);
/// @endcode
/// Byte counts are doubles: n is at most 999,999,999 on the command line, and a count
/// such as 3·8·n² would overflow a 64-bit integer.

#include <functional>
#include <string>
#include <vector>

namespace lab
{
  /// Bytes on the host and on the GPU: what a size needs, or what is available.
  struct Memory
  {
    /// Bytes of host (CPU) memory.
    double host_bytes = 0;
    /// Bytes of device (GPU) memory.
    double device_bytes = 0;
  };

  /// The bytes of a @p rows × @p cols matrix of T.
  template <typename T>
  double matrix_bytes(double rows, double cols)
  {
    return rows * cols * sizeof(T);
  }

  /// The memory available now: on the host what the system reports as available
  /// (MemAvailable in /proc/meminfo: free memory plus caches it can drop), on the GPU
  /// the free memory cudaMemGetInfo reports; 0 on the GPU when @p use_gpu is false.
  Memory available_memory(bool use_gpu);

  /// Throws lab::bad_input when @p need exceeds @p available on the host or (when
  /// need.device_bytes > 0) on the GPU, with one line naming @p what, the bytes needed
  /// and the bytes available: "n = 200000 (float) needs 447.0 GiB of host memory, but
  /// only 120.2 GiB are available".
  void require_fits(const std::string &what, const Memory &need, const Memory &available);

  /// Checks every size of a sweep with require_fits against available_memory(), before
  /// any of them runs: throws lab::bad_input for the first that does not fit. The
  /// device part of @p need counts only when @p use_gpu. @p label says which run the
  /// sizes belong to ("float").
  void refuse_sizes_that_do_not_fit(const std::vector<int> &sizes,
                                    const std::function<Memory(int)> &need,
                                    const std::string &label, bool use_gpu);
} // namespace lab
