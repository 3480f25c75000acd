#pragma once
// @sect3{The FFT filter, and why it cannot match the model}
//
// If the blur wrapped around the image's edges (a pixel leaving on the right coming
// back on the left: a periodic boundary), H would be a circulant matrix, the Fourier
// transform would diagonalise it, and the regularised normal equations would decouple
// into one equation per frequency ω:
// @f[ \hat f(\omega) = \frac{\overline{\hat p(\omega)}\, \hat g(\omega)}{|\hat p(\omega)|^2 + \lambda}, @f]
// with p̂ the (unnormalised) transform of the PSF placed with its centre at pixel
// (0, 0). Three FFTs of n points, O(n log n) work: the Tikhonov (or Wiener) filter,
// microseconds on cuFFT.
//
// But this step's model has a zero boundary, and a real camera has neither: the scene
// continues outside the frame. Near the edges the filter then inverts a blur that did
// not happen (light from the opposite edge), and the error spreads inwards as ringing.
// The PSNR shows the cost. A common remedy is to extend g before filtering: the
// mirrored extension (2R × 2C, g reflected at its right and bottom edges) is
// periodic without jumps at the edges, which is what the filter assumes; the result
// is the top-left R × C part. Neither is the zero-boundary model; only the dense and
// iterative methods solve that exactly.

#include "model/psf.h"

#include <lab/device_buffer.h>

#include <cufft.h>

namespace step5
{
  enum class FftBoundary
  {
    periodic, // the image as it is, wrapped around
    mirrored  // the image extended by reflection to twice its size first
  };

  template <typename T>
  class FftFilter
  {
  public:
    // Plans the transforms and transforms the PSF, for rows × cols images (outside any
    // timing: cuFFT's plans are made once and reused).
    FftFilter(const Psf &psf, int rows, int cols, FftBoundary boundary);
    ~FftFilter();
    FftFilter(const FftFilter &) = delete;
    FftFilter &operator=(const FftFilter &) = delete;

    // f = the filtered g (both rows × cols images on the device).
    void apply(T lambda, const T *g, T *f);

    // The whole result of the last apply() on the transforms' grid, of which f is the
    // top-left part: extended_rows() × extended_cols() (twice the image's for the
    // mirrored filter). Its check needs it: that is where the filter's own equations
    // hold (fft_model.h).
    const lab::DeviceBuffer<T> &extended_result() const { return extended_; }
    int extended_rows() const { return extended_rows_; }
    int extended_cols() const { return extended_cols_; }

  private:
    int rows_, cols_, extended_rows_, extended_cols_;
    lab::DeviceBuffer<T> extended_;               // g, extended; then the result
    lab::DeviceBuffer<unsigned char> psf_hat_;    // p̂: rows × (cols/2 + 1) complex
    lab::DeviceBuffer<unsigned char> image_hat_;  // ĝ, then f̂
    cufftHandle forward_ = 0, backward_ = 0;
  };
} // namespace step5
