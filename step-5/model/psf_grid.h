#pragma once
// @sect3{A PSF field the user measured: a grid of PSFs}
//
// The lens and the rotation of psf_field.h are formulas. A user with a real camera has
// no formula: they photograph a few point sources (stars, pinholes, a printed grid of
// dots) and cut out the spot each one makes, a PSF measured at a few points of the
// image. Between those points the blur is not known, and the simplest guess that is
// continuous is the one Nagy and O'Leary use for space-variant blur: each pixel's PSF
// is the bilinear interpolation of the PSFs of the four grid points around it
// (J. G. Nagy and D. P. O'Leary, "Restoring images degraded by spatially variant
// blur", SIAM J. Sci. Comput. 19 (1998)). They write it as H = Σ_k D_k H_k, H_k the
// convolution with grid PSF k and D_k the diagonal of pixel q's interpolation weight
// for point k: row q of H is then Σ_k w_k(q)·(PSF k's recipe), the interpolated PSF as
// the PSF of pixel q of g, which is exactly psf_field.h's model.
//
// @sect3{The file}
//
// One text file, which a user can write by hand or from a spreadsheet:
// @code
// psf-grid 2 3 3 3
// # PSFs measured at 2 x 3 points; positions are fractions of the image
// rows 0.1 0.9
// cols 0 0.5 1
// psf 0 0
// 0.0 0.1 0.0
// 0.1 0.6 0.1
// 0.0 0.1 0.0
// psf 0 1
// ...
// psf 1 2
// ...
// @endcode
//  - the first line (the first that is not blank or a comment) is the header:
//    `psf-grid GRID_ROWS GRID_COLS PSF_ROWS PSF_COLS`, the grid's shape (from 1 to 100
//    points each way) and every PSF's picture (from 1 to 99 on a side, as a PSF file's);
//    this first word is how `--psf FILE` tells a grid from a file holding one PSF;
//  - `rows Y_0 … Y_{GRID_ROWS−1}`: where the grid's rows lie, as fractions of the
//    image's height, 0 the top row of pixels and 1 the bottom row, increasing.
//    Pixel row r of an image of R rows lies at r/(R − 1) (at 0.5 when R = 1), so a PSF
//    measured at pixel row 120 of a photograph of 481 rows is at 120/480 = 0.25;
//  - `cols X_0 … X_{GRID_COLS−1}`: the same for the columns, 0 the left column of
//    pixels and 1 the right one;
//  - then every grid point's PSF, grid row by grid row (point (0, 0) top left, then
//    (0, 1) to its right): a line `psf I J` naming the point, then PSF_ROWS rows of
//    PSF_COLS numbers, row 0 the top of the picture, as a PSF file (psf.h) holds one.
//    Its centre is (PSF_ROWS/2, PSF_COLS/2), as for every PSF of this step.
//
// Blank lines and lines that start with `#` are skipped anywhere.
//
// Fractions rather than pixels, so that one grid serves an image of any size: the
// course's sweep blurs the phantom at several sizes with it, and a user can restore a
// photograph shrunk from the one they measured on.
//
// A grid covers the image when it has at least one point each way and every point lies
// in the image (positions from 0 to 1). The outermost points need not be on the
// image's edges: the pixels beyond them (between the first grid row and the top of the
// image, say) take the nearest edge's PSFs, interpolated along that edge only, and
// the pixels beyond a corner point take its PSF.
//
// @sect3{Normalised once, and so everywhere}
//
// A measured PSF comes in whatever units the camera counted, and its total says how
// bright the point source was, not how the lens blurs. So every grid PSF is divided by
// the sum of its weights when the grid is made, and must have a sum > 0 (a PSF whose
// weights sum to zero or less would turn a bright point dark). Then every interpolated
// PSF sums to 1 without a second normalisation: its four bilinear weights
// (1 − t)(1 − s), (1 − t)s, t(1 − s), ts are ≥ 0 and add up to 1, so the sum of the
// mixture is the mixture of the sums, 1 (up to rounding, a few units in the last
// place). For the same reason a grid of PSFs ≥ 0 gives interpolated PSFs ≥ 0.
//
// Refused with lab::bad_input, in one line naming the file, the line and the reason: a
// header that is not the one above, positions that are not numbers, outside the image
// or not increasing, a row of the wrong length or a PSF with too few rows (PSFs that
// differ in size), a weight that is not a finite number, a PSF whose weights sum to
// ≤ 0, too few or too many PSFs (the file ends early, or goes on after the last one).

#include "model/psf.h"

#include <string>
#include <vector>

namespace step5
{
  struct PsfGrid
  {
    std::vector<double> row_at; // the grid rows' positions, fractions of the height, increasing
    std::vector<double> col_at; // the grid columns' positions, fractions of the width, increasing
    std::vector<Psf> psfs;      // grid row by grid row, all of one picture, each summing to 1
    std::string name;           // for the output: "grid 3x3 of 9x9 psfs, file lens_grid.txt"

    int grid_rows() const { return static_cast<int>(row_at.size()); }
    int grid_cols() const { return static_cast<int>(col_at.size()); }
    const Psf &psf(int i, int j) const { return psfs[static_cast<std::size_t>(i) * col_at.size() + j]; }
    int psf_rows() const { return psfs.empty() ? 0 : psfs.front().rows(); }
    int psf_cols() const { return psfs.empty() ? 0 : psfs.front().cols(); }
  };

  // The grid of @p psfs (grid row by grid row) at the positions given, each PSF divided
  // by its sum. Refused with lab::bad_input naming @p name: what check_psf_grid
  // refuses.
  PsfGrid make_psf_grid(std::vector<double> row_at, std::vector<double> col_at, std::vector<Psf> psfs,
                        const std::string &name);

  // Refuses (lab::bad_input, one line naming the grid) a grid that does not cover the
  // image (no point, or a position outside 0 … 1 or not increasing), PSFs that differ
  // in size or are not 1 … 99 on a side, a weight that is not finite, a sum ≤ 0, and a
  // number of PSFs other than the grid's points.
  void check_psf_grid(const PsfGrid &grid);

  // Whether the file at @p path is a grid file: its first line that is not blank or a
  // comment starts with the word `psf-grid`. False for a file that cannot be read (the
  // reader of one PSF then says why).
  bool is_psf_grid_file(const std::string &path);

  // The grid in the file at @p path (the format above), named "grid GRxGC of PRxPC
  // psfs, file PATH".
  PsfGrid read_psf_grid(const std::string &path);

  // Writes @p grid to @p path in the format above, every weight with 17 digits, so that
  // read_psf_grid gives back the same numbers. Refused with lab::bad_input when the
  // file cannot be written.
  void write_psf_grid(const PsfGrid &grid, const std::string &path);

  // Where pixel @p pixel of a side of @p side pixels lies, as a fraction of the side:
  // pixel/(side − 1), 0.5 for a side of one pixel.
  double position_of_pixel(int pixel, int side);

  // The interpolated PSF of pixel (r, c) of an image_rows × image_cols image.
  Psf interpolated_psf(const PsfGrid &grid, int r, int c, int image_rows, int image_cols);
} // namespace step5
