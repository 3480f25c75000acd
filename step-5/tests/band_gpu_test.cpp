// GPU tests of the band storage (band_matrix.h): A = HᵀH + λI assembled on the GPU
// into a poisoned storage equals the CPU stencil (blur_model.h) entry by entry, for
// odd, even, non-square and asymmetric PSFs (up to 9 × 9, one with negative taps) on
// non-square images, several panel widths and a bandwidth larger than needed, float
// and double; every stored element that is not a lower entry coupled by the PSF (the
// scratch above the diagonal, the zeros below the band, the positions outside the
// matrix) is exactly zero; a layout that does not fit the problem is refused. Exits
// with 77 (CTest: skipped) without a GPU.
#include "gpu/band_matrix.h"
#include "gpu/blur_gpu.h"
#include "model/blur_model.h"
#include "model/psf.h"
#include "model/varying_blur.h"
#include "test_support.h"

#include <cholesky_blocked_cpu.h> // step-2: the CPU reference factorisation
#include <cholesky_variants.h>    // step-2: the factorisations
#include <gemm_kernels.h>         // step-4: step4::gemm

#include <lab/precision.h>
#include <lab/cublas_gemm.h>
#include <lab/cuda_check.h>
#include <lab/device_buffer.h>
#include <lab/random.h>
#include <lab/streams.h>
#include <lab_catch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace
{
  using namespace step5_test;

  // A 9 × 9 PSF of positive random weights: no symmetry, so a flipped or shifted tap
  // shows.
  Psf random_psf_9x9()
  {
    lab::Random random(17);
    Psf psf{lab::Matrix<double>(9, 9), "random 9x9"};
    for (int u = 0; u < 9; ++u)
      for (int v = 0; v < 9; ++v)
        psf.taps(u, v) = random.uniform(0.01, 1.0) / 40;
    return psf;
  }

  // The shape PSFs of the other tests, and a 3 × 5 with zero taps, a trail (psf.h),
  // the sharpening filter (negative taps) and a 9 × 9.
  std::vector<Psf> band_test_psfs()
  {
    std::vector<Psf> psfs = shape_test_psfs();
    psfs.push_back(psf_of({{0.0, 0.1, 0.2, 0.05, 0.0}, {0.1, 0.3, 0.02, 0.04, 0.06}, {0.01, 0.0, 0.05, 0.03, 0.04}},
                          "3x5"));
    psfs.push_back(step5::trail_psf(4, 30));
    psfs.push_back(step5::sharpen_psf());
    psfs.push_back(random_psf_9x9());
    return psfs;
  }

  // The PSF with every weight replaced by its magnitude. Where its normal matrix has a
  // zero, every product that the entry sums is zero, and the GPU's entry must be
  // exactly zero in any precision.
  Psf magnitudes(const Psf &psf)
  {
    Psf result = psf;
    for (int u = 0; u < psf.rows(); ++u)
      for (int v = 0; v < psf.cols(); ++v)
        result.taps(u, v) = std::abs(psf.taps(u, v));
    return result;
  }

  // What a storage element holds: the lower entries the PSF couples compared with the
  // stencil to `tolerance` (absolute), all others exactly zero. Returns the number of
  // elements that are wrong; `first_wrong` describes the first one.
  template <typename T>
  int wrong_elements(const step5::BandLayout &layout, const std::vector<T> &storage,
                     const step5::NormalStencil &stencil, const step5::NormalStencil &magnitude, double tolerance,
                     std::string &first_wrong, int &compared)
  {
    const int cols = stencil.image_cols;
    int wrong = 0;
    compared = 0;
    for (int i = 0; i < layout.n; ++i)
      for (int j = i - layout.reach; j <= i + layout.row_length - 1 - layout.reach; ++j)
        {
          const double got = storage[layout.index(i, j)];
          double expected = 0, bound = 0;
          if (j >= 0 && j <= i)
            {
              const int r = i / cols, c = i % cols, dr = j / cols - r, dc = j % cols - c;
              if (std::abs(dr) <= stencil.reach_rows && std::abs(dc) <= stencil.reach_cols)
                {
                  expected = stencil.at(r, c, dr, dc);
                  bound = magnitude.at(r, c, dr, dc);
                }
            }
          const bool right = bound == 0 ? got == 0 : std::abs(got - expected) <= tolerance;
          compared += bound != 0;
          if (!right && wrong++ == 0)
            first_wrong = "A(" + std::to_string(i) + ", " + std::to_string(j) + ") = " + std::to_string(got) +
                          ", expected " + std::to_string(expected);
        }
    return wrong;
  }

  // A poisoned storage of @p layout, A assembled into it on @p stream (the PSF's or the
  // field's), compared element by element with the stencil (wrong_elements).
  template <typename T>
  void check_assembled_band(const step5::DevicePsf<T> &psf, int rows, int cols, double lambda,
                            const step5::BandLayout &layout, const step5::NormalStencil &stencil,
                            const step5::NormalStencil &magnitude, double tolerance, cudaStream_t stream)
  {
    lab::DeviceBuffer<T> storage(layout.elements());
    storage.poison();
    LAB_CHECK(cudaDeviceSynchronize()); // the poison is on the default stream
    step5::assemble_normal_band(psf, rows, cols, T(lambda), layout, storage.data(), stream);
    LAB_CHECK(cudaStreamSynchronize(stream));
    std::vector<T> host(layout.elements());
    storage.copy_to_host(host.data(), host.size());
    std::string first_wrong;
    int compared = 0;
    const int wrong = wrong_elements(layout, host, stencil, magnitude, tolerance, first_wrong, compared);
    CAPTURE(first_wrong);
    CHECK(wrong == 0);
    CHECK(compared >= rows * cols); // the diagonal at least
  }

  template <typename T>
  void check_band_assembly()
  {
    const double lambda = 0.05;
    lab::CudaStream stream;
    for (const Psf &psf : band_test_psfs())
      for (const auto &[rows, cols] :
           std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {7, 11}, {12, 5}, {9, 20}, {16, 13}, {24, 24}})
        {
          if (psf.rows() > rows || psf.cols() > cols)
            continue;
          const step5::NormalStencil stencil = step5::normal_matrix_stencil(psf, rows, cols, lambda);
          const step5::NormalStencil magnitude = step5::normal_matrix_stencil(magnitudes(psf), rows, cols, lambda);
          // A few hundred rounding units of the largest diagonal entry: an entry sums
          // at most p.rows·p.cols products of rounded taps, whose magnitudes add up to
          // at most Σ p² (Cauchy–Schwarz), the diagonal of an inner pixel without λ.
          double diagonal = 0;
          for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
              diagonal = lab::nan_max(diagonal, magnitude.at(r, c, 0, 0));
          const double tolerance = 200 * std::numeric_limits<T>::epsilon() * diagonal;
          const step5::DevicePsf<T> device_psf(psf);
          const int bandwidth = step5::normal_matrix_bandwidth(psf, cols);
          // Panels of one column, odd, a tile, wider than the matrix; and a layout
          // with a wider band than A needs.
          for (const auto &[panel, extra] : std::vector<std::pair<int, int>>{{1, 0}, {3, 0}, {16, 0}, {64, 0}, {5, 7}})
            {
              CAPTURE(lab::precision_name<T>(), psf.name, rows, cols, panel, extra);
              check_assembled_band(device_psf, rows, cols, lambda,
                                   step5::BandLayout::make(rows * cols, bandwidth + extra, panel), stencil, magnitude,
                                   tolerance, stream.get());
            }
        }
  }

  TEST_CASE("the normal matrix assembled into the band equals the stencil, with zeros everywhere else")
  {
    check_band_assembly<float>();
    check_band_assembly<double>();
  }

  // The same for PSF fields (psf_view.h): a lens and a rotation of 3 × 3 and 5 × 5
  // pictures, and one PSF stored as a field (repeated_field), on odd, even and
  // non-square images, against the field's stencil on the CPU (which
  // varying_blur_cpu_test checks against the dense HᵀH + λI).
  template <typename T>
  void check_field_band_assembly()
  {
    const double lambda = 0.05;
    lab::CudaStream stream;
    std::vector<step5::SampledField> fields;
    for (const auto &[rows, cols] : std::vector<std::pair<int, int>>{{7, 11}, {12, 5}, {9, 20}, {16, 13}})
      for (const step5::PsfField &field : {step5::lens_field(0.6, 2.0, 3), step5::lens_field(1.0, 2.5, 5),
                                           step5::rotation_field(30, 3), step5::rotation_field(45, 5)})
        fields.push_back(step5::sample_field(field, rows, cols));
    fields.push_back(repeated_field(shape_test_psfs()[4], 9, 10)); // 4 x 3, even rows
    for (const step5::SampledField &field : fields)
      {
        const int rows = field.image_rows, cols = field.image_cols;
        const step5::NormalStencil stencil = step5::normal_matrix_stencil(field, lambda);
        const step5::NormalStencil magnitude = step5::normal_matrix_stencil(field_magnitudes(field), lambda);
        double diagonal = 0;
        for (int r = 0; r < rows; ++r)
          for (int c = 0; c < cols; ++c)
            diagonal = lab::nan_max(diagonal, magnitude.at(r, c, 0, 0));
        const double tolerance = 200 * std::numeric_limits<T>::epsilon() * diagonal;
        const step5::DevicePsf<T> device_field(field);
        REQUIRE(device_field.varies());
        const int bandwidth = (field.rows - 1) * cols + field.cols - 1;
        for (const auto &[panel, extra] : std::vector<std::pair<int, int>>{{3, 0}, {64, 0}, {5, 7}})
          {
            CAPTURE(lab::precision_name<T>(), field.name, rows, cols, panel, extra);
            check_assembled_band(device_field, rows, cols, lambda,
                                 step5::BandLayout::make(rows * cols, bandwidth + extra, panel), stencil, magnitude,
                                 tolerance, stream.get());
          }
      }
  }

  TEST_CASE("the normal matrix of a PSF field assembled into the band equals its stencil, zeros elsewhere")
  {
    check_field_band_assembly<float>();
    check_field_band_assembly<double>();
  }

  TEST_CASE("the band assembly refuses a layout of another order or a narrower band")
  {
    const Psf psf = shape_test_psfs()[3]; // 2 x 5
    const int rows = 7, cols = 11, bandwidth = step5::normal_matrix_bandwidth(psf, cols);
    const step5::DevicePsf<float> device_psf(psf);
    const step5::BandLayout wider_image = step5::BandLayout::make(rows * (cols + 1), bandwidth + 1, 4);
    const step5::BandLayout narrow = step5::BandLayout::make(rows * cols, bandwidth - 1, 4);
    lab::DeviceBuffer<float> storage(std::max(wider_image.elements(), narrow.elements()));
    CHECK_THROWS_AS(step5::assemble_normal_band(device_psf, rows, cols, 0.1f, wider_image, storage.data(), nullptr),
                    std::invalid_argument);
    CHECK_THROWS_AS(step5::assemble_normal_band(device_psf, rows, cols, 0.1f, narrow, storage.data(), nullptr),
                    std::invalid_argument);
  }

  // @sect3{The factorisation in the band storage}
  //
  // Step-2's variants 4, 5 and 9, told the bandwidth, factorise A in the band storage
  // laid out for the panels they take (Variant::panel_width; variant 9's are up to twice
  // the width it is given), on images of many panels (nb = 64 or 128, b = 264 or
  // 328): the band of the factor equals the CPU's dense Cholesky factor of the same A,
  // and every stored zero below the band is still exactly zero. The second check is the
  // one that sees a window too short above the diagonal: the overflowing entries of a
  // diagonal square, or of a lower-triangle product's tiles on the diagonal, land
  // there, and they are too small to show in the factor. On the 32 × 32 image variant
  // 9's panels are 64 wide, so 2nb − 1 = 127 columns above the diagonal would do for
  // its block columns, while cuBLAS's lower-triangle product writes whole 256 × 256
  // tiles (255 above): it needs the layout's max(2nb, 256).
  template <typename T>
  void check_band_factorisation(const std::string &variant_name, int side, const lab::Gemm<T> &gemm,
                                const std::string &gemm_name)
  {
    CAPTURE(lab::precision_name<T>(), variant_name, side, gemm_name);
    const int rows = side, cols = side, n = rows * cols, least_panel = 64;
    const double lambda = 1e-2;
    const Psf psf = step5::gaussian_psf(1.5, 9);
    const step2::Variant<T> &variant = *step2::find_variant<T>(variant_name);
    const step5::BandLayout layout =
      step5::BandLayout::make(n, step5::normal_matrix_bandwidth(psf, cols), variant.panel_width(n, least_panel));
    lab::DeviceBuffer<T> storage(layout.elements());
    storage.poison();
    step5::assemble_normal_band(step5::DevicePsf<T>(psf), rows, cols, T(lambda), layout, storage.data(), nullptr);
    lab::DeviceBuffer<T> workspace(variant.workspace_elements(n, least_panel));
    lab::DeviceBuffer<int> info(1);
    step2::CholeskyArgs<T> args = step2::cholesky_args<T>(storage.data() + layout.index(0, 0), n, layout.ld(),
                                                          info.data(), workspace.data(), gemm, least_panel);
    args.bandwidth = layout.bandwidth;
    variant.factorize(args);
    int status = -1;
    info.copy_to_host(&status, 1);
    REQUIRE(status == 0);
    std::vector<T> band(layout.elements());
    storage.copy_to_host(band.data(), band.size());

    // The CPU's factor of the same A, dense, in double.
    const step5::NormalStencil stencil = step5::normal_matrix_stencil(psf, rows, cols, lambda);
    lab::Matrix<double> factor = dense_normal_matrix(stencil);
    REQUIRE(step2::cholesky_blocked_cpu(factor) == 0);

    double largest_error = 0, largest_entry = 0;
    bool zeros_kept = true;
    for (int i = 0; i < n; ++i)
      for (int j = std::max(0, i - layout.reach); j <= i; ++j)
        {
          const double value = band[layout.index(i, j)];
          if (i - j > layout.bandwidth)
            zeros_kept = zeros_kept && value == 0;
          else
            {
              largest_error = lab::nan_max(largest_error, std::abs(value - factor(i, j)));
              largest_entry = lab::nan_max(largest_entry, std::abs(factor(i, j)));
            }
        }
    CHECK(zeros_kept);
    // κ(A) ≤ (1 + λ)/λ ≈ 100 bounds how far rounding moves the factor.
    CHECK(largest_error <= 1000 * std::numeric_limits<T>::epsilon() * largest_entry);
  }

  template <typename T>
  void check_band_factorisations(lab::Cublas &cublas)
  {
    for (const int side : {32, 40})
      {
        for (const char *variant : {"4_right_looking_gemm", "5_look_ahead", "9_lower_triangle_update"})
          check_band_factorisation<T>(variant, side, lab::Gemm<T>(step4::gemm), "step-4");
        check_band_factorisation<T>("9_lower_triangle_update", side, lab::cublas_gemm_exact<T>(cublas), "cuBLAS");
      }
  }

  TEST_CASE("the band Cholesky factor equals the dense one and keeps the zeros below the band")
  {
    lab::Cublas cublas;
    check_band_factorisations<float>(cublas);
    check_band_factorisations<double>(cublas);
  }
} // namespace
