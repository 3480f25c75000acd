// Tests of lab/lapack.h: LAPACK's Cholesky and BLAS's product where the course was
// built with LAPACKE, nothing where it was not.
#include <lab/compare.h>
#include <lab/lapack.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>

namespace
{
  template <typename T>
  lab::Matrix<T> not_positive_definite()
  {
    // The leading 1 x 1 minor is 4 > 0, the 2 x 2 one is 4·1 − 2·2 = 0: info = 2.
    lab::Matrix<T> a(3, 3);
    const T values[3][3] = {{4, 2, 0}, {2, 1, 3}, {0, 3, 5}};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        a(r, c) = values[r][c];
    return a;
  }

  // A copy of @p x stored with @p padding extra numbers at the end of each row, which
  // hold a marker.
  template <typename T>
  lab::Matrix<T> padded(const lab::Matrix<T> &x, int padding)
  {
    lab::Matrix<T> result(x.rows(), x.cols(), x.cols() + padding);
    for (std::size_t i = 0; i < result.size(); ++i)
      result.data()[i] = T(-777);
    for (int r = 0; r < x.rows(); ++r)
      for (int c = 0; c < x.cols(); ++c)
        result(r, c) = x(r, c);
    return result;
  }

  // The largest |C − A B| of an entry over its bound (k + 2) ε Σ_p |A_ip| |B_pj|, with
  // A B computed in double: at most 1 for a correct product in precision T.
  template <typename T>
  double product_error(const lab::Matrix<T> &a, const lab::Matrix<T> &b,
                       const lab::Matrix<T> &c)
  {
    const int k = a.cols();
    const double epsilon = std::numeric_limits<T>::epsilon();
    double worst = 0;
    for (int i = 0; i < a.rows(); ++i)
      for (int j = 0; j < b.cols(); ++j)
        {
          double sum = 0;
          double magnitude = 0;
          for (int p = 0; p < k; ++p)
            {
              sum += double(a(i, p)) * double(b(p, j));
              magnitude += std::abs(double(a(i, p)) * double(b(p, j)));
            }
          const double error = std::abs(double(c(i, j)) - sum);
          worst = lab::nan_max(worst, error / ((k + 2) * epsilon * magnitude));
        }
    return worst;
  }

  template <typename T>
  void check_blas_multiply(int m, int n, int k, int padding)
  {
    INFO("m " << m << ", n " << n << ", k " << k << ", padding " << padding);
    const lab::Matrix<T> a = padded(lab::random_matrix<T>(m, k, 10 + m), padding);
    const lab::Matrix<T> b = padded(lab::random_matrix<T>(k, n, 20 + n), padding);
    lab::Matrix<T> c(2, 3);
    if (!lab::blas_multiply(a, b, c))
      {
        CHECK_FALSE(lab::have_lapack());
        CHECK(c.rows() == 2);
        return;
      }
    REQUIRE(lab::have_lapack());
    REQUIRE(c.rows() == m);
    REQUIRE(c.cols() == n);
    const double error = product_error(a, b, c);
    CAPTURE(error);
    CHECK(error <= 1);
  }
} // namespace

TEST_CASE("lapack: lapack_cholesky of SPD matrices, float and double")
{
  const int n = GENERATE(1, 2, 17, 100);
  INFO("n " << n);
  const lab::Matrix<double> a = lab::random_spd<double>(n, 1e3, 1234);
  const lab::Matrix<float> af = lab::random_spd<float>(n, 1e3, 1234);
  lab::Matrix<double> l = a;
  lab::Matrix<float> lf = af;
  const std::optional<int> info = lab::lapack_cholesky(l);
  const std::optional<int> info_f = lab::lapack_cholesky(lf);
  if (!lab::have_lapack())
    {
      CHECK_FALSE(info.has_value());
      CHECK_FALSE(info_f.has_value());
      return;
    }
  REQUIRE(info.has_value());
  REQUIRE(info_f.has_value());
  CHECK(*info == 0);
  CHECK(*info_f == 0);
  const double r = lab::cholesky_residual(a, l);
  const double rf = lab::cholesky_residual(af, lf);
  CAPTURE(r, rf);
  CHECK(r <= lab::tolerance<double>(8, n));
  CHECK(rf <= lab::tolerance<float>(8, n));
  // It really factorised: L(0, 0) = √A(0, 0) (A(0,0) = 1 when n = 1).
  CHECK(l(0, 0) * l(0, 0) <= a(0, 0) * (1 + 1e-15));
  CHECK(l(0, 0) * l(0, 0) >= a(0, 0) * (1 - 1e-15));
}

TEST_CASE("lapack: lapack_cholesky of a padded matrix")
{
  const int n = 17;
  const lab::Matrix<double> a = lab::random_spd<double>(n, 100, 99);
  lab::Matrix<double> l(n, n, n + 5);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      l(r, c) = a(r, c);
  const std::optional<int> info = lab::lapack_cholesky(l);
  if (!lab::have_lapack())
    {
      CHECK_FALSE(info.has_value());
      return;
    }
  REQUIRE(info.has_value());
  CHECK(*info == 0);
  CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<double>(8, n));
}

TEST_CASE("lapack: a matrix that is not positive definite gives the failing column")
{
  lab::Matrix<double> a = not_positive_definite<double>();
  lab::Matrix<float> af = not_positive_definite<float>();
  const std::optional<int> info = lab::lapack_cholesky(a);
  const std::optional<int> info_f = lab::lapack_cholesky(af);
  lab::Matrix<double> negative(1, 1);
  negative(0, 0) = -1;
  const std::optional<int> info_negative = lab::lapack_cholesky(negative);
  if (!lab::have_lapack())
    {
      CHECK_FALSE(info.has_value());
      CHECK_FALSE(info_f.has_value());
      CHECK_FALSE(info_negative.has_value());
      return;
    }
  REQUIRE(info.has_value());
  REQUIRE(info_f.has_value());
  REQUIRE(info_negative.has_value());
  CHECK(*info == 2);
  CHECK(*info_f == 2);
  CHECK(*info_negative == 1);
}

TEST_CASE("lapack: a matrix that is not square is refused")
{
  lab::Matrix<double> a(3, 4);
  if (lab::have_lapack())
    CHECK_THROWS_AS(lab::lapack_cholesky(a), std::invalid_argument);
  else
    CHECK_FALSE(lab::lapack_cholesky(a).has_value());
}

TEST_CASE("lapack: blas_multiply of rectangular and padded matrices, float and double")
{
  const int shapes[][3] = {{1, 1, 1}, {2, 3, 4},    {17, 33, 65},
                           {100, 1, 7}, {1, 100, 3}, {129, 65, 257}};
  for (const auto &shape : shapes)
    for (const int padding : {0, 3})
      {
        check_blas_multiply<float>(shape[0], shape[1], shape[2], padding);
        check_blas_multiply<double>(shape[0], shape[1], shape[2], padding);
      }
}

TEST_CASE("lapack: blas_multiply knows which factor comes first")
{
  // A B ≠ B A for these two: A = [[1, 2], [3, 4]], B = [[0, 1], [1, 0]] swaps the
  // columns of A, so A B = [[2, 1], [4, 3]].
  lab::Matrix<double> a(2, 2), b(2, 2), c;
  a(0, 0) = 1, a(0, 1) = 2, a(1, 0) = 3, a(1, 1) = 4;
  b(0, 1) = 1, b(1, 0) = 1;
  if (!lab::blas_multiply(a, b, c))
    {
      CHECK_FALSE(lab::have_lapack());
      return;
    }
  CHECK(c(0, 0) == 2);
  CHECK(c(0, 1) == 1);
  CHECK(c(1, 0) == 4);
  CHECK(c(1, 1) == 3);
}

TEST_CASE("lapack: blas_multiply may overwrite one of its factors")
{
  const lab::Matrix<float> a = lab::random_matrix<float>(20, 20, 5);
  const lab::Matrix<float> b = lab::random_matrix<float>(20, 20, 6);
  lab::Matrix<float> product = a;
  if (!lab::blas_multiply(product, b, product))
    {
      CHECK_FALSE(lab::have_lapack());
      return;
    }
  CHECK(product_error(a, b, product) <= 1);
}

TEST_CASE("lapack: blas_multiply with an empty inner dimension gives zeros")
{
  const lab::Matrix<double> a(3, 0), b(0, 4);
  lab::Matrix<double> c(1, 1);
  c(0, 0) = 42;
  if (!lab::blas_multiply(a, b, c))
    {
      CHECK_FALSE(lab::have_lapack());
      return;
    }
  REQUIRE(c.rows() == 3);
  REQUIRE(c.cols() == 4);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      CHECK(c(i, j) == 0);
}

TEST_CASE("lapack: blas_multiply refuses factors that do not fit, with or without BLAS")
{
  const lab::Matrix<float> a(3, 4), b(5, 2);
  lab::Matrix<float> c;
  CHECK_THROWS_AS(lab::blas_multiply(a, b, c), std::invalid_argument);
}

TEST_CASE("lapack: blas_multiply reuses a C of the right shape, overwriting what it held")
{
  lab::Matrix<float> a(2, 3), b(3, 2), c(2, 2, 5);
  for (int i = 0; i < 2; ++i)
    for (int p = 0; p < 3; ++p)
      a(i, p) = float(i + p), b(p, i) = float(p - i);
  for (std::size_t e = 0; e < c.size(); ++e)
    c.data()[e] = 7;
  if (!lab::blas_multiply(a, b, c))
    {
      CHECK_FALSE(lab::have_lapack());
      return;
    }
  REQUIRE(c.rows() == 2);
  REQUIRE(c.cols() == 2);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      {
        float expected = 0;
        for (int p = 0; p < 3; ++p)
          expected += a(i, p) * b(p, j);
        CHECK(c(i, j) == expected);
      }
  // k = 0 into the same C: zeros, not what C held.
  const lab::Matrix<float> empty_a(2, 0), empty_b(0, 2);
  REQUIRE(lab::blas_multiply(empty_a, empty_b, c));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      CHECK(c(i, j) == 0);
}

TEST_CASE("lapack: trtri inverts a lower triangle and reports a zero on the diagonal")
{
  const int n = 50;
  const lab::Matrix<double> l = lab::random_lower_triangular<double>(n, 3);
  lab::Matrix<double> x = l;
  const std::optional<int> info = lab::lapack_triangular_inverse(x);
  if (!lab::have_lapack())
    {
      CHECK_FALSE(info.has_value());
      return;
    }
  REQUIRE(info == 0);
  CHECK(lab::inverse_residual(l, x, n) < lab::tolerance<double>(4, n));
  lab::Matrix<float> singular = lab::random_lower_triangular<float>(n, 4);
  singular(17, 17) = 0;
  CHECK(lab::lapack_triangular_inverse(singular) == 18);
}
