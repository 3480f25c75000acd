// GPU tests of every variant of step-2 against the residual bound, on sizes chosen to
// break the tiling (1, 2, tile ± 1 for the tiles 16 and 64 and the panel widths,
// primes, about a thousand), in float and double; on matrices that fail at a chosen
// column (first, middle, last), which every variant must report as LAPACK's info,
// leaving no NaN behind. The workspace is poisoned (all NaN) before each run, so a
// variant that reads scratch it did not write fails. This program exits with 77
// (CTest: skipped) on a machine without a GPU.
#include "cholesky_variants.h"
#include "spd_except_at.h"

#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <cmath>
#include <vector>

namespace
{
  // Factorises @p a with @p variant on the GPU; returns info and the factor in @p l.
  template <typename T>
  int factorize(const step2::Variant<T> &variant, const lab::Matrix<T> &a, lab::Matrix<T> &l,
                lab::Cublas &cublas, int panel_width = 256)
  {
    const int n = a.rows();
    lab::DeviceBuffer<T> matrix(a), workspace(variant.workspace_elements(n, panel_width));
    lab::DeviceBuffer<int> info(1);
    info.poison();
    workspace.poison();
    step2::CholeskyArgs<T> args;
    args.a = matrix.data();
    args.n = n;
    args.ld = a.ld();
    args.info = info.data();
    args.workspace = workspace.data();
    args.panel_width = panel_width;
    args.gemm = lab::cublas_gemm_exact<T>(cublas);
    variant.factorize(args);
    l = lab::Matrix<T>(n, n, a.ld());
    matrix.download(l);
    int status = -1;
    info.copy_to_host(&status, 1);
    return status;
  }

  // The sizes every variant must get right. The two of about a thousand are a test case
  // of their own (tag [large]), which the compute-sanitizer runs leave out.
  template <typename T>
  void check_sizes(lab::Cublas &cublas, bool large)
  {
    const std::vector<int> sizes = large ? std::vector<int>{1000, 1025}
                                         : std::vector<int>{1, 2, 15, 16, 17, 31, 63, 64, 65, 97, 127,
                                                            128, 129, 255, 256, 257, 331, 511, 513};
    for (const step2::Variant<T> &variant : step2::variants<T>())
      for (const int n : sizes)
        {
          INFO(variant.name << ", n = " << n << (sizeof(T) == 4 ? ", float" : ", double"));
          const lab::Matrix<T> a = lab::random_spd<T>(n, 1e3, 100 + n);
          lab::Matrix<T> l;
          CHECK(factorize(variant, a, l, cublas) == 0);
          CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<T>(4, n));
        }
  }

  template <typename T>
  void check_failures(lab::Cublas &cublas)
  {
    const int n = 300;
    for (const step2::Variant<T> &variant : step2::variants<T>())
      for (const int c : {0, 17, 64, 150, 256, n - 1})
        {
          INFO(variant.name << ", failing column " << c);
          const lab::Matrix<T> a = spd_except_at<T>(n, c);
          lab::Matrix<T> l;
          CHECK(factorize(variant, a, l, cublas) == c + 1);
          CHECK(lower_triangle_is_finite(l));
        }
  }
} // namespace

TEST_CASE("every variant meets the residual bound, float", "[gpu]")
{
  lab::Cublas cublas;
  check_sizes<float>(cublas, false);
}

TEST_CASE("every variant meets the residual bound, double", "[gpu]")
{
  lab::Cublas cublas;
  check_sizes<double>(cublas, false);
}

TEST_CASE("every variant meets the residual bound at about a thousand", "[gpu][large]")
{
  lab::Cublas cublas;
  check_sizes<float>(cublas, true);
  check_sizes<double>(cublas, true);
}

TEST_CASE("every variant reports the failing column and leaves no NaN", "[gpu]")
{
  lab::Cublas cublas;
  check_failures<float>(cublas);
  check_failures<double>(cublas);
}

TEST_CASE("variant 4 with every panel width, on sizes around them", "[gpu]")
{
  lab::Cublas cublas;
  const step2::Variant<float> &variant = *step2::find_variant<float>("4");
  const step2::Variant<double> &variant_double = *step2::find_variant<double>("4");
  for (const int panel_width : {64, 128, 192, 512})
    for (const int n : {panel_width - 1, panel_width + 1, 2 * panel_width + 3, 700})
      {
        INFO("panel width " << panel_width << ", n = " << n);
        const lab::Matrix<float> a = lab::random_spd<float>(n, 1e3, n);
        lab::Matrix<float> l;
        CHECK(factorize(variant, a, l, cublas, panel_width) == 0);
        CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<float>(4, n));
        const lab::Matrix<double> ad = lab::random_spd<double>(n, 1e3, n);
        lab::Matrix<double> ld;
        CHECK(factorize(variant_double, ad, ld, cublas, panel_width) == 0);
        CHECK(lab::cholesky_residual(ad, ld) <= lab::tolerance<double>(4, n));
      }
}
