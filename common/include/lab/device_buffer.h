#pragma once
/// @file
/// @brief lab::DeviceBuffer: GPU memory that frees itself.
///
/// `cudaMalloc` and `cudaFree` are a pair that is easy to break: an exception or an
/// early return between them leaks device memory. A buffer object owns its memory and
/// frees it in its destructor (RAII), so a program cannot forget.

#include <lab/cuda_check.h>
#include <lab/matrix.h>

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace lab
{
  /// Allocates @p bytes on the device. When the GPU has too little memory, the
  /// cuda_error says how many bytes were needed and how many are free.
  void *device_allocate(std::size_t bytes);
  /// Frees memory from device_allocate(); never throws (it runs in destructors).
  void device_free(void *pointer) noexcept;

  /// A block of @p count elements of type T in GPU memory, freed on destruction.
  /// Copies go through the default stream and wait for the GPU, so the data are on the
  /// other side when a copy returns.
  template <typename T>
  class DeviceBuffer
  {
  public:
    /// Allocates @p count elements (uninitialised).
    explicit DeviceBuffer(std::size_t count)
      : data_(static_cast<T *>(device_allocate(bytes_for(count)))), count_(count)
    {}

    /// Allocates room for @p m and copies it to the device.
    explicit DeviceBuffer(const Matrix<T> &m) : DeviceBuffer(m.size()) { upload(m); }

    ~DeviceBuffer() { device_free(data_); }

    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    /// Moving hands the memory over; the moved-from buffer is empty.
    DeviceBuffer(DeviceBuffer &&other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0))
    {}
    /// Moving hands the memory over (freeing what this buffer held); the moved-from
    /// buffer is empty.
    DeviceBuffer &operator=(DeviceBuffer &&other) noexcept
    {
      if (this != &other)
        {
          device_free(data_);
          data_ = std::exchange(other.data_, nullptr);
          count_ = std::exchange(other.count_, 0);
        }
      return *this;
    }

    /// The device pointer, to pass to kernels and libraries.
    T *data() { return data_; }
    /// The device pointer, to pass to kernels and libraries.
    const T *data() const { return data_; }
    /// Number of elements.
    std::size_t count() const { return count_; }
    /// Number of bytes.
    std::size_t bytes() const { return count_ * sizeof(T); }

    /// Copies the first @p n elements from host memory at @p source.
    void copy_from_host(const T *source, std::size_t n)
    {
      require(n);
      LAB_CHECK(cudaMemcpy(data_, source, n * sizeof(T), cudaMemcpyHostToDevice));
    }

    /// Copies the first @p n elements to host memory at @p destination.
    void copy_to_host(T *destination, std::size_t n) const
    {
      require(n);
      LAB_CHECK(cudaMemcpy(destination, data_, n * sizeof(T), cudaMemcpyDeviceToHost));
    }

    /// Copies all of @p source, which must not be larger, within the device.
    void copy_from_device(const DeviceBuffer &source)
    {
      require(source.count_);
      LAB_CHECK(cudaMemcpy(data_, source.data_, source.bytes(), cudaMemcpyDeviceToDevice));
    }

    /// Copies all of @p m (rows() * ld() elements) to the device.
    void upload(const Matrix<T> &m) { copy_from_host(m.data(), m.size()); }
    /// Copies rows() * ld() elements back into @p m.
    void download(Matrix<T> &m) const { copy_to_host(m.data(), m.size()); }

    /// Fills every byte with 0xFF, which makes every float and double a NaN (and every
    /// int -1). Poisoning an output before a kernel runs means that an entry the
    /// kernel forgot to write shows up as NaN in the check instead of passing as a
    /// left-over correct value.
    void poison() { LAB_CHECK(cudaMemset(data_, 0xFF, bytes())); }

  private:
    // count * sizeof(T), refusing a count whose byte size would wrap around (and so
    // allocate a few bytes for what the buffer believes is a huge array).
    static std::size_t bytes_for(std::size_t count)
    {
      if (count > std::numeric_limits<std::size_t>::max() / sizeof(T))
        throw std::length_error("lab::DeviceBuffer: " + std::to_string(count) +
                                " elements do not fit in the address space");
      return count * sizeof(T);
    }

    void require(std::size_t n) const
    {
      if (n > count_)
        throw std::out_of_range("lab::DeviceBuffer: copy of more elements than allocated");
    }

    T *data_;
    std::size_t count_;
  };
} // namespace lab
