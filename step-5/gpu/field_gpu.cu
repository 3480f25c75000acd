// The blur of a PSF field on the GPU (see field_gpu.h).
#include "gpu/field_gpu.h"

#include <lab/cuda_check.h>

#include <stdexcept>
#include <string>

namespace step5
{
  // The kernels receive the table by value: its shape, its strides and a pointer to
  // its weights. at(i, t) is weight t = u·cols + v of pixel i.
  template <typename T>
  struct FieldView
  {
    const T *taps;
    int rows, cols, centre_row, centre_col;
    long tap_stride, pixel_stride;

    __device__ T at(long pixel, int tap) const { return taps[tap * tap_stride + pixel * pixel_stride]; }
  };

  template <typename T>
  FieldView<T> field_view(const DevicePsf<T> &psf, int rows, int cols)
  {
    if (psf.varies() && (rows != psf.image_rows || cols != psf.image_cols))
      throw std::invalid_argument("step5: a PSF field sampled for " + std::to_string(psf.image_rows) + " x " +
                                  std::to_string(psf.image_cols) + " images applied to a " + std::to_string(rows) +
                                  " x " + std::to_string(cols) + " image");
    return {psf.taps.data(), psf.rows, psf.cols, psf.centre_row, psf.centre_col, psf.tap_stride, psf.pixel_stride};
  }

  // @sect3{H f and Hᵀ y}
  //
  // Thread (r, c) gathers its pixel. The blur reads the weights of its own pixel and
  // the pixels of f around it; the transpose reads, for tap (u, v), the pixel q that
  // the tap connects it to and q's weight (u, v), as varying_blur.cpp does.
  template <typename T>
  __global__ void field_blur_kernel(FieldView<T> psf, int rows, int cols, const T *__restrict__ f,
                                    T *__restrict__ g)
  {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
      return;
    const long pixel = static_cast<long>(r) * cols + c;
    T sum = 0;
    for (int u = 0; u < psf.rows; ++u)
      {
        const int source_row = r - u + psf.centre_row;
        if (source_row < 0 || source_row >= rows)
          continue;
        for (int v = 0; v < psf.cols; ++v)
          {
            const int source_col = c - v + psf.centre_col;
            if (source_col >= 0 && source_col < cols)
              sum += psf.at(pixel, u * psf.cols + v) * f[static_cast<long>(source_row) * cols + source_col];
          }
      }
    g[pixel] = sum;
  }

  template <typename T>
  __global__ void field_blur_transpose_kernel(FieldView<T> psf, int rows, int cols, const T *__restrict__ y,
                                              T *__restrict__ g)
  {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
      return;
    T sum = 0;
    for (int u = 0; u < psf.rows; ++u)
      {
        const int q_row = r + u - psf.centre_row;
        if (q_row < 0 || q_row >= rows)
          continue;
        for (int v = 0; v < psf.cols; ++v)
          {
            const int q_col = c + v - psf.centre_col;
            if (q_col >= 0 && q_col < cols)
              {
                const long q = static_cast<long>(q_row) * cols + q_col;
                sum += psf.at(q, u * psf.cols + v) * y[q];
              }
          }
      }
    g[static_cast<long>(r) * cols + c] = sum;
  }

  dim3 field_grid(int rows, int cols, dim3 block)
  {
    return dim3((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  }

  template <typename T>
  void field_blur_on_device(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g, cudaStream_t stream)
  {
    const dim3 block(32, 8);
    field_blur_kernel<<<field_grid(rows, cols, block), block, 0, stream>>>(field_view(psf, rows, cols), rows, cols,
                                                                           f, g);
    LAB_CHECK_LAUNCH();
  }

  template <typename T>
  void field_blur_transpose_on_device(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g,
                                      cudaStream_t stream)
  {
    const dim3 block(32, 8);
    field_blur_transpose_kernel<<<field_grid(rows, cols, block), block, 0, stream>>>(field_view(psf, rows, cols),
                                                                                     rows, cols, f, g);
    LAB_CHECK_LAUNCH();
  }

  // @sect3{H row by row}
  //
  // As blur_gpu.cu's scatter: one thread per (pixel, tap), row i of H getting pixel
  // i's weights, after a memset of all n² entries.
  template <typename T>
  __global__ void field_scatter_taps_kernel(FieldView<T> psf, int rows, int cols, Storage storage,
                                            T *__restrict__ h)
  {
    const long n = static_cast<long>(rows) * cols;
    const int taps = psf.rows * psf.cols;
    const long index = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (index >= n * taps)
      return;
    const long pixel = index / taps;
    const int tap = static_cast<int>(index % taps);
    const int r = static_cast<int>(pixel / cols), c = static_cast<int>(pixel % cols);
    const int u = tap / psf.cols, v = tap % psf.cols;
    const int source_row = r - u + psf.centre_row, source_col = c - v + psf.centre_col;
    if (source_row >= 0 && source_row < rows && source_col >= 0 && source_col < cols)
      {
        const long column = static_cast<long>(source_row) * cols + source_col;
        h[storage == Storage::by_rows ? pixel * n + column : column * n + pixel] = psf.at(pixel, tap);
      }
  }

  template <typename T>
  void build_field_blur_matrix(const DevicePsf<T> &psf, int rows, int cols, T *h, cudaStream_t stream,
                               Storage storage)
  {
    const FieldView<T> view = field_view(psf, rows, cols);
    const long n = static_cast<long>(rows) * cols;
    LAB_CHECK(cudaMemsetAsync(h, 0, static_cast<std::size_t>(n) * n * sizeof(T), stream));
    const long threads = n * psf.rows * psf.cols;
    const int block = 256;
    field_scatter_taps_kernel<<<static_cast<unsigned>((threads + block - 1) / block), block, 0, stream>>>(
      view, rows, cols, storage, h);
    LAB_CHECK_LAUNCH();
  }

  // @sect3{The band of HᵀH + λI}
  //
  // band_matrix.cu's gather, entry A(i, j) of pixel i = (r, c) at the offset (dr, dc)
  // of the lower half of its stencil, with the weights of the pixel q of g that
  // couples them:
  // @f[ A(i, j) = \sum_{u, v} p_q(u, v)\, p_q(u - dr, v - dc) + \lambda\,[i = j],
  //     \quad q = (r + u - c_r,\; c + v - c_c), @f]
  // over the same ranges of u and v (both taps in the picture, q in the image). The
  // threads and what each writes are those of the invariant kernel: distinct entries,
  // all inside the band.
  template <typename T>
  __global__ void assemble_field_lower_kernel(FieldView<T> psf, int rows, int cols, T lambda, BandLayout layout,
                                              T *__restrict__ storage)
  {
    const int psf_rows = psf.rows, psf_cols = psf.cols;
    const int stencil_cols = 2 * psf_cols - 1;
    const int offsets = (psf_rows - 1) * stencil_cols + psf_cols;
    const long index = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (index >= static_cast<long>(rows) * cols * offsets)
      return;
    const int i = static_cast<int>(index / offsets), k = static_cast<int>(index % offsets);
    const int dr = k / stencil_cols - (psf_rows - 1), dc = k % stencil_cols - (psf_cols - 1);
    const int r = i / cols, c = i % cols;
    if (r + dr < 0 || c + dc < 0 || c + dc >= cols)
      return;

    const int first_u = max(0, psf.centre_row - r), end_u = min(psf_rows + dr, rows - r + psf.centre_row);
    const int first_v = max(max(0, dc), psf.centre_col - c);
    const int end_v = min(min(psf_cols, psf_cols + dc), cols - c + psf.centre_col);
    T sum = 0;
    for (int u = first_u; u < end_u; ++u)
      for (int v = first_v; v < end_v; ++v)
        {
          const long q = static_cast<long>(r + u - psf.centre_row) * cols + (c + v - psf.centre_col);
          sum += psf.at(q, u * psf_cols + v) * psf.at(q, (u - dr) * psf_cols + v - dc);
        }
    if (dr == 0 && dc == 0)
      sum += lambda;
    storage[layout.index(i, i + dr * cols + dc)] = sum;
  }

  template <typename T>
  void assemble_field_normal_band(const DevicePsf<T> &psf, int rows, int cols, T lambda, const BandLayout &layout,
                                  T *storage, cudaStream_t stream)
  {
    const FieldView<T> view = field_view(psf, rows, cols);
    const int needed = (psf.rows - 1) * cols + psf.cols - 1; // band_matrix.h's b
    if (layout.n != rows * cols || layout.bandwidth < needed)
      throw std::invalid_argument("step5::assemble_field_normal_band: the layout (n = " + std::to_string(layout.n) +
                                  ", bandwidth " + std::to_string(layout.bandwidth) + ") does not fit A of a " +
                                  std::to_string(rows) + " x " + std::to_string(cols) + " image and a " +
                                  std::to_string(psf.rows) + " x " + std::to_string(psf.cols) + " field (n = " +
                                  std::to_string(rows * cols) + ", bandwidth " + std::to_string(needed) + ")");
    LAB_CHECK(cudaMemsetAsync(storage, 0, layout.elements() * sizeof(T), stream));
    const long offsets = (psf.rows - 1) * (2 * psf.cols - 1) + psf.cols;
    const long threads = static_cast<long>(layout.n) * offsets;
    if (threads == 0)
      return;
    const int block = 256;
    assemble_field_lower_kernel<<<static_cast<unsigned>((threads + block - 1) / block), block, 0, stream>>>(
      view, rows, cols, lambda, layout, storage);
    LAB_CHECK_LAUNCH();
  }

  template void field_blur_on_device(const DevicePsf<float> &, int, int, const float *, float *, cudaStream_t);
  template void field_blur_on_device(const DevicePsf<double> &, int, int, const double *, double *, cudaStream_t);
  template void field_blur_transpose_on_device(const DevicePsf<float> &, int, int, const float *, float *,
                                               cudaStream_t);
  template void field_blur_transpose_on_device(const DevicePsf<double> &, int, int, const double *, double *,
                                               cudaStream_t);
  template void build_field_blur_matrix(const DevicePsf<float> &, int, int, float *, cudaStream_t, Storage);
  template void build_field_blur_matrix(const DevicePsf<double> &, int, int, double *, cudaStream_t, Storage);
  template void assemble_field_normal_band(const DevicePsf<float> &, int, int, float, const BandLayout &, float *,
                                           cudaStream_t);
  template void assemble_field_normal_band(const DevicePsf<double> &, int, int, double, const BandLayout &,
                                           double *, cudaStream_t);
} // namespace step5
