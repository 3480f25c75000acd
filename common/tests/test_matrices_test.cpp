// Tests of lab/test_matrices.h: reproducible matrices with known properties.
#include <lab/compare.h>
#include <lab/matrix.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include "test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

using lab_test::close;

namespace
{
  template <typename T>
  bool identical(const lab::Matrix<T> &a, const lab::Matrix<T> &b)
  {
    if (a.rows() != b.rows() || a.cols() != b.cols() || a.ld() != b.ld())
      return false;
    return std::equal(a.data(), a.data() + a.size(), b.data());
  }

  // Cholesky factorisation in double (lower triangle). Returns false when a pivot is not
  // positive, i.e. the matrix is not positive definite. @p log_det receives log det A.
  bool cholesky(const lab::Matrix<double> &a, lab::Matrix<double> &l, double &log_det)
  {
    const int n = a.rows();
    l = lab::Matrix<double>(n, n);
    log_det = 0;
    for (int j = 0; j < n; ++j)
      {
        double d = a(j, j);
        for (int k = 0; k < j; ++k)
          d -= l(j, k) * l(j, k);
        if (!(d > 0))
          return false;
        l(j, j) = std::sqrt(d);
        log_det += 2 * std::log(l(j, j));
        for (int i = j + 1; i < n; ++i)
          {
            double s = a(i, j);
            for (int k = 0; k < j; ++k)
              s -= l(i, k) * l(j, k);
            l(i, j) = s / l(j, j);
          }
      }
    return true;
  }
} // namespace

TEST_CASE("test_matrices: the same seed gives the same matrix, another seed another")
{
  const int n = GENERATE(1, 2, 17);
  INFO("n " << n);
  CHECK(identical(lab::random_spd<double>(n, 100, 7), lab::random_spd<double>(n, 100, 7)));
  CHECK(identical(lab::random_diagonally_dominant<float>(n, 7),
                  lab::random_diagonally_dominant<float>(n, 7)));
  CHECK(identical(lab::random_lower_triangular<double>(n, 7),
                  lab::random_lower_triangular<double>(n, 7)));
  CHECK(identical(lab::random_matrix<float>(n, n + 1, 7),
                  lab::random_matrix<float>(n, n + 1, 7)));

  CHECK_FALSE(identical(lab::random_diagonally_dominant<float>(n, 7),
                        lab::random_diagonally_dominant<float>(n, 8)));
  CHECK_FALSE(identical(lab::random_lower_triangular<double>(n, 7),
                        lab::random_lower_triangular<double>(n, 8)));
  CHECK_FALSE(identical(lab::random_matrix<float>(n, n + 1, 7),
                        lab::random_matrix<float>(n, n + 1, 8)));
  if (n > 1) // 1 x 1: the eigenvalue 1 is the whole matrix, whatever the seed
    CHECK_FALSE(
      identical(lab::random_spd<double>(n, 100, 7), lab::random_spd<double>(n, 100, 8)));
}

TEST_CASE("test_matrices: the numbers are the same on every platform")
{
  // The C++ standard fixes std::mt19937_64: with the default seed 5489 its 10000th
  // number is 9981545732273789042. The generators turn its top 53 bits into a double
  // in [0, 1) themselves, so entry 9999 of this matrix is known exactly everywhere.
  const lab::Matrix<double> m = lab::random_matrix<double>(1, 10000, 5489);
  const double unit = double(std::uint64_t(9981545732273789042ull) >> 11) * 0x1p-53;
  CHECK(m(0, 9999) == -1.0 + 2.0 * unit);
}

TEST_CASE("test_matrices: float is the double matrix rounded (same seed, same matrix)")
{
  const int n = GENERATE(1, 2, 17, 100);
  INFO("n " << n);
  CHECK(identical(lab::random_spd<float>(n, 1e3, 42),
                  lab::convert<float>(lab::random_spd<double>(n, 1e3, 42))));
  CHECK(identical(lab::random_matrix<float>(n, 3, 42),
                  lab::convert<float>(lab::random_matrix<double>(n, 3, 42))));
  CHECK(identical(lab::random_lower_triangular<float>(n, 42),
                  lab::convert<float>(lab::random_lower_triangular<double>(n, 42))));
}

TEST_CASE("test_matrices: random_spd is exactly symmetric, positive definite, and has "
          "the eigenvalues 1 ... 1/condition")
{
  const int n = GENERATE(1, 2, 17, 100);
  const double condition = GENERATE(1.0, 10.0, 1e3, 1e6);
  INFO("n " << n << ", condition " << condition);
  const lab::Matrix<double> a = lab::random_spd<double>(n, condition, 2011);
  REQUIRE(a.rows() == n);
  REQUIRE(a.cols() == n);

  // Exactly symmetric, in double and after rounding to float.
  const lab::Matrix<float> af = lab::random_spd<float>(n, condition, 2011);
  bool symmetric = true;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      symmetric = symmetric && a(i, j) == a(j, i) && af(i, j) == af(j, i);
  CHECK(symmetric);

  // The eigenvalues are λ_i = condition^(-i/(n-1)). Under an orthogonal similarity
  // trace A = Σλ, ‖A‖_F² = Σλ² and log det A = Σ log λ do not change.
  double sum = 0, sum_of_squares = 0, sum_of_logs = 0;
  for (int i = 0; i < n; ++i)
    {
      const double lambda = n == 1 ? 1.0 : std::pow(condition, -double(i) / (n - 1));
      sum += lambda;
      sum_of_squares += lambda * lambda;
      sum_of_logs += std::log(lambda);
    }
  double trace = 0, frobenius2 = 0;
  for (int i = 0; i < n; ++i)
    {
      trace += a(i, i);
      for (int j = 0; j < n; ++j)
        frobenius2 += a(i, j) * a(i, j);
    }
  CAPTURE(trace, sum, frobenius2, sum_of_squares);
  CHECK(close(trace, sum, 1e-12));
  CHECK(close(frobenius2, sum_of_squares, 1e-12));

  // Positive definite: a Cholesky factorisation in double succeeds, and its
  // determinant is the product of the eigenvalues.
  lab::Matrix<double> l;
  double log_det = 0;
  REQUIRE(cholesky(a, l, log_det));
  CAPTURE(log_det, sum_of_logs);
  CHECK(std::abs(log_det - sum_of_logs) <= 1e-9 * (1 + std::abs(sum_of_logs)));

  // Dense: the reflections spread the eigenvalues over every entry.
  if (n > 1 && condition > 1)
    {
      double largest_off_diagonal = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j)
          largest_off_diagonal = lab::nan_max(largest_off_diagonal, std::abs(a(i, j)));
      CHECK(largest_off_diagonal > 1e-3);
    }
}

TEST_CASE("test_matrices: random_spd's extreme eigenvalues, by power iteration")
{
  // The largest eigenvalue by power iteration on A, the smallest on A⁻¹ (through the
  // Cholesky factor): their ratio is the condition number.
  const int n = 17;
  const double condition = 50;
  const lab::Matrix<double> a = lab::random_spd<double>(n, condition, 5);
  lab::Matrix<double> l;
  double log_det = 0;
  REQUIRE(cholesky(a, l, log_det));

  auto normalise = [](std::vector<double> &v) {
    double s = 0;
    for (double x : v)
      s += x * x;
    s = std::sqrt(s);
    for (double &x : v)
      x /= s;
  };
  auto multiply = [&](const std::vector<double> &v) {
    std::vector<double> w(n, 0.0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        w[i] += a(i, j) * v[j];
    return w;
  };
  auto solve = [&](std::vector<double> b) { // A⁻¹ b = L⁻ᵀ L⁻¹ b
    for (int i = 0; i < n; ++i)
      {
        for (int k = 0; k < i; ++k)
          b[i] -= l(i, k) * b[k];
        b[i] /= l(i, i);
      }
    for (int i = n - 1; i >= 0; --i)
      {
        for (int k = i + 1; k < n; ++k)
          b[i] -= l(k, i) * b[k];
        b[i] /= l(i, i);
      }
    return b;
  };
  auto rayleigh = [](const std::vector<double> &v, const std::vector<double> &w) {
    double s = 0;
    for (std::size_t i = 0; i < v.size(); ++i)
      s += v[i] * w[i];
    return s;
  };

  std::vector<double> v(n, 1.0), u(n, 1.0);
  normalise(v);
  normalise(u);
  double largest = 0, inverse_of_smallest = 0;
  for (int iteration = 0; iteration < 3000; ++iteration)
    {
      std::vector<double> w = multiply(v);
      largest = rayleigh(v, w);
      v = w;
      normalise(v);
      std::vector<double> z = solve(u);
      inverse_of_smallest = rayleigh(u, z);
      u = z;
      normalise(u);
    }
  CAPTURE(largest, inverse_of_smallest);
  CHECK(close(largest, 1.0, 1e-8));
  CHECK(close(inverse_of_smallest, condition, 1e-8));
}

TEST_CASE("test_matrices: random_spd refuses a condition number below 1 and n < 1")
{
  CHECK_THROWS_AS(lab::random_spd<double>(4, 0.5, 1), std::invalid_argument);
  CHECK_THROWS_AS(lab::random_spd<double>(4, std::nan(""), 1), std::invalid_argument);
  CHECK_THROWS_AS(lab::random_spd<float>(0, 10, 1), std::invalid_argument);
  CHECK_THROWS_AS(lab::random_spd<double>(-3, 10, 1), std::invalid_argument);
}

TEST_CASE("test_matrices: course_2011_spd is course_2011_factor times its transpose")
{
  const int n = GENERATE(1, 2, 3, 10, 16, 17, 20);
  INFO("n " << n);
  const lab::Matrix<double> l = lab::course_2011_factor<double>(n);
  const lab::Matrix<double> a = lab::course_2011_spd<double>(n);
  const lab::Matrix<float> lf = lab::course_2011_factor<float>(n);
  const lab::Matrix<float> af = lab::course_2011_spd<float>(n);
  REQUIRE(a.rows() == n);
  REQUIRE(a.cols() == n);
  REQUIRE(af.rows() == n);

  // The factor: (r + 2)(c + 2) on and below the diagonal, zeros above.
  bool factor_right = true;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      {
        const double expected = c <= r ? double(r + 2) * double(c + 2) : 0.0;
        factor_right = factor_right && l(r, c) == expected && lf(r, c) == float(expected);
      }
  CHECK(factor_right);

  // L Lᵀ in double is exact (integers far below 2⁵³), and every entry up to n = 20 is
  // below 2²⁴, so exact in float too.
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      {
        double s = 0;
        for (int k = 0; k < n; ++k)
          s += l(i, k) * l(j, k);
        if (a(i, j) != s || af(i, j) != static_cast<float>(s))
          ++wrong;
      }
  CHECK(wrong == 0);
  CHECK(a(0, 0) == 16.0); // 2 * 2 * 2²
}

TEST_CASE("test_matrices: random_diagonally_dominant")
{
  const int n = GENERATE(1, 2, 17, 100);
  INFO("n " << n);
  const lab::Matrix<double> a = lab::random_diagonally_dominant<double>(n, 3);
  const lab::Matrix<float> af = lab::random_diagonally_dominant<float>(n, 3);
  REQUIRE(a.rows() == n);
  REQUIRE(a.cols() == n);

  int positive = 0, negative = 0;
  for (int i = 0; i < n; ++i)
    {
      INFO("row " << i);
      double off = 0, off_f = 0;
      for (int j = 0; j < n; ++j)
        if (j != i)
          {
            CHECK(std::abs(a(i, j)) <= 1.0);
            off += std::abs(a(i, j));
            off_f += std::abs(double(af(i, j)));
          }
      // Strictly dominant, by a margin of 1 to 2.
      const double margin = std::abs(a(i, i)) - off;
      CHECK(margin >= 1.0 - 1e-12);
      CHECK(margin <= 2.0 + 1e-12);
      CHECK(std::abs(double(af(i, i))) > off_f);
      (a(i, i) > 0 ? positive : negative)++;
    }
  // Both signs occur on a large diagonal.
  if (n >= 17)
    {
      CHECK(positive > 0);
      CHECK(negative > 0);
    }
  // Not symmetric.
  if (n >= 2)
    {
      bool symmetric = true;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j)
          symmetric = symmetric && a(i, j) == a(j, i);
      CHECK_FALSE(symmetric);
    }
  CHECK_THROWS_AS(lab::random_diagonally_dominant<double>(0, 3), std::invalid_argument);
}

TEST_CASE("test_matrices: random_lower_triangular")
{
  const int n = GENERATE(1, 2, 17, 100);
  INFO("n " << n);
  const lab::Matrix<double> l = lab::random_lower_triangular<double>(n, 9);
  REQUIRE(l.rows() == n);
  REQUIRE(l.cols() == n);
  int above = 0, diagonal_out = 0, below_out = 0, below_zero = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      {
        if (j > i && l(i, j) != 0.0)
          ++above;
        if (j == i && !(l(i, j) >= 1.0 && l(i, j) <= 2.0))
          ++diagonal_out;
        if (j < i && !(std::abs(l(i, j)) <= 1.0 / n))
          ++below_out;
        if (j < i && l(i, j) == 0.0)
          ++below_zero;
      }
  CHECK(above == 0);
  CHECK(diagonal_out == 0);
  CHECK(below_out == 0);
  CHECK(below_zero == 0);
  CHECK_THROWS_AS(lab::random_lower_triangular<float>(0, 9), std::invalid_argument);
}

TEST_CASE("test_matrices: random_matrix")
{
  const int rows = GENERATE(1, 3, 17, 100);
  const int cols = GENERATE(1, 2, 100);
  INFO("rows " << rows << ", cols " << cols);
  const lab::Matrix<double> m = lab::random_matrix<double>(rows, cols, 11);
  REQUIRE(m.rows() == rows);
  REQUIRE(m.cols() == cols);
  REQUIRE(m.ld() == cols);
  double smallest = m(0, 0), largest = m(0, 0), sum = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      {
        smallest = -lab::nan_max(-smallest, -m(i, j));
        largest = lab::nan_max(largest, m(i, j));
        sum += m(i, j);
      }
  CHECK(smallest >= -1.0);
  CHECK(largest <= 1.0);
  if (rows * cols > 1)
    CHECK(smallest < largest); // not all equal
  if (rows * cols >= 1000)
    {
      // Uniform in [-1, 1]: mean near 0, values near both ends.
      CHECK(std::abs(sum / (rows * cols)) < 0.1);
      CHECK(smallest < -0.9);
      CHECK(largest > 0.9);
    }
}

TEST_CASE("test_matrices: sizes below 1 throw")
{
  CHECK_THROWS_AS(lab::course_2011_spd<double>(0), std::invalid_argument);
  CHECK_THROWS_AS(lab::course_2011_factor<float>(-1), std::invalid_argument);
  CHECK_THROWS_AS(lab::random_matrix<double>(0, 3, 1), std::invalid_argument);
  CHECK_THROWS_AS(lab::random_matrix<double>(3, 0, 1), std::invalid_argument);
  CHECK_THROWS_AS(lab::random_diagonally_dominant<float>(-5, 1), std::invalid_argument);
  CHECK_THROWS_AS(lab::random_lower_triangular<double>(0, 1), std::invalid_argument);
}
