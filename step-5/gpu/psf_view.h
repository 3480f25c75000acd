#pragma once
// @sect3{What a kernel sees of the PSF: one weight per pixel and tap}
//
// Every GPU kernel of the blur reads the PSF through this view, and the same kernels
// serve one PSF and a PSF field (psf_field.h). Weight t = u·cols + v of pixel q is
// @f[ \texttt{taps}[t \cdot s_t + q \cdot s_p], @f]
// with a tap stride s_t and a pixel stride s_p that say how the weights are laid out.
// One PSF has s_t = 1 and s_p = 0: every pixel reads the same rows·cols
// weights, a few hundred bytes that every thread of a block reads at the same address
// (a broadcast, served by the cache). A field has its own weights for every pixel, a
// table (DevicePsf, sampled on the CPU by sample_field) of n·rows·cols numbers: 0.3 GB
// in float for a 1024² image and a 9 × 9 picture. We chose a table over computing each
// weight when it is needed (from σ and the pixel's position, say): it serves every
// field, the lens, the rotation and any other, with one set of kernels that cannot
// disagree with the CPU model, since both read the same numbers; the price is memory
// and the bandwidth to read it.
//
// The table is stored tap by tap (s_t = n, s_p = 1): all n pixels' weight
// (0, 0), then all their weight (0, 1), and so on. Thread (r, c) of the blur and of its
// transpose reads, for each tap, the weight of a pixel next to the one its neighbour
// thread reads: a warp reads 32 consecutive numbers, one transaction (coalesced).
// Stored pixel by pixel, 81 weights apart, every thread of the warp would cost a
// transaction of its own.
//
// Which pixel's weights a kernel reads is the one thing the field changes (the model,
// varying_blur.h): the pixel of g that the weight belongs to. In H f that is the
// output pixel; in Hᵀy, and in the entries of HᵀH, the pixel q of g that the kernel
// reaches through the tap. For one PSF the choice makes no difference, and the kernels
// are those of the invariant blur.
#include "gpu/blur_gpu.h"

#include <lab/host_device.h>

#include <stdexcept>
#include <string>

namespace step5
{
  // The kernels receive the view by value: the weights' address, the picture's shape
  // and, for a field, n. Whether the weights vary is a template parameter: for one PSF
  // at() is the plain taps[tap], for a field taps[tap·n + pixel] (pixel stride 1, as
  // DevicePsf stores every field). A pixel stride read at run time costs a 64-bit
  // multiplication per tap and keeps the compiler from stepping the addresses along:
  // the transpose of a field took 0.22 instead of 0.10 ms with it (float, 1024², 9 × 9,
  // the loop unrolled 9 times).
  template <typename T, bool varies>
  struct PsfView
  {
    const T *taps;
    int rows, cols, centre_row, centre_col;
    long pixels; // n for a field (unused for one PSF)

    // Weight @p tap (u·cols + v) of pixel @p pixel's PSF.
    LAB_HOST_DEVICE T at(long pixel, int tap) const
    {
      if constexpr (varies)
        return taps[tap * pixels + pixel];
      else
        return taps[tap];
    }
  };

  // Calls @p launch with the view of @p psf for rows × cols images: a PsfView<T, true>
  // for a field, a PsfView<T, false> for one PSF, so that each kernel is compiled for
  // both. A field sampled for another size is refused (std::invalid_argument), since
  // its pixels would be other pixels.
  template <typename T, typename Launch>
  void with_view(const DevicePsf<T> &psf, int rows, int cols, Launch &&launch)
  {
    if (!psf.varies())
      return launch(PsfView<T, false>{psf.taps.data(), psf.rows, psf.cols, psf.centre_row, psf.centre_col, 0});
    if (rows != psf.image_rows || cols != psf.image_cols)
      throw std::invalid_argument("step5: a PSF field sampled for " + std::to_string(psf.image_rows) + " x " +
                                  std::to_string(psf.image_cols) + " images applied to a " + std::to_string(rows) +
                                  " x " + std::to_string(cols) + " image");
    launch(PsfView<T, true>{psf.taps.data(), psf.rows, psf.cols, psf.centre_row, psf.centre_col,
                            static_cast<long>(rows) * cols});
  }
} // namespace step5
