// GPU tests of step-3's Gauss–Jordan variants and cuSOLVER's LU inverse: the residual
// bound on sizes that are not multiples of the blocks (1, 2, 31 ... 33, primes, about a
// thousand), float and double, on diagonally dominant matrices (every variant) and on
// random matrices that need pivoting (partial pivoting and cuSOLVER); singular matrices
// (a zero column first, in the middle, last; two equal rows) reported with the CPU's
// column and an all-zero X; the 2×2 matrix on which the thesis' rule loses every digit.
// X and the workspace are poisoned before every run. Exits with 77 without a GPU.
#include "gauss_jordan/cusolver_inverse.h"
#include "gauss_jordan/gauss_jordan.h"
#include "gauss_jordan/gauss_jordan_cpu.h"
#include "gauss_jordan/unstable_example.h"

#include <lab/device_buffer.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <vector>

namespace
{
  // Inverts @p a by @p variant (or by cuSOLVER when it is null); returns info.
  template <typename T>
  int invert(const step3::GaussJordanVariant<T> *variant, const lab::Matrix<T> &a, lab::Matrix<T> &x)
  {
    const int n = a.rows();
    lab::DeviceBuffer<T> work(a), inverse(a.size()), workspace(variant ? variant->workspace_elements(n) : 0);
    lab::DeviceBuffer<int> info(1);
    inverse.poison();
    workspace.poison();
    info.poison();
    if (variant)
      {
        step3::GaussJordanArgs<T> args;
        args.a = work.data();
        args.n = args.lda = args.ldx = n;
        args.x = inverse.data();
        args.info = info.data();
        args.workspace = workspace.data();
        variant->invert(args);
      }
    else
      step3::CusolverGeneralInverse<T>(n, n).invert(work.data(), inverse.data(), info.data(), nullptr);
    x = lab::Matrix<T>(n, n);
    inverse.download(x);
    int status = -1;
    info.copy_to_host(&status, 1);
    return status;
  }

  // Every variant, then cuSOLVER (null).
  template <typename T>
  std::vector<const step3::GaussJordanVariant<T> *> all_methods()
  {
    std::vector<const step3::GaussJordanVariant<T> *> list;
    for (const auto &v : step3::gauss_jordan_variants<T>())
      list.push_back(&v);
    list.push_back(nullptr);
    return list;
  }

  const char *name(const void *variant, const std::string &n) { return variant ? n.c_str() : "cuSOLVER"; }

  template <typename T>
  void check_sizes(bool large)
  {
    const std::vector<int> sizes = large ? std::vector<int>{1000, 1025}
                                         : std::vector<int>{1, 2, 3, 31, 32, 33, 97, 255, 256, 257, 331};
    for (const auto *method : all_methods<T>())
      for (const int n : sizes)
        for (const bool dominant : {true, false})
          {
            if (!dominant && method && method->pivoting != step3::Pivoting::partial)
              continue; // the thesis' rule is not stable on matrices that need pivots
            INFO(name(method, method ? method->name : "") << ", n = " << n << (sizeof(T) == 4 ? ", float" : ", double")
                                                          << (dominant ? ", diagonally dominant" : ", random"));
            const lab::Matrix<T> a =
              dominant ? lab::random_diagonally_dominant<T>(n, 50 + n) : lab::random_matrix<T>(n, n, 50 + n);
            lab::Matrix<T> x;
            REQUIRE(invert(method, a, x) == 0);
            // A random matrix is not always well conditioned: its bound carries a larger c.
            CHECK(lab::inverse_residual(a, x, n) <= lab::tolerance<T>(dominant ? 4 : 40, n));
          }
  }

  template <typename T>
  void check_singular()
  {
    const int n = 70;
    std::vector<lab::Matrix<T>> matrices;
    for (const int j : {0, 33, n - 1})
      {
        lab::Matrix<T> a = lab::random_matrix<T>(n, n, 8);
        for (int i = 0; i < n; ++i)
          a(i, j) = 0;
        matrices.push_back(a);
      }
    lab::Matrix<T> equal_rows = lab::random_matrix<T>(n, n, 9);
    for (int c = 0; c < n; ++c)
      equal_rows(40, c) = equal_rows(5, c);
    matrices.push_back(equal_rows);
    for (std::size_t m = 0; m < matrices.size(); ++m)
      {
        lab::Matrix<T> reference;
        const int expected = step3::gauss_jordan_cpu(matrices[m], reference);
        REQUIRE(expected > 0);
        for (const auto &variant : step3::gauss_jordan_variants<T>())
          {
            // The thesis' rule finds only exactly zero columns.
            if (variant.pivoting != step3::Pivoting::partial && m == 3)
              continue;
            INFO(variant.name << ", singular matrix " << m << (sizeof(T) == 4 ? ", float" : ", double"));
            lab::Matrix<T> x;
            CHECK(invert(&variant, matrices[m], x) == expected);
            bool all_zero = true;
            for (std::size_t e = 0; e < x.size(); ++e)
              all_zero = all_zero && x.data()[e] == T(0);
            CHECK(all_zero);
          }
      }
  }
} // namespace

TEST_CASE("Gauss-Jordan and cuSOLVER meet the residual bound", "[gpu]")
{
  check_sizes<float>(false);
  check_sizes<double>(false);
}

TEST_CASE("Gauss-Jordan and cuSOLVER at about a thousand", "[gpu][large]")
{
  check_sizes<float>(true);
  check_sizes<double>(true);
}

TEST_CASE("Gauss-Jordan reports singular matrices with the CPU's column, X all zero", "[gpu]")
{
  check_singular<float>();
  check_singular<double>();
}

TEST_CASE("Gauss-Jordan: the thesis' rule fails where partial pivoting does not", "[gpu]")
{
  const lab::Matrix<double> a = step3::unstable_example<double>();
  for (const auto &variant : step3::gauss_jordan_variants<double>())
    {
      INFO(variant.name);
      lab::Matrix<double> x;
      REQUIRE(invert(&variant, a, x) == 0);
      const double r = lab::inverse_residual(a, x, 2);
      if (variant.pivoting == step3::Pivoting::partial)
        CHECK(r <= lab::tolerance<double>(4, 2));
      else
        CHECK(r > 0.1);
    }
}
