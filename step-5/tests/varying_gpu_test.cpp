// GPU tests of the PSF fields (psf_view.h): the field's blur, its transpose and H on
// the GPU against the CPU model (lens and rotation, odd, even and non-square images,
// H over a poisoned array, by rows and by columns); one PSF stored as a field gives
// what the invariant kernels give; every method that takes H as it is (the dense
// pipeline on step-4's kernels and the vendor's, the band pipeline, CG) recovers f
// exactly from noise-free data with λ = 0 on well-conditioned fields, and with λ > 0
// they and CHOLMOD (where the build has it) agree to the precision's bound, through a
// grid of PSFs (psf_grid.h) too, and a grid sampled from the lens restores within
// 0.2 dB of the lens; the discrepancy principle on the field's own equations meets its
// target. Float and double. Exits with 77 (CTest: skipped) without a GPU.
#include "gpu/blur_gpu.h"
#include "methods/band_pipeline.h"
#include "methods/conjugate_gradients.h"
#include "methods/dense_pipeline.h"
#include "methods/fft_filter.h"
#include "methods/exact_lambda.h"
#include "methods/method_runs.h"
#include "methods/piecewise_fft.h"
#include "methods/sparse_cholesky.h"
#include "model/psf_field.h"
#include "model/varying_blur.h"
#include "photographs.h"
#include "test_support.h"

#include <gemm_kernels.h> // step-4: step4::gemm

#include <lab/compare.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/image_quality.h>
#include <lab/precision.h>
#include <lab/test_images.h>
#include <lab_catch.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace
{
  using namespace step5_test;
  using step5::PsfField;
  using step5::SampledField;

  template <typename T>
  double epsilon()
  {
    return std::numeric_limits<T>::epsilon();
  }

  template <typename T>
  Image download_image(const lab::DeviceBuffer<T> &device, int rows, int cols)
  {
    lab::Matrix<T> image(rows, cols);
    device.download(image);
    return lab::convert<double>(image);
  }

  double relative_difference(const Image &a, const Image &b)
  {
    double difference = 0, norm = 0;
    for (int r = 0; r < a.rows(); ++r)
      for (int c = 0; c < a.cols(); ++c)
        {
          difference += (a(r, c) - b(r, c)) * (a(r, c) - b(r, c));
          norm += b(r, c) * b(r, c);
        }
    return std::sqrt(difference / norm);
  }

  const std::vector<std::pair<int, int>> image_sizes = {{7, 11}, {16, 9}, {33, 32}};

  std::vector<PsfField> test_fields()
  {
    return {step5::lens_field(0.6, 2.0, 3), step5::lens_field(1.0, 2.5, 7), step5::rotation_field(30, 5),
            step5::rotation_field(-50, 7)};
  }

  // @sect3{The model on the GPU}
  template <typename T>
  void check_field_blur_on_device()
  {
    for (const PsfField &field : test_fields())
      for (const auto &[rows, cols] : image_sizes)
        {
          CAPTURE(lab::precision_name<T>(), field.name, rows, cols);
          const SampledField sampled = step5::sample_field(field, rows, cols);
          const Image f = random_image(rows, cols, 11);
          const step5::DevicePsf<T> device_field(sampled);
          REQUIRE(device_field.varies());
          // Sums of up to 49 products of weights and pixels below 1, rounded to T: at
          // most one rounding unit per term, and the weights' and pixels' own.
          const double tolerance = 64 * epsilon<T>();
          lab::DeviceBuffer<T> device_f(lab::convert<T>(f)), device_g(f.size());
          device_g.poison();
          step5::blur_on_device(device_field, rows, cols, device_f.data(), device_g.data(), nullptr);
          CHECK(max_difference(download_image(device_g, rows, cols), step5::blur(sampled, f)) <= tolerance);
          device_g.poison();
          step5::blur_transpose_on_device(device_field, rows, cols, device_f.data(), device_g.data(), nullptr);
          CHECK(max_difference(download_image(device_g, rows, cols), step5::blur_transpose(sampled, f)) <=
                tolerance);

          // H over a poisoned array, by rows and by columns: the weights themselves.
          const int n = rows * cols;
          const lab::Matrix<T> expected = step5::blur_matrix<T>(sampled);
          for (const step5::Storage storage : {step5::Storage::by_rows, step5::Storage::by_columns})
            {
              lab::DeviceBuffer<T> h(static_cast<std::size_t>(n) * n);
              h.poison();
              step5::build_blur_matrix(device_field, rows, cols, h.data(), nullptr, storage);
              lab::Matrix<T> built(n, n);
              h.download(built);
              int wrong = 0;
              for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                  wrong += storage == step5::Storage::by_rows ? !(built(i, j) == expected(i, j))
                                                              : !(built(j, i) == expected(i, j));
              CHECK(wrong == 0);
            }
        }
  }

  TEST_CASE("the blur of a PSF field, its transpose and H on the GPU equal the CPU model")
  {
    check_field_blur_on_device<float>();
    check_field_blur_on_device<double>();
  }

  // One PSF stored as a field runs the field's kernels; they must give the invariant
  // kernels' results: H exactly (it is the weights), the blurs to rounding.
  template <typename T>
  void check_repeated_field()
  {
    for (const Psf &psf : shape_test_psfs())
      {
        const int rows = 9, cols = 12, n = rows * cols;
        CAPTURE(lab::precision_name<T>(), psf.name);
        const step5::DevicePsf<T> invariant(psf), as_field(repeated_field(psf, rows, cols));
        REQUIRE(as_field.varies());
        const Image f = random_image(rows, cols, 7);
        lab::DeviceBuffer<T> device_f(lab::convert<T>(f)), g_invariant(f.size()), g_field(f.size());
        step5::blur_on_device(invariant, rows, cols, device_f.data(), g_invariant.data(), nullptr);
        g_field.poison();
        step5::blur_on_device(as_field, rows, cols, device_f.data(), g_field.data(), nullptr);
        CHECK(max_difference(download_image(g_field, rows, cols), download_image(g_invariant, rows, cols)) <=
              4 * epsilon<T>());
        step5::blur_transpose_on_device(invariant, rows, cols, device_f.data(), g_invariant.data(), nullptr);
        g_field.poison();
        step5::blur_transpose_on_device(as_field, rows, cols, device_f.data(), g_field.data(), nullptr);
        CHECK(max_difference(download_image(g_field, rows, cols), download_image(g_invariant, rows, cols)) <=
              4 * epsilon<T>());
        lab::DeviceBuffer<T> h_invariant(static_cast<std::size_t>(n) * n), h_field(static_cast<std::size_t>(n) * n);
        step5::build_blur_matrix(invariant, rows, cols, h_invariant.data(), nullptr);
        h_field.poison();
        step5::build_blur_matrix(as_field, rows, cols, h_field.data(), nullptr);
        lab::Matrix<T> a(n, n), b(n, n);
        h_invariant.download(a);
        h_field.download(b);
        CHECK(lab::max_abs_difference(a, b) == 0);
      }
  }

  TEST_CASE("one PSF stored as a field gives on the GPU what the invariant kernels give")
  {
    check_repeated_field<float>();
    check_repeated_field<double>();
  }

  TEST_CASE("a field sampled for one image size is refused on another")
  {
    const step5::DevicePsf<float> device_field(step5::sample_field(step5::lens_field(1, 2, 3), 8, 9));
    lab::DeviceBuffer<float> f(72), g(72);
    CHECK_THROWS_AS(step5::blur_on_device(device_field, 9, 8, f.data(), g.data(), nullptr), std::invalid_argument);
  }

  // @sect3{The methods that take H as it is}
  //
  // Each into an image of its own, poisoned before.
  struct FieldSolutions
  {
    Image dense, vendor, band, cg;
  };

  template <typename T>
  double cg_tolerance()
  {
    return sizeof(T) == 4 ? 1e-6 : 1e-12;
  }

  template <typename T>
  FieldSolutions solve_with_field(const PsfField &field, const Image &g, double lambda)
  {
    const int rows = g.rows(), cols = g.cols();
    const SampledField sampled = step5::sample_field(field, rows, cols);
    const step5::DevicePsf<T> device_field(sampled);
    lab::DeviceBuffer<T> device_g(lab::convert<T>(g));
    std::vector<lab::DeviceBuffer<T>> f;
    for (int i = 0; i < 5; ++i)
      {
        f.emplace_back(g.size());
        f.back().poison();
      }
    lab::Cublas cublas;
    step5::DensePipeline<T> pipeline(rows, cols, false);
    REQUIRE(pipeline.run(device_field, T(lambda), device_g.data(), step4::gemm, f[0].data(), f[4].data())
              .failed_column == -1);
    REQUIRE(pipeline.run_vendor(device_field, T(lambda), device_g.data(), cublas, f[1].data()).failed_column == -1);
    step5::BandPipeline<T> band(field, rows, cols, step4::gemm, 64);
    REQUIRE(band.run(device_field, T(lambda), device_g.data(), f[2].data()).failed_column == -1);
    step5::ConjugateGradients<T> cg(rows, cols);
    const step5::IterationReport report =
      cg.solve(device_field, T(lambda), device_g.data(), f[3].data(), cg_tolerance<T>(), step5::cg_iteration_limit(rows, cols));
    CHECK(report.converged);
    return {download_image(f[0], rows, cols), download_image(f[1], rows, cols), download_image(f[2], rows, cols),
            download_image(f[3], rows, cols)};
  }

  // Fields whose H is well conditioned, so that λ = 0 is allowed: a lens from σ 0.3 to
  // 0.5 on 3 × 3 (the 1-D profile's smallest Fourier value 0.57 of its largest:
  // κ(H) ≲ 3) and a slight rotation (streaks of at most 1.3 pixels, the centre
  // weighing more than twice the rest: κ(H) ≲ 3).
  template <typename T>
  void check_exact_recovery_with_fields()
  {
    const int rows = 19, cols = 24;
    for (const PsfField &field : {step5::lens_field(0.3, 0.5, 3), step5::rotation_field(5, 3)})
      {
        CAPTURE(lab::precision_name<T>(), field.name);
        const Image f = random_image(rows, cols, 5);
        const Image g = step5::blur(step5::sample_field(field, rows, cols), f);
        const FieldSolutions s = solve_with_field<T>(field, g, 0.0);
        // κ(HᵀH) ≲ 3² = 9 bounds how far rounding moves the solution (225: slack for
        // the field's corners, where the rows differ most from the mean).
        const double tolerance = 10 * 225 * epsilon<T>();
        CHECK(relative_difference(s.dense, f) <= tolerance);
        CHECK(relative_difference(s.vendor, f) <= tolerance);
        CHECK(relative_difference(s.band, f) <= tolerance);
        CHECK(relative_difference(s.cg, f) <= lab::nan_max(tolerance, 10 * 225 * cg_tolerance<T>()));
      }
  }

  TEST_CASE("dense, band and CG recover f exactly through a PSF field from noise-free data with lambda = 0")
  {
    check_exact_recovery_with_fields<float>();
    check_exact_recovery_with_fields<double>();
  }

  // A lens, a rotation and a grid of PSFs (psf_grid.h: the lens sampled at 3 × 3
  // points) on a noisy phantom with λ = 10⁻²: every method solves the
  // field's equations, so they agree with the vendor's to the precision's accuracy
  // times A's condition number, κ ≤ (‖HᵀH‖ + λ)/λ, and their images solve the field's
  // equations (η, computed on the CPU) to a backward stable solve's tolerance; so does
  // CHOLMOD's, in double on the CPU, where the build has it.
  template <typename T>
  void check_agreement_with_fields()
  {
    const int size = 28;
    const double lambda = 1e-2;
    const PsfField lens = step5::lens_field(0.8, 2.0, 7);
    for (const PsfField &field :
         {lens, step5::rotation_field(25, 7), step5::grid_field(step5::sample_grid(lens, 3, 3, size, size))})
      {
        CAPTURE(lab::precision_name<T>(), field.name);
        const SampledField sampled = step5::sample_field(field, size, size);
        const Image g = lab::add_gaussian_noise(step5::blur(sampled, lab::shepp_logan(size)), 0.01, 3);
        const double condition = (step5::normal_matrix_norm_bound(sampled) + lambda) / lambda;
        const double tolerance = 10 * condition * epsilon<T>();
        const FieldSolutions s = solve_with_field<T>(field, g, lambda);
        CHECK(relative_difference(s.dense, s.vendor) <= tolerance);
        CHECK(relative_difference(s.band, s.vendor) <= tolerance);
        CHECK(relative_difference(s.cg, s.vendor) <= lab::nan_max(tolerance, 10 * condition * cg_tolerance<T>()));
        const Image b = step5::blur_transpose(sampled, g);
        const double stable = 10 * size * epsilon<T>();
        CHECK(step5::backward_error_of(sampled, b, lambda, s.dense) <= stable);
        CHECK(step5::backward_error_of(sampled, b, lambda, s.band) <= stable);
        if (step5::have_cholmod())
          {
            const step5::SparseCholeskySolution sparse =
              step5::sparse_cholesky_solve(step5::normal_matrix_stencil(sampled, lambda), b);
            REQUIRE(sparse.report.failed_pixel == -1);
            CHECK(relative_difference(sparse.f, s.vendor) <= tolerance);
          }
      }
  }

  TEST_CASE("dense, band, CG and CHOLMOD agree through a PSF field on a noisy phantom")
  {
    check_agreement_with_fields<float>();
    check_agreement_with_fields<double>();
  }

  // @sect3{A grid of PSFs restores as the field it was measured from}
  //
  // psf_grid_cpu_test.cpp's test on the GPU's methods: data blurred by the course's
  // lens (σ 1 to 3, 9 × 9) with noise σ = 0.01, restored through the lens and through
  // the grid of 9 × 9 points sampled from it (the coarsest grid that keeps the
  // photograph within 0.2 dB on the CPU; 3 × 3 loses 1 dB there), each method's PSNR
  // within 0.2 dB of its own through the lens.
  template <typename T>
  void check_grid_restores_as_the_lens()
  {
    const int side = 32;
    const double lambda = 1e-2;
    const PsfField lens = step5::lens_field(1, 3, 9);
    const PsfField grid = step5::grid_field(step5::sample_grid(lens, 9, 9, side, side));
    for (const bool phantom : {true, false})
      {
        const Image original = phantom ? lab::shepp_logan(side) : step5::photograph(side);
        REQUIRE(original.rows() == side);
        const Image g =
          lab::add_gaussian_noise(step5::blur(step5::sample_field(lens, side, side), original), 0.01, 7);
        const FieldSolutions by_lens = solve_with_field<T>(lens, g, lambda);
        const FieldSolutions by_grid = solve_with_field<T>(grid, g, lambda);
        const std::vector<std::pair<Image, Image>> pairs = {
          {by_lens.dense, by_grid.dense}, {by_lens.band, by_grid.band}, {by_lens.cg, by_grid.cg}};
        for (const auto &[through_lens, through_grid] : pairs)
          {
            CAPTURE(lab::precision_name<T>(), phantom, lab::psnr(through_lens, original),
                    lab::psnr(through_grid, original));
            CHECK(std::abs(lab::psnr(through_grid, original) - lab::psnr(through_lens, original)) <= 0.2);
          }
      }
  }

  TEST_CASE("a grid of PSFs sampled from the course's lens restores within 0.2 dB of the lens itself")
  {
    check_grid_restores_as_the_lens<float>();
    check_grid_restores_as_the_lens<double>();
  }

  // @sect3{λ from the field's own equations}
  //
  // The λ that field_lambda.h chooses must make the field's residual ‖H f_λ − g‖² equal
  // to n σ², measured independently of the search: f_λ from the band pipeline (not
  // CG, which the search used), H f_λ on the CPU in double. The mean PSF's periodic λ,
  // the search's start, must miss it on the rotation (its streaks' mean is a round blur
  // that explains less of g), or the test would not tell the two rules apart.
  template <typename T>
  void check_field_lambda()
  {
    const int size = 40;
    const double sigma = 0.01;
    for (const PsfField &field : {step5::lens_field(0.8, 2.0, 7), step5::rotation_field(25, 7)})
      {
        CAPTURE(lab::precision_name<T>(), field.name);
        const SampledField sampled = step5::sample_field(field, size, size);
        const Image g = lab::add_gaussian_noise(step5::blur(sampled, lab::shepp_logan(size)), sigma, 3);
        const step5::Psf mean = sampled.mean;
        const step5::LambdaRange range = step5::lambda_range(mean, epsilon<T>() / 2);
        const double start = step5::choose_lambda_by_discrepancy(mean, g, sigma, range).lambda;
        step5::DeviceProblem<T> problem(sampled, g);
        const step5::ResidualSearch search =
          step5::choose_lambda_by_exact_discrepancy<T>({&problem}, {g}, sigma, range, start);
        CAPTURE(start, search.lambda, search.evaluations, search.how);
        CHECK(!contains(search.how, "not met"));
        CHECK(!contains(search.how, "end of the range"));
        CHECK(search.evaluations <= 8);
        // ‖H f − g‖² / (n σ²), f from the band pipeline alone on the same problem.
        step5::BandPipeline<T> band(field, size, size, step4::gemm, 64);
        const auto residual_ratio = [&](double lambda) {
          problem.f.poison();
          REQUIRE(band.run(problem.psf, T(lambda), problem.g.data(), problem.f.data()).failed_column == -1);
          return lab::mean_squared_error(step5::blur(sampled, problem.download(problem.f)), g) / (sigma * sigma);
        };
        CHECK(std::abs(residual_ratio(search.lambda) - 1) <= 0.03);
        if (field.kind == step5::FieldKind::rotation)
          CHECK(std::abs(residual_ratio(start) - 1) > 0.3);
      }
  }

  TEST_CASE("the discrepancy principle on a field's own equations makes its residual n sigma^2")
  {
    check_field_lambda<float>();
    check_field_lambda<double>();
  }

  // @sect3{The FFT's approximations}
  //
  // A constant field gives R² equal restorations, and the blend of partition-of-unity
  // weights is the plain filter's result (to rounding; a weight that is wrong, or
  // weights that do not add up to 1, are wrong by far more); a lens gives each region the
  // PSF of its centre pixel, and every pixel of the result is written.
  template <typename T>
  void check_piecewise_fft()
  {
    const int rows = 40, cols = 37;
    const double lambda = 1e-2;
    const Psf psf = step5::gaussian_psf(1.5, 7);
    const Image g = lab::add_gaussian_noise(step5::blur(psf, lab::shepp_logan(40)), 0.01, 3);
    Image cropped(rows, cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        cropped(r, c) = g(r, c);
    lab::DeviceBuffer<T> device_g(lab::convert<T>(cropped)), plain(cropped.size()), blended(cropped.size());
    for (const step5::FftBoundary boundary : {step5::FftBoundary::periodic, step5::FftBoundary::mirrored})
      {
        CAPTURE(lab::precision_name<T>(), int(boundary));
        step5::FftFilter<T> filter(psf, rows, cols, boundary);
        plain.poison();
        filter.apply(T(lambda), device_g.data(), plain.data());
        for (const int regions : {1, 3, 4})
          {
            CAPTURE(regions);
            step5::PiecewiseFft<T> piecewise(step5::sample_field(step5::constant_field(psf), rows, cols), regions,
                                             boundary);
            blended.poison();
            piecewise.apply(T(lambda), device_g.data(), blended.data());
            // The blend's weights rounded to T, and the R² filters' own rounding (the
            // same plans, but each filter amplifies its rounding by up to 1/(2√λ) = 5).
            CHECK(relative_difference(download_image(blended, rows, cols), download_image(plain, rows, cols)) <=
                  100 * epsilon<T>());
          }
      }
    const SampledField lens = step5::sample_field(step5::lens_field(0.8, 2.5, 7), rows, cols);
    step5::PiecewiseFft<T> piecewise(lens, 3, step5::FftBoundary::mirrored);
    for (int k = 0; k < 9; ++k)
      CHECK(max_difference(piecewise.psf(k).taps,
                           step5::psf_of_pixel(lens, step5::region_centre(k / 3, 3, rows),
                                               step5::region_centre(k % 3, 3, cols))
                             .taps) == 0);
    blended.poison();
    piecewise.apply(T(lambda), device_g.data(), blended.data());
    const Image result = download_image(blended, rows, cols);
    CHECK(max_difference(result, result) == 0); // no NaN: every pixel written
  }

  TEST_CASE("the piecewise FFT of a constant field is the plain FFT filter")
  {
    check_piecewise_fft<float>();
    check_piecewise_fft<double>();
  }
} // namespace
