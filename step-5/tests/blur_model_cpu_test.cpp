// CPU tests of step-5's model: the blur against an independent computation for odd,
// even and non-square PSFs on non-square images, the centre of the picture, H entry
// by entry, the transpose as the adjoint, the normal matrix's stencil against the
// dense HᵀH + λI, the named PSFs against MATLAB's values, HᵀH = HHᵀ exactly when the
// PSF is symmetric under a half turn, the refusals of PSF files, descriptions and
// sizes, and Gauss–Seidel against a dense solve.
#include "methods/gauss_seidel.h"
#include "model/blur_model.h"
#include "model/psf.h"
#include "test_support.h"

#include <lab/program.h>
#include <lab_catch.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <unistd.h>

namespace
{
  using namespace step5_test;

  // A streak that starts at the centre and runs right and down: a point that moved
  // away from where it was at the start of the exposure. Not symmetric under a half
  // turn.
  Psf trail_psf() { return psf_of({{0, 0, 0.4, 0.2, 0.1}, {0, 0, 0, 0.2, 0.1}}, "trail"); }

  // The blur computed the other way round: every pixel of f scatters its brightness
  // by the picture centred on it, and what lands outside the image is lost.
  Image scattered_blur(const Psf &psf, const Image &f)
  {
    Image g(f.rows(), f.cols());
    for (int r = 0; r < f.rows(); ++r)
      for (int c = 0; c < f.cols(); ++c)
        for (int u = 0; u < psf.rows(); ++u)
          for (int v = 0; v < psf.cols(); ++v)
            {
              const int target_row = r + u - psf.centre_row(), target_col = c + v - psf.centre_col();
              if (target_row >= 0 && target_row < f.rows() && target_col >= 0 && target_col < f.cols())
                g(target_row, target_col) += psf.taps(u, v) * f(r, c);
            }
    return g;
  }

  // The dense normal matrix HᵀH + λI.
  Image dense_normal_matrix(const Psf &psf, int rows, int cols, double lambda)
  {
    const Image h = step5::blur_matrix<double>(psf, rows, cols);
    Image a = product(lab::transposed(h), h);
    for (int i = 0; i < a.rows(); ++i)
      a(i, i) += lambda;
    return a;
  }

  // A PSF turned by half a turn: weight (u, v) moves to (rows − 1 − u, cols − 1 − v).
  bool symmetric_under_half_turn(const Psf &psf)
  {
    for (int u = 0; u < psf.rows(); ++u)
      for (int v = 0; v < psf.cols(); ++v)
        if (psf.taps(u, v) != psf.taps(psf.rows() - 1 - u, psf.cols() - 1 - v))
          return false;
    return true;
  }

  // A folder of its own for the PSF files of a test, removed at the end.
  struct TemporaryFolder
  {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("step5-psf-test-" + std::to_string(::getpid()));
    TemporaryFolder() { std::filesystem::create_directories(path); }
    ~TemporaryFolder() { std::filesystem::remove_all(path); }

    std::string file(const std::string &name, const std::string &text) const
    {
      const std::string file_path = (path / name).string();
      std::ofstream(file_path) << text;
      return file_path;
    }
  };

  const std::vector<std::pair<int, int>> test_image_sizes = {{7, 11}, {16, 9}, {5, 5}};
} // namespace

// @sect3{The blur}
TEST_CASE("step-5 CPU: the blur equals the scattered PSF for odd, even and non-square PSFs")
{
  for (const Psf &psf : shape_test_psfs())
    for (const auto &[rows, cols] : test_image_sizes)
      {
        CAPTURE(psf.name, rows, cols);
        const Image f = random_image(rows, cols, 3);
        CHECK(max_difference(step5::blur(psf, f), scattered_blur(psf, f)) <= 1e-15);
      }
}

TEST_CASE("step-5 CPU: a single bright pixel is blurred into the PSF's picture, centred on it")
{
  std::vector<Psf> psfs = shape_test_psfs();
  psfs.push_back(step5::motion_psf(5, 30));
  psfs.push_back(trail_psf());
  for (const Psf &psf : psfs)
    for (const auto &[row, col] : std::vector<std::pair<int, int>>{{4, 5}, {0, 0}, {8, 9}})
      {
        CAPTURE(psf.name, row, col);
        Image f(9, 10);
        f(row, col) = 1;
        const Image g = step5::blur(psf, f);
        for (int r = 0; r < g.rows(); ++r)
          for (int c = 0; c < g.cols(); ++c)
            {
              const int u = r - row + psf.centre_row(), v = c - col + psf.centre_col();
              const bool on_picture = u >= 0 && u < psf.rows() && v >= 0 && v < psf.cols();
              CAPTURE(r, c);
              REQUIRE(g(r, c) == (on_picture ? psf.taps(u, v) : 0.0));
            }
      }
}

TEST_CASE("step-5 CPU: H times the stacked image is the stacked blurred image")
{
  for (const Psf &psf : shape_test_psfs())
    for (const auto &[rows, cols] : test_image_sizes)
      {
        CAPTURE(psf.name, rows, cols);
        const Image f = random_image(rows, cols, 5);
        const Image h = step5::blur_matrix<double>(psf, rows, cols);
        CHECK(max_difference(unstacked(product(h, stacked(f)), rows, cols), step5::blur(psf, f)) <= 1e-15);
        // The float matrix holds the same weights, rounded.
        const lab::Matrix<float> h_float = step5::blur_matrix<float>(psf, rows, cols);
        int differing = 0;
        for (int i = 0; i < h.rows(); ++i)
          for (int j = 0; j < h.cols(); ++j)
            differing += h_float(i, j) != static_cast<float>(h(i, j));
        CHECK(differing == 0);
      }
}

TEST_CASE("step-5 CPU: the transpose is the adjoint of the blur, and equals H transposed")
{
  std::vector<Psf> psfs = shape_test_psfs();
  psfs.push_back(trail_psf());
  for (const Psf &psf : psfs)
    for (const auto &[rows, cols] : test_image_sizes)
      {
        CAPTURE(psf.name, rows, cols);
        const Image f = random_image(rows, cols, 7), g = random_image(rows, cols, 8);
        const Image hf = step5::blur(psf, f), htg = step5::blur_transpose(psf, g);
        CHECK(std::abs(dot(hf, g) - dot(f, htg)) <= 1e-14 * std::abs(dot(hf, g)));
        const Image ht = lab::transposed(step5::blur_matrix<double>(psf, rows, cols));
        CHECK(max_difference(unstacked(product(ht, stacked(g)), rows, cols), htg) <= 1e-15);
      }
}

// @sect3{The normal matrix}
TEST_CASE("step-5 CPU: the stencil equals the dense H^T H + lambda I entry by entry")
{
  std::vector<Psf> psfs = shape_test_psfs();
  psfs.push_back(step5::gaussian_psf(1, 3));
  psfs.push_back(step5::motion_psf(5, 30));
  psfs.push_back(trail_psf());
  const double lambda = 0.25;
  for (const Psf &psf : psfs)
    for (const auto &[rows, cols] : std::vector<std::pair<int, int>>{{6, 8}, {5, 5}, {9, 7}})
      {
        if (psf.rows() > rows || psf.cols() > cols)
          continue;
        CAPTURE(psf.name, rows, cols);
        const step5::NormalStencil stencil = step5::normal_matrix_stencil(psf, rows, cols, lambda);
        REQUIRE(stencil.reach_rows == psf.rows() - 1);
        REQUIRE(stencil.reach_cols == psf.cols() - 1);
        const Image dense = dense_normal_matrix(psf, rows, cols, lambda);
        double largest = 0;
        int nonzero_outside = 0;
        for (int i = 0; i < rows * cols; ++i)
          for (int j = 0; j < rows * cols; ++j)
            {
              const int dr = j / cols - i / cols, dc = j % cols - i % cols;
              if (std::abs(dr) <= stencil.reach_rows && std::abs(dc) <= stencil.reach_cols)
                largest = lab::nan_max(largest, std::abs(stencil.at(i / cols, i % cols, dr, dc) - dense(i, j)));
              else
                nonzero_outside += dense(i, j) != 0;
            }
        CHECK(largest <= 1e-15);
        CHECK(nonzero_outside == 0);
        // The offsets that point outside the image hold zeros.
        double outside = 0;
        for (int r = 0; r < rows; ++r)
          for (int c = 0; c < cols; ++c)
            for (int dr = -stencil.reach_rows; dr <= stencil.reach_rows; ++dr)
              for (int dc = -stencil.reach_cols; dc <= stencil.reach_cols; ++dc)
                if (r + dr < 0 || r + dr >= rows || c + dc < 0 || c + dc >= cols)
                  outside = lab::nan_max(outside, std::abs(stencil.at(r, c, dr, dc)));
        CHECK(outside == 0);
      }
}

TEST_CASE("step-5 CPU: the stencil in the interior is the PSF's autocorrelation, smaller at the border")
{
  const Psf psf = step5::gaussian_psf(1.2, 5);
  const step5::NormalStencil stencil = step5::normal_matrix_stencil(psf, 12, 13, 0.0);
  double energy = 0;
  for (int u = 0; u < psf.rows(); ++u)
    for (int v = 0; v < psf.cols(); ++v)
      energy += psf.taps(u, v) * psf.taps(u, v);
  // A pixel at least p.rows − 1 from every border is seen by the whole PSF; a corner
  // pixel only by the pixels of g that lie inside the image.
  CHECK(std::abs(stencil.at(6, 6, 0, 0) - energy) <= 1e-16);
  CHECK(stencil.at(0, 0, 0, 0) < energy);
  CHECK(nearly_equal(stencil.at(6, 6, 1, -2), stencil.at(5, 7, 1, -2), 1e-14));
}

TEST_CASE("step-5 CPU: applying the stencil is H^T H f + lambda f")
{
  std::vector<Psf> psfs = shape_test_psfs();
  psfs.push_back(step5::motion_psf(7, 120));
  for (const Psf &psf : psfs)
    for (const auto &[rows, cols] : test_image_sizes)
      {
        if (psf.rows() > rows || psf.cols() > cols)
          continue;
        CAPTURE(psf.name, rows, cols);
        const double lambda = 0.125;
        const Image f = random_image(rows, cols, 11);
        Image expected = step5::blur_transpose(psf, step5::blur(psf, f));
        for (int r = 0; r < rows; ++r)
          for (int c = 0; c < cols; ++c)
            expected(r, c) += lambda * f(r, c);
        CHECK(max_difference(step5::apply(step5::normal_matrix_stencil(psf, rows, cols, lambda), f), expected) <=
              1e-14);
      }
}

// @sect3{The named PSFs}
TEST_CASE("step-5 CPU: the Gaussian is MATLAB's fspecial('gaussian')")
{
  // fspecial('gaussian', 3, 0.5), as MATLAB prints it (four digits).
  const Psf small = step5::gaussian_psf(0.5, 3);
  const double expected[3][3] = {{0.0113, 0.0838, 0.0113}, {0.0838, 0.6193, 0.0838}, {0.0113, 0.0838, 0.0113}};
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v)
      CHECK(std::abs(small.taps(u, v) - expected[u][v]) <= 5e-5);
  CHECK(small.name == "gaussian sigma=0.5 3x3");

  // The formula itself, where no weight is small enough to be dropped.
  const Psf wide = step5::gaussian_psf(1.5, 9);
  double total = 0;
  for (int u = 0; u < 9; ++u)
    for (int v = 0; v < 9; ++v)
      total += std::exp(-((u - 4) * (u - 4) + (v - 4) * (v - 4)) / 4.5);
  for (int u = 0; u < 9; ++u)
    for (int v = 0; v < 9; ++v)
      CHECK(nearly_equal(wide.taps(u, v), std::exp(-((u - 4) * (u - 4) + (v - 4) * (v - 4)) / 4.5) / total, 1e-14));

  // Weights below ε times the largest are dropped: for σ = 0.5 that is every pixel
  // with x² + y² > 18 (e^{−36} = 2.3·10⁻¹⁶ stays, e^{−40} goes).
  const Psf narrow = step5::gaussian_psf(0.5, 11);
  CHECK(narrow.taps(5 + 3, 5 + 3) > 0);
  CHECK(narrow.taps(5 + 1, 5 + 4) > 0);
  CHECK(narrow.taps(5 + 2, 5 + 4) == 0);
  CHECK(narrow.taps(0, 0) == 0);

  for (const auto &[sigma, size] : std::vector<std::pair<double, int>>{{1.5, 9}, {0.8, 4}, {3, 1}, {1e-3, 6}, {50, 5}})
    {
      CAPTURE(sigma, size);
      const Psf psf = step5::gaussian_psf(sigma, size);
      REQUIRE(psf.rows() == size);
      REQUIRE(psf.cols() == size);
      CHECK(std::abs(sum_of(psf) - 1) <= 1e-14);
      // Symmetric under mirroring either way and under transposition; for an even
      // size the peak is shared by the four middle pixels.
      for (int u = 0; u < size; ++u)
        for (int v = 0; v < size; ++v)
          {
            CHECK(nearly_equal(psf.taps(u, v), psf.taps(size - 1 - u, v), 1e-14));
            CHECK(nearly_equal(psf.taps(u, v), psf.taps(u, size - 1 - v), 1e-14));
            CHECK(nearly_equal(psf.taps(u, v), psf.taps(v, u), 1e-14));
            CHECK(psf.taps(u, v) <= psf.taps(size / 2, size / 2));
          }
    }
  // A tiny sigma leaves the middle only, never NaN.
  CHECK(step5::gaussian_psf(1e-3, 5).taps(2, 2) == 1);
  CHECK(step5::gaussian_psf(1e-3, 4).taps(1, 2) == 0.25);
}

TEST_CASE("step-5 CPU: the box is uniform")
{
  const Psf psf = step5::box_psf(4);
  CHECK(psf.name == "box 4x4");
  for (int u = 0; u < 4; ++u)
    for (int v = 0; v < 4; ++v)
      CHECK(psf.taps(u, v) == 1.0 / 16);
}

TEST_CASE("step-5 CPU: a trail is the motion blur's half ahead of the centre")
{
  // To the right: the centre and the four pixels right of it, equal, in a picture of
  // nine whose centre stays in the middle.
  const Psf right = step5::trail_psf(5, 0);
  REQUIRE(right.rows() == 1);
  REQUIRE(right.cols() == 9);
  for (int v = 0; v < 9; ++v)
    CHECK(std::abs(right.taps(0, v) - (v >= 4 ? 0.2 : 0.0)) <= 1e-15);
  CHECK(right.name == "trail length=5 angle=0 1x9");
  // Up (y up): the centre and the rows above it.
  const Psf up = step5::trail_psf(3, 90);
  REQUIRE(up.rows() == 5);
  REQUIRE(up.cols() == 1);
  for (int u = 0; u < 5; ++u)
    CHECK(std::abs(up.taps(u, 0) - (u <= 2 ? 1.0 / 3 : 0.0)) <= 1e-15);
  // Any angle: sums to 1, and not symmetric under a half turn.
  const Psf slanted = step5::parse_psf("trail:7:30");
  double sum = 0, asymmetry = 0;
  for (int u = 0; u < slanted.rows(); ++u)
    for (int v = 0; v < slanted.cols(); ++v)
      {
        sum += slanted.taps(u, v);
        asymmetry += std::abs(slanted.taps(u, v) - slanted.taps(slanted.rows() - 1 - u, slanted.cols() - 1 - v));
      }
  CHECK(std::abs(sum - 1) <= 1e-14);
  CHECK(asymmetry >= 0.5);
  CHECK_THROWS_AS(step5::parse_psf("trail:0:30"), lab::bad_input);
  CHECK_THROWS_AS(step5::parse_psf("trail:51:0"), lab::bad_input);
}

TEST_CASE("step-5 CPU: the motion blur is MATLAB's fspecial('motion')")
{
  // Horizontal: nine equal weights in a row, and an even length ends in half weights.
  const Psf horizontal = step5::motion_psf(9, 0);
  REQUIRE(horizontal.rows() == 1);
  REQUIRE(horizontal.cols() == 9);
  for (int v = 0; v < 9; ++v)
    CHECK(std::abs(horizontal.taps(0, v) - 1.0 / 9) <= 1e-15);
  CHECK(horizontal.name == "motion length=9 angle=0 1x9");
  const Psf even = step5::motion_psf(4, 0);
  REQUIRE(even.cols() == 5);
  const double even_expected[5] = {0.125, 0.25, 0.25, 0.25, 0.125};
  for (int v = 0; v < 5; ++v)
    CHECK(std::abs(even.taps(0, v) - even_expected[v]) <= 1e-15);

  // Vertical: a column.
  const Psf vertical = step5::motion_psf(5, 90);
  REQUIRE(vertical.rows() == 5);
  REQUIRE(vertical.cols() == 1);
  for (int u = 0; u < 5; ++u)
    CHECK(std::abs(vertical.taps(u, 0) - 0.2) <= 1e-15);

  // fspecial('motion', 3, 45) as MATLAB prints it: the streak runs from the lower
  // left to the upper right (y up).
  const Psf diagonal = step5::motion_psf(3, 45);
  const double expected[3][3] = {{0, 0.0754, 0.1883}, {0.0754, 0.3215, 0.0754}, {0.1883, 0.0754, 0}};
  REQUIRE(diagonal.rows() == 3);
  REQUIRE(diagonal.cols() == 3);
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v)
      CHECK(std::abs(diagonal.taps(u, v) - expected[u][v]) <= 5e-5);

  // At 45° the picture is symmetric about the anti-diagonal, the line it draws, and
  // 135° is its mirror image left to right.
  const Psf at_45 = step5::motion_psf(9, 45), at_135 = step5::motion_psf(9, 135);
  REQUIRE(at_45.rows() == 7);
  REQUIRE(at_45.cols() == 7);
  REQUIRE(at_135.rows() == 7);
  REQUIRE(at_135.cols() == 7);
  for (int u = 0; u < 7; ++u)
    for (int v = 0; v < 7; ++v)
      {
        CHECK(std::abs(at_45.taps(u, v) - at_45.taps(6 - v, 6 - u)) <= 1e-15);
        CHECK(std::abs(at_45.taps(u, v) - at_135.taps(u, 6 - v)) <= 1e-15);
      }
  CHECK(at_45.taps(0, 6) > 0);
  CHECK(at_45.taps(0, 0) == 0);

  // For every length and angle: weights sum to 1 (less MATLAB's ε·len² in the
  // divisor), the picture has odd sides and is symmetric under a half turn, and
  // angles 180° apart draw the same segment.
  for (const double length : {1.0, 2.0, 2.5, 4.0, 7.0, 10.0, 15.0})
    for (const double angle : {0.0, 17.0, 30.0, 60.0, 90.0, 100.0, 150.0, 179.0, -30.0})
      {
        CAPTURE(length, angle);
        const Psf psf = step5::motion_psf(length, angle);
        CHECK(std::abs(sum_of(psf) - 1) <= 1e-13);
        CHECK(psf.rows() % 2 == 1);
        CHECK(psf.cols() % 2 == 1);
        CHECK(symmetric_under_half_turn(psf));
        const Psf turned = step5::motion_psf(length, angle + 180);
        REQUIRE(turned.rows() == psf.rows());
        REQUIRE(turned.cols() == psf.cols());
        for (int u = 0; u < psf.rows(); ++u)
          for (int v = 0; v < psf.cols(); ++v)
            CHECK(std::abs(turned.taps(u, v) - psf.taps(u, v)) <= 1e-15);
      }
  CHECK(nearly_equal(step5::motion_psf(1, 30).taps(0, 0), 1, 1e-14));
}

TEST_CASE("step-5 CPU: the sharpening filter is MATLAB's fspecial('unsharp')")
{
  const Psf psf = step5::sharpen_psf();
  CHECK(psf.name == "sharpen alpha=0.2");
  CHECK(std::abs(sum_of(psf) - 1) <= 1e-15);
  CHECK(nearly_equal(psf.taps(1, 1), 5.2 / 1.2, 1e-15));
  CHECK(nearly_equal(psf.taps(0, 0), -0.2 / 1.2, 1e-15));
  CHECK(nearly_equal(psf.taps(0, 1), -0.8 / 1.2, 1e-15));
  CHECK(symmetric_under_half_turn(psf));
  const Psf plain = step5::sharpen_psf(0);
  const double expected[3][3] = {{0, -1, 0}, {-1, 5, -1}, {0, -1, 0}};
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v)
      CHECK(plain.taps(u, v) == expected[u][v]);
  CHECK(std::abs(sum_of(step5::sharpen_psf(1)) - 1) <= 1e-15);
}

// @sect3{HᵀH and HHᵀ}
//
// The thesis' formula uses HHᵀ where HᵀH belongs. They are equal when H = Hᵀ, that
// is when the PSF is symmetric under a half turn about its centre pixel: an odd
// Gaussian, MATLAB's motion blur, the sharpening filter. A trail is not, and neither
// is an even-sized Gaussian (symmetric about the corner of its four middle pixels,
// not about the centre pixel).
TEST_CASE("step-5 CPU: H^T H equals H H^T for a PSF symmetric under a half turn, and only then")
{
  const int rows = 6, cols = 7;
  const auto difference = [&](const Psf &psf) {
    const Image h = step5::blur_matrix<double>(psf, rows, cols);
    double largest = 0, size = 0;
    const Image hth = product(lab::transposed(h), h), hht = product(h, lab::transposed(h));
    for (int i = 0; i < hth.rows(); ++i)
      for (int j = 0; j < hth.cols(); ++j)
        {
          largest = lab::nan_max(largest, std::abs(hth(i, j) - hht(i, j)));
          size = lab::nan_max(size, std::abs(hth(i, j)));
        }
    return largest / size;
  };
  for (const Psf &symmetric : {step5::gaussian_psf(1, 5), step5::motion_psf(5, 30), step5::motion_psf(4, 120),
                               step5::sharpen_psf(), step5::box_psf(3)})
    {
      CAPTURE(symmetric.name);
      CHECK(difference(symmetric) <= 1e-15);
      const Image h = step5::blur_matrix<double>(symmetric, rows, cols);
      CHECK(max_difference(h, lab::transposed(h)) == 0);
    }
  for (const Psf &asymmetric : {trail_psf(), step5::gaussian_psf(1, 4), step5::box_psf(2)})
    {
      CAPTURE(asymmetric.name);
      CHECK(difference(asymmetric) >= 0.01);
    }
}

// @sect3{Refusals}
TEST_CASE("step-5 CPU: a PSF file is read as its picture, row 0 on top")
{
  const TemporaryFolder folder;
  const std::string path = folder.file("trail.txt", "# a trail, to the right and down\n"
                                                    "0 0 0.4 0.2 0.1\n"
                                                    "\n"
                                                    "0 0 0   0.2 0.1\n");
  const Psf psf = step5::read_psf(path);
  const Psf expected = trail_psf();
  REQUIRE(psf.rows() == 2);
  REQUIRE(psf.cols() == 5);
  CHECK(max_difference(psf.taps, expected.taps) == 0);
  CHECK(contains(psf.name, path));
  CHECK(contains(psf.name, "2x5"));
}

TEST_CASE("step-5 CPU: PSF files that cannot be used are refused in one line naming the file")
{
  const TemporaryFolder folder;
  const std::vector<std::pair<std::string, std::string>> bad_files = {
    {"empty.txt", ""},
    {"comments.txt", "# nothing but a comment\n\n"},
    {"ragged.txt", "1 2 3\n4 5\n"},
    {"word.txt", "0.1 0.2\n0.3 x\n"},
    {"nan.txt", "0.5 nan\n0.25 0.25\n"},
    {"infinite.txt", "0.5 inf\n0.25 0.25\n"}};
  for (const auto &[name, text] : bad_files)
    {
      CAPTURE(name);
      const std::string path = folder.file(name, text);
      const std::string message = refusal_of([&] { step5::read_psf(path); });
      CHECK(contains(message, path));
      CHECK(!contains(message, "\n"));
    }
  const std::string missing = (folder.path / "no-such-file.txt").string();
  CHECK(contains(refusal_of([&] { step5::read_psf(missing); }), missing));
}

TEST_CASE("step-5 CPU: PSF descriptions give the named PSFs")
{
  CHECK(step5::parse_psf("gaussian:1.5:9").name == step5::gaussian_psf(1.5, 9).name);
  CHECK(max_difference(step5::parse_psf("gaussian:1.5:9").taps, step5::gaussian_psf(1.5, 9).taps) == 0);
  CHECK(step5::parse_psf("box:5").name == "box 5x5");
  CHECK(max_difference(step5::parse_psf("motion:9:30").taps, step5::motion_psf(9, 30).taps) == 0);
  CHECK(step5::parse_psf("motion:9:30").name == "motion length=9 angle=30 5x9");
  CHECK(step5::parse_psf("sharpen").name == "sharpen alpha=0.2");
  CHECK(step5::parse_psf("sharpen:0.5").name == "sharpen alpha=0.5");
  CHECK(step5::parse_psf("gaussian:2:99").rows() == 99);
}

TEST_CASE("step-5 CPU: PSF descriptions that cannot be used are refused, naming the accepted forms")
{
  for (const std::string description :
       {"", "blur:3", "Gaussian:1:3", "gaussian", "gaussian:1.5", "gaussian:1.5:9:1", "gaussian:0:5",
        "gaussian:-1:5", "gaussian:nan:5", "gaussian:inf:5", "gaussian:abc:5", "gaussian:1.5:0", "gaussian:1.5:100",
        "gaussian:1.5:3.5", "gaussian:1.5:", "gaussian:1.5:99999999999", "box", "box:0", "box:x", "box:-3",
        "motion:9", "motion:0.5:30", "motion:100:30", "motion:9:x", "motion:9:inf", "motion::30", "sharpen:1.5",
        "sharpen:-0.1", "sharpen:0.2:1", "sharpen:"})
    {
      CAPTURE(description);
      const std::string message = refusal_of([&] { step5::parse_psf(description); });
      CHECK(contains(message, "'" + description + "'"));
      CHECK(contains(message, "gaussian:SIGMA:SIZE, box:SIZE, motion:LENGTH:ANGLE, trail:LENGTH:ANGLE, sharpen or sharpen:ALPHA"));
      CHECK(!contains(message, "\n"));
    }
  CHECK(contains(refusal_of([] { step5::parse_psf("gaussian:-1:5"); }), "sigma must be a number > 0, not -1"));
  CHECK(contains(refusal_of([] { step5::parse_psf("box:100"); }), "from 1 to 99, not 100"));
  CHECK(contains(refusal_of([] { step5::parse_psf("motion:9:x"); }), "ANGLE 'x' is not a number"));
}

TEST_CASE("step-5 CPU: check_psf refuses a PSF larger than the image or summing to zero")
{
  const Psf gaussian = step5::gaussian_psf(1.5, 9);
  CHECK_NOTHROW(step5::check_psf(gaussian, 9, 9));
  CHECK_NOTHROW(step5::check_psf(step5::sharpen_psf(), 3, 3));
  CHECK_NOTHROW(step5::check_psf(trail_psf(), 2, 5));
  CHECK(contains(refusal_of([&] { step5::check_psf(gaussian, 8, 20); }), "larger than the 8x20 image"));
  CHECK(contains(refusal_of([&] { step5::check_psf(gaussian, 20, 8); }), "larger than the 20x8 image"));
  CHECK(contains(refusal_of([] { step5::check_psf(trail_psf(), 1, 5); }), "'trail'"));
  const Psf edge = psf_of({{1, -1}, {2, -2}}, "edge");
  CHECK(contains(refusal_of([&] { step5::check_psf(edge, 8, 8); }), "'edge' has weights summing to zero"));
  CHECK(contains(refusal_of([] { step5::check_psf(psf_of({{0, 0}}, "nothing"), 8, 8); }), "summing to zero"));
  CHECK(contains(refusal_of([] { step5::check_psf(Psf{}, 8, 8); }), "has no weights"));
}

// @sect3{Gauss–Seidel}
TEST_CASE("step-5 CPU: Gauss-Seidel converges to the solution of the dense system", "[gauss_seidel_sweep]")
{
  for (const auto &[psf, rows, cols, lambda] :
       std::vector<std::tuple<Psf, int, int, double>>{{step5::gaussian_psf(1, 3), 8, 8, 0.1},
                                                      {step5::motion_psf(5, 30), 6, 9, 0.05},
                                                      {trail_psf(), 7, 10, 0.02}})
    {
      CAPTURE(psf.name, rows, cols, lambda);
      const step5::NormalStencil a = step5::normal_matrix_stencil(psf, rows, cols, lambda);
      const Image b = step5::blur_transpose(psf, step5::blur(psf, random_image(rows, cols, 13)));
      const Image exact =
        unstacked(cholesky_solve(dense_normal_matrix(psf, rows, cols, lambda), stacked(b)), rows, cols);

      Image f(rows, cols);
      const double tolerance = 1e-10;
      const step5::IterationReport report = step5::gauss_seidel(a, b, f, tolerance, 10000);
      CHECK(report.converged);
      CHECK(report.iterations > 0);
      CHECK(report.relative_residual <= tolerance);
      // The residual it reports is the true one of the f it returns.
      Image residual = step5::apply(a, f);
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
          residual(r, c) -= b(r, c);
      CHECK(nearly_equal(std::sqrt(dot(residual, residual) / dot(b, b)), report.relative_residual, 1e-6));
      // ‖f − f*‖ ≤ ‖A⁻¹‖ ‖b − A f‖ ≤ ‖b − Af‖ / λ.
      CHECK(std::sqrt(dot(f, f)) > 0);
      CHECK(max_difference(f, exact) <= tolerance * std::sqrt(dot(b, b)) / lambda);

      // Too few sweeps: it says so, and stops at the limit.
      Image early(rows, cols);
      const step5::IterationReport stopped = step5::gauss_seidel(a, b, early, tolerance, 3);
      CHECK(!stopped.converged);
      CHECK(stopped.iterations == 3);
      CHECK(stopped.relative_residual > tolerance);
      CHECK(stopped.relative_residual < 1);

      // Started from the solution, it has nothing to do.
      Image solved = exact;
      const step5::IterationReport none = step5::gauss_seidel(a, b, solved, 1e-8, 100);
      CHECK(none.converged);
      CHECK(none.iterations == 0);
    }
}

TEST_CASE("step-5 CPU: Gauss-Seidel with b = 0 returns f = 0; a zero diagonal is refused")
{
  const Psf psf = step5::gaussian_psf(1, 3);
  const step5::NormalStencil a = step5::normal_matrix_stencil(psf, 5, 6, 0.1);
  Image f = random_image(5, 6, 17);
  const step5::IterationReport report = step5::gauss_seidel(a, Image(5, 6), f, 1e-8, 100);
  CHECK(report.converged);
  CHECK(report.iterations == 0);
  CHECK(max_difference(f, Image(5, 6)) == 0);

  // A pixel that no pixel of g sees: with λ = 0, its column of H is zero.
  const Psf blind = psf_of({{0, 0, 0}, {0, 0, 1}, {0, 0, 0}}, "shift");
  const step5::NormalStencil singular = step5::normal_matrix_stencil(blind, 4, 4, 0.0);
  Image g(4, 4), unknown(4, 4);
  g(1, 1) = 1;
  CHECK_THROWS_AS(step5::gauss_seidel(singular, g, unknown, 1e-8, 100), std::runtime_error);
}
