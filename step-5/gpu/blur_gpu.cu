// The blur model on the GPU (see blur_gpu.h).
#include "gpu/blur_gpu.h"
#include "gpu/field_gpu.h"

#include <lab/cuda_check.h>

#include <vector>

namespace step5
{
  template <typename T>
  DevicePsf<T>::DevicePsf(const Psf &psf)
    : taps(static_cast<std::size_t>(psf.rows()) * psf.cols()), rows(psf.rows()), cols(psf.cols()),
      centre_row(psf.centre_row()), centre_col(psf.centre_col())
  {
    const lab::Matrix<T> values = lab::convert<T>(psf.taps);
    taps.copy_from_host(values.data(), taps.count());
  }

  // A field's table goes to the device tap by tap (field_gpu.h), converted to T; a
  // constant field's one PSF as the PSF itself.
  template <typename T>
  DevicePsf<T>::DevicePsf(const SampledField &field)
    : taps(static_cast<std::size_t>(field.rows) * field.cols *
           (field.pixel_stride == 0 ? 1 : static_cast<std::size_t>(field.image_rows) * field.image_cols)),
      rows(field.rows), cols(field.cols), centre_row(field.centre_row), centre_col(field.centre_col),
      image_rows(field.image_rows), image_cols(field.image_cols)
  {
    const long pixels = field.pixel_stride == 0 ? 1 : static_cast<long>(field.image_rows) * field.image_cols;
    const int per_pixel = field.rows * field.cols;
    std::vector<T> by_tap(taps.count());
    for (long pixel = 0; pixel < pixels; ++pixel)
      for (int tap = 0; tap < per_pixel; ++tap)
        by_tap[tap * pixels + pixel] = static_cast<T>(field.taps[pixel * per_pixel + tap]);
    taps.copy_from_host(by_tap.data(), by_tap.size());
    if (field.pixel_stride != 0)
      {
        tap_stride = pixels;
        pixel_stride = 1;
      }
  }

  // The kernels receive the PSF by value: its shape and a pointer to its weights.
  template <typename T>
  struct PsfView
  {
    const T *taps;
    int rows, cols, centre_row, centre_col;
  };

  template <typename T>
  PsfView<T> view(const DevicePsf<T> &psf)
  {
    return {psf.taps.data(), psf.rows, psf.cols, psf.centre_row, psf.centre_col};
  }

  // @sect3{Convolution and correlation}
  //
  // Thread (r, c) gathers its output pixel. The two forms differ in one sign: the
  // convolution reads f(r − u + c_r, c − v + c_c), the correlation (the transpose)
  // f(r + u − c_r, c + v − c_c). Pixels outside the image count as zero (skipped).
  template <typename T, int sign>
  __global__ void gather_kernel(PsfView<T> psf, int rows, int cols, const T *__restrict__ f,
                                T *__restrict__ g)
  {
    // @exercise{blur_gather, 2}
    // The blur as a gather: one thread per output pixel, zero outside the image.
    // Thread (r, c), with c along x and r along y of the 2-D grid, sums over the
    // PSF's taps p(u, v) = `psf.taps[u * psf.cols + v]` the products of each tap
    // with the input pixel f(r + sign (u - c_r), c + sign (v - c_c)), where c_r and
    // c_c are `psf.centre_row` and `psf.centre_col` (sign -1 is the convolution,
    // +1 the correlation, its transpose), skipping source pixels outside the
    // rows x cols image; it writes the sum to pixel (r, c) of g. Both images are
    // stored by rows; threads outside the image do nothing.
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
      return;
    T sum = 0;
    for (int u = 0; u < psf.rows; ++u)
      {
        const int source_row = r + sign * (u - psf.centre_row);
        if (source_row < 0 || source_row >= rows)
          continue;
        for (int v = 0; v < psf.cols; ++v)
          {
            const int source_col = c + sign * (v - psf.centre_col);
            if (source_col >= 0 && source_col < cols)
              sum += psf.taps[u * psf.cols + v] * f[static_cast<long>(source_row) * cols + source_col];
          }
      }
    g[static_cast<long>(r) * cols + c] = sum;
    // @end-exercise
  }

  template <typename T, int sign>
  void gather(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g, cudaStream_t stream)
  {
    const dim3 block(32, 8);
    const dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    gather_kernel<T, sign><<<grid, block, 0, stream>>>(view(psf), rows, cols, f, g);
    LAB_CHECK_LAUNCH();
  }

  // A PSF field has kernels of its own (field_gpu.h).
  template <typename T>
  void blur_on_device(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g, cudaStream_t stream)
  {
    if (psf.varies())
      return field_blur_on_device(psf, rows, cols, f, g, stream);
    gather<T, -1>(psf, rows, cols, f, g, stream);
  }

  template <typename T>
  void blur_transpose_on_device(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g,
                                cudaStream_t stream)
  {
    if (psf.varies())
      return field_blur_transpose_on_device(psf, rows, cols, f, g, stream);
    gather<T, +1>(psf, rows, cols, f, g, stream);
  }

  // @sect3{The matrix H}
  //
  // Row i = (r, c) of H holds tap p(u, v) in column j = (r − u + c_r, c − v + c_c)
  // when that pixel is inside the image. The n² entries are first set to zero (a
  // memset, at the memory's full speed: 16 GiB at 256² in float take about 6 ms on an
  // H100), then one thread per (pixel, tap) writes the taps: at most rows·cols
  // nonzeros per row. Distinct taps land in distinct columns, so no two threads write
  // the same entry.
  // Stored by columns, entry (i, j) is at j·n + i instead of i·n + j.
  template <typename T>
  __global__ void scatter_taps_kernel(PsfView<T> psf, int rows, int cols, Storage storage, T *__restrict__ h)
  {
    // @exercise{blur_matrix_assembly, 2}
    // Assembling the blur matrix H in parallel, one thread per (pixel, tap) pair,
    // without two threads writing one entry. H is n x n with n = rows * cols and
    // already zero. Thread `index` (one-dimensional grid, rounded up) takes output
    // pixel i = index / taps, at (r, c) in the image, and tap index % taps, at
    // (u, v) in the PSF; if the source pixel (r - u + c_r, c - v + c_c) lies inside
    // the image, at column j of H (its index by rows), it writes the tap's weight
    // to entry (i, j), at i n + j when `storage` is `Storage::by_rows` and j n + i
    // otherwise.
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
        h[storage == Storage::by_rows ? pixel * n + column : column * n + pixel] = psf.taps[tap];
      }
    // @end-exercise
  }

  template <typename T>
  void build_blur_matrix(const DevicePsf<T> &psf, int rows, int cols, T *h, cudaStream_t stream, Storage storage)
  {
    if (psf.varies())
      return build_field_blur_matrix(psf, rows, cols, h, stream, storage);
    const long n = static_cast<long>(rows) * cols;
    LAB_CHECK(cudaMemsetAsync(h, 0, static_cast<std::size_t>(n) * n * sizeof(T), stream));
    const long threads = n * psf.rows * psf.cols;
    const int block = 256;
    scatter_taps_kernel<<<static_cast<unsigned>((threads + block - 1) / block), block, 0, stream>>>(
      view(psf), rows, cols, storage, h);
    LAB_CHECK_LAUNCH();
  }

  template struct DevicePsf<float>;
  template struct DevicePsf<double>;
  template void blur_on_device(const DevicePsf<float> &, int, int, const float *, float *, cudaStream_t);
  template void blur_on_device(const DevicePsf<double> &, int, int, const double *, double *, cudaStream_t);
  template void blur_transpose_on_device(const DevicePsf<float> &, int, int, const float *, float *,
                                         cudaStream_t);
  template void blur_transpose_on_device(const DevicePsf<double> &, int, int, const double *, double *,
                                         cudaStream_t);
  template void build_blur_matrix(const DevicePsf<float> &, int, int, float *, cudaStream_t, Storage);
  template void build_blur_matrix(const DevicePsf<double> &, int, int, double *, cudaStream_t, Storage);
} // namespace step5
