// CPU tests of the PSF fields (psf_field.h) and their blur (varying_blur.h): the lens
// and the rotation give the PSFs they describe where they describe them; H of a field
// against the formula computed pixel by pixel from psf_at, for odd and even image
// sizes and several supports; a constant field gives the invariant blur, its
// transpose, H and the stencil bit for bit; Hᵀ is the adjoint and the transpose of H;
// the stencil is the dense HᵀH + λI; the norm bound holds; descriptions parse, and
// bad ones are refused in one line naming what is wrong.
#include "gpu/band_matrix.h"
#include "methods/band_pipeline.h"
#include "methods/piecewise_fft.h"
#include "model/psf_field.h"
#include "model/varying_blur.h"
#include "test_support.h"
#include "varying_comparison.h"

#include <lab/format.h>
#include <lab/memory.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace
{
  using namespace step5_test;
  using step5::PsfField;
  using step5::SampledField;

  // Fields of several supports, on which every test below runs.
  std::vector<PsfField> test_fields()
  {
    return {step5::lens_field(0.6, 2.0, 3), step5::lens_field(1.0, 2.5, 5), step5::lens_field(2.0, 0.8, 5),
            step5::rotation_field(20, 3), step5::rotation_field(40, 5), step5::rotation_field(-60, 7)};
  }

  // Odd, even and non-square image sizes, each at least 7 on a side (the largest
  // support above).
  const std::vector<std::pair<int, int>> image_sizes = {{7, 7}, {8, 8}, {7, 10}, {12, 9}};

  // The model's formula, read literally: pixel (r, c) of g from its own PSF, computed
  // by psf_at for that pixel, without the sampled table.
  Image blur_pixel_by_pixel(const PsfField &field, const Image &f)
  {
    Image g(f.rows(), f.cols());
    for (int r = 0; r < f.rows(); ++r)
      for (int c = 0; c < f.cols(); ++c)
        {
          const Psf p = step5::psf_at(field, r, c, f.rows(), f.cols());
          for (int u = 0; u < p.rows(); ++u)
            for (int v = 0; v < p.cols(); ++v)
              {
                const int i = r - u + p.centre_row(), j = c - v + p.centre_col();
                if (i >= 0 && i < f.rows() && j >= 0 && j < f.cols())
                  g(r, c) += p.taps(u, v) * f(i, j);
              }
        }
    return g;
  }

  bool same_image(const Image &a, const Image &b)
  {
    if (a.rows() != b.rows() || a.cols() != b.cols())
      return false;
    for (int r = 0; r < a.rows(); ++r)
      for (int c = 0; c < a.cols(); ++c)
        if (!(a(r, c) == b(r, c)))
          return false;
    return true;
  }
} // namespace

TEST_CASE("step-5 CPU: the lens is gaussian(sigma centre) at the centre and gaussian(sigma corner) at the corners")
{
  const PsfField lens = step5::lens_field(1.0, 3.0, 9);
  CHECK(lens.varies());
  CHECK(lens.rows() == 9);
  CHECK(same_image(step5::psf_at(lens, 10, 10, 21, 21).taps, step5::gaussian_psf(1.0, 9).taps));
  for (const auto &corner : std::vector<std::pair<int, int>>{{0, 0}, {0, 20}, {20, 0}, {20, 20}})
    CHECK(same_image(step5::psf_at(lens, corner.first, corner.second, 21, 21).taps,
                     step5::gaussian_psf(3.0, 9).taps));
  // Halfway to the corner, a quarter of the way from 1 to 3 (σ grows with ρ²).
  CHECK(max_difference(step5::psf_at(lens, 5, 5, 21, 21).taps, step5::gaussian_psf(1.5, 9).taps) <= 1e-14);
}

TEST_CASE("step-5 CPU: the rotation keeps the centre sharp and smears along the circles, longer further out")
{
  const PsfField rotation = step5::rotation_field(30, 9);
  // The centre of a 31 x 31 image does not move: its PSF is a point (up to the
  // motion PSF's rounding, MATLAB's eps).
  const Psf centre = step5::psf_at(rotation, 15, 15, 31, 31);
  CHECK(centre.taps(4, 4) > 1 - 1e-12);
  // A pixel straight right of the centre moves up or down: its streak lies in the
  // picture's middle column; one straight above it moves sideways: the middle row.
  const Psf right = step5::psf_at(rotation, 15, 27, 31, 31), above = step5::psf_at(rotation, 3, 15, 31, 31);
  for (int u = 0; u < 9; ++u)
    for (int v = 0; v < 9; ++v)
      {
        if (v != 4)
          CHECK(std::abs(right.taps(u, v)) < 1e-12);
        if (u != 4)
          CHECK(std::abs(above.taps(u, v)) < 1e-12);
      }
  // 12 pixels out, 30° is a streak of 2π/12 · 12 = 6.3 pixels: more than 5 rows lit.
  int lit = 0;
  for (int u = 0; u < 9; ++u)
    lit += right.taps(u, 4) > 1e-3;
  CHECK(lit >= 5);
  // Far out the length is clipped to the picture, and every PSF sums to 1.
  for (const auto &pixel : std::vector<std::pair<int, int>>{{0, 0}, {15, 15}, {15, 27}, {30, 3}})
    CHECK(std::abs(sum_of(step5::psf_at(rotation, pixel.first, pixel.second, 31, 31)) - 1) < 1e-12);
  CHECK(std::abs(sum_of(step5::psf_at(step5::rotation_field(30, 3), 0, 0, 31, 31)) - 1) < 1e-12);
}

TEST_CASE("step-5 CPU: H of a field is the formula pixel by pixel, for odd and even sizes and several supports")
{
  for (const PsfField &field : test_fields())
    for (const auto &size : image_sizes)
      {
        CAPTURE(field.name, size.first, size.second);
        const Image f = random_image(size.first, size.second, 5);
        const SampledField sampled = step5::sample_field(field, size.first, size.second);
        const Image g = step5::blur(sampled, f);
        CHECK(max_difference(g, blur_pixel_by_pixel(field, f)) <= 1e-14);
        const Image h = step5::blur_matrix<double>(sampled);
        CHECK(max_difference(unstacked(product(h, stacked(f)), size.first, size.second), g) <= 1e-14);
      }
}

TEST_CASE("step-5 CPU: a constant field gives the invariant blur, transpose, H and stencil bit for bit")
{
  for (const Psf &psf : shape_test_psfs())
    for (const auto &size : image_sizes)
      {
        CAPTURE(psf.name, size.first, size.second);
        const PsfField field = step5::constant_field(psf);
        CHECK_FALSE(field.varies());
        const SampledField sampled = step5::sample_field(field, size.first, size.second);
        CHECK(sampled.pixel_stride == 0);
        const Image f = random_image(size.first, size.second, 11);
        CHECK(same_image(step5::blur(sampled, f), step5::blur(psf, f)));
        CHECK(same_image(step5::blur_transpose(sampled, f), step5::blur_transpose(psf, f)));
        CHECK(same_image(step5::blur_matrix<double>(sampled), step5::blur_matrix<double>(psf, size.first, size.second)));
        const step5::NormalStencil a = step5::normal_matrix_stencil(sampled, 0.01);
        const step5::NormalStencil b = step5::normal_matrix_stencil(psf, size.first, size.second, 0.01);
        CHECK(a.weights == b.weights);
        CHECK(a.reach_rows == b.reach_rows);
        CHECK(a.reach_cols == b.reach_cols);
      }
}

TEST_CASE("step-5 CPU: the transpose of a field's blur is its adjoint, and H transposed")
{
  for (const PsfField &field : test_fields())
    for (const auto &size : image_sizes)
      {
        CAPTURE(field.name, size.first, size.second);
        const SampledField sampled = step5::sample_field(field, size.first, size.second);
        const Image x = random_image(size.first, size.second, 21), y = random_image(size.first, size.second, 22);
        const Image hx = step5::blur(sampled, x), hty = step5::blur_transpose(sampled, y);
        CHECK(nearly_equal(dot(hx, y), dot(x, hty), 1e-14));
        const Image h = step5::blur_matrix<double>(sampled);
        CHECK(max_difference(unstacked(product(lab::transposed(h), stacked(y)), size.first, size.second), hty) <=
              1e-14);
      }
}

TEST_CASE("step-5 CPU: the stencil of a field is the dense H^T H + lambda I entry by entry")
{
  const double lambda = 0.003;
  for (const PsfField &field : test_fields())
    for (const auto &size : image_sizes)
      {
        CAPTURE(field.name, size.first, size.second);
        const SampledField sampled = step5::sample_field(field, size.first, size.second);
        const Image h = step5::blur_matrix<double>(sampled);
        Image expected = gram(h);
        for (int i = 0; i < expected.rows(); ++i)
          expected(i, i) += lambda;
        CHECK(max_difference(dense_normal_matrix(step5::normal_matrix_stencil(sampled, lambda)), expected) <=
              1e-15);
      }
}

// Why a field keeps the band pipeline: HᵀH of a field has its nonzeros within the
// bandwidth of one PSF of the same picture, b = (p.rows − 1)·C + p.cols − 1
// (band_matrix.h), and the lens, whose Gaussians have nonzero corners, reaches it.
TEST_CASE("step-5 CPU: H^T H of a field keeps the band of a PSF of the same picture")
{
  for (const PsfField &field : test_fields())
    for (const auto &size : image_sizes)
      {
        CAPTURE(field.name, size.first, size.second);
        const Image h = step5::blur_matrix<double>(step5::sample_field(field, size.first, size.second));
        const Image a = gram(h);
        int widest = 0;
        for (int i = 0; i < a.rows(); ++i)
          for (int j = 0; j < a.cols(); ++j)
            if (a(i, j) != 0)
              widest = std::max(widest, std::abs(i - j));
        const int bandwidth = step5::normal_matrix_bandwidth(field, size.second);
        CHECK(bandwidth == (field.rows() - 1) * size.second + field.cols() - 1);
        CHECK(widest <= bandwidth);
        if (field.kind == step5::FieldKind::lens)
          CHECK(widest == bandwidth);
      }
}

TEST_CASE("step-5 CPU: the norm bound of a field bounds H^T H, and is the invariant one for a constant field")
{
  for (const PsfField &field : test_fields())
    {
      CAPTURE(field.name);
      const SampledField sampled = step5::sample_field(field, 9, 8);
      const double bound = step5::normal_matrix_norm_bound(sampled);
      // ‖H‖₁‖H‖∞ from the dense H.
      const Image h = step5::blur_matrix<double>(sampled);
      double largest_row = 0, largest_column = 0;
      for (int i = 0; i < h.rows(); ++i)
        {
          double row = 0, column = 0;
          for (int j = 0; j < h.cols(); ++j)
            {
              row += std::abs(h(i, j));
              column += std::abs(h(j, i));
            }
          largest_row = std::max(largest_row, row);
          largest_column = std::max(largest_column, column);
        }
      CHECK(nearly_equal(bound, largest_row * largest_column, 1e-14));
      for (std::uint64_t seed = 1; seed <= 5; ++seed)
        {
          const Image x = random_image(9, 8, seed);
          CHECK(step5::norm(step5::blur_transpose(sampled, step5::blur(sampled, x))) <= bound * step5::norm(x));
        }
    }
  const Psf box = step5::box_psf(3);
  CHECK(step5::normal_matrix_norm_bound(step5::sample_field(step5::constant_field(box), 9, 9)) <=
        step5::absolute_sum(box) * step5::absolute_sum(box) * (1 + 1e-15));
}

TEST_CASE("step-5 CPU: the mean PSF of a field is its PSFs' average; of a constant field, its PSF")
{
  const Psf gaussian = step5::gaussian_psf(1.2, 5);
  const Psf mean = step5::sample_field(step5::constant_field(gaussian), 6, 7).mean;
  CHECK(max_difference(mean.taps, gaussian.taps) <= 1e-16);
  const PsfField lens = step5::lens_field(0.7, 2.0, 5);
  const Psf lens_mean = step5::sample_field(lens, 6, 7).mean;
  CHECK(std::abs(sum_of(lens_mean) - 1) < 1e-14);
  Image expected(5, 5);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 7; ++c)
      {
        const Psf p = step5::psf_at(lens, r, c, 6, 7);
        for (int u = 0; u < 5; ++u)
          for (int v = 0; v < 5; ++v)
            expected(u, v) += p.taps(u, v) / 42;
      }
  CHECK(max_difference(lens_mean.taps, expected) <= 1e-16);
}

TEST_CASE("step-5 CPU: field descriptions give the fields; the others stay invariant PSFs")
{
  const PsfField lens = step5::parse_psf_field("lens:1:3:9");
  CHECK(lens.kind == step5::FieldKind::lens);
  CHECK(lens.sigma_centre == 1);
  CHECK(lens.sigma_corner == 3);
  CHECK(lens.size == 9);
  CHECK(lens.name == "lens sigma=1 to 3 9x9");
  const PsfField rotation = step5::parse_psf_field("rotation:2.5:11");
  CHECK(rotation.kind == step5::FieldKind::rotation);
  CHECK(rotation.angle_degrees == 2.5);
  CHECK(rotation.size == 11);
  CHECK(step5::names_a_field("lens:1:3:9"));
  CHECK_FALSE(step5::names_a_field("gaussian:1.5:9"));
  const PsfField gaussian = step5::parse_psf_field("gaussian:1.5:9");
  CHECK_FALSE(gaussian.varies());
  CHECK(same_image(gaussian.psf.taps, step5::gaussian_psf(1.5, 9).taps));
  // A sharp lens (σ from 0.1) and no rotation at all are fields too.
  CHECK(step5::parse_psf_field("lens:0.1:0.1:1").varies());
  CHECK(step5::parse_psf_field("rotation:0:3").varies());
}

TEST_CASE("step-5 CPU: bad field descriptions are refused in one line naming what is wrong")
{
  const std::vector<std::pair<std::string, std::string>> refused = {
    {"lens:0:2:9", "SIGMA_CENTRE must be a number > 0, not 0"},
    {"lens:1:-1:9", "SIGMA_CORNER must be a number > 0, not -1"},
    {"lens:nan:2:9", "SIGMA_CENTRE must be a number > 0, not nan"},
    {"lens:1:inf:9", "SIGMA_CORNER must be a number > 0, not inf"},
    {"lens:1:2:8", "the size must be odd, from 1 to 99, not 8"},
    {"lens:1:2:0", "the size must be odd, from 1 to 99, not 0"},
    {"lens:1:2:101", "the size must be odd, from 1 to 99, not 101"},
    {"lens:1:2:x", "SIZE 'x' is not a whole number"},
    {"lens:1:2", "is not one of lens:SIGMA_CENTRE:SIGMA_CORNER:SIZE or rotation:ANGLE_DEGREES:SIZE"},
    {"rotation:inf:9", "the angle must be a finite number of degrees, not inf"},
    {"rotation:nan:9", "the angle must be a finite number of degrees, not nan"},
    {"rotation:5:10", "the size must be odd, from 1 to 99, not 10"},
    {"rotation:5", "is not one of"}};
  for (const auto &[description, reason] : refused)
    {
      CAPTURE(description);
      const std::string message = refusal_of([&] { step5::parse_psf_field(description); });
      CHECK(contains(message, "the PSF '" + description + "'"));
      CHECK(contains(message, reason));
      CHECK(message.find('\n') == std::string::npos);
    }
  // An unknown name is parse_psf's refusal, which names the fields among the forms.
  CHECK(contains(refusal_of([] { step5::parse_psf_field("blurry"); }),
                 "lens:SIGMA_CENTRE:SIGMA_CORNER:SIZE or rotation:ANGLE_DEGREES:SIZE"));
  // A picture larger than the image.
  const PsfField lens = step5::lens_field(1, 2, 9);
  CHECK(contains(refusal_of([&] { step5::check_field(lens, 8, 20); }), "(9x9) is larger than the 8x20 image"));
  CHECK(contains(refusal_of([&] { step5::sample_field(lens, 20, 8); }), "is larger than the 20x8 image"));
  CHECK(refusal_of([&] { step5::check_field(lens, 9, 9); }) == "<no exception>");
  // A constant field refuses what check_psf refuses.
  CHECK(contains(refusal_of([] { step5::check_field(step5::constant_field(psf_of({{1, -1}}, "edge")), 8, 8); }),
                 "summing to zero"));
}

TEST_CASE("step-5 CPU: the piecewise FFT's region weights are a partition of unity, 1 at each region's centre")
{
  for (const int regions : {1, 2, 3, 4, 7})
    for (const int pixels : {7, 8, 32, 33, 100})
      {
        CAPTURE(regions, pixels);
        double worst = 0;
        for (int pixel = 0; pixel < pixels; ++pixel)
          {
            double sum = 0;
            for (int k = 0; k < regions; ++k)
              {
                const double w = step5::region_weight(k, regions, pixel, pixels);
                CHECK(w >= 0);
                CHECK(w <= 1);
                sum += w;
              }
            worst = lab::nan_max(worst, std::abs(sum - 1));
          }
        CHECK(worst <= 1e-15);
        // Each region's weight is largest at its centre; with an odd width, exactly 1.
        for (int k = 0; k < regions; ++k)
          {
            const int centre = step5::region_centre(k, regions, pixels);
            CHECK(step5::region_weight(k, regions, centre, pixels) >= 0.5);
            if ((pixels / regions) * regions == pixels && (pixels / regions) % 2 == 1)
              CHECK(step5::region_weight(k, regions, centre, pixels) == 1);
          }
      }
  // Two regions on 8 pixels: the centres at 1.5 and 5.5, linear in between.
  CHECK(step5::region_weight(0, 2, 1, 8) == 1);
  CHECK(step5::region_weight(0, 2, 3, 8) == 0.625);
  CHECK(step5::region_weight(1, 2, 3, 8) == 0.375);
  CHECK(step5::region_weight(1, 2, 7, 8) == 1);
}

// A support the band cannot hold in the GPU's memory: 31 x 31 at 1024², a band of
// b = 30·1024 + 30 entries a row, over a hundred GB in float. What a side needs counts
// the band, and the refusal names the bytes needed and available, in one line.
TEST_CASE("step-5 CPU: a field whose band does not fit the GPU is refused with the bytes needed and available")
{
  const PsfField lens = step5::lens_field(1, 3, 31);
  const double band = step5::BandPipeline<float>::device_bytes(lens, 1024, 1024);
  CHECK(band > 100e9);
  const lab::Memory with_band = step5::field_memory_needed<float>(lens, 1024, true);
  const lab::Memory without = step5::field_memory_needed<float>(lens, 1024, false);
  CHECK(with_band.device_bytes >= band);
  CHECK(without.device_bytes < 5e9);
  // The table of weights: 1024² pixels of 31² weights, in double on the host.
  CHECK(with_band.host_bytes >= 1024.0 * 1024 * 31 * 31 * 8);
  const lab::Memory h200{500e9, 139e9};
  const std::string message = refusal_of([&] { lab::require_fits("n = 1024 (float, the field)", with_band, h200); });
  CHECK(contains(message, "n = 1024 (float, the field) needs"));
  CAPTURE(message);
  CHECK(contains(message, "needs " + lab::format_bytes(std::size_t(with_band.device_bytes)) +
                            " of GPU memory, but only 129.5 GiB (139000000000 bytes) are available"));
  CHECK(message.find('\n') == std::string::npos);
  CHECK(refusal_of([&] { lab::require_fits("n = 1024", without, h200); }) == "<no exception>");
  // The same band in double is twice as large.
  CHECK(step5::BandPipeline<double>::device_bytes(lens, 1024, 1024) > 1.9 * band);
}

// The check of a field's method is η of the field's equations. An image that solves
// the equations of the mean PSF instead (what an FFT filter with the mean PSF would
// aim at) or those of the field's transpose must fail it, and the field's own
// solution pass.
TEST_CASE("planted: the solution of the mean PSF's equations FAILs the field's backward error check")
{
  const int rows = 12, cols = 11;
  const double lambda = 1e-3;
  const SampledField field = step5::sample_field(step5::lens_field(0.6, 2.5, 5), rows, cols);
  const Image original = random_image(rows, cols, 3);
  const Image g = step5::blur(field, original);
  const Image b = step5::blur_transpose(field, g);
  const Image h = step5::blur_matrix<double>(field);
  const Image exact = regularised_solution(gram(h), lambda, b);
  const double tolerance = 1e-10;
  CHECK(step5::backward_error_of(field, b, lambda, exact) <= tolerance);

  const Psf mean = field.mean;
  const Image mean_solution =
    regularised_solution(gram(step5::blur_matrix<double>(mean, rows, cols)), lambda, step5::blur_transpose(mean, g));
  CHECK_FALSE(step5::backward_error_of(field, b, lambda, mean_solution) <= tolerance);
  // NaN never passes.
  Image broken = exact;
  broken(2, 3) = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(step5::backward_error_of(field, b, lambda, broken) <= tolerance);
}
