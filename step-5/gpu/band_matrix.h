#pragma once
// @sect3{The band: a matrix that only looks dense}
//
// The dense pipeline stores all n² entries of A = HᵀH + λI, and at a 512 × 512 image
// that is 256 GiB in float: the dense path ends long before the images get
// interesting. Yet almost all of those entries are zeros, and zeros we know in
// advance. Pixel i and pixel j are coupled only when some pixel of g sees both, that
// is, when they are less than p.rows rows and p.cols columns apart
// (blur_model.h). With pixels stacked row by row (i = r·C + c on an R × C image), two
// pixels less than p.rows rows and p.cols columns apart are at most
// @f[ b = (p_{rows} - 1)\,C + (p_{cols} - 1) @f]
// places apart in the vector: A(i, j) = 0 whenever |i − j| > b. A is a band matrix
// of half-bandwidth b, and so is its Cholesky factor L (the factorisation creates no
// nonzeros outside the band of A: below the band, every term it adds up is zero).
//
// A band matrix is usually stored by diagonals, LAPACK's `pbtrf` layout, and the
// factorisation rewritten for it. This step does something simpler, so that step-2's
// blocked Cholesky (panel width nb, its products on step-4's kernels) and step-3's
// blocked substitution run on the band with only their loop bounds restricted: a
// storage that looks to them like an ordinary row-major dense matrix with a leading
// dimension, in which just the entries near the diagonal have memory of their own.
//
// Row i of A owns S consecutive elements of the storage, [i·S, i·S + S), and keeps
// there the entries A(i, j) with j − i from −L to S − 1 − L (its window), entry
// (i, j) at
// @f[ i\,S + (j - i + L) = L + i\,(S - 1) + j. @f]
// Read the right-hand side: it is where a row-major dense matrix with leading
// dimension S − 1 whose first element is at storage + L keeps A(i, j). So
// `storage + reach` is handed to the dense code with `ld = S − 1`, and every entry
// inside a row's window has an address of its own. Outside the windows the dense
// view folds over itself: entry (i + 1, j) and entry (i, j + S − 1) share an address.
// A code that touches only window entries never notices.
//
// How wide the window must be is fixed by what the blocked factorisation touches. A
// right-looking Cholesky restricted to the band factorises the panel of columns
// k to k + nb − 1 and the rows below it that reach into the band, down to row
// k + nb − 1 + b: the panel's block is a rectangle whose lower-left corner lies
// b + nb − 1 below the diagonal. Then it updates the trailing matrix, and what that
// writes above the diagonal depends on the variant. Step-2's variant 5 goes in block
// columns two panels wide and computes the square of each on the diagonal whole, both
// of its triangles: up to 2nb − 1 above the diagonal. Variant 9, which this pipeline
// runs, updates the next panel's columns the same way (nb − 1 above) and the rest in
// one product of a lower triangle, which may write up to lab::lower_triangle_overhang
// − 1 = 255 columns right of the diagonal (lab/gemm.h). So the window must hold
// @f[ -(b + nb - 1) \le j - i \le \max(2nb, 256) - 1, @f]
// and the layout takes L ≥ b + nb − 1 below and S − 1 − L ≥ max(2nb, 256) − 1 above,
// enough for both variants. (A window one entry too short above would not fail loudly:
// the overflowing entries of row i land in row i + 1's window, below its band, and add
// small errors to the factor.) Two kinds of entry in the window are not entries of the
// band, and the storage must treat them so:
//  - below the band (b < i − j ≤ L): these are true zeros of A, and the panel's
//    rectangle reads them as such. They must be stored zeros: any left-over value
//    there would enter the factorisation as if A had it;
//  - above the diagonal (j > i): scratch. Nothing reads A's upper triangle (it is the
//    lower one transposed); the diagonal tiles' products write their upper halves
//    there and nobody reads them back.
//
// A small example, n = 6, b = 2, nb = 2, drawn with 2nb − 1 = 3 columns above the
// diagonal instead of 255 (so L = 4 and S = 9; the real layout's rows are 252 columns
// longer, all of them scratch, which would not fit on the page): each line is one row's
// S elements (their numbers in brackets), one column per j − i, `A` an entry of the
// band (diagonal included), `0` a stored zero below the band, `s` scratch above the
// diagonal, `-` a position whose column would lie outside the matrix (j < 0 or
// j ≥ n: never read, zero):
// @verbatim
//           j − i:   −4 −3 −2 −1  0 +1 +2 +3 +4
//   row 0   [ 0.. 8]  -  -  -  -  A  s  s  s  s
//   row 1   [ 9..17]  -  -  -  A  A  s  s  s  s
//   row 2   [18..26]  -  -  A  A  A  s  s  s  -
//   row 3   [27..35]  -  0  A  A  A  s  s  -  -
//   row 4   [36..44]  0  0  A  A  A  s  -  -  -
//   row 5   [45..53]  0  0  A  A  A  -  -  -  -
// @endverbatim
// The dense code sees A(i, j) at 4 + 8 i + j: A(3, 1) at 29, the third of row 3's
// elements, as the picture has it (in the real layout, 4 + 260 i + j).
//
// Both L and S − 1 are rounded up to multiples of 4. The allocation is aligned, so
// then storage + L is 16-byte aligned, and so is every row of every sub-block whose
// first column is a multiple of 4 (of 64, say, as the blocks of the factorisation
// are): the GEMM kernels of step-4 read such a block with 16-byte vector loads, four
// floats or two doubles at a time, as they do on a dense matrix.
//
// The memory is n·S elements instead of n². For a 512 × 512 image and a 9 × 9 PSF
// with nb = 512: b = 8 · 512 + 8 = 4104, L = 4616, S = 5641, 5.9 GB in float, where
// the dense A takes 256 GiB. (A row keeps about b + 3 nb entries where its part of
// the lower band has b + 1: the price of running the dense blocked code unchanged.)
// The work falls as well: a band Cholesky takes about n·b² flops instead of n³/3.

#include "gpu/blur_gpu.h"
#include "model/psf.h"
#include "model/psf_field.h"

#include <lab/host_device.h>

#include <cuda_runtime.h>

#include <cstddef>

namespace step5
{
  // The layout of a band matrix's storage, as above.
  struct BandLayout
  {
    int n = 0;          // order of A
    int bandwidth = 0;  // b: A(i, j) = 0 when |i − j| > b
    int panel = 0;      // nb: the panel width of the factorisation that will run on it
    int reach = 0;      // L = b + nb − 1 rounded up to a multiple of 4
    int row_length = 0; // S = (L + max(2 nb, 256) rounded up to a multiple of 4) + 1

    // The layout for A of order @p n, half-bandwidth @p bandwidth, factorised with
    // panels of @p panel columns. Refuses (std::invalid_argument) n < 0,
    // bandwidth < 0, panel < 1.
    static BandLayout make(int n, int bandwidth, int panel);

    // The leading dimension that the dense code sees.
    LAB_HOST_DEVICE int ld() const { return row_length - 1; }
    // The number of elements of the storage.
    std::size_t elements() const { return std::size_t(n) * row_length; }
    // Where A(i, j) lives, for j − i in [−reach, row_length − 1 − reach].
    LAB_HOST_DEVICE long index(int i, int j) const { return reach + static_cast<long>(i) * ld() + j; }
  };

  // b for the normal matrix of @p psf on images @p cols pixels wide (any number of
  // rows): (p.rows − 1)·cols + p.cols − 1.
  int normal_matrix_bandwidth(const Psf &psf, int cols);
  // The same for a PSF field: its picture's size counts, as one PSF's does
  // (varying_blur.h).
  int normal_matrix_bandwidth(const PsfField &field, int cols);

  // Writes A = HᵀH + λI for images of rows × cols pixels into @p storage (device
  // memory of layout.elements() entries), on @p stream: all of it zero, then every
  // entry A(i, j) with j ≤ i (the diagonal with its λ) computed from the PSF. The
  // entries above the diagonal stay zero. Refuses (std::invalid_argument) a layout
  // whose n is not rows·cols or whose bandwidth is smaller than
  // normal_matrix_bandwidth.
  template <typename T>
  void assemble_normal_band(const DevicePsf<T> &psf, int rows, int cols, T lambda, const BandLayout &layout,
                            T *storage, cudaStream_t stream);
} // namespace step5
