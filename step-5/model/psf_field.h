#pragma once
// @sect3{Blur that changes across the image: a PSF field}
//
// Everything so far assumed one PSF for the whole picture: the blur is a convolution.
// A real lens blurs its corners more than its centre, and a camera that turns about
// its axis during the exposure smears every point along the circle it moves on, a
// long streak at the edges and none at the centre. Then every pixel of g has a PSF
// of its own, p_rc, and the model becomes
// @f[ g(r, c) = \sum_{u, v} p_{rc}(u, v)\, f(r - u + c_r,\; c - v + c_c), @f]
// the same sum as blur_model.h's with the weights of the pixel being computed (zero
// boundary as before; every p_rc has the same rows × cols picture and the same centre
// (c_r, c_c)). Row r·C + c of H is p_rc's recipe: H is still sparse and banded, with
// the same band as before, but no longer a convolution: its rows are not shifts of
// one another, no single PSF exists, and the Fourier transform diagonalises nothing.
//
// A field is described by a few numbers (a lens, a rotation), and the PSF of a pixel
// computed from them and from where the pixel lies in the image:
//  - `lens:SIGMA_CENTRE:SIGMA_CORNER:SIZE`: a SIZE × SIZE Gaussian (gaussian_psf) whose
//    σ grows from SIGMA_CENTRE at the centre of the image to SIGMA_CORNER at its
//    corners, with the square of the distance ρ from the centre:
//    @f[ \sigma(\rho) = \sigma_{centre} + (\sigma_{corner} - \sigma_{centre})\,(\rho/\rho_{corner})^2. @f]
//    Quadratic, not linear, because the defocus of a simple lens grows so (the
//    curvature of its field of sharp focus, Petzval's: a focal surface bent like a
//    bowl is off the flat sensor by about ρ²), and because a quadratic σ is smooth at
//    the centre, where a linear one would have a kink;
//  - `rotation:ANGLE_DEGREES:SIZE`: the camera turns by ANGLE about the centre of the
//    image during the exposure, and a point at distance ρ moves along its circle by
//    ρ·ANGLE (in radians): a motion blur (motion_psf) of that length along the
//    tangent of the circle, at least 1 (the centre keeps still) and at most SIZE, the
//    side of the picture that every pixel's PSF is drawn in (SIZE odd).
// And a field the user measured, PSFs at the points of a grid with each pixel's PSF
// interpolated between them (psf_grid.h), which `--psf FILE` reads from a grid file.
// An invariant PSF is the special case: constant_field(psf) gives it to every pixel,
// and every function of the field then computes exactly what the invariant code does.
//
// The methods need the weights, pixel by pixel and fast, many times over; computing
// an exponential or a motion streak for every tap every time would cost far more
// than the blur itself. So a field is sampled once for an image size into a table of
// all its weights (sample_field: n·rows·cols numbers, 81 per pixel for 9 × 9, 0.65 GB
// in double at 1024²), which the CPU model and the GPU read. A constant field keeps
// only its one PSF: its table's stride between pixels is 0.

#include "model/psf.h"
#include "model/psf_grid.h"

#include <string>
#include <vector>

namespace step5
{
  enum class FieldKind
  {
    constant, // one PSF everywhere: the invariant blur
    lens,     // a Gaussian whose σ grows towards the corners
    rotation, // motion along the circles about the centre, growing with the radius
    grid      // PSFs measured at the points of a grid, interpolated between them
  };

  struct PsfField
  {
    FieldKind kind = FieldKind::constant;
    Psf psf;                   // constant: the one PSF
    double sigma_centre = 0;   // lens: σ at the centre, pixels
    double sigma_corner = 0;   // lens: σ at the corners, pixels
    double angle_degrees = 0;  // rotation: the camera's turn during the exposure
    int size = 0;              // lens and rotation: the side of every pixel's picture
    PsfGrid grid;              // grid: the measured PSFs, each summing to 1
    std::string name;          // for the output: "lens sigma=1 to 3 9x9"

    bool varies() const { return kind != FieldKind::constant; }
    // The picture every pixel's PSF is drawn in.
    int rows() const { return kind == FieldKind::grid ? grid.psf_rows() : varies() ? size : psf.rows(); }
    int cols() const { return kind == FieldKind::grid ? grid.psf_cols() : varies() ? size : psf.cols(); }
  };

  // The field's kind in words, for the names of its files: "constant", "lens",
  // "rotation", "grid".
  std::string kind_of(const PsfField &field);

  // The field that gives @p psf to every pixel.
  PsfField constant_field(const Psf &psf);

  // The lens and the rotation above. Refused with lab::bad_input (one line): a σ that
  // is not a finite number > 0, an angle that is not finite, a size that is even or
  // outside 1 … 99.
  PsfField lens_field(double sigma_centre, double sigma_corner, int size);
  PsfField rotation_field(double angle_degrees, int size);

  // The field of a grid of PSFs (made by make_psf_grid, read_psf_grid or sample_grid),
  // named as the grid.
  PsfField grid_field(const PsfGrid &grid);

  // The grid of @p field's PSFs at grid_rows × grid_cols points spread evenly over an
  // image_rows × image_cols image, the first and last on its edges (one point: the
  // middle pixel): the grid a user would measure of that field. Each point is a
  // pixel (the nearest to the even spread), and its position that pixel's
  // (position_of_pixel), so that the grid's field gives those pixels exactly the
  // field's PSFs. Refused with lab::bad_input: fewer than 1 or more points than pixels
  // along a side.
  PsfGrid sample_grid(const PsfField &field, int grid_rows, int grid_cols, int image_rows, int image_cols);

  // Whether a --psf argument names a field that varies ("lens:…", "rotation:…").
  bool names_a_field(const std::string &description);

  // The field a --psf description names: lens:SIGMA_CENTRE:SIGMA_CORNER:SIZE,
  // rotation:ANGLE_DEGREES:SIZE, or any invariant PSF of parse_psf as a constant
  // field. Refused with lab::bad_input naming the description and the accepted forms.
  PsfField parse_psf_field(const std::string &description);

  // The field a --psf argument names: an existing file is read, as a grid of PSFs when
  // its first line says `psf-grid` (psf_grid.h), else as one PSF (read_psf); anything
  // else is a description for parse_psf_field. One PSF is the field that is the same
  // everywhere. Refused with lab::bad_input as those readers refuse.
  PsfField field_from_argument(const std::string &argument);

  // The PSF of pixel (r, c) of an image_rows × image_cols image.
  Psf psf_at(const PsfField &field, int r, int c, int image_rows, int image_cols);

  // Refuses (lab::bad_input, one line) a field that cannot blur an image of
  // image_rows × image_cols pixels: a picture larger than the image (and, for a
  // constant field, what check_psf refuses; for a grid, what check_psf_grid refuses).
  void check_field(const PsfField &field, int image_rows, int image_cols);

  // @sect3{The field sampled for one image size}
  struct SampledField
  {
    int image_rows = 0, image_cols = 0;
    int rows = 0, cols = 0;             // every PSF's picture
    int centre_row = 0, centre_col = 0; // rows/2, cols/2, as for a Psf
    long pixel_stride = 0;              // rows·cols, or 0: one PSF for every pixel
    std::vector<double> taps;           // pixel-major: pixel (r, c)'s picture, row by row
    std::string name;
    // The mean of all the pixels' PSFs, computed once when the field is sampled: the
    // one PSF that an FFT filter can use for a field (fft_approximations.h), and the
    // invariant blur that a field's times are compared with. Named "mean of " and the
    // field's name.
    Psf mean;

    // Pixel (r, c)'s picture, rows × cols weights row by row.
    const double *taps_of(int r, int c) const
    {
      return taps.data() + (static_cast<long>(r) * image_cols + c) * pixel_stride;
    }
  };

  // The table of @p field's weights for image_rows × image_cols images (check_field
  // first).
  SampledField sample_field(const PsfField &field, int image_rows, int image_cols);

  // The bytes of that table in double: what sampling a field costs the host.
  double sampled_field_bytes(const PsfField &field, int image_rows, int image_cols);

  // Pixel (r, c)'s PSF, from the table.
  Psf psf_of_pixel(const SampledField &field, int r, int c);
} // namespace step5
