// The blur model on the GPU (see blur_gpu.h).
#include "gpu/blur_gpu.h"
#include "gpu/psf_view.h"

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

  // A field's table goes to the device tap by tap (psf_view.h), converted to T; a
  // constant field's one PSF as the PSF itself (and it counts as one PSF).
  template <typename T>
  DevicePsf<T>::DevicePsf(const SampledField &field)
    : taps(static_cast<std::size_t>(field.rows) * field.cols *
           (field.pixel_stride == 0 ? 1 : static_cast<std::size_t>(field.image_rows) * field.image_cols)),
      rows(field.rows), cols(field.cols), centre_row(field.centre_row), centre_col(field.centre_col)
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
        image_rows = field.image_rows;
        image_cols = field.image_cols;
      }
  }

  // @sect3{Convolution and correlation}
  //
  // Thread (r, c) gathers its output pixel. The two forms differ in one sign: the
  // convolution reads f(r − u + c_r, c − v + c_c), the correlation (the transpose)
  // f(r + u − c_r, c + v − c_c). Pixels outside the image count as zero (skipped).
  // And they differ in whose weights they read (psf_view.h): the convolution's belong to
  // the pixel it writes, the correlation's to the pixel q it reads, as the model's Hᵀ
  // (varying_blur.h) has them. For one PSF that is the same weight.
  //
  // How far to unroll the inner loop was measured (H200, 1024², 9 × 9). The compiler
  // unrolls it 4 times by itself. For one PSF 9 times is faster, in both directions
  // (float: 0.045 against 0.054 ms; the whole row of taps at once). For a field every
  // weight comes from memory, 81 numbers per pixel, and the kernel is as fast as the
  // loads it keeps in flight: the correlation reads the table fastest unrolled 9 times
  // (0.100 against 0.110 ms at 4 in float: 3.4 TB/s), while the convolution, whose
  // weights all belong to one pixel, is slower at 9 (0.149 against 0.106 ms) and
  // keeps 4.
  template <typename T, int sign, bool varies>
  __global__ void gather_kernel(PsfView<T, varies> psf, int rows, int cols, const T *__restrict__ f,
                                T *__restrict__ g)
  {
    // @exercise{blur_gather, 2}
    // The blur as a gather: one thread per output pixel, zero outside the image.
    // Thread (r, c), with c along x and r along y of the 2-D grid, sums over the
    // PSF's taps (u, v) the products of each tap's weight with the input pixel
    // s = (r + sign (u - c_r), c + sign (v - c_c)), where c_r and c_c are
    // `psf.centre_row` and `psf.centre_col` (sign -1 is the convolution, +1 the
    // correlation, its transpose), skipping source pixels outside the rows x cols
    // image; it writes the sum to pixel (r, c) of g. The weight of tap (u, v) is
    // `psf.at(q, u * psf.cols + v)`, q the index (by rows) of the pixel whose PSF it
    // is: pixel (r, c) for the convolution, s for the correlation. Both images are
    // stored by rows; threads outside the image do nothing.
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
      return;
    const long pixel = static_cast<long>(r) * cols + c;
    T sum = 0;
    for (int u = 0; u < psf.rows; ++u)
      {
        const int source_row = r + sign * (u - psf.centre_row);
        if (source_row < 0 || source_row >= rows)
          continue;
#pragma unroll(varies && sign < 0 ? 4 : 9)
        for (int v = 0; v < psf.cols; ++v)
          {
            const int source_col = c + sign * (v - psf.centre_col);
            if (source_col >= 0 && source_col < cols)
              {
                const long source = static_cast<long>(source_row) * cols + source_col;
                sum += psf.at(sign < 0 ? pixel : source, u * psf.cols + v) * f[source];
              }
          }
      }
    g[pixel] = sum;
    // @end-exercise
  }

  template <typename T, int sign>
  void gather(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g, cudaStream_t stream)
  {
    const dim3 block(32, 8);
    const dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    with_view(psf, rows, cols, [&](auto weights) {
      gather_kernel<T, sign><<<grid, block, 0, stream>>>(weights, rows, cols, f, g);
      LAB_CHECK_LAUNCH();
    });
  }

  template <typename T>
  void blur_on_device(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g, cudaStream_t stream)
  {
    gather<T, -1>(psf, rows, cols, f, g, stream);
  }

  template <typename T>
  void blur_transpose_on_device(const DevicePsf<T> &psf, int rows, int cols, const T *f, T *g,
                                cudaStream_t stream)
  {
    gather<T, +1>(psf, rows, cols, f, g, stream);
  }

  // @sect3{The matrix H}
  //
  // Row i = (r, c) of H holds tap p_i(u, v) in column j = (r − u + c_r, c − v + c_c)
  // when that pixel is inside the image: row i is pixel i's PSF (for a field, its own
  // weights; psf_view.h). The n² entries are first set to zero (a
  // memset, at the memory's full speed: 16 GiB at 256² in float take about 6 ms on an
  // H100), then one thread per (pixel, tap) writes the taps: at most rows·cols
  // nonzeros per row. Distinct taps land in distinct columns, so no two threads write
  // the same entry.
  // Stored by columns, entry (i, j) is at j·n + i instead of i·n + j.
  template <typename T, bool varies>
  __global__ void scatter_taps_kernel(PsfView<T, varies> psf, int rows, int cols, Storage storage,
                                      T *__restrict__ h)
  {
    // @exercise{blur_matrix_assembly, 2}
    // Assembling the blur matrix H in parallel, one thread per (pixel, tap) pair,
    // without two threads writing one entry. H is n x n with n = rows * cols and
    // already zero. Thread `index` (one-dimensional grid, rounded up) takes output
    // pixel i = index / taps, at (r, c) in the image, and tap index % taps, at
    // (u, v) in the PSF; if the source pixel (r - u + c_r, c - v + c_c) lies inside
    // the image, at column j of H (its index by rows), it writes the tap's weight
    // to entry (i, j), at i n + j when `storage` is `Storage::by_rows` and j n + i
    // otherwise. The weight is `psf.at(i, index % taps)`: row i of H holds pixel
    // i's PSF.
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
    // @end-exercise
  }

  template <typename T>
  void build_blur_matrix(const DevicePsf<T> &psf, int rows, int cols, T *h, cudaStream_t stream, Storage storage)
  {
    const long n = static_cast<long>(rows) * cols;
    const long threads = n * psf.rows * psf.cols;
    const int block = 256;
    // (with_view refuses a field of another size before the memset touches h.)
    with_view(psf, rows, cols, [&](auto weights) {
      LAB_CHECK(cudaMemsetAsync(h, 0, static_cast<std::size_t>(n) * n * sizeof(T), stream));
      scatter_taps_kernel<<<static_cast<unsigned>((threads + block - 1) / block), block, 0, stream>>>(
        weights, rows, cols, storage, h);
      LAB_CHECK_LAUNCH();
    });
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
