#include "model/psf.h"

#include <lab/matrix_io.h>
#include <lab/program.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace step5
{
  namespace
  {
    // A PSF larger than this on a side is refused: its normal matrix would couple
    // every pixel with some 40 000 others, and no image of this step is that blurred.
    constexpr int largest_side = 99;

    constexpr double pi = 3.14159265358979323846;

    // MATLAB's eps, which its fspecial uses in places that we follow.
    constexpr double epsilon = std::numeric_limits<double>::epsilon();

    using description::text_of;

    std::string size_text(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

    void require_side(int size, const std::string &what)
    {
      if (size < 1 || size > largest_side)
        throw lab::bad_input(what + " must be from 1 to " + std::to_string(largest_side) + ", not " +
                             std::to_string(size));
    }

    double sum_of(const lab::Matrix<double> &taps)
    {
      double sum = 0;
      for (int u = 0; u < taps.rows(); ++u)
        for (int v = 0; v < taps.cols(); ++v)
          sum += taps(u, v);
      return sum;
    }

    void divide(lab::Matrix<double> &taps, double divisor)
    {
      for (int u = 0; u < taps.rows(); ++u)
        for (int v = 0; v < taps.cols(); ++v)
          taps(u, v) /= divisor;
    }
  } // namespace

  // @sect3{The named point-spread functions}
  //
  // The PSFs a user can ask for by name are MATLAB's fspecial filters, value for
  // value, so that a result of this step can be compared with one from MATLAB or
  // from the many papers that use them.
  //
  // The Gaussian samples exp(−(x² + y²)/(2σ²)) at the pixel centres, with (x, y)
  // measured from the middle of the picture, drops the values below ε times the
  // largest (MATLAB's way of cutting the tails off cleanly), and divides by the sum.
  // We subtract the squared distance of the pixel centres nearest to the middle
  // from every x² + y²: that multiplies every weight by the same factor, which the
  // normalisation removes anyway, and makes the largest weight exactly 1 whatever σ
  // is (for a tiny σ and an even size, exp would otherwise round every weight to
  // zero, and the sum with them).
  Psf gaussian_psf(double sigma, int size)
  {
    if (!(sigma > 0) || !std::isfinite(sigma))
      throw lab::bad_input("sigma must be a number > 0, not " + text_of(sigma));
    require_side(size, "the size");
    Psf psf{lab::Matrix<double>(size, size), "gaussian sigma=" + text_of(sigma) + " " + size_text(size, size)};
    const double middle = (size - 1) / 2.0;
    const double nearest = middle - std::floor(middle);
    const double nearest_squared = 2 * nearest * nearest;
    for (int u = 0; u < size; ++u)
      for (int v = 0; v < size; ++v)
        {
          const double x = v - middle, y = u - middle;
          psf.taps(u, v) = std::exp(-(x * x + y * y - nearest_squared) / (2 * sigma) / sigma);
        }
    // MATLAB's cut: below ε times the largest weight, which is 1 here.
    for (int u = 0; u < size; ++u)
      for (int v = 0; v < size; ++v)
        if (psf.taps(u, v) < epsilon)
          psf.taps(u, v) = 0;
    divide(psf.taps, sum_of(psf.taps));
    return psf;
  }

  Psf box_psf(int size)
  {
    require_side(size, "the size");
    Psf psf{lab::Matrix<double>(size, size), "box " + size_text(size, size)};
    for (int u = 0; u < size; ++u)
      for (int v = 0; v < size; ++v)
        psf.taps(u, v) = 1.0 / (size * size);
    return psf;
  }

  // @sect3{Motion blur}
  //
  // A camera moving in a straight line during the exposure draws every point as a
  // segment: MATLAB's motion PSF is the segment of the given length through the
  // centre of the picture at the given angle, one pixel wide. A pixel gets the weight
  // 1 − (its centre's distance to the segment), nothing when that is more than one
  // pixel: the pixels the segment runs through fully get the most, those it only
  // grazes a little. That draws a line without staircase steps (anti-aliasing).
  //
  // MATLAB computes one quarter of the picture, the pixels (x, y) with y ≥ 0 and x
  // on the side that the upper half of the segment points to, and obtains the rest
  // by a half turn: the segment is symmetric about the centre, and so is the
  // picture. We follow its arithmetic step by step, its small additions of ε
  // included: they change the weights only by rounding, but they decide the size of
  // the picture in borderline cases. At 0° and 90° the half length lands exactly on
  // a pixel centre, and the −len·ε keeps the picture from growing by a row or a
  // column of zeros there.
  Psf motion_psf(double length, double angle_degrees)
  {
    if (!(length >= 1 && length <= largest_side))
      throw lab::bad_input("the length must be from 1 to " + std::to_string(largest_side) + ", not " +
                           text_of(length));
    if (!std::isfinite(angle_degrees))
      throw lab::bad_input("the angle must be a finite number of degrees, not " + text_of(angle_degrees));

    // A segment and its half turn are the same, so only the angle modulo 180° counts.
    // The cosine is never exactly zero (π/2 is not a double), so x_step is ±1.
    const double half = (length - 1) / 2;
    double turned = std::fmod(angle_degrees, 180.0);
    if (turned < 0)
      turned += 180;
    const double phi = turned / 180 * pi;
    const double cos_phi = std::cos(phi), sin_phi = std::sin(phi);
    const double x_step = cos_phi > 0 ? 1 : -1;

    // The quarter: y = 0 .. last_y, x = 0, x_step, .. up to the segment's end plus one
    // pixel of line width, rounded towards zero as MATLAB's fix does.
    const int last_x = static_cast<int>(std::trunc(half * cos_phi + x_step - length * epsilon));
    const int last_y = static_cast<int>(std::trunc(half * sin_phi + 1 - length * epsilon));
    const int quarter_cols = std::abs(last_x) + 1, quarter_rows = last_y + 1;

    Psf psf{lab::Matrix<double>(2 * quarter_rows - 1, 2 * quarter_cols - 1), ""};
    const int centre_row = psf.centre_row(), centre_col = psf.centre_col();
    for (int k = 0; k < quarter_rows; ++k)
      for (int m = 0; m < quarter_cols; ++m)
        {
          const double x = m * x_step, y = k;
          // The signed distance of (x, y) from the whole line through the centre.
          double distance = y * cos_phi - x * sin_phi;
          const double radius = std::sqrt(x * x + y * y);
          // Past an end of the segment (judged, as MATLAB does, by the distance to
          // the centre rather than along the line), the nearest point of the
          // segment is that end. (x + distance·sin φ)/cos φ is how far along the
          // line the foot of the perpendicular from (x, y) lies, beyond_end how far
          // the end falls short of it.
          if (radius >= half && std::abs(distance) <= 1)
            {
              const double beyond_end = half - std::abs((x + distance * sin_phi) / cos_phi);
              distance = std::sqrt(distance * distance + beyond_end * beyond_end);
            }
          const double weight = std::max(1 + epsilon - std::abs(distance), 0.0);
          // The point (x, y), y up, is drawn at row centre − y; its half turn
          // (−x, −y) at row centre + y.
          psf.taps(centre_row - k, centre_col + m * static_cast<int>(x_step)) = weight;
          psf.taps(centre_row + k, centre_col - m * static_cast<int>(x_step)) = weight;
        }
    divide(psf.taps, sum_of(psf.taps) + epsilon * length * length);
    psf.name = "motion length=" + text_of(length) + " angle=" + text_of(angle_degrees) + " " +
               size_text(psf.rows(), psf.cols());
    return psf;
  }

  // @sect3{A trail}
  //
  // A point that moves away from where it was during the exposure leaves a streak on
  // one side only: the motion PSF of twice the length, cut at the centre. Only the
  // weights ahead of the centre along the direction of motion stay (the anti-aliasing
  // weights beside the centre pixel too, where the cut passes through them), and the
  // rest is renormalised to sum 1. The picture keeps the centre pixel in its middle,
  // so half of it is zero; under a half turn it becomes a trail the other way: H ≠ Hᵀ,
  // and HᵀH ≠ HHᵀ.
  Psf trail_psf(double length, double angle_degrees)
  {
    if (!(length >= 1 && 2 * length - 1 <= largest_side))
      throw lab::bad_input("the length must be from 1 to " + std::to_string((largest_side + 1) / 2) + ", not " +
                           text_of(length));
    Psf psf = motion_psf(2 * length - 1, angle_degrees);
    const double phi = angle_degrees / 180 * pi;
    for (int r = 0; r < psf.rows(); ++r)
      for (int c = 0; c < psf.cols(); ++c)
        {
          // (x, y) with y up, as for the motion PSF; ahead means a positive projection
          // on the direction of motion (tolerance for the pixels the cut runs through).
          const double x = c - psf.centre_col(), y = psf.centre_row() - r;
          if (x * std::cos(phi) + y * std::sin(phi) < -1e-9)
            psf.taps(r, c) = 0;
        }
    divide(psf.taps, sum_of(psf.taps));
    psf.name = "trail length=" + text_of(length) + " angle=" + text_of(angle_degrees) + " " +
               size_text(psf.rows(), psf.cols());
    return psf;
  }

  // @sect3{Sharpening}
  //
  // The unsharp mask subtracts a blurred copy from the image, which raises the
  // contrast of edges. As a PSF it is a centre weight above 1 with negative weights
  // around it, summing to 1 (a flat region stays as it is). Deblurring an image that
  // was sharpened is the same problem as deblurring a blurred one: only H differs.
  Psf sharpen_psf(double alpha)
  {
    if (!(alpha >= 0 && alpha <= 1))
      throw lab::bad_input("alpha must be from 0 to 1, not " + text_of(alpha));
    Psf psf{lab::Matrix<double>(3, 3), "sharpen alpha=" + text_of(alpha)};
    const double corner = -alpha, edge = alpha - 1, centre = alpha + 5;
    const double pattern[3][3] = {{corner, edge, corner}, {edge, centre, edge}, {corner, edge, corner}};
    for (int u = 0; u < 3; ++u)
      for (int v = 0; v < 3; ++v)
        psf.taps(u, v) = pattern[u][v] / (alpha + 1);
    return psf;
  }

  // @sect3{A PSF from a file or from the command line}
  //
  // A PSF file is a small matrix in the course's text format, so the course's reader
  // refuses what it cannot use (an unreadable or empty file, ragged rows, a word that
  // is not a finite number) in one line naming the file and the line.
  Psf read_psf(const std::string &path)
  {
    Psf psf{lab::read_matrix<double>(path), ""};
    psf.name = "file " + path + " " + size_text(psf.rows(), psf.cols());
    return psf;
  }

  namespace
  {
    // The forms of parse_psf, and the fields of parse_psf_field (psf_field.h), which
    // hands every other description to parse_psf.
    const std::string accepted_forms =
      "gaussian:SIGMA:SIZE, box:SIZE, motion:LENGTH:ANGLE, trail:LENGTH:ANGLE, sharpen or sharpen:ALPHA; fields "
      "lens:SIGMA_CENTRE:SIGMA_CORNER:SIZE or rotation:ANGLE_DEGREES:SIZE";
  } // namespace

  namespace description
  {
    // Numbers in names and messages the way people write them: 1.5, not 1.500000.
    std::string text_of(double value)
    {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%g", value);
      return buffer;
    }

    std::vector<std::string> fields_of(const std::string &description)
    {
      std::vector<std::string> fields(1);
      for (const char character : description)
        if (character == ':')
          fields.emplace_back();
        else
          fields.back() += character;
      return fields;
    }

    // The whole field must be the number: "1.5x" is refused, not read as 1.5.
    double number_in(const std::string &field, const std::string &what)
    {
      char *end = nullptr;
      const double value = std::strtod(field.c_str(), &end);
      if (field.empty() || end != field.c_str() + field.size())
        throw lab::bad_input(what + " '" + field + "' is not a number");
      return value;
    }

    int whole_number_in(const std::string &field, const std::string &what)
    {
      char *end = nullptr;
      const long value = std::strtol(field.c_str(), &end, 10);
      if (field.empty() || end != field.c_str() + field.size())
        throw lab::bad_input(what + " '" + field + "' is not a whole number");
      if (value < INT_MIN || value > INT_MAX)
        throw lab::bad_input(what + " '" + field + "' is out of range");
      return static_cast<int>(value);
    }
  } // namespace description

  // A description names the filter and its parameters, separated by colons. The
  // builders above check their parameters' ranges; here a refusal also gets the
  // description it came from and the forms that would have been understood.
  Psf parse_psf(const std::string &description)
  {
    using namespace step5::description;
    const std::vector<std::string> fields = fields_of(description);
    const std::string &kind = fields.front();
    try
      {
        if (kind == "gaussian" && fields.size() == 3)
          return gaussian_psf(number_in(fields[1], "SIGMA"), whole_number_in(fields[2], "SIZE"));
        if (kind == "box" && fields.size() == 2)
          return box_psf(whole_number_in(fields[1], "SIZE"));
        if (kind == "motion" && fields.size() == 3)
          return motion_psf(number_in(fields[1], "LENGTH"), number_in(fields[2], "ANGLE"));
        if (kind == "trail" && fields.size() == 3)
          return trail_psf(number_in(fields[1], "LENGTH"), number_in(fields[2], "ANGLE"));
        if (kind == "sharpen" && fields.size() == 1)
          return sharpen_psf();
        if (kind == "sharpen" && fields.size() == 2)
          return sharpen_psf(number_in(fields[1], "ALPHA"));
      }
    catch (const lab::bad_input &problem)
      {
        throw lab::bad_input("the PSF '" + description + "': " + problem.what() + " (accepted: " + accepted_forms +
                             ")");
      }
    throw lab::bad_input("the PSF '" + description + "' is not one of " + accepted_forms);
  }

  // @sect3{What a PSF must satisfy}
  //
  // Refused before any work: a PSF wider or taller than the image (most of its
  // weights would fall outside every time), and one whose weights sum to zero,
  // judged against the size of the weights so that rounding does not hide it.
  double weight_sum(const Psf &psf) { return sum_of(psf.taps); }

  double absolute_sum(const Psf &psf)
  {
    double sum = 0;
    for (int u = 0; u < psf.rows(); ++u)
      for (int v = 0; v < psf.cols(); ++v)
        sum += std::abs(psf.taps(u, v));
    return sum;
  }

  void check_psf(const Psf &psf, int image_rows, int image_cols)
  {
    const std::string name = "the PSF '" + psf.name + "'";
    if (psf.rows() < 1 || psf.cols() < 1)
      throw lab::bad_input(name + " has no weights");
    if (psf.rows() > image_rows || psf.cols() > image_cols)
      throw lab::bad_input(name + " (" + size_text(psf.rows(), psf.cols()) + ") is larger than the " +
                           size_text(image_rows, image_cols) + " image");
    const double sum = sum_of(psf.taps);
    if (std::abs(sum) <= 1e-12 * absolute_sum(psf))
      throw lab::bad_input(name + " has weights summing to zero (" + text_of(sum) +
                           "): it would erase every flat region, and no lambda can bring them back");
  }
} // namespace step5
