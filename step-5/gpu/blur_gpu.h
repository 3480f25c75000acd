#pragma once
// @sect3{The blur model on the GPU}
//
// The same model as blur_model.h, in three forms the GPU methods need: g = H f and
// Hᵀ g applied to images without any matrix (conjugate gradients and the
// degradation use them), and the matrix H itself, written entry by entry into an
// n × n array for the dense pipeline. One thread per pixel (or per pixel and tap);
// what each reads of the PSF, one PSF or a field, psf_view.h explains.

#include "model/psf.h"
#include "model/psf_field.h"

#include <lab/device_buffer.h>

#include <cuda_runtime.h>

namespace step5
{
  // The PSF on the device, in the precision of the computation.
  //
  // Or a PSF field (psf_field.h), sampled for one image size: then every pixel has
  // its own rows × cols weights, and the functions below apply them, with no change
  // to the methods that call them. The weight (u, v) of pixel i, tap t = u·cols + v,
  // is taps[t] for one PSF and taps[t·n + i] for a field (tap by tap, each an image of
  // n weights: psf_view.h says why). A field applies only to images of the size it was
  // sampled for; the functions below refuse others (std::invalid_argument).
  template <typename T>
  struct DevicePsf
  {
    explicit DevicePsf(const Psf &psf);
    explicit DevicePsf(const SampledField &field);

    lab::DeviceBuffer<T> taps; // rows × cols, row-major; a field's: rows·cols images
    int rows, cols, centre_row, centre_col;
    int image_rows = 0, image_cols = 0; // a field's image size (0 for one PSF)

    // Whether the weights change from pixel to pixel.
    bool varies() const { return image_rows != 0; }
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
