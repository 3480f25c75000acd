// CPU tests of a grid of measured PSFs (psf_grid.h) as a PSF field: the bilinear
// formula by hand on a small grid; a grid sampled from a field gives the field's PSFs
// exactly at its points and close to them between (second order on the smooth lens);
// planted: nearest-neighbour and an upside-down grid fail those checks; pixels beyond
// the outermost points take the edge's PSFs; every interpolated PSF sums to 1; a grid
// of one PSF is that PSF's invariant blur bit for bit; files round trip, the course's
// example file is the lens it says, and bad files are refused in one line naming the
// file, the line and the reason; and a grid sampled from the course's lens restores
// within 0.2 dB of the lens itself.
#include "model/psf_field.h"
#include "model/psf_grid.h"
#include "model/varying_blur.h"
#include "photographs.h"
#include "test_support.h"

#include <lab/image_quality.h>
#include <lab/test_images.h>
#include <lab_catch.h>
#include <temp_dir.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace
{
  using namespace step5_test;
  using step5::PsfField;
  using step5::PsfGrid;
  using step5::SampledField;

  // The PSF of pixel (r, c) as some interpolation of a grid gives it.
  using PixelPsf = std::function<Psf(int r, int c)>;

  // The interpolation under test, as the methods see it: the grid's field sampled for
  // the image (sample_field, psf_at), read back pixel by pixel.
  PixelPsf by_the_field(const PsfGrid &grid, int image_rows, int image_cols)
  {
    const SampledField sampled = step5::sample_field(step5::grid_field(grid), image_rows, image_cols);
    return [sampled](int r, int c) { return step5::psf_of_pixel(sampled, r, c); };
  }

  // Planted: each pixel takes the PSF of the nearest grid point (no interpolation).
  PixelPsf nearest_neighbour(const PsfGrid &grid, int image_rows, int image_cols)
  {
    const auto nearest = [](const std::vector<double> &at, double position) {
      int best = 0;
      for (int k = 1; k < static_cast<int>(at.size()); ++k)
        if (std::abs(at[k] - position) < std::abs(at[best] - position))
          best = k;
      return best;
    };
    return [=](int r, int c) {
      return grid.psf(nearest(grid.row_at, step5::position_of_pixel(r, image_rows)),
                      nearest(grid.col_at, step5::position_of_pixel(c, image_cols)));
    };
  }

  // Planted: the grid read upside down, its row 0 taken as the bottom of the image.
  PixelPsf upside_down(const PsfGrid &grid, int image_rows, int image_cols)
  {
    return [=](int r, int c) { return step5::interpolated_psf(grid, image_rows - 1 - r, c, image_rows, image_cols); };
  }

  using Interpolation = std::function<PixelPsf(const PsfGrid &, int, int)>;

  // The pixels a grid's points lie on.
  std::vector<std::pair<int, int>> grid_pixels(const PsfGrid &grid, int image_rows, int image_cols)
  {
    std::vector<std::pair<int, int>> pixels;
    for (const double y : grid.row_at)
      for (const double x : grid.col_at)
        pixels.emplace_back(int(std::lround(y * (image_rows - 1))), int(std::lround(x * (image_cols - 1))));
    return pixels;
  }

  std::vector<std::pair<int, int>> all_pixels(int image_rows, int image_cols)
  {
    std::vector<std::pair<int, int>> pixels;
    for (int r = 0; r < image_rows; ++r)
      for (int c = 0; c < image_cols; ++c)
        pixels.emplace_back(r, c);
    return pixels;
  }

  // The largest difference of a weight between the PSFs @p by_grid gives @p pixels and
  // the field's own.
  double largest_difference(const PixelPsf &by_grid, const PsfField &field, int image_rows, int image_cols,
                            const std::vector<std::pair<int, int>> &pixels)
  {
    double largest = 0;
    for (const auto &[r, c] : pixels)
      {
        const Psf expected = step5::psf_at(field, r, c, image_rows, image_cols);
        largest = lab::nan_max(largest, max_difference(by_grid(r, c).taps, expected.taps));
      }
    return largest;
  }

  // @sect3{The checks of an interpolation}
  //
  // At its points a grid sampled from a field must give the field's PSFs (to the
  // rounding of dividing by a sum that is 1 already): the largest difference of a
  // weight there must be ≤ 1e-15. The rotation is not symmetric under a mirror (its
  // streaks turn the other way in the lower half), so a grid read upside down or
  // mirrored fails here; the lens would not tell.
  double largest_difference_at_grid_points(const Interpolation &interpolation)
  {
    double largest = 0;
    for (const PsfField &field : {step5::rotation_field(20, 7), step5::lens_field(0.8, 2.5, 7)})
      for (const auto &[grid_rows, grid_cols] : std::vector<std::pair<int, int>>{{2, 3}, {3, 3}, {4, 2}})
        {
          const int image_rows = 13, image_cols = 16;
          const PsfGrid grid = step5::sample_grid(field, grid_rows, grid_cols, image_rows, image_cols);
          largest = lab::nan_max(largest, largest_difference(interpolation(grid, image_rows, image_cols), field,
                                                             image_rows, image_cols,
                                                             grid_pixels(grid, image_rows, image_cols)));
        }
    return largest;
  }

  const double exact_at_points = 1e-15;

  // Between its points a grid of the smooth lens must be close to the lens, and closer
  // by about 4 when the grid's spacing halves: bilinear interpolation is second order
  // (its error ~ h² times the field's second derivatives), nearest neighbour first
  // order (~ h times the first derivatives: about 2). Measured on the lens σ 1 to 3,
  // 9 × 9, at 65 × 65 with grids of 9, 17 and 33 points a side (spacing 8, 4 and 2
  // pixels), the largest difference of a weight: bilinear 0.0079, 0.0023, 0.00061
  // (ratios 3.4, 3.8); nearest neighbour 0.029, 0.014, 0.0073 (ratios 2.0, 2.0). On
  // coarser grids the error has not yet settled to h²: 0.020 and 0.019 with 3 and 5
  // points (the σ = 1 Gaussian at the centre changes fastest).
  std::vector<double> largest_differences_between_grid_points(const Interpolation &interpolation)
  {
    const int side = 65;
    const PsfField lens = step5::lens_field(1, 3, 9);
    std::vector<double> differences;
    for (const int points : {9, 17, 33})
      {
        const PsfGrid grid = step5::sample_grid(lens, points, points, side, side);
        differences.push_back(
          largest_difference(interpolation(grid, side, side), lens, side, side, all_pixels(side, side)));
      }
    return differences;
  }

  bool close_and_second_order(const std::vector<double> &differences)
  {
    return differences[0] <= 0.01 && differences[0] >= 3 * differences[1] && differences[1] >= 3 * differences[2];
  }

  const Interpolation bilinear = by_the_field;

  // A grid of @p psfs (grid row by grid row) at @p row_at × @p col_at.
  PsfGrid grid_of(std::vector<double> row_at, std::vector<double> col_at, std::vector<Psf> psfs)
  {
    return step5::make_psf_grid(std::move(row_at), std::move(col_at), std::move(psfs), "test grid");
  }

  // A 1 × 2 PSF (a, 1 − a): its first weight is the quantity interpolated.
  Psf pair_psf(double a) { return psf_of({{a, 1 - a}}, "pair"); }

  bool same_image(const Image &a, const Image &b)
  {
    return a.rows() == b.rows() && a.cols() == b.cols() && max_difference(a, b) == 0;
  }

  // A file of @p text in @p folder; its path.
  std::string file_in(const lab_test::TempDir &folder, const std::string &name, const std::string &text)
  {
    const std::string path = (folder / name).string();
    std::ofstream(path) << text;
    return path;
  }
} // namespace

// @sect3{The interpolation}
TEST_CASE("step-5 CPU: a grid's PSF between its points is the bilinear formula, row 0 of the grid on top")
{
  // A 2 × 2 grid at rows 0.25, 0.75 and columns 0.2, 0.6 of a 9 × 11 image; each point's
  // first weight different, so that a point in the wrong corner shows.
  const PsfGrid grid = grid_of({0.25, 0.75}, {0.2, 0.6}, {pair_psf(0.1), pair_psf(0.3), pair_psf(0.6), pair_psf(0.9)});
  const int rows = 9, cols = 11;
  const auto psf_at = [&](int r, int c) { return step5::psf_at(step5::grid_field(grid), r, c, rows, cols); };
  // Pixel (4, 3): y = 4/8 = 0.5, halfway down; x = 3/10 = 0.3, a quarter of the way
  // from column 0.2 to column 0.6.
  const double t = 0.5, s = 0.25;
  const double expected = (1 - t) * (1 - s) * 0.1 + (1 - t) * s * 0.3 + t * (1 - s) * 0.6 + t * s * 0.9;
  CHECK(std::abs(psf_at(4, 3).taps(0, 0) - expected) <= 1e-15);
  CHECK(std::abs(psf_at(4, 3).taps(0, 1) - (1 - expected)) <= 1e-15);
  // Beyond the outermost points, the edge's PSFs: a corner's beyond both, the edge's
  // interpolation along the edge beyond one (row 0 above the first grid row, 0.25 =
  // row 2).
  CHECK(psf_at(0, 0).taps(0, 0) == 0.1);
  CHECK(psf_at(8, 10).taps(0, 0) == 0.9);
  CHECK(psf_at(0, 10).taps(0, 0) == 0.3);
  CHECK(psf_at(8, 0).taps(0, 0) == 0.6);
  for (int c = 0; c < cols; ++c)
    {
      CAPTURE(c);
      CHECK(same_image(psf_at(0, c).taps, psf_at(2, c).taps));
      CHECK(same_image(psf_at(8, c).taps, psf_at(6, c).taps));
    }
}

TEST_CASE("step-5 CPU: a grid sampled from a field gives the field's PSFs exactly at its points")
{
  CHECK(largest_difference_at_grid_points(bilinear) <= exact_at_points);
}

TEST_CASE("step-5 CPU: between its points, a grid of the lens is close to the lens, and second order")
{
  const std::vector<double> differences = largest_differences_between_grid_points(bilinear);
  CAPTURE(differences);
  CHECK(close_and_second_order(differences));
}

TEST_CASE("planted: nearest neighbour instead of bilinear, and a grid read upside down, FAIL the interpolation checks")
{
  // Nearest neighbour is exact at the points but first order between them.
  CHECK(largest_difference_at_grid_points(nearest_neighbour) <= exact_at_points);
  const std::vector<double> differences = largest_differences_between_grid_points(nearest_neighbour);
  CAPTURE(differences);
  CHECK_FALSE(close_and_second_order(differences));
  // Upside down, the points of the rotation's grid get the mirrored streaks.
  CHECK_FALSE(largest_difference_at_grid_points(upside_down) <= exact_at_points);
}

TEST_CASE("step-5 CPU: every PSF of a grid's field sums to 1, and a grid of weights >= 0 gives weights >= 0")
{
  // PSFs "measured" in counts: sums 100, 37 and 1e-3, divided by them when the grid is made.
  Psf counts = psf_of({{10, 20, 10}, {20, 40, 0}, {0, 0, 0}}, "counts");
  Psf faint = psf_of({{0, 1e-4, 0}, {2e-4, 5e-4, 1e-4}, {0, 1e-4, 0}}, "faint");
  Psf streak = psf_of({{0, 0, 0}, {12, 12, 13}, {0, 0, 0}}, "streak");
  const PsfGrid grid = grid_of({0, 0.4, 1}, {0.1, 0.9}, {counts, faint, streak, counts, faint, streak});
  const SampledField sampled = step5::sample_field(step5::grid_field(grid), 10, 13);
  for (int r = 0; r < 10; ++r)
    for (int c = 0; c < 13; ++c)
      {
        CAPTURE(r, c);
        const Psf psf = step5::psf_of_pixel(sampled, r, c);
        CHECK(std::abs(sum_of(psf) - 1) <= 1e-14);
        for (int u = 0; u < 3; ++u)
          for (int v = 0; v < 3; ++v)
            CHECK(psf.taps(u, v) >= 0);
      }
  CHECK(grid.psf(0, 0).taps(1, 1) == 0.4);
}

TEST_CASE("step-5 CPU: a grid of one PSF is that PSF's invariant blur, bit for bit")
{
  // Weights in sixteenths: their sum is 1 exactly, so dividing by it changes nothing.
  const Psf psf = psf_of({{1. / 16, 2. / 16, 1. / 16}, {2. / 16, 4. / 16, 1. / 16}, {0, 1. / 16, 4. / 16}}, "skewed");
  const PsfGrid grid = grid_of({0, 0.3, 1}, {0.2, 0.5, 0.7, 1}, std::vector<Psf>(12, psf));
  const PsfField field = step5::grid_field(grid);
  CHECK(field.varies());
  CHECK(field.kind == step5::FieldKind::grid);
  CHECK(step5::kind_of(field) == "grid");
  for (const auto &[rows, cols] : std::vector<std::pair<int, int>>{{7, 7}, {8, 13}, {12, 9}})
    {
      CAPTURE(rows, cols);
      const SampledField sampled = step5::sample_field(field, rows, cols);
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
          CHECK(same_image(step5::psf_of_pixel(sampled, r, c).taps, psf.taps));
      const Image f = random_image(rows, cols, 5);
      const SampledField invariant = step5::sample_field(step5::constant_field(psf), rows, cols);
      CHECK(same_image(step5::blur(sampled, f), step5::blur(invariant, f)));
      CHECK(same_image(step5::blur_transpose(sampled, f), step5::blur_transpose(invariant, f)));
    }
}

// @sect3{Files}
TEST_CASE("step-5 CPU: a grid written to a file reads back the same numbers, and --psf knows it from one PSF")
{
  const lab_test::TempDir folder;
  const PsfGrid grid = step5::sample_grid(step5::rotation_field(25, 5), 3, 2, 21, 17);
  const std::string path = (folder / "grid.txt").string();
  step5::write_psf_grid(grid, path);
  CHECK(step5::is_psf_grid_file(path));
  const PsfGrid read = step5::read_psf_grid(path);
  CHECK(read.row_at == grid.row_at);
  CHECK(read.col_at == grid.col_at);
  REQUIRE(read.psfs.size() == grid.psfs.size());
  for (std::size_t k = 0; k < grid.psfs.size(); ++k)
    CHECK(max_difference(read.psfs[k].taps, grid.psfs[k].taps) <= 1e-16);
  CHECK(read.name == "grid 3x2 of 5x5 psfs, file " + path);

  const PsfField field = step5::field_from_argument(path);
  CHECK(field.kind == step5::FieldKind::grid);
  CHECK(field.rows() == 5);
  CHECK(field.cols() == 5);
  CHECK(field.name == read.name);
  // One PSF in a file stays one PSF, and a description a description.
  const std::string one = file_in(folder, "one.txt", "# one PSF\n0.25 0.5 0.25\n");
  CHECK_FALSE(step5::is_psf_grid_file(one));
  CHECK(step5::field_from_argument(one).kind == step5::FieldKind::constant);
  CHECK(step5::field_from_argument("lens:1:3:9").kind == step5::FieldKind::lens);
  CHECK_FALSE(step5::is_psf_grid_file((folder / "no-such-file.txt").string()));
}

TEST_CASE("step-5 CPU: a grid file by hand: comments, blank lines, PSFs in counts, fewer points than the edges")
{
  const lab_test::TempDir folder;
  const std::string path = file_in(folder, "hand.txt",
                                    "\n# measured on the bench\npsf-grid 1 2 1 3\n"
                                    "rows 0.5\n\ncols 0.25 0.75\n"
                                    "psf 0 0\n# the left star\n10 20 10\n"
                                    "psf 0 1\n0 30 10\n");
  REQUIRE(step5::is_psf_grid_file(path));
  const PsfGrid grid = step5::read_psf_grid(path);
  CHECK(grid.grid_rows() == 1);
  CHECK(grid.grid_cols() == 2);
  CHECK(max_difference(grid.psf(0, 0).taps, psf_of({{0.25, 0.5, 0.25}}, "").taps) == 0);
  CHECK(max_difference(grid.psf(0, 1).taps, psf_of({{0, 0.75, 0.25}}, "").taps) == 0);
  // Column 0 of a 5-pixel-wide image lies left of the grid: the left star's PSF.
  CHECK(max_difference(step5::interpolated_psf(grid, 3, 0, 7, 5).taps, grid.psf(0, 0).taps) == 0);
}

TEST_CASE("step-5 CPU: the example grid file is the course's lens sampled at 3 x 3 points")
{
  const PsfGrid example = step5::read_psf_grid(step5::data_folder() + "/lens_grid_3x3.txt");
  const PsfGrid lens = step5::sample_grid(step5::lens_field(1, 3, 9), 3, 3, 257, 257);
  CHECK(example.row_at == std::vector<double>{0, 0.5, 1});
  CHECK(example.col_at == std::vector<double>{0, 0.5, 1});
  REQUIRE(example.psfs.size() == lens.psfs.size());
  for (std::size_t k = 0; k < lens.psfs.size(); ++k)
    CHECK(max_difference(example.psfs[k].taps, lens.psfs[k].taps) <= 1e-16);
}

// Writes step-5/data/lens_grid_3x3.txt (hidden: run by hand, see step-5/data/README.md).
TEST_CASE("write the example grid file", "[.write-example-grid]")
{
  step5::PsfGrid lens = step5::sample_grid(step5::lens_field(1, 3, 9), 3, 3, 257, 257);
  lens.name = "the lens lens:1:3:9 at the corners, the edges' middles and the centre of the image";
  step5::write_psf_grid(lens, step5::data_folder() + "/lens_grid_3x3.txt");
}

TEST_CASE("step-5 CPU: grid files that cannot be used are refused in one line naming the file, the line and why")
{
  const lab_test::TempDir folder;
  const std::string header = "psf-grid 1 2 2 2\nrows 0.5\ncols 0 1\n";
  const std::string good_psfs = "psf 0 0\n0.25 0.25\n0.25 0.25\npsf 0 1\n0.5 0\n0 0.5\n";
  REQUIRE(refusal_of([&] { step5::read_psf_grid(file_in(folder, "good.txt", header + good_psfs)); }) ==
          "<no exception>");
  struct Bad
  {
    std::string name, text, where, reason;
  };
  const std::vector<Bad> bad = {
    {"header.txt", "psf-grid 1 2 2\nrows 0.5\n", ":1:", "the header must be 'psf-grid GRID_ROWS GRID_COLS"},
    {"header-word.txt", "psf-grid 1 two 2 2\n", ":1:", "GRID_COLS 'two' is not a whole number"},
    {"no-points.txt", "psf-grid 0 2 2 2\n", ":1:", "GRID_ROWS must be from 1 to 100, not 0"},
    {"psf-too-large.txt", "psf-grid 1 2 101 2\n", ":1:", "PSF_ROWS must be from 1 to 99, not 101"},
    {"no-rows.txt", "psf-grid 1 2 2 2\ncols 0 1\n", ":2:", "expected 'rows' and the 1 grid row positions"},
    {"rows-too-few.txt", "psf-grid 2 2 2 2\nrows 0.5\n", ":2:", "1 row positions, but the header names 2"},
    {"outside.txt", "psf-grid 1 2 2 2\nrows 0.5\ncols 0 1.5\n", ":3:",
     "the column position 1.5 is not in the image (positions are fractions from 0 to 1)"},
    {"negative.txt", "psf-grid 1 2 2 2\nrows -0.1\n", ":2:", "the row position -0.1 is not in the image"},
    {"not-increasing.txt", "psf-grid 1 2 2 2\nrows 0.5\ncols 0.6 0.4\n", ":3:",
     "the column positions must increase, and 0.4 follows 0.6"},
    {"position-nan.txt", "psf-grid 1 2 2 2\nrows nan\n", ":2:", "the row position 'nan' is not a finite number"},
    {"wrong-label.txt", header + "psf 0 1\n", ":4:", "expected 'psf 0 0' (the PSFs come grid row by grid row)"},
    {"differ-in-width.txt", header + "psf 0 0\n0.25 0.25\n0.25 0.25\npsf 0 1\n0.5 0 0\n0 0.5 0\n", ":8:",
     "PSF (0, 1) row 0 has 3 numbers: every PSF of the grid is 2x2"},
    {"differ-in-height.txt", header + "psf 0 0\n0.5 0.5\npsf 0 1\n0.5 0\n0 0.5\n", ":6:",
     "PSF (0, 0) has 1 of its 2 rows: every PSF of the grid is 2x2"},
    {"weight-nan.txt", header + "psf 0 0\n0.25 nan\n0.25 0.25\n", ":5:", "the weight 'nan' is not a finite number"},
    {"weight-inf.txt", header + "psf 0 0\n0.25 0.25\n0.25 -inf\n", ":6:", "the weight '-inf' is not a finite number"},
    {"weight-word.txt", header + "psf 0 0\n0.25 0.25\n0.25 x\n", ":6:", "the weight 'x' is not a number"},
    {"sum-negative.txt", header + good_psfs.substr(0, 28) + "psf 0 1\n0.5 -1\n0 0\n", ":7:",
     "PSF (0, 1): its weights sum to -0.5: a measured PSF must sum to a number > 0"},
    {"sum-zero.txt", header + "psf 0 0\n1 -1\n-1 1\n", ":4:", "PSF (0, 0): its weights sum to 0"},
    {"too-few-psfs.txt", header + good_psfs.substr(0, 28), ":6:", "the file ends before PSF (0, 1)"},
    {"ends-inside-a-psf.txt", header + "psf 0 0\n0.25 0.25\n", ":5:", "the file ends, and PSF (0, 0) has 1 of"},
    {"too-many-psfs.txt", header + good_psfs + "psf 1 0\n1 0\n0 0\n", ":10:", "more than the header's 1x2 PSFs"},
    {"too-many-numbers.txt", header + good_psfs + "0.5 0.5\n", ":10:", "more than the header's 1x2 PSFs"}};
  for (const Bad &file : bad)
    {
      CAPTURE(file.name);
      const std::string path = file_in(folder, file.name, file.text);
      const std::string message = refusal_of([&] { step5::read_psf_grid(path); });
      CHECK(contains(message, path + file.where));
      CHECK(contains(message, file.reason));
      CHECK(message.find('\n') == std::string::npos);
    }
  const std::string missing = (folder / "no-such-file.txt").string();
  CHECK(contains(refusal_of([&] { step5::read_psf_grid(missing); }), missing));
}

TEST_CASE("step-5 CPU: grids that do not cover the image, or cannot blur it, are refused")
{
  const Psf psf = step5::gaussian_psf(1, 3);
  CHECK(contains(refusal_of([&] { grid_of({}, {0.5}, {}); }), "the number of grid rows must be from 1 to 100, not 0"));
  CHECK(contains(refusal_of([&] { grid_of({0.5}, {1.2}, {psf}); }),
                 "the PSF grid 'test grid': the column position 1.2 is not in the image"));
  CHECK(contains(refusal_of([&] { grid_of({0.5}, {0.2, 0.8}, {psf}); }), "1 PSFs for 1x2 points"));
  CHECK(contains(refusal_of([&] { grid_of({0.5}, {0.2, 0.8}, {psf, step5::gaussian_psf(1, 5)}); }),
                 "PSF (0, 1): it is 5x5, the grid's first 3x3"));
  // A picture larger than the image, as for every field.
  const PsfField field = step5::grid_field(grid_of({0.5}, {0.5}, {step5::gaussian_psf(1, 9)}));
  CHECK(contains(refusal_of([&] { step5::check_field(field, 8, 20); }), "(9x9) is larger than the 8x20 image"));
  CHECK(refusal_of([&] { step5::check_field(field, 9, 9); }) == "<no exception>");
  // A grid with more points than the image has pixels along a side cannot be sampled.
  CHECK(contains(refusal_of([] { step5::sample_grid(step5::lens_field(1, 2, 3), 6, 2, 5, 5); }),
                 "a grid of 6 rows on an image of 5"));
}

// @sect3{Restoring through a grid}
//
// The test: data blurred by the course's lens (σ 1 at the centre to 3 at the
// corners, 9 × 9) with noise σ = 0.01, restored once through the lens itself and once
// through a grid sampled from it, both by the exact solution of their own normal
// equations (a dense Cholesky solve in double) with the same λ, 0.003 and 0.01 (the
// first the better of the two for the lens on both images, the second smoother).
// Between its points a grid's PSFs are mixtures of Gaussians, wider than the lens's
// Gaussian there (σ grows with the square of the distance from the centre, the mixture
// linearly), so how many points it takes depends on the image: the phantom's flat
// regions hardly notice, the photograph's fine detail does. Measured at 32 × 32, the
// grid's PSNR minus the lens's at λ = 0.003 / 0.01:
//
// | grid  | phantom        | photograph     |
// |-------|----------------|----------------|
// | 3 × 3 | −0.05 / +0.03  | −2.20 / −1.01  |
// | 5 × 5 | +0.02 / +0.04  | −0.61 / −0.26  |
// | 7 × 7 | −0.00 / +0.01  | −0.21 / −0.08  |
// | 9 × 9 | +0.00 / +0.01  | −0.14 / −0.07  |
//
// (the lens itself: phantom 16.05 / 15.92 dB, photograph 24.01 / 23.73 dB, degraded
// 15.19 and 17.22 dB). So the test takes the 9 × 9 grid, 4 pixels apart at this size,
// the coarsest that keeps both images within 0.2 dB at both λ.
TEST_CASE("step-5 CPU: a grid sampled from the course's lens restores within 0.2 dB of the lens itself")
{
  const int side = 32, points = 9;
  const PsfField lens = step5::lens_field(1, 3, 9);
  const SampledField through_lens = step5::sample_field(lens, side, side);
  const SampledField through_grid =
    step5::sample_field(step5::grid_field(step5::sample_grid(lens, points, points, side, side)), side, side);
  for (const double lambda : {3e-3, 1e-2})
    {
      const auto restored = [&](const SampledField &model, const Image &g) {
        const Image a = dense_normal_matrix(step5::normal_matrix_stencil(model, lambda));
        return unstacked(cholesky_solve(a, stacked(step5::blur_transpose(model, g))), side, side);
      };
      for (const bool phantom : {true, false})
        {
          const Image original = phantom ? lab::shepp_logan(side) : step5::photograph(side);
          REQUIRE(original.rows() == side);
          const Image g = lab::add_gaussian_noise(step5::blur(through_lens, original), 0.01, 7);
          const double by_lens = lab::psnr(restored(through_lens, g), original);
          const double by_grid = lab::psnr(restored(through_grid, g), original);
          CAPTURE(lambda, phantom, lab::psnr(g, original), by_lens, by_grid);
          CHECK(by_lens > lab::psnr(g, original));
          CHECK(std::abs(by_grid - by_lens) <= 0.2);
        }
    }
}
