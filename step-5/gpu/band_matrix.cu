// The band storage and the normal matrix assembled into it (see band_matrix.h).
#include "gpu/band_matrix.h"
#include "gpu/psf_view.h"

#include <lab/cuda_check.h>
#include <lab/gemm.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace step5
{
  namespace
  {
    int round_up_to_4(int x) { return (x + 3) / 4 * 4; }
  } // namespace

  BandLayout BandLayout::make(int n, int bandwidth, int panel)
  {
    if (n < 0 || bandwidth < 0 || panel < 1)
      throw std::invalid_argument("step5::BandLayout::make: n = " + std::to_string(n) + ", bandwidth = " +
                                  std::to_string(bandwidth) + ", panel = " + std::to_string(panel) +
                                  " (need n >= 0, bandwidth >= 0, panel >= 1)");
    BandLayout layout;
    layout.n = n;
    layout.bandwidth = bandwidth;
    layout.panel = panel;
    layout.reach = round_up_to_4(bandwidth + panel - 1);
    layout.row_length = round_up_to_4(layout.reach + std::max(2 * panel, lab::lower_triangle_overhang)) + 1;
    return layout;
  }

  namespace
  {
    // b for a psf_rows × psf_cols PSF on images `cols` pixels wide (band_matrix.h).
    int bandwidth_of(int psf_rows, int psf_cols, int cols) { return (psf_rows - 1) * cols + psf_cols - 1; }
  } // namespace

  int normal_matrix_bandwidth(const Psf &psf, int cols)
  {
    return bandwidth_of(psf.rows(), psf.cols(), cols);
  }

  int normal_matrix_bandwidth(const PsfField &field, int cols)
  {
    return bandwidth_of(field.rows(), field.cols(), cols);
  }

  // @sect3{The normal matrix from the PSF, entry by entry}
  //
  // The CPU reference (blur_model.cpp) builds A by scattering, pixel q of g adding
  // its products into every pair of pixels it sees; on the GPU that would have many
  // threads adding into the same entry. Here each thread gathers one entry instead.
  // Pixel q = (q_r, q_c) of g sees pixel i = (r, c) of f with the weight
  // H(q, i) = p(q_r − r + c_r, q_c − c + c_c) (blur_model.h, read backwards), when
  // that index is inside the PSF. For pixel j = (r + dr, c + dc), name u = q_r − r + c_r
  // and v = q_c − c + c_c the tap through which q sees i; it sees j through tap
  // (u − dr, v − dc), and
  // @f[ A(i, j) = \sum_{u, v} p(u, v)\, p(u - dr, v - dc) + \lambda\,[i = j], @f]
  // summed over the taps for which both (u, v) and (u − dr, v − dc) lie in the PSF,
  // and pixel q = (r + u − c_r, c + v − c_c) lies in the image. Without that last
  // condition this is the PSF's autocorrelation at the offset (dr, dc), the same for
  // every pixel; near the border the pixels q that fall outside the image are left
  // out of the sum, which restricts u and v to ranges and costs nothing.
  //
  // Thread (i, k) computes the entry of pixel i at the k-th offset of the lower half
  // of its stencil: dr from −(p.rows − 1) to 0 and dc from −(p.cols − 1) to
  // p.cols − 1, but on the row dr = 0 only dc ≤ 0, which are exactly the offsets with
  // j ≤ i. Consecutive threads take consecutive offsets, so a warp writes runs of
  // 2·p.cols − 1 consecutive elements of row i's window. An offset whose pixel lies
  // outside the image is skipped: its entry stays zero. (Its j = i + dr·C + dc is
  // the number of a pixel in a neighbouring row, at the other side of the image; if
  // that pixel is coupled to i, another thread writes the entry, at that pixel's true
  // offset.) Distinct pixels j are distinct entries, so no two threads write the same
  // element.
  //
  // A PSF field changes only whose weights the products are (varying_blur.h): both
  // belong to the pixel q of g that couples i and j, p_q(u, v) p_q(u − dr, v − dc),
  // read through psf_view.h. For one PSF, q's weights are everybody's.
  template <typename T, bool varies>
  __global__ void assemble_lower_kernel(PsfView<T, varies> psf, int rows, int cols, T lambda, BandLayout layout,
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

    // u such that u and u − dr are rows of the PSF (dr ≤ 0: 0 ≤ u < p.rows + dr) and
    // q_r = r + u − c_r is a row of the image; v likewise, for either sign of dc.
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
  void assemble_normal_band(const DevicePsf<T> &psf, int rows, int cols, T lambda, const BandLayout &layout,
                            T *storage, cudaStream_t stream)
  {
    const int needed = bandwidth_of(psf.rows, psf.cols, cols);
    if (layout.n != rows * cols || layout.bandwidth < needed)
      throw std::invalid_argument("step5::assemble_normal_band: the layout (n = " + std::to_string(layout.n) +
                                  ", bandwidth " + std::to_string(layout.bandwidth) + ") does not fit A of a " +
                                  std::to_string(rows) + " x " + std::to_string(cols) + " image and a " +
                                  std::to_string(psf.rows) + " x " + std::to_string(psf.cols) + " PSF (n = " +
                                  std::to_string(rows * cols) + ", bandwidth " + std::to_string(needed) + ")");
    // The stored zeros below the band and the scratch above the diagonal: all of it,
    // at the memory's full speed, then the lower band on top (with_view refuses a
    // field of another size first).
    const long offsets = (psf.rows - 1) * (2 * psf.cols - 1) + psf.cols;
    const long threads = static_cast<long>(layout.n) * offsets;
    const int block = 256;
    with_view(psf, rows, cols, [&](auto weights) {
      LAB_CHECK(cudaMemsetAsync(storage, 0, layout.elements() * sizeof(T), stream));
      if (threads == 0)
        return;
      assemble_lower_kernel<<<static_cast<unsigned>((threads + block - 1) / block), block, 0, stream>>>(
        weights, rows, cols, lambda, layout, storage);
      LAB_CHECK_LAUNCH();
    });
  }

  template void assemble_normal_band(const DevicePsf<float> &, int, int, float, const BandLayout &, float *,
                                     cudaStream_t);
  template void assemble_normal_band(const DevicePsf<double> &, int, int, double, const BandLayout &, double *,
                                     cudaStream_t);
} // namespace step5
