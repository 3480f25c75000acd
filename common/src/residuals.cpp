#include <lab/residuals.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>
#include <stdexcept>

namespace lab
{
  template <typename T>
  double cholesky_residual(const Matrix<T> &a, const Matrix<T> &factor)
  {
    const int n = a.rows();
    if (a.cols() != n || factor.rows() != n || factor.cols() != n)
      throw std::invalid_argument("cholesky_residual: matrices must be n x n");

    // (L Lᵀ)(i, j) for j <= i is the dot product of rows i and j of L over their first
    // j + 1 entries: two contiguous rows, so the loop runs at the speed of memory.
    // Each off-diagonal entry stands for two entries of the symmetric matrix. The rows
    // have different lengths, hence the dynamic schedule.
    double error = 0, norm = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : error, norm)
    for (int i = 0; i < n; ++i)
      {
        const T *row_i = &factor(i, 0);
        for (int j = 0; j <= i; ++j)
          {
            const T *row_j = &factor(j, 0);
            double product = 0;
            for (int k = 0; k <= j; ++k)
              product += double(row_i[k]) * double(row_j[k]);
            const double target = a(i, j);
            const double weight = i == j ? 1.0 : 2.0;
            error += weight * (product - target) * (product - target);
            norm += weight * target * target;
          }
      }
    return std::sqrt(error) / std::sqrt(norm);
  }

  template <typename T>
  double cholesky_residual_sampled(const Matrix<T> &a, const Matrix<T> &factor, int band,
                                   unsigned seed)
  {
    const int n = a.rows();
    if (a.cols() != n || factor.rows() != n || factor.cols() != n)
      throw std::invalid_argument("cholesky_residual_sampled: matrices must be n x n");
    if (band < 1)
      throw std::invalid_argument("cholesky_residual_sampled: the band must be at least 1 row");
    if (band == 1)
      return cholesky_residual(a, factor);
    // One row per band, then the first and the last row where the draw missed them.
    std::vector<int> sample;
    std::mt19937 generator(seed);
    for (int start = 0; start < n; start += band)
      sample.push_back(start + static_cast<int>(generator() % std::min(band, n - start)));
    if (sample.front() != 0)
      sample.insert(sample.begin(), 0);
    if (sample.back() != n - 1)
      sample.push_back(n - 1);

    // Row i of L Lᵀ: entry j is row i of L dotted with row j of L over their first
    // min(i, j) + 1 entries; A(i, j) comes from A's lower triangle.
    double error = 0, norm = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : error, norm) collapse(2)
    for (std::size_t s = 0; s < sample.size(); ++s)
      for (int j = 0; j < n; ++j)
        {
          const int i = sample[s];
          const int last = std::min(i, j);
          const T *row_i = &factor(i, 0), *row_j = &factor(j, 0);
          double product = 0;
          for (int k = 0; k <= last; ++k)
            product += double(row_i[k]) * double(row_j[k]);
          const double target = i >= j ? a(i, j) : a(j, i);
          error += (product - target) * (product - target);
          norm += target * target;
        }
    return std::sqrt(error) / std::sqrt(norm);
  }

  namespace
  {
    // The columns a sampled residual looks at: all of them, or the first and the last
    // and random others (fixed seed).
    std::vector<int> sample_columns(int count, int columns, unsigned seed)
    {
      std::vector<int> sample;
      if (columns >= count)
        {
          for (int j = 0; j < count; ++j)
            sample.push_back(j);
          return sample;
        }
      sample = {0, count - 1};
      std::mt19937 generator(seed);
      std::uniform_int_distribution<int> pick(1, count - 2);
      while (static_cast<int>(sample.size()) < columns)
        sample.push_back(pick(generator));
      return sample;
    }

    template <typename T>
    double frobenius_norm(const Matrix<T> &m)
    {
      double sum = 0;
#pragma omp parallel for reduction(+ : sum)
      for (int i = 0; i < m.rows(); ++i)
        for (int j = 0; j < m.cols(); ++j)
          sum += double(m(i, j)) * double(m(i, j));
      return std::sqrt(sum);
    }

    // ‖target_j − A x_j‖² summed over the sampled columns j, scaled to all m columns:
    // A x_j row by row, each row of A a contiguous dot product with the column x_j
    // (copied out of the row-major X first). target(j) gives column j's right side.
    template <typename T, typename Target>
    double sampled_error_squared(const Matrix<T> &a, const Matrix<T> &x, int columns, unsigned seed,
                                 Target target)
    {
      const int n = a.rows(), m = x.cols();
      const std::vector<int> sample = sample_columns(m, columns, seed);
      double error = 0;
      std::vector<double> column(n);
      for (const int j : sample)
        {
          for (int q = 0; q < n; ++q)
            column[q] = x(q, j);
#pragma omp parallel for reduction(+ : error)
          for (int i = 0; i < n; ++i)
            {
              double sum = 0;
              const T *row = &a(i, 0);
              for (int q = 0; q < n; ++q)
                sum += double(row[q]) * column[q];
              const double d = target(i, j) - sum;
              error += d * d;
            }
        }
      return error * m / sample.size();
    }
  } // namespace

  template <typename T>
  double inverse_residual(const Matrix<T> &a, const Matrix<T> &x, int columns, unsigned seed)
  {
    const int n = a.rows();
    if (a.cols() != n || x.rows() != n || x.cols() != n)
      throw std::invalid_argument("inverse_residual: matrices must be n x n");
    const double error = sampled_error_squared(a, x, columns, seed,
                                               [](int i, int j) { return i == j ? 1.0 : 0.0; });
    return std::sqrt(error) / (frobenius_norm(a) * frobenius_norm(x));
  }

  template <typename T>
  double solve_residual(const Matrix<T> &a, const Matrix<T> &x, const Matrix<T> &b, int columns,
                        unsigned seed)
  {
    const int n = a.rows();
    if (a.cols() != n || x.rows() != n || b.rows() != n || b.cols() != x.cols())
      throw std::invalid_argument("solve_residual: A must be n x n, X and B n x m");
    const double error = sampled_error_squared(a, x, columns, seed,
                                               [&](int i, int j) { return double(b(i, j)); });
    return std::sqrt(error) / (frobenius_norm(a) * frobenius_norm(x));
  }

  template <typename T>
  double relative_error(const Matrix<T> &result, const Matrix<double> &reference)
  {
    if (result.rows() != reference.rows() || result.cols() != reference.cols())
      throw std::invalid_argument("relative_error: the shapes differ");
    double error = 0, norm = 0;
    for (int i = 0; i < result.rows(); ++i)
      for (int j = 0; j < result.cols(); ++j)
        {
          const double d = double(result(i, j)) - reference(i, j);
          error += d * d;
          norm += reference(i, j) * reference(i, j);
        }
    return std::sqrt(error) / std::sqrt(norm);
  }

  template double cholesky_residual(const Matrix<float> &, const Matrix<float> &);
  template double cholesky_residual(const Matrix<double> &, const Matrix<double> &);
  template double cholesky_residual_sampled(const Matrix<float> &, const Matrix<float> &, int,
                                            unsigned);
  template double cholesky_residual_sampled(const Matrix<double> &, const Matrix<double> &,
                                            int, unsigned);
  template double inverse_residual(const Matrix<float> &, const Matrix<float> &, int, unsigned);
  template double inverse_residual(const Matrix<double> &, const Matrix<double> &, int, unsigned);
  template double solve_residual(const Matrix<float> &, const Matrix<float> &, const Matrix<float> &, int,
                                 unsigned);
  template double solve_residual(const Matrix<double> &, const Matrix<double> &, const Matrix<double> &,
                                 int, unsigned);
  template double relative_error(const Matrix<float> &, const Matrix<double> &);
  template double relative_error(const Matrix<double> &, const Matrix<double> &);
} // namespace lab
