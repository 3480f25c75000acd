// The piecewise FFT (see piecewise_fft.h).
#include "methods/piecewise_fft.h"

#include <lab/cuda_check.h>

#include <stdexcept>
#include <string>

namespace step5
{
  int region_centre(int region, int regions, int pixels)
  {
    return static_cast<int>(std::lround((region + 0.5) * pixels / regions - 0.5));
  }

  template <typename T>
  PiecewiseFft<T>::PiecewiseFft(const SampledField &field, int regions, FftBoundary boundary)
    : rows_(field.image_rows), cols_(field.image_cols), regions_(regions),
      piece_(static_cast<std::size_t>(field.image_rows) * field.image_cols)
  {
    if (regions < 1 || regions > rows_ || regions > cols_)
      throw std::invalid_argument("step5::PiecewiseFft: " + std::to_string(regions) + " regions on a " +
                                  std::to_string(rows_) + " x " + std::to_string(cols_) + " image");
    for (int k_r = 0; k_r < regions; ++k_r)
      for (int k_c = 0; k_c < regions; ++k_c)
        {
          psfs_.push_back(psf_of_pixel(field, region_centre(k_r, regions, rows_), region_centre(k_c, regions, cols_)));
          filters_.push_back(std::make_unique<FftFilter<T>>(psfs_.back(), rows_, cols_, boundary));
        }
  }

  // f += w_k · piece, w_k region k's weight at each pixel.
  template <typename T>
  __global__ void add_weighted_kernel(const T *piece, int region_row, int region_col, int regions, int rows, int cols,
                                      T *f)
  {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
      return;
    const double weight = region_weight(region_row, regions, r, rows) * region_weight(region_col, regions, c, cols);
    const long pixel = static_cast<long>(r) * cols + c;
    f[pixel] += static_cast<T>(weight) * piece[pixel];
  }

  // The regions one after the other, on the default stream as the FFT filter runs.
  template <typename T>
  void PiecewiseFft<T>::apply(T lambda, const T *g, T *f)
  {
    LAB_CHECK(cudaMemsetAsync(f, 0, piece_.bytes()));
    const dim3 block(32, 8);
    const dim3 grid((cols_ + block.x - 1) / block.x, (rows_ + block.y - 1) / block.y);
    for (int k = 0; k < regions_ * regions_; ++k)
      {
        filters_[k]->apply(lambda, g, piece_.data());
        add_weighted_kernel<<<grid, block>>>(piece_.data(), k / regions_, k % regions_, regions_, rows_, cols_, f);
        LAB_CHECK_LAUNCH();
      }
  }

  template class PiecewiseFft<float>;
  template class PiecewiseFft<double>;
} // namespace step5
