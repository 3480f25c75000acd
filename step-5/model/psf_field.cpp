// The PSF fields (see psf_field.h).
#include "model/psf_field.h"

#include <lab/program.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace step5
{
  namespace
  {
    using description::text_of;

    constexpr double pi = 3.14159265358979323846;

    // The largest picture a field may draw in, as for a PSF (psf.cpp).
    constexpr int largest_side = 99;

    void require_odd_size(int size)
    {
      if (size < 1 || size > largest_side || size % 2 == 0)
        throw lab::bad_input("the size must be odd, from 1 to " + std::to_string(largest_side) + ", not " +
                             std::to_string(size));
    }

    void require_sigma(double sigma, const std::string &what)
    {
      if (!(sigma > 0) || !std::isfinite(sigma))
        throw lab::bad_input(what + " must be a number > 0, not " + text_of(sigma));
    }

    std::string size_text(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

    // A PSF's weights, row by row, to @p out.
    void copy_taps(const Psf &psf, double *out)
    {
      for (int u = 0; u < psf.rows(); ++u)
        for (int v = 0; v < psf.cols(); ++v)
          *out++ = psf.taps(u, v);
    }
  } // namespace

  PsfField constant_field(const Psf &psf)
  {
    PsfField field;
    field.kind = FieldKind::constant;
    field.psf = psf;
    field.name = psf.name;
    return field;
  }

  PsfField lens_field(double sigma_centre, double sigma_corner, int size)
  {
    require_sigma(sigma_centre, "SIGMA_CENTRE");
    require_sigma(sigma_corner, "SIGMA_CORNER");
    require_odd_size(size);
    PsfField field;
    field.kind = FieldKind::lens;
    field.sigma_centre = sigma_centre;
    field.sigma_corner = sigma_corner;
    field.size = size;
    field.name = "lens sigma=" + text_of(sigma_centre) + " to " + text_of(sigma_corner) + " " + size_text(size, size);
    return field;
  }

  PsfField rotation_field(double angle_degrees, int size)
  {
    if (!std::isfinite(angle_degrees))
      throw lab::bad_input("the angle must be a finite number of degrees, not " + text_of(angle_degrees));
    require_odd_size(size);
    PsfField field;
    field.kind = FieldKind::rotation;
    field.angle_degrees = angle_degrees;
    field.size = size;
    field.name = "rotation angle=" + text_of(angle_degrees) + " " + size_text(size, size);
    return field;
  }

  PsfField grid_field(const PsfGrid &grid)
  {
    PsfField field;
    field.kind = FieldKind::grid;
    field.grid = grid;
    field.name = grid.name;
    return field;
  }

  std::string kind_of(const PsfField &field)
  {
    switch (field.kind)
      {
      case FieldKind::lens: return "lens";
      case FieldKind::rotation: return "rotation";
      case FieldKind::grid: return "grid";
      case FieldKind::constant: break;
      }
    return "constant";
  }

  // @sect3{Parsing a field}
  //
  // A field's description has the form of a PSF's (psf.h: a name and numbers,
  // separated by colons); every description that is not a field's goes on to
  // parse_psf, so that the invariant PSFs, their files and their refusals stay as
  // they were.
  bool names_a_field(const std::string &description)
  {
    const std::string kind = description::fields_of(description).front();
    return kind == "lens" || kind == "rotation";
  }

  PsfField parse_psf_field(const std::string &description)
  {
    if (!names_a_field(description))
      return constant_field(parse_psf(description));
    using description::number_in;
    using description::whole_number_in;
    const std::vector<std::string> fields = description::fields_of(description);
    const std::string &kind = fields.front();
    const std::string forms = "lens:SIGMA_CENTRE:SIGMA_CORNER:SIZE or rotation:ANGLE_DEGREES:SIZE";
    try
      {
        if (kind == "lens" && fields.size() == 4)
          return lens_field(number_in(fields[1], "SIGMA_CENTRE"), number_in(fields[2], "SIGMA_CORNER"),
                            whole_number_in(fields[3], "SIZE"));
        if (kind == "rotation" && fields.size() == 3)
          return rotation_field(number_in(fields[1], "ANGLE_DEGREES"), whole_number_in(fields[2], "SIZE"));
      }
    catch (const lab::bad_input &problem)
      {
        throw lab::bad_input("the PSF '" + description + "': " + problem.what() + " (accepted: " + forms + ")");
      }
    throw lab::bad_input("the PSF '" + description + "' is not one of " + forms);
  }

  PsfField field_from_argument(const std::string &argument)
  {
    if (!std::filesystem::is_regular_file(argument))
      return parse_psf_field(argument);
    if (is_psf_grid_file(argument))
      return grid_field(read_psf_grid(argument));
    return constant_field(read_psf(argument));
  }

  // @sect3{The PSF of one pixel}
  //
  // Distances are measured from the centre of the image, ((R − 1)/2, (C − 1)/2) in
  // pixel coordinates (between pixels when a side is even), with x to the right and
  // y up as for motion_psf; ρ_corner is the distance of the corner pixels.
  namespace
  {
    struct Position
    {
      double x, y, radius, corner_radius;
    };

    Position position_of(int r, int c, int image_rows, int image_cols)
    {
      const double middle_row = (image_rows - 1) / 2.0, middle_col = (image_cols - 1) / 2.0;
      const double x = c - middle_col, y = middle_row - r;
      return {x, y, std::hypot(x, y), std::hypot(middle_row, middle_col)};
    }

    Psf lens_psf_at(const PsfField &field, const Position &at)
    {
      const double reach = at.corner_radius > 0 ? at.radius / at.corner_radius : 0;
      const double sigma = field.sigma_centre + (field.sigma_corner - field.sigma_centre) * reach * reach;
      return gaussian_psf(sigma, field.size);
    }

    // A motion PSF drawn into the size × size picture, centre on centre. A streak of
    // length at most `size` fits (motion_psf draws length L in at most L columns
    // along x and rows along y, odd), so nothing is cut off; a weight that did fall
    // outside would be dropped and the rest renormalised.
    Psf drawn_in(const Psf &motion, int size)
    {
      Psf psf{lab::Matrix<double>(size, size), motion.name};
      const int shift_row = size / 2 - motion.centre_row(), shift_col = size / 2 - motion.centre_col();
      double kept = 0, all = 0;
      for (int u = 0; u < motion.rows(); ++u)
        for (int v = 0; v < motion.cols(); ++v)
          {
            all += motion.taps(u, v);
            const int row = u + shift_row, col = v + shift_col;
            if (row >= 0 && row < size && col >= 0 && col < size)
              {
                psf.taps(row, col) = motion.taps(u, v);
                kept += motion.taps(u, v);
              }
          }
      if (kept != all)
        for (int u = 0; u < size; ++u)
          for (int v = 0; v < size; ++v)
            psf.taps(u, v) /= kept;
      return psf;
    }

    // The tangent of the circle through (x, y) is the radius turned by 90°.
    Psf rotation_psf_at(const PsfField &field, const Position &at)
    {
      const double travel = at.radius * std::abs(field.angle_degrees) / 180 * pi;
      const double length = std::clamp(travel, 1.0, double(field.size));
      const double tangent_degrees = std::atan2(at.y, at.x) / pi * 180 + 90;
      return drawn_in(motion_psf(length, tangent_degrees), field.size);
    }
  } // namespace

  Psf psf_at(const PsfField &field, int r, int c, int image_rows, int image_cols)
  {
    const Position at = position_of(r, c, image_rows, image_cols);
    switch (field.kind)
      {
      case FieldKind::lens: return lens_psf_at(field, at);
      case FieldKind::rotation: return rotation_psf_at(field, at);
      case FieldKind::grid: return interpolated_psf(field.grid, r, c, image_rows, image_cols);
      case FieldKind::constant: break;
      }
    return field.psf;
  }

  void check_field(const PsfField &field, int image_rows, int image_cols)
  {
    if (!field.varies())
      return check_psf(field.psf, image_rows, image_cols);
    if (field.kind == FieldKind::grid)
      check_psf_grid(field.grid);
    if (field.rows() > image_rows || field.cols() > image_cols)
      throw lab::bad_input("the PSF '" + field.name + "' (" + size_text(field.rows(), field.cols()) +
                           ") is larger than the " + size_text(image_rows, image_cols) + " image");
  }

  // @sect3{A grid from a field}
  //
  // Grid point i of n along a side of s pixels is pixel i·(s − 1)/(n − 1), rounded to
  // the nearest: the first on the first pixel, the last on the last. Points that
  // round to the same pixel (more points than pixels) could not be told apart.
  namespace
  {
    std::vector<int> grid_pixels(int points, int side, const std::string &which)
    {
      if (points < 1 || points > side)
        throw lab::bad_input("a grid of " + std::to_string(points) + " " + which + "s on an image of " +
                             std::to_string(side) + ": from 1 to one per pixel");
      std::vector<int> pixels;
      for (int i = 0; i < points; ++i)
        pixels.push_back(points == 1 ? (side - 1) / 2
                                     : static_cast<int>(std::lround(double(i) * (side - 1) / (points - 1))));
      return pixels;
    }
  } // namespace

  PsfGrid sample_grid(const PsfField &field, int grid_rows, int grid_cols, int image_rows, int image_cols)
  {
    const std::vector<int> rows = grid_pixels(grid_rows, image_rows, "row");
    const std::vector<int> cols = grid_pixels(grid_cols, image_cols, "column");
    std::vector<double> row_at, col_at;
    for (const int r : rows)
      row_at.push_back(position_of_pixel(r, image_rows));
    for (const int c : cols)
      col_at.push_back(position_of_pixel(c, image_cols));
    std::vector<Psf> psfs;
    for (const int r : rows)
      for (const int c : cols)
        psfs.push_back(psf_at(field, r, c, image_rows, image_cols));
    return make_psf_grid(std::move(row_at), std::move(col_at), std::move(psfs),
                         "grid " + size_text(grid_rows, grid_cols) + " of " + size_text(field.rows(), field.cols()) +
                           " psfs sampled from " + field.name);
  }

  namespace
  {
    // The mean of the sampled pixels' PSFs (SampledField::mean).
    Psf mean_psf(const SampledField &field)
    {
      Psf mean{lab::Matrix<double>(field.rows, field.cols), "mean of " + field.name};
      const long pixels = static_cast<long>(field.image_rows) * field.image_cols;
      for (int r = 0; r < field.image_rows; ++r)
        for (int c = 0; c < field.image_cols; ++c)
          {
            const double *taps = field.taps_of(r, c);
            for (int u = 0; u < field.rows; ++u)
              for (int v = 0; v < field.cols; ++v)
                mean.taps(u, v) += taps[u * field.cols + v] / pixels;
          }
      return mean;
    }
  } // namespace

  // @sect3{Sampling the field}
  SampledField sample_field(const PsfField &field, int image_rows, int image_cols)
  {
    check_field(field, image_rows, image_cols);
    SampledField sampled;
    sampled.image_rows = image_rows;
    sampled.image_cols = image_cols;
    sampled.rows = field.rows();
    sampled.cols = field.cols();
    sampled.centre_row = sampled.rows / 2;
    sampled.centre_col = sampled.cols / 2;
    sampled.name = field.name;
    const int taps = sampled.rows * sampled.cols;
    if (!field.varies())
      {
        sampled.pixel_stride = 0;
        sampled.taps.resize(taps);
        copy_taps(field.psf, sampled.taps.data());
        sampled.mean = mean_psf(sampled);
        return sampled;
      }
    sampled.pixel_stride = taps;
    sampled.taps.resize(static_cast<std::size_t>(image_rows) * image_cols * taps);
    for (int r = 0; r < image_rows; ++r)
      for (int c = 0; c < image_cols; ++c)
        copy_taps(psf_at(field, r, c, image_rows, image_cols),
                  sampled.taps.data() + (static_cast<long>(r) * image_cols + c) * taps);
    sampled.mean = mean_psf(sampled);
    return sampled;
  }

  double sampled_field_bytes(const PsfField &field, int image_rows, int image_cols)
  {
    const double pixels = field.varies() ? double(image_rows) * image_cols : 1.0;
    return pixels * field.rows() * field.cols() * sizeof(double);
  }

  Psf psf_of_pixel(const SampledField &field, int r, int c)
  {
    Psf psf{lab::Matrix<double>(field.rows, field.cols),
            field.name + " at (" + std::to_string(r) + ", " + std::to_string(c) + ")"};
    const double *taps = field.taps_of(r, c);
    for (int u = 0; u < field.rows; ++u)
      for (int v = 0; v < field.cols; ++v)
        psf.taps(u, v) = taps[u * field.cols + v];
    return psf;
  }
} // namespace step5
