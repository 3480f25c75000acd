#pragma once
// @sect3{The point-spread function}
//
// A camera that is out of focus, or shaken, or looks through turbulent air, does not
// record a bright point as one pixel but as a small spot: the point-spread function
// (PSF). This step stores a PSF as that picture, a small matrix of weights p(u, v),
// row 0 at the top, the way a PSF file is written (rows of numbers) and the way one
// would draw it. Its centre is the pixel (rows/2, cols/2) (integer division): the
// middle for odd sizes, and for even sizes the lower right of the four middle pixels,
// as MATLAB's `conv2(f, p, "same")` and most image libraries place it.
//
// The blur model (blur_model.h) spreads each pixel of the true image by this
// picture. A PSF must not be larger than the image it blurs, and its weights must not
// sum to zero (a blur that keeps the mean brightness sums to 1; a sharpening filter
// too; a PSF summing to zero would erase every flat region, and no λ could bring
// them back): both are refused with one line before any work starts.

#include <lab/matrix.h>

#include <string>
#include <vector>

namespace step5
{
  struct Psf
  {
    lab::Matrix<double> taps; // p(u, v): rows × cols weights, row 0 at the top
    std::string name;         // how it was made, for the output: "gaussian 1.5 9x9"

    int rows() const { return taps.rows(); }
    int cols() const { return taps.cols(); }
    int centre_row() const { return taps.rows() / 2; }
    int centre_col() const { return taps.cols() / 2; }
  };

  // A Gaussian of standard deviation @p sigma pixels sampled on size × size pixels
  // (size ≥ 1), normalised to sum 1 (MATLAB's fspecial('gaussian', size, sigma)). Its
  // peak is the middle of the picture: a pixel for an odd size, the corner of the four
  // middle pixels for an even one, half a pixel up and left of the centre pixel above.
  // So only an odd-sized Gaussian is symmetric under a half turn about its centre.
  Psf gaussian_psf(double sigma, int size);

  // A box (uniform) blur of size × size pixels, each weight 1/size².
  Psf box_psf(int size);

  // Linear motion of @p length pixels at @p angle_degrees (counter-clockwise from the
  // x-axis, x to the right, y up), anti-aliased where the line crosses a pixel
  // partly, normalised to sum 1; MATLAB's fspecial('motion', length, angle). The
  // segment is centred on the centre pixel and the picture always has odd sides, so
  // it is symmetric under a half turn for every length and angle: H = Hᵀ for it, as
  // for a Gaussian.
  Psf motion_psf(double length, double angle_degrees);

  // A trail: the point moves @p length pixels away from where it started, at
  // @p angle_degrees, a streak on one side of the centre only (the half of
  // motion_psf(2 length − 1, angle) ahead of the centre, renormalised). It is not
  // symmetric under a half turn: it is the PSF for which HᵀH ≠ HHᵀ, and the thesis'
  // formula goes wrong.
  Psf trail_psf(double length, double angle_degrees);

  // The thesis' sharpening filter: the 3 × 3 unsharp-masking filter of MATLAB's
  // fspecial('unsharp', alpha) (α in [0, 1]; default 0.2), which sums to 1.
  Psf sharpen_psf(double alpha = 0.2);

  // A PSF from a text file: rows of numbers separated by blanks (as lab/matrix_io.h
  // reads), every row the same length, row 0 the top row of the picture. Refused
  // with lab::bad_input (one line naming the file): unreadable, empty, ragged rows,
  // a non-number, a non-finite number.
  Psf read_psf(const std::string &path);

  // A PSF from its description on the command line: "gaussian:SIGMA:SIZE",
  // "box:SIZE", "motion:LENGTH:ANGLE", "trail:LENGTH:ANGLE", "sharpen" or
  // "sharpen:ALPHA". Refused with
  // lab::bad_input naming the description and the accepted forms.
  Psf parse_psf(const std::string &description);

  // The pieces of a description on the command line, for parse_psf and for the
  // fields' parser (psf_field.h): the fields between the colons, a field that must be
  // a number or a whole number (refused with lab::bad_input naming @p what
  // otherwise), and a number written the way people write it (1.5, not 1.500000).
  namespace description
  {
    std::vector<std::string> fields_of(const std::string &description);
    double number_in(const std::string &field, const std::string &what);
    int whole_number_in(const std::string &field, const std::string &what);
    std::string text_of(double value);
  } // namespace description

  // Σp, the sum of the weights: 1 for a blur that keeps the brightness.
  double weight_sum(const Psf &psf);

  // Σ|p|, the sum of the weights' magnitudes: ‖H‖₁ and ‖H‖∞ of its blur, so that
  // ‖H‖₂ ≤ Σ|p| (and ‖HᵀH‖ ≤ (Σ|p|)²), the bound the λ rules and the checks use.
  double absolute_sum(const Psf &psf);

  // Refuses (lab::bad_input, one line) a PSF that cannot blur an image of
  // image_rows × image_cols pixels: larger than the image in either dimension, or
  // weights summing to zero (|sum| ≤ 1e-12 · Σ|p|).
  void check_psf(const Psf &psf, int image_rows, int image_cols);
} // namespace step5
