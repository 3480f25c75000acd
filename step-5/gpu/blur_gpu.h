#pragma once
// @sect3{The blur model on the GPU}
//
// The same model as blur_model.h, in three forms the GPU methods need: g = H f and
// Hᵀ g applied to images without any matrix (conjugate gradients and the
// degradation use them), and the matrix H itself, written entry by entry into an
// n × n array for the dense pipeline. One thread per pixel (or per pixel and tap),
// the PSF's few weights read from a small device array that every thread of a block
// reads at the same address (a broadcast, served by the cache).

#include "model/psf.h"

#include <lab/device_buffer.h>

#include <cuda_runtime.h>

namespace step5
{
  // The PSF on the device, in the precision of the computation.
  template <typename T>
  struct DevicePsf
  {
    explicit DevicePsf(const Psf &psf);

    lab::DeviceBuffer<T> taps; // rows × cols, row-major
    int rows, cols, centre_row, centre_col;
  };

  // g = H f (convolution with the PSF, zero boundary); f and g are rows × cols
  // images, distinct.
  template <typename T>
  void blur_on_device(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g, cudaStream_t stream);

  // g = Hᵀ f (correlation with the PSF, zero boundary).
  template <typename T>
  void blur_transpose_on_device(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g,
                                cudaStream_t stream);

  // How H is stored: by rows, as the course stores every matrix, or by columns, as
  // cuBLAS and cuSOLVER do (the vendor's pipeline builds it so: see gram_matrix.h).
  enum class Storage
  {
    by_rows,
    by_columns
  };

  // The n × n matrix H for rows × cols images (n = rows·cols), with leading dimension
  // n, stored @p storage: all n² entries are written (zeros, then the taps).
  template <typename T>
  void build_blur_matrix(const DevicePsf<T> &psf, int rows, int cols, T *h, cudaStream_t stream,
                         Storage storage = Storage::by_rows);
} // namespace step5
