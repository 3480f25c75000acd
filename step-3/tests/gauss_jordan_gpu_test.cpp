// GPU tests of step-3's Gauss–Jordan variants and of cuSOLVER's LU inverse: the
// residual bound ‖A X − I‖_F / (‖A‖_F ‖X‖_F) <= 4 n ε on sizes that are not multiples
// of any block or panel (1, 2, 2^k ± 1, primes, about a thousand), float and double,
// on diagonally dominant matrices and on matrices whose pivots are exactly zero in
// turn (every variant), and on random matrices that need pivoting (partial pivoting
// and cuSOLVER: the thesis' rule has no bound there); leading dimensions larger than
// n; singular matrices (a zero column first, in the middle, last; two equal rows)
// reported with the CPU's column and an all-zero X; the 2×2 matrix on which the
// thesis' rule loses every digit. X, the workspace and info are poisoned (NaN, -1)
// before every run, so an entry a variant forgets to write shows up. This program
// exits with 77 (CTest: skipped) on a machine without a GPU.
#include "gauss_jordan/cusolver_inverse.h"
#include "gauss_jordan/gauss_jordan.h"
#include "gauss_jordan/gauss_jordan_cpu.h"
#include "gauss_jordan/unstable_example.h"
#include "gauss_jordan_matrices.h"
#include "result_checks.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <cstddef>
#include <string>
#include <vector>

using namespace gauss_jordan_test;

namespace
{
  // Inverts @p a by @p variant on the GPU; returns info and X in @p x (same ld as a).
  template <typename T>
  int invert(const step3::GaussJordanVariant<T> &variant, const lab::Matrix<T> &a, lab::Matrix<T> &x,
             lab::Cublas &cublas)
  {
    const int n = a.rows();
    lab::DeviceBuffer<T> work(a), inverse(a.size()), workspace(variant.workspace_elements(n));
    lab::DeviceBuffer<int> info(1);
    inverse.poison();
    workspace.poison();
    info.poison();
    variant.invert(step3::gauss_jordan_args(work.data(), n, a.ld(), inverse.data(), info.data(), workspace.data(),
                                            lab::cublas_gemm_exact<T>(cublas)));
    x = lab::Matrix<T>(n, n, a.ld());
    inverse.download(x);
    int status = -1;
    info.copy_to_host(&status, 1);
    return status;
  }

  // The same by cuSOLVER's getrf + getrs(I).
  template <typename T>
  int invert_cusolver(const lab::Matrix<T> &a, lab::Matrix<T> &x)
  {
    const int n = a.rows();
    lab::DeviceBuffer<T> work(a), inverse(a.size());
    lab::DeviceBuffer<int> info(1);
    inverse.poison();
    info.poison();
    step3::CusolverGeneralInverse<T>(n, a.ld()).invert(work.data(), inverse.data(), info.data(), nullptr);
    x = lab::Matrix<T>(n, n, a.ld());
    inverse.download(x);
    int status = -1;
    info.copy_to_host(&status, 1);
    return status;
  }

  const char *precision(float) { return "float"; }
  const char *precision(double) { return "double"; }

  // One successful inversion: info 0, no NaN or Inf, the residual within 4 n ε.
  template <typename T>
  void check_inverse(int status, const lab::Matrix<T> &a, const lab::Matrix<T> &x)
  {
    const int n = a.rows();
    CHECK(status == 0);
    if (status != 0)
      return;
    CHECK(all_finite(x));
    CHECK(lab::inverse_residual(a, x, n) <= lab::tolerance<T>(4, n));
  }

  template <typename T>
  void check_sizes(lab::Cublas &cublas, bool large)
  {
    const std::vector<int> sizes = large ? std::vector<int>{1000, 1025}
                                         : std::vector<int>{1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127,
                                                            129, 257, 331};
    for (const int n : sizes)
      {
        const lab::Matrix<T> dominant = lab::random_diagonally_dominant<T>(n, 50 + n);
        const lab::Matrix<T> swaps = needs_swaps<T>(n, 60 + n);
        const lab::Matrix<T> random = lab::random_matrix<T>(n, n, 70 + n);
        lab::Matrix<T> x;
        for (const auto &variant : step3::gauss_jordan_variants<T>())
          {
            INFO(variant.name << ", n = " << n << ", " << precision(T()));
            {
              INFO("diagonally dominant");
              check_inverse(invert(variant, dominant, x, cublas), dominant, x);
            }
            {
              INFO("exactly zero pivots");
              check_inverse(invert(variant, swaps, x, cublas), swaps, x);
            }
            if (variant.pivoting == step3::Pivoting::partial)
              {
                INFO("random");
                check_inverse(invert(variant, random, x, cublas), random, x);
              }
          }
        INFO("cuSOLVER, n = " << n << ", " << precision(T()));
        check_inverse(invert_cusolver(dominant, x), dominant, x);
        check_inverse(invert_cusolver(random, x), random, x);
      }
  }

  template <typename T>
  void check_singular(lab::Cublas &cublas)
  {
    for (const int n : {70, 300})
      {
        std::vector<lab::Matrix<T>> matrices;
        std::vector<std::string> names;
        for (const int j : {0, 33, 129, n - 1})
          if (j < n)
            {
              matrices.push_back(with_zero_column<T>(n, j, 8 + j));
              names.push_back("zero column " + std::to_string(j));
            }
        matrices.push_back(with_equal_rows<T>(n, 5, 40, 9));
        names.push_back("two equal rows");
        for (std::size_t m = 0; m < matrices.size(); ++m)
          {
            lab::Matrix<T> x;
            const int expected = step3::gauss_jordan_cpu(matrices[m], x);
            REQUIRE(expected > 0);
            const bool exactly_zero = m + 1 < matrices.size();
            for (const auto &variant : step3::gauss_jordan_variants<T>())
              {
                // The thesis' rule finds only exactly zero columns.
                if (variant.pivoting != step3::Pivoting::partial && !exactly_zero)
                  continue;
                INFO(variant.name << ", n = " << n << ", " << names[m] << ", " << precision(T()));
                CHECK(invert(variant, matrices[m], x, cublas) == expected);
                CHECK(all_zero(x));
              }
            // cuSOLVER's info numbers a pivot of the LU of A^T (cusolver_inverse.h): only
            // that it is not 0 is checked, and that X is zero.
            if (exactly_zero)
              {
                INFO("cuSOLVER, n = " << n << ", " << names[m] << ", " << precision(T()));
                CHECK(invert_cusolver(matrices[m], x) > 0);
                CHECK(all_zero(x));
              }
          }
      }
  }

  template <typename T>
  void check_padded(lab::Cublas &cublas)
  {
    for (const int n : {33, 130})
      {
        const lab::Matrix<T> random = lab::random_matrix<T>(n, n, n);
        lab::Matrix<T> a(n, n, n + 3), x;
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            a(i, j) = random(i, j);
        for (const auto &variant : step3::gauss_jordan_variants<T>())
          if (variant.pivoting == step3::Pivoting::partial)
            {
              INFO(variant.name << ", n = " << n << ", ld = " << n + 3 << ", " << precision(T()));
              check_inverse(invert(variant, a, x, cublas), a, x);
            }
        INFO("cuSOLVER, n = " << n << ", ld = " << n + 3 << ", " << precision(T()));
        check_inverse(invert_cusolver(a, x), a, x);
      }
  }

  template <typename T>
  void check_unstable_example(lab::Cublas &cublas)
  {
    const lab::Matrix<T> a = step3::unstable_example<T>();
    lab::Matrix<T> x;
    for (const auto &variant : step3::gauss_jordan_variants<T>())
      {
        INFO(variant.name << ", " << precision(T()));
        if (variant.pivoting == step3::Pivoting::partial)
          check_inverse(invert(variant, a, x, cublas), a, x);
        else
          {
            // Finite, reported as a success, and wrong: X(0, 0) is 0 instead of -1. The
            // program's verdict (result_checks.h) must call that the expected failure.
            const int info = invert(variant, a, x, cublas);
            CHECK(info == 0);
            CHECK(all_finite(x));
            CHECK(lab::inverse_residual(a, x, 2) > 0.1);
            lab::Checks checks;
            CHECK(step3::judge_unstable(checks, variant.name, info, lab::inverse_residual(a, x, 2),
                                        1e3 * step3::sweep_tolerance<T>()));
          }
      }
    INFO("cuSOLVER, " << precision(T()));
    check_inverse(invert_cusolver(a, x), a, x);
  }
} // namespace

TEST_CASE("Gauss-Jordan variants and cuSOLVER meet the residual bound, float", "[gpu]")
{
  lab::Cublas cublas;
  check_sizes<float>(cublas, false);
}

TEST_CASE("Gauss-Jordan variants and cuSOLVER meet the residual bound, double", "[gpu]")
{
  lab::Cublas cublas;
  check_sizes<double>(cublas, false);
}

TEST_CASE("Gauss-Jordan variants and cuSOLVER meet the residual bound at about a thousand", "[gpu][large]")
{
  lab::Cublas cublas;
  check_sizes<float>(cublas, true);
  check_sizes<double>(cublas, true);
}

TEST_CASE("Gauss-Jordan variants and cuSOLVER with a leading dimension larger than n", "[gpu]")
{
  lab::Cublas cublas;
  check_padded<float>(cublas);
  check_padded<double>(cublas);
}

TEST_CASE("Gauss-Jordan reports singular matrices with the CPU's column, X all zero", "[gpu]")
{
  lab::Cublas cublas;
  check_singular<float>(cublas);
  check_singular<double>(cublas);
}

TEST_CASE("Gauss-Jordan: the thesis' rule fails where partial pivoting does not", "[gpu]")
{
  lab::Cublas cublas;
  check_unstable_example<float>(cublas);
  check_unstable_example<double>(cublas);
}
