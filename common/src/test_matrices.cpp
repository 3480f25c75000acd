#include <lab/random.h>
#include <lab/test_matrices.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace lab
{
  namespace
  {
    void require_size(int n)
    {
      if (n < 1)
        throw std::invalid_argument("test matrix size must be at least 1");
    }

    // Applies the Householder reflection H = I - 2 v vᵀ / (vᵀv) from both sides,
    // A <- H A H, in O(n²): with w = A v / (vᵀv) and s = vᵀ w / (vᵀv),
    // H A H = A - 2 v wᵀ - 2 w vᵀ + 4 s v vᵀ. H is orthogonal, so the eigenvalues of A
    // do not change.
    void reflect_both_sides(Matrix<double> &a, const std::vector<double> &v)
    {
      const int n = a.rows();
      double vv = 0;
      for (double x : v)
        vv += x * x;
      std::vector<double> w(n, 0.0);
      for (int i = 0; i < n; ++i)
        {
          for (int j = 0; j < n; ++j)
            w[i] += a(i, j) * v[j];
          w[i] /= vv;
        }
      double s = 0;
      for (int i = 0; i < n; ++i)
        s += v[i] * w[i];
      s /= vv;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          a(i, j) += -2 * v[i] * w[j] - 2 * w[i] * v[j] + 4 * s * v[i] * v[j];
    }
  } // namespace

  template <typename T>
  Matrix<T> random_spd(int n, double condition, std::uint64_t seed)
  {
    require_size(n);
    if (!(condition >= 1))
      throw std::invalid_argument("random_spd: the condition number must be >= 1");
    Random random(seed); // the same numbers on every platform (lab/random.h)
    Matrix<double> a(n, n);
    for (int i = 0; i < n; ++i)
      a(i, i) = n == 1 ? 1.0 : std::pow(condition, -double(i) / (n - 1));
    // Three reflections spread every eigenvalue over every entry: the matrix is dense
    // and nothing about it is diagonal any more.
    for (int r = 0; r < 3; ++r)
      {
        std::vector<double> v(n);
        for (double &x : v)
          x = random.uniform(-1, 1);
        reflect_both_sides(a, v);
      }
    // Rounding makes the two triangles differ in the last bit; a symmetric matrix
    // must be exactly symmetric.
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j)
        a(j, i) = a(i, j) = 0.5 * (a(i, j) + a(j, i));
    return convert<T>(a);
  }

  template <typename T>
  Matrix<T> course_2011_factor(int n)
  {
    require_size(n);
    Matrix<T> l(n, n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c <= r; ++c)
        l(r, c) = T(r + 2) * T(c + 2);
    return l;
  }

  template <typename T>
  Matrix<T> course_2011_spd(int n)
  {
    require_size(n);
    // (L Lᵀ)(i, j) = sum over k <= min(i, j) of (i+2)(k+2) (j+2)(k+2)
    //             = (i+2)(j+2) * sum_{k=0}^{min(i,j)} (k+2)²,
    // so the matrix costs O(n²) with a running sum, computed exactly in double.
    std::vector<double> sum_of_squares(n);
    double running = 0;
    for (int k = 0; k < n; ++k)
      sum_of_squares[k] = running += double(k + 2) * double(k + 2);
    Matrix<T> a(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        a(i, j) = static_cast<T>(double(i + 2) * double(j + 2) *
                                 sum_of_squares[std::min(i, j)]);
    return a;
  }

  template <typename T>
  Matrix<T> random_diagonally_dominant(int n, std::uint64_t seed)
  {
    require_size(n);
    Random random(seed); // the same numbers on every platform (lab/random.h)
    Matrix<T> a(n, n);
    for (int i = 0; i < n; ++i)
      {
        double off_diagonal = 0;
        for (int j = 0; j < n; ++j)
          if (j != i)
            {
              const double x = random.uniform(-1, 1);
              a(i, j) = static_cast<T>(x);
              off_diagonal += std::abs(double(a(i, j)));
            }
        const double sign = random.uniform(-1, 1) < 0 ? -1.0 : 1.0;
        a(i, i) = static_cast<T>(sign * (off_diagonal + random.uniform(1, 2)));
      }
    return a;
  }

  template <typename T>
  Matrix<T> random_lower_triangular(int n, std::uint64_t seed)
  {
    require_size(n);
    Random random(seed); // the same numbers on every platform (lab/random.h)
    Matrix<T> l(n, n);
    for (int i = 0; i < n; ++i)
      {
        for (int j = 0; j < i; ++j)
          l(i, j) = static_cast<T>(random.uniform(-1, 1) / n);
        l(i, i) = static_cast<T>(random.uniform(1, 2));
      }
    return l;
  }

  template <typename T>
  Matrix<T> random_matrix(int rows, int cols, std::uint64_t seed)
  {
    require_size(rows);
    require_size(cols);
    Random random(seed); // the same numbers on every platform (lab/random.h)
    Matrix<T> m(rows, cols);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        m(i, j) = static_cast<T>(random.uniform(-1, 1));
    return m;
  }

  // The library is compiled once for the two number types the course uses.
#define LAB_INSTANTIATE(T)                                                     \
  template Matrix<T> random_spd<T>(int, double, std::uint64_t);                \
  template Matrix<T> course_2011_spd<T>(int);                                  \
  template Matrix<T> course_2011_factor<T>(int);                               \
  template Matrix<T> random_diagonally_dominant<T>(int, std::uint64_t);        \
  template Matrix<T> random_lower_triangular<T>(int, std::uint64_t);           \
  template Matrix<T> random_matrix<T>(int, int, std::uint64_t);
  LAB_INSTANTIATE(float)
  LAB_INSTANTIATE(double)
#undef LAB_INSTANTIATE
} // namespace lab
