#pragma once
// @sect3{The blur of a PSF field on the GPU}
//
// The GPU methods reach the blur through four functions: g = H f and Hᵀg applied to
// images (conjugate gradients, and b = Hᵀg of the band pipeline), H written into an
// n × n array (the dense pipelines), and A = HᵀH + λI written into the band storage
// (the band pipeline). For a PSF field (psf_field.h) each of them calls its twin here
// (blur_gpu.cu and band_matrix.cu decide by DevicePsf::varies()), and the methods
// themselves do not change: the dense pipelines factorise the H they are given,
// conjugate gradients applies the operator it is given, and the band of HᵀH is as wide
// as before (varying_blur.h).
//
// Each twin is the invariant kernel with one change: the weight (u, v) is read from
// the table of the pixel of g it belongs to, p_q, where it was the one PSF's. The
// table (DevicePsf, sampled on the CPU by sample_field) holds n·rows·cols weights,
// 0.3 GB in float for a 1024² image and a 9 × 9 picture. We chose a table over
// computing each weight when it is needed (from σ and the pixel's position, say):
// it serves every field, the lens, the rotation and any other, with one set of kernels
// that cannot disagree with the CPU model, since both read the same numbers; the
// price is memory and the bandwidth to read it. The table is stored tap by tap: all
// n pixels' weight (0, 0), then all their weight (0, 1), and so on. Thread (r, c) of
// the blur and of its transpose reads, for each tap, the weight of a pixel next to
// the one its neighbour thread reads: a warp reads 32 consecutive numbers, one
// transaction (coalesced). Stored pixel by pixel, 81 weights apart, every thread of
// the warp would cost a transaction of its own.

#include "gpu/band_matrix.h"
#include "gpu/blur_gpu.h"

#include <cuda_runtime.h>

namespace step5
{
  // g = H f for the field (rows × cols must be the field's image size).
  template <typename T>
  void field_blur_on_device(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g, cudaStream_t stream);

  // g = Hᵀ f for the field.
  template <typename T>
  void field_blur_transpose_on_device(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g,
                                      cudaStream_t stream);

  // The n × n matrix H of the field, all n² entries written, stored @p storage.
  template <typename T>
  void build_field_blur_matrix(const DevicePsf<T> &psf, int rows, int cols, T *h, cudaStream_t stream,
                               Storage storage);

  // A = HᵀH + λI of the field into the band storage, as assemble_normal_band
  // (band_matrix.h) does for one PSF: all of it zero, then the lower band.
  template <typename T>
  void assemble_field_normal_band(const DevicePsf<T> &psf, int rows, int cols, T lambda, const BandLayout &layout,
                                  T *storage, cudaStream_t stream);
} // namespace step5
