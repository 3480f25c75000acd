// Tests of lab/lapack.h: LAPACK's Cholesky where the course was built with LAPACKE,
// nothing where it was not.
#include <lab/lapack.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <optional>

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
