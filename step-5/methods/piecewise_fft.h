#pragma once
// @sect3{What the FFT can do with a PSF field: two approximations}
//
// The FFT filter (fft_filter.h) solves its equations exactly because a periodic
// convolution is diagonal in Fourier space: one PSF, one number per frequency. A PSF
// field has no such basis. A practitioner with an FFT and a field has two ways out,
// and the step shows both beside the methods that take H as it is:
//  - the mean PSF: one filter with the average of all the pixels' PSFs
//    (psf_field.h). Exact where the field is close to its mean, wrong where it is
//    not: a lens's sharp centre is over-sharpened and its corners left blurred;
//  - the piecewise FFT: cut the image into R × R regions, restore the whole image
//    once with the FFT filter of each region's own PSF (the one at its centre), and
//    blend the R² restorations, each weighted by how close a pixel is to its
//    region's centre. Nagy and O'Leary (1998) model a varying blur by interpolating
//    region PSFs with such weights; blending the regions' restorations is the cheap,
//    sectioned form of that idea. It costs R² filters instead of one, and is right
//    only as far as the field is constant over a region.
// Neither solves the field's equations; the PSNR measures what that costs.
//
// The weights are the hat functions of linear interpolation between the regions'
// centres, one per region and dimension: in units of regions, pixel r lies at
// p = (r + ½)·R/rows − ½ (the centre of region k at p = k), and region k weighs
// max(0, 1 − |p − k|), except that the first and last region weigh 1 beyond their
// centres, out to the image's edge. Two neighbouring regions' weights add up to 1
// everywhere between their centres, so the weights are a partition of unity: a field
// that is the same everywhere gives R² equal restorations, and the blend is the plain
// filter's. A pixel's weight for region (k_r, k_c) is the product of its row's weight
// for k_r and its column's for k_c.

#include "methods/fft_filter.h"
#include "model/psf_field.h"

#include <lab/device_buffer.h>
#include <lab/host_device.h>

#include <memory>
#include <vector>

namespace step5
{
  // The weight of region @p region (of @p regions along one dimension of @p pixels
  // pixels) at pixel @p pixel.
  LAB_HOST_DEVICE inline double region_weight(int region, int regions, int pixel, int pixels)
  {
    const double position = (pixel + 0.5) * regions / pixels - 0.5;
    if ((region == 0 && position <= 0) || (region == regions - 1 && position >= regions - 1))
      return 1;
    const double distance = position > region ? position - region : region - position;
    return distance < 1 ? 1 - distance : 0;
  }

  // The centre pixel of region @p region along a dimension of @p pixels pixels.
  int region_centre(int region, int regions, int pixels);

  template <typename T>
  class PiecewiseFft
  {
  public:
    // Plans R² FFT filters, region (k_r, k_c)'s with the PSF of its centre pixel, on
    // the boundary @p boundary; R = @p regions ≥ 1, at most the image's smaller side.
    PiecewiseFft(const SampledField &field, int regions, FftBoundary boundary);

    // f = the blend of the regions' restorations of g (rows × cols images on the device).
    void apply(T lambda, const T *g, T *f);

    int regions() const { return regions_; }
    // Region k = k_r·R + k_c's filter, which keeps its last result, and the PSF it
    // restores with (for the checks).
    const FftFilter<T> &filter(int k) const { return *filters_[k]; }
    const Psf &psf(int k) const { return psfs_[k]; }

  private:
    int rows_, cols_, regions_;
    std::vector<Psf> psfs_;
    std::vector<std::unique_ptr<FftFilter<T>>> filters_;
    lab::DeviceBuffer<T> piece_; // one region's restoration
  };
} // namespace step5
