// GPU tests of step-5: the blur model on the GPU against the CPU reference (odd, even
// and non-square PSFs on non-square images; H written entry by entry over a poisoned
// array), HᵀH's lower triangle by the symmetric product (on step-4's kernels and by
// cuBLAS's SYRK) against the stencil assembled from the PSF,
// every solver recovering f exactly from noise-free data with λ = 0 on a
// well-conditioned blur, the dense, cuSOLVER and CG solutions agreeing with λ > 0 on
// a blurred phantom (every route into its own poisoned image), the TF32 pipeline
// within TF32's accuracy, every dense pipeline reporting a matrix that is not positive
// definite, the FFT filters against the exact solutions of their own models, and the
// thesis' formula against the exact solution of its equations (wrong for a motion
// blur, right for a Gaussian). Float and double. Exits with 77 (CTest: skipped)
// without a GPU.
#include "gpu/blur_gpu.h"
#include "gpu/gram_matrix.h"
#include "methods/band_pipeline.h"
#include "methods/conjugate_gradients.h"
#include "methods/dense_pipeline.h"
#include "methods/fft_filter.h"
#include "methods/method_runs.h"
#include "methods/restoration.h"
#include "model/blur_model.h"
#include "model/fft_model.h"
#include "model/lambda_choice.h"
#include "model/psf.h"
#include "report/checks.h"
#include "test_support.h"

#include <gemm_kernels.h>                         // step-4: step4::gemm, step4::gemm_tf32
#include <kernels/20_ozaki_int8.cuh>               // step-4: kernel 20 and its report
#include <variants/6_mixed_precision_solve.cuh> // step-2: the mixed-precision solve

#include <lab/precision.h>
#include <lab/compare.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/test_images.h>
#include <first_answer_kept.h>
#include <lab_catch.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace
{
  using namespace step5_test;

  template <typename T>
  double epsilon()
  {
    return std::numeric_limits<T>::epsilon();
  }

  // An image from the GPU, in double.
  template <typename T>
  lab::Matrix<double> download_image(const lab::DeviceBuffer<T> &device, int rows, int cols)
  {
    lab::Matrix<T> image(rows, cols);
    device.download(image);
    return lab::convert<double>(image);
  }

  double relative_difference(const lab::Matrix<double> &a, const lab::Matrix<double> &b)
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

  // @sect3{The model on the GPU}
  template <typename T>
  void check_blur_on_device()
  {
    for (const Psf &psf : shape_test_psfs())
      for (const auto &[rows, cols] : std::vector<std::pair<int, int>>{{7, 11}, {16, 9}, {33, 32}})
        {
          if (psf.rows() > rows || psf.cols() > cols)
            continue;
          CAPTURE(lab::precision_name<T>(), psf.name, rows, cols);
          const lab::Matrix<double> f = random_image(rows, cols, 11);
          const step5::DevicePsf<T> device_psf(psf);
          lab::DeviceBuffer<T> device_f(lab::convert<T>(f)), device_g(f.size());
          device_g.poison();
          step5::blur_on_device(device_psf, rows, cols, device_f.data(), device_g.data(), nullptr);
          CHECK(max_difference(download_image(device_g, rows, cols), step5::blur(psf, f)) <= 20 * epsilon<T>());
          device_g.poison();
          step5::blur_transpose_on_device(device_psf, rows, cols, device_f.data(), device_g.data(), nullptr);
          CHECK(max_difference(download_image(device_g, rows, cols), step5::blur_transpose(psf, f)) <=
                20 * epsilon<T>());

          // H, entry by entry, over a poisoned array.
          const int n = rows * cols;
          lab::DeviceBuffer<T> h(static_cast<std::size_t>(n) * n);
          h.poison();
          step5::build_blur_matrix(device_psf, rows, cols, h.data(), nullptr);
          lab::Matrix<T> built(n, n);
          h.download(built);
          const lab::Matrix<T> expected = step5::blur_matrix<T>(psf, rows, cols);
          int wrong = 0;
          for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
              wrong += !(built(i, j) == expected(i, j));
          CHECK(wrong == 0);
        }
  }

  TEST_CASE("the blur, its transpose and H on the GPU equal the CPU model", "[blur_gather][blur_matrix_assembly]")
  {
    check_blur_on_device<float>();
    check_blur_on_device<double>();
  }

  // Kernel 20 on HᵀH: the product must be right either way, but whether the Ozaki
  // scheme can do it depends on the PSF. A box blur's H holds one value and zeros, so
  // wherever two columns overlap their magnitudes bound the entry from below, and where
  // they do not the entry is an exact zero: the scheme runs. A Gaussian's H holds values from its peak down to 800 times less at the
  // corners, and two pixels 8 apart diagonally overlap only in those: an entry of HᵀH
  // 10⁶ times below its lines' scale, which the 7-bit magnitudes of the bound round to
  // zero. Its error cannot be bounded, so kernel 20 hands the whole product to the double
  // kernel and says why (step-5's dense pipeline in double pays for that bound: the
  // results page).
  TEST_CASE("kernel 20 on H^T H: the scheme for a box blur, the double kernel for a Gaussian, and it says so")
  {
    const int rows = 24, cols = 24, n = rows * cols;
    for (const bool box : {true, false})
      {
        CAPTURE(box);
        const Psf psf = box ? step5::box_psf(3) : step5::gaussian_psf(1.5, 9);
        const step5::DevicePsf<double> device_psf(psf);
        lab::DeviceBuffer<double> h(static_cast<std::size_t>(n) * n), a(static_cast<std::size_t>(n) * n);
        step5::build_blur_matrix(device_psf, rows, cols, h.data(), nullptr);
        a.poison();
        lab::GemmArgs<double> g;
        g.shape = {n, n, n, lab::Op::transpose, lab::Op::none};
        g.a = g.b = h.data();
        g.lda = g.ldb = g.ldc = n;
        g.c = a.data();
        step4::launch_20_ozaki_int8(g, nullptr);
        const step4::OzakiReport used = step4::last_ozaki_report();
        INFO("moduli " << used.moduli << ", fell back: " << used.fell_back);
        if (box)
          CHECK(used.moduli >= 8);
        else
          CHECK(used.fell_back.find("cannot be bounded") != std::string::npos);
        lab::Matrix<double> product(n, n);
        a.download(product);
        const step5::NormalStencil stencil = step5::normal_matrix_stencil(psf, rows, cols, 0.0);
        double largest = 0;
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            {
              const int dr = j / cols - i / cols, dc = j % cols - i % cols;
              const bool inside = std::abs(dr) <= stencil.reach_rows && std::abs(dc) <= stencil.reach_cols;
              const double assembled = inside ? stencil.at(i / cols, i % cols, dr, dc) : 0.0;
              largest = lab::nan_max(largest, std::abs(product(i, j) - assembled));
            }
        // DGEMM's bound, (k + 2) ε times (|H|ᵀ|H|)_ij, which is at most Σ psf² ≤ 1.
        CHECK(largest <= (n + 2) * epsilon<double>());
      }
  }

  // HᵀH's lower triangle by the recursion of gram_matrix.h on step-4's product (with
  // leaves of 16 rows, so that it recurses three levels on 108 rows) and, by columns,
  // by the vendor's SYRK on H stored either way, equals the normal matrix assembled
  // from the PSF. The other triangle is poisoned before and not looked at: nothing
  // downstream reads it. H stored by columns must be H by rows transposed, exactly.
  template <typename T>
  void check_normal_matrix()
  {
    lab::Cublas cublas;
    for (const Psf &psf : shape_test_psfs())
      {
        const int rows = 9, cols = 12, n = rows * cols;
        CAPTURE(lab::precision_name<T>(), psf.name);
        if (psf.rows() > rows || psf.cols() > cols)
          continue;
        const step5::DevicePsf<T> device_psf(psf);
        lab::DeviceBuffer<T> h(static_cast<std::size_t>(n) * n), h_by_columns(static_cast<std::size_t>(n) * n),
          a(static_cast<std::size_t>(n) * n);
        step5::build_blur_matrix(device_psf, rows, cols, h.data(), nullptr);
        h_by_columns.poison();
        step5::build_blur_matrix(device_psf, rows, cols, h_by_columns.data(), nullptr, step5::Storage::by_columns);
        lab::Matrix<T> by_rows(n, n), by_columns(n, n);
        h.download(by_rows);
        h_by_columns.download(by_columns);
        CHECK(lab::max_abs_difference(by_columns, lab::transposed(by_rows)) == 0);

        const step5::NormalStencil stencil = step5::normal_matrix_stencil(psf, rows, cols, 0.0);
        enum class Method
        {
          recursion,
          vendor_h_by_rows,
          vendor_h_by_columns
        };
        for (const Method method : {Method::recursion, Method::vendor_h_by_rows, Method::vendor_h_by_columns})
          {
            CAPTURE(int(method));
            a.poison();
            if (method == Method::vendor_h_by_rows)
              step5::vendor_gram(cublas, h.data(), step5::Storage::by_rows, n, lab::Op::transpose, a.data(), nullptr);
            else if (method == Method::vendor_h_by_columns)
              step5::vendor_gram(cublas, h_by_columns.data(), step5::Storage::by_columns, n, lab::Op::transpose,
                                 a.data(), nullptr);
            else
              step5::lower_gram(h.data(), n, n, n, lab::Op::transpose, a.data(), n, lab::Gemm<T>(step4::gemm),
                                nullptr, 16);
            lab::Matrix<T> product(n, n);
            a.download(product);
            double largest = 0;
            for (int i = 0; i < n; ++i)
              for (int j = 0; j <= i; ++j)
                {
                  const int dr = j / cols - i / cols, dc = j % cols - i % cols;
                  const bool inside = std::abs(dr) <= stencil.reach_rows && std::abs(dc) <= stencil.reach_cols;
                  const double assembled = inside ? stencil.at(i / cols, i % cols, dr, dc) : 0.0;
                  // The vendor's lower triangle by columns is the upper one by rows.
                  const double computed = method == Method::recursion ? product(i, j) : product(j, i);
                  largest = lab::nan_max(largest, std::abs(computed - assembled));
                }
            CHECK(largest <= 20 * epsilon<T>());
          }
      }
  }

  TEST_CASE("H^T H by the symmetric product equals the normal matrix assembled from the PSF")
  {
    check_normal_matrix<float>();
    check_normal_matrix<double>();
  }

  // @sect3{The solvers}
  //
  // Every solver's result for g on a rows × cols image, by name.
  template <typename T>
  struct Solutions
  {
    lab::Matrix<double> dense_solve, dense_inverse, cublas_solve, cublas_inverse, vendor, thesis, cg, band;
    int cg_iterations = 0;
  };

  template <typename T>
  Solutions<T> solve_all(const Psf &psf, const lab::Matrix<double> &g, double lambda, double cg_tolerance)
  {
    const int rows = g.rows(), cols = g.cols();
    const step5::DevicePsf<T> device_psf(psf);
    lab::DeviceBuffer<T> device_g(lab::convert<T>(g));
    // Every solver and route writes into an image of its own, poisoned before: one
    // that writes nothing leaves NaN, never another one's answer.
    std::vector<lab::DeviceBuffer<T>> f;
    for (int i = 0; i < 8; ++i)
      {
        f.emplace_back(g.size());
        f.back().poison();
      }
    lab::Cublas cublas;
    step5::DensePipeline<T> pipeline(rows, cols, true);
    REQUIRE(pipeline.run(device_psf, T(lambda), device_g.data(), step4::gemm, f[0].data(), f[1].data())
              .failed_column == -1);
    REQUIRE(pipeline.run(device_psf, T(lambda), device_g.data(), lab::cublas_gemm_exact<T>(cublas), f[2].data(),
                         f[7].data())
              .failed_column == -1);
    REQUIRE(pipeline.run_vendor(device_psf, T(lambda), device_g.data(), cublas, f[3].data()).failed_column == -1);
    REQUIRE(pipeline.run_thesis_formula(device_psf, T(lambda), device_g.data(), cublas, f[4].data())
              .failed_column == -1);
    step5::ConjugateGradients<T> cg(rows, cols);
    const step5::IterationReport report =
      cg.solve(device_psf, T(lambda), device_g.data(), f[5].data(), cg_tolerance, step5::cg_iteration_limit(rows, cols));
    CHECK(report.converged);
    Solutions<T> s;
    s.dense_solve = download_image(f[0], rows, cols);
    s.dense_inverse = download_image(f[1], rows, cols);
    s.cublas_solve = download_image(f[2], rows, cols);
    s.cublas_inverse = download_image(f[7], rows, cols);
    s.vendor = download_image(f[3], rows, cols);
    s.thesis = download_image(f[4], rows, cols);
    s.cg = download_image(f[5], rows, cols);
    // The band pipeline with narrow panels, so that small images have several.
    step5::BandPipeline<T> band(psf, rows, cols, step4::gemm, 64);
    REQUIRE(band.run(device_psf, T(lambda), device_g.data(), f[6].data()).failed_column == -1);
    s.band = download_image(f[6], rows, cols);
    s.cg_iterations = report.iterations;
    return s;
  }

  // CG stops once its residual is below a tolerance relative to b, not at rounding
  // level: its error is then bounded by A's condition number times that tolerance
  // (and a factor 10 of slack for the residual being recomputed at the end).
  template <typename T>
  double cg_tolerance() { return sizeof(T) == 4 ? 1e-6 : 1e-12; }
  template <typename T>
  double cg_error_bound(double condition) { return 10 * condition * cg_tolerance<T>(); }

  // A blur whose H is well conditioned (the centre outweighs the rest: H is
  // diagonally dominant), so that λ = 0 is allowed and f comes back exactly.
  Psf well_conditioned_psf() { return psf_of({{0.02, 0.05, 0.01}, {0.08, 0.7, 0.04}, {0.03, 0.05, 0.02}}, "dominant"); }

  template <typename T>
  void check_exact_recovery()
  {
    const int rows = 13, cols = 17;
    CAPTURE(lab::precision_name<T>());
    const Psf psf = well_conditioned_psf();
    const lab::Matrix<double> f = random_image(rows, cols, 5);
    const lab::Matrix<double> g = step5::blur(psf, f);
    const double tolerance = 100 * epsilon<T>();
    const Solutions<T> s = solve_all<T>(psf, g, 0.0, cg_tolerance<T>());
    CHECK(relative_difference(s.dense_solve, f) <= tolerance);
    CHECK(relative_difference(s.dense_inverse, f) <= tolerance);
    CHECK(relative_difference(s.cublas_solve, f) <= tolerance);
    CHECK(relative_difference(s.cublas_inverse, f) <= tolerance);
    CHECK(relative_difference(s.vendor, f) <= tolerance);
    CHECK(relative_difference(s.band, f) <= tolerance);
    // H's singular values lie in [0.7 - 0.3, 0.7 + 0.3] (the centre minus and plus the
    // rest), so κ(HᵀH) ≤ (1 / 0.4)² = 6.25.
    CHECK(relative_difference(s.cg, f) <= lab::nan_max(tolerance, cg_error_bound<T>(6.25)));
  }

  TEST_CASE("every solver recovers f exactly from noise-free data with lambda = 0", "[blur_gather][blur_matrix_assembly][cg_normal_operator][cg_iteration]")
  {
    check_exact_recovery<float>();
    check_exact_recovery<double>();
  }

  // A blurred, noisy phantom with λ > 0: the dense pipeline (both routes, both
  // products), cuSOLVER and CG solve the same equations, so they agree to the
  // precision's accuracy times A's condition number (κ ≤ (‖p‖₁² + λ)/λ ≈ 100 here).
  template <typename T>
  void check_agreement()
  {
    const int size = 24;
    CAPTURE(lab::precision_name<T>());
    const Psf psf = step5::gaussian_psf(1.5, 7);
    const lab::Matrix<double> g =
      lab::add_gaussian_noise(step5::blur(psf, lab::shepp_logan(size)), 0.01, 3);
    const double lambda = 1e-2, condition = (1 + lambda) / lambda;
    const double tolerance = 10 * condition * epsilon<T>();
    const Solutions<T> s = solve_all<T>(psf, g, lambda, cg_tolerance<T>());
    CHECK(relative_difference(s.dense_solve, s.vendor) <= tolerance);
    CHECK(relative_difference(s.dense_inverse, s.vendor) <= tolerance);
    CHECK(relative_difference(s.cublas_solve, s.vendor) <= tolerance);
    CHECK(relative_difference(s.cublas_inverse, s.vendor) <= tolerance);
    CHECK(relative_difference(s.band, s.vendor) <= tolerance);
    CHECK(relative_difference(s.cg, s.vendor) <= lab::nan_max(tolerance, cg_error_bound<T>(condition)));
  }

  TEST_CASE("dense, cuSOLVER and CG solutions agree on a blurred, noisy phantom", "[blur_gather][blur_matrix_assembly][cg_normal_operator][cg_iteration]")
  {
    check_agreement<float>();
    check_agreement<double>();
  }

  // The band pipeline (panels of 64, solve_all) on images of many panels, so that the
  // band ends inside the matrix and the factorisation's loops stop early, on sizes
  // that are multiples of nothing, with symmetric and asymmetric PSFs: it solves the
  // dense pipeline's equations.
  template <typename T>
  void check_band_against_dense()
  {
    const double lambda = 1e-2, condition = (1 + lambda) / lambda;
    const double tolerance = 10 * condition * epsilon<T>();
    const Psf trail = psf_of({{0, 0, 0.4, 0.2, 0.1}, {0, 0, 0, 0.2, 0.1}}, "trail");
    for (const Psf &psf : {step5::gaussian_psf(1.5, 9), trail})
      for (const std::pair<int, int> size : {std::pair{40, 40}, std::pair{37, 29}, std::pair{23, 61}})
        {
          CAPTURE(lab::precision_name<T>(), psf.name, size.first, size.second);
          const lab::Matrix<double> f = random_image(size.first, size.second, 9);
          const lab::Matrix<double> g = lab::add_gaussian_noise(step5::blur(psf, f), 0.01, 4);
          const Solutions<T> s = solve_all<T>(psf, g, lambda, cg_tolerance<T>());
          CHECK(relative_difference(s.band, s.vendor) <= tolerance);
        }
  }

  // The TF32 pipeline: A and b by step-4's TF32 product, step-2's mixed-precision
  // solve with step-4's products (panels of 128 on a 576 × 576 A: five of them). Its
  // refinement must converge, and f must solve the exact equations to within TF32's
  // bound (restoration.cu: 10 u, u = 2⁻¹¹), poisoned output and all.
  TEST_CASE("the TF32 pipeline solves the equations to TF32's accuracy")
  {
    const int size = 24, n = size * size;
    const Psf psf = step5::gaussian_psf(1.5, 7);
    const lab::Matrix<double> g = lab::add_gaussian_noise(step5::blur(psf, lab::shepp_logan(size)), 0.01, 3);
    const double lambda = 1e-2;
    const step5::DevicePsf<float> device_psf(psf);
    lab::DeviceBuffer<float> device_g(lab::convert<float>(g)), f(g.size());
    f.poison();
    lab::Cublas cublas;
    step5::DensePipeline<float> pipeline(size, size, false);
    step2::MixedPrecisionSolve<float> solver(n, n, 128, cublas, step2::MixedPrecisionSolve<float>::Stored::lower_triangle,
                                             step4::gemm_tf32);
    const step5::StageTimes times = pipeline.run_with_solver(
      device_psf, float(lambda), device_g.data(), step4::gemm_tf32,
      [&](const float *a, const float *b, float *x) { return solver.solve(a, b, x); }, f.data());
    REQUIRE(times.failed_column == -1);
    CHECK(solver.converged());
    CHECK(step5::backward_error(psf, g, lambda, download_image(f, size, size)) <= 10 * std::ldexp(1.0, -11));
  }

  TEST_CASE("the band pipeline solves the dense pipeline's equations")
  {
    check_band_against_dense<float>();
    check_band_against_dense<double>();
  }

  // A PSF that moves every pixel one to the left: the pixels of the first column are
  // seen by nothing, so with λ = 0 the first pivot of A is zero, and the band
  // factorisation must say so (column 0, as LAPACK's info = 1).
  TEST_CASE("the band pipeline reports a normal matrix that is not positive definite")
  {
    const Psf shift = psf_of({{1, 0, 0}}, "shift");
    const int rows = 30, cols = 30;
    const step5::DevicePsf<double> device_psf(shift);
    lab::DeviceBuffer<double> g(lab::convert<double>(random_image(rows, cols, 2))), f(rows * cols);
    step5::BandPipeline<double> band(shift, rows, cols, step4::gemm, 64);
    CHECK(band.run(device_psf, 0.0, g.data(), f.data()).failed_column == 0);
  }

  // @sect3{Not positive definite}
  //
  // The shift of the band test below, on every dense pipeline: the course's products,
  // cuBLAS's, cuSOLVER's potrf, and in float the TF32 pipeline's mixed-precision
  // solve. Each must report the zero pivot at column 0, as LAPACK's info = 1, where
  // the program would otherwise go on with NaNs.
  template <typename T>
  void check_not_positive_definite()
  {
    CAPTURE(lab::precision_name<T>());
    const Psf shift = psf_of({{1, 0, 0}}, "shift");
    const int rows = 24, cols = 24;
    const step5::DevicePsf<T> device_psf(shift);
    lab::DeviceBuffer<T> g(lab::convert<T>(random_image(rows, cols, 2))), f(rows * cols), f_inverse(rows * cols);
    lab::Cublas cublas;
    step5::DensePipeline<T> pipeline(rows, cols, true);
    CHECK(pipeline.run(device_psf, T(0), g.data(), step4::gemm, f.data(), f_inverse.data()).failed_column == 0);
    CHECK(pipeline.run(device_psf, T(0), g.data(), lab::cublas_gemm_exact<T>(cublas), f.data(), f_inverse.data())
            .failed_column == 0);
    CHECK(pipeline.run_vendor(device_psf, T(0), g.data(), cublas, f.data()).failed_column == 0);
  }

  TEST_CASE("the dense, cuSOLVER and TF32 pipelines report a normal matrix that is not positive definite")
  {
    check_not_positive_definite<float>();
    check_not_positive_definite<double>();
    const Psf shift = psf_of({{1, 0, 0}}, "shift");
    const int size = 24, n = size * size;
    const step5::DevicePsf<float> device_psf(shift);
    lab::DeviceBuffer<float> g(lab::convert<float>(random_image(size, size, 2))), f(n);
    lab::Cublas cublas;
    step5::DensePipeline<float> pipeline(size, size, false);
    step2::MixedPrecisionSolve<float> solver(n, n, 128, cublas, step2::MixedPrecisionSolve<float>::Stored::lower_triangle,
                                             step4::gemm_tf32);
    const step5::StageTimes times = pipeline.run_with_solver(
      device_psf, 0.0f, g.data(), step4::gemm_tf32,
      [&](const float *a, const float *b, float *x) { return solver.solve(a, b, x); }, f.data());
    CHECK(times.failed_column == 0);
  }

  // @sect3{The thesis' formula}
  //
  // (HHᵀ + λI)⁻¹Hᵀg equals (HᵀH + λI)⁻¹Hᵀg when HᵀH = HHᵀ: a Gaussian is symmetric
  // under a half turn, and then H is symmetric (convolution and correlation agree);
  // a trail (a point moving away from its position during the exposure, to the right
  // and down) is not. Whatever the PSF, the formula must solve its own equations: its
  // result is compared with their exact solution on the CPU (a dense Cholesky solve in
  // double), to A's condition number times the precision, and its η for them (what the
  // program checks) must be a solve's.
  template <typename T>
  void check_thesis_formula()
  {
    const int size = 20;
    CAPTURE(lab::precision_name<T>());
    const lab::Matrix<double> f = lab::shepp_logan(size);
    const double lambda = 1e-2, tolerance = 1000 * epsilon<T>();
    const Psf gaussian = step5::gaussian_psf(1.2, 5);
    const Solutions<T> symmetric = solve_all<T>(gaussian, step5::blur(gaussian, f), lambda, 1e-5);
    CHECK(relative_difference(symmetric.thesis, symmetric.vendor) <= tolerance);
    const Psf trail = psf_of({{0, 0, 0.4, 0.2, 0.1}, {0, 0, 0, 0.2, 0.1}}, "trail");
    const lab::Matrix<double> g = step5::blur(trail, f);
    const Solutions<T> asymmetric = solve_all<T>(trail, g, lambda, 1e-5);
    CHECK(relative_difference(asymmetric.thesis, asymmetric.vendor) >= 0.01);
    const lab::Matrix<double> h = matrix_of([&](const Image &x) { return step5::blur(trail, x); }, size, size);
    const lab::Matrix<double> exact = regularised_solution(outer_gram(h), lambda, step5::blur_transpose(trail, g));
    const double condition = (1 + lambda) / lambda;
    CHECK(relative_difference(asymmetric.thesis, exact) <= 10 * condition * epsilon<T>());
    CHECK(step5::backward_error(trail, g, lambda, asymmetric.thesis, step5::Equations::thesis) <=
          step5::direct_tolerance(size * size, epsilon<T>() / 2));
  }

  TEST_CASE("the thesis' formula solves its own equations: wrong for a motion blur, right for a Gaussian")
  {
    check_thesis_formula<float>();
    check_thesis_formula<double>();
  }

  // @sect3{The FFT filters}
  //
  // With a periodic blur (wrap-around instead of zero boundary), the periodic filter
  // with λ = 0 inverts it exactly; the well-conditioned PSF keeps p̂ away from zero.
  template <typename T>
  void check_fft_inverts_periodic_blur()
  {
    CAPTURE(lab::precision_name<T>());
    const int rows = 12, cols = 15;
    const Psf psf = well_conditioned_psf();
    const lab::Matrix<double> f = random_image(rows, cols, 9);
    lab::DeviceBuffer<T> g(lab::convert<T>(step5::periodic_blur(psf, f))), result(f.size());
    result.poison();
    step5::FftFilter<T> filter(psf, rows, cols, step5::FftBoundary::periodic);
    filter.apply(T(0), g.data(), result.data());
    CHECK(relative_difference(download_image(result, rows, cols), f) <= 100 * epsilon<T>());
  }

  TEST_CASE("the FFT filter inverts a periodic blur exactly")
  {
    check_fft_inverts_periodic_blur<float>();
    check_fft_inverts_periodic_blur<double>();
  }

  // With λ > 0 on a random image, each filter against the exact solution of its own
  // model, solved on the CPU by a dense Cholesky solve in double: the periodic one
  // solves (CᵀC + λI) f = Cᵀg on the image, the mirrored one the same on the 2R × 2C
  // reflection of g, of which it returns the top-left part (fft_model.h). Odd, even
  // and non-square PSFs, none symmetric, so that a flipped, shifted or badly wrapped
  // PSF, a wrong reflection or a wrong crop shows. The agreement is A's condition
  // number times the precision; η of the whole result for its model (what the
  // program checks) a solve's.
  template <typename T>
  void check_fft_models()
  {
    const int rows = 8, cols = 9;
    const double lambda = 1e-2;
    const lab::Matrix<double> g = random_image(rows, cols, 13);
    lab::DeviceBuffer<T> device_g(lab::convert<T>(g)), result(g.size());
    for (const Psf &psf : shape_test_psfs())
      for (const step5::FftBoundary boundary : {step5::FftBoundary::periodic, step5::FftBoundary::mirrored})
        {
          const bool periodic = boundary == step5::FftBoundary::periodic;
          CAPTURE(lab::precision_name<T>(), psf.name, periodic);
          const lab::Matrix<double> extended = periodic ? g : step5::mirrored(g);
          const int model_rows = extended.rows(), model_cols = extended.cols();
          const lab::Matrix<double> c = matrix_of([&](const Image &x) { return step5::periodic_blur(psf, x); },
                                                  model_rows, model_cols);
          const lab::Matrix<double> exact =
            regularised_solution(gram(c), lambda, step5::periodic_blur_transpose(psf, extended));
          lab::Matrix<double> expected(rows, cols);
          for (int r = 0; r < rows; ++r)
            for (int col = 0; col < cols; ++col)
              expected(r, col) = exact(r, col);

          step5::FftFilter<T> filter(psf, rows, cols, boundary);
          result.poison();
          filter.apply(T(lambda), device_g.data(), result.data());
          const double norm = step5::absolute_sum(psf) * step5::absolute_sum(psf);
          const double condition = (norm + lambda) / lambda;
          CHECK(relative_difference(download_image(result, rows, cols), expected) <= 10 * condition * epsilon<T>());
          const lab::Matrix<double> whole = download_image(filter.extended_result(), model_rows, model_cols);
          CHECK(step5::backward_error(psf, g, lambda, whole,
                                      periodic ? step5::Equations::periodic : step5::Equations::mirrored) <=
                step5::direct_tolerance(rows * cols, epsilon<T>() / 2));
        }
  }

  TEST_CASE("each FFT filter gives the exact solution of its own model, random image, lambda > 0")
  {
    check_fft_models<float>();
    check_fft_models<double>();
  }
} // namespace

// @sect3{The timing harness}
//
// The faults a timing harness must not let through (issue 54), in step-5's: a CG that
// solves on its first call only and then hands back the image it kept (in a buffer of
// its own, beyond the reach of the poison), and one that writes f on its first call
// only. Each run's g is fresh, 2^e g (method_runs.h), and every run's image is checked
// by its η: both must fail, and the honest CG pass.
TEST_CASE("planted: a CG that replays its first image, or solves only once, FAILs the check of every run")
{
  const Psf psf = step5::gaussian_psf(1.5, 7);
  const lab::Matrix<double> g = lab::add_gaussian_noise(step5::blur(psf, lab::shepp_logan(33)), 0.01, 3);
  const double lambda = 0.01;
  const lab::Matrix<double> b = step5::blur_transpose(psf, g);
  step5::DeviceProblem<float> problem(psf, g);
  problem.backward_error_of_run = [&](const lab::Matrix<double> &f) {
    return step5::normal_backward_error(psf, b, lambda, f);
  };
  step5::ConjugateGradients<float> cg(g.rows(), g.cols());
  const std::function<void(float *)> solve = [&](float *f) {
    cg.solve(problem.psf, float(lambda), problem.g.data(), f, 1e-5, step5::cg_iteration_limit(g.rows(), g.cols()));
  };
  lab_test::FirstAnswerKept<float> kept;
  const std::function<void(float *)> replay = [&](float *f) { kept(f, g.size(), [&] { solve(f); }); };
  int solves_so_far = 0;
  const std::function<void(float *)> once = [&](float *f) {
    if (solves_so_far++ == 0)
      solve(f);
  };
  const auto blank = step5::blank_result("cg", "conjugate gradients", step5::MethodKind::iterative);
  const double tolerance = 1e-4;
  const step5::MethodResult right = step5::time_fast_method<float>(problem, 3, blank, solve);
  CHECK(right.worst_run_backward_error <= tolerance);
  for (const std::function<void(float *)> &fault : {replay, once})
    {
      const step5::MethodResult wrong = step5::time_fast_method<float>(problem, 3, blank, fault);
      INFO("the worst run's backward error: " << wrong.worst_run_backward_error);
      CHECK_FALSE(wrong.worst_run_backward_error <= tolerance);
    }
}
