#include "triangular/triangular_cpu.h"

#include <algorithm>
#include <vector>

namespace step3
{
  template <typename T>
  int invert_lower_cpu(const lab::Matrix<T> &l, lab::Matrix<T> &x)
  {
    const int n = l.rows();
    x = lab::Matrix<T>(n, n);
    for (int j = 0; j < n; ++j)
      if (l(j, j) == T(0))
        return j + 1;
    // Each column is built in a contiguous vector (a column of the row-major X is
    // strided) and copied into X when done.
#pragma omp parallel
    {
      std::vector<T> column(n);
#pragma omp for schedule(dynamic, 8)
      for (int j = 0; j < n; ++j)
        {
          // @exercise{inverse_column_by_substitution, 1}
          // Column j of X = L^-1 by forward substitution, L X = I read column by
          // column: X(j, j) = 1 / L(j, j), and for each row i below it, X(i, j) =
          // -(the sum over j <= q < i of L(i, q) X(q, j)) / L(i, i). Build it in the
          // thread's contiguous vector `column` (entries j to n - 1), then copy those
          // entries into column j of x.
          column[j] = T(1) / l(j, j);
          for (int i = j + 1; i < n; ++i)
            {
              const T *row = &l(i, 0);
              T sum = 0;
              for (int q = j; q < i; ++q)
                sum += row[q] * column[q];
              column[i] = -sum / row[i];
            }
          for (int i = j; i < n; ++i)
            x(i, j) = column[i];
          // @end-exercise
        }
    }
    return 0;
  }

  template <typename T>
  lab::Matrix<T> lower_triangle(const lab::Matrix<T> &m)
  {
    lab::Matrix<T> lower(m.rows(), m.cols());
    for (int i = 0; i < m.rows(); ++i)
      for (int j = 0; j <= std::min(i, m.cols() - 1); ++j)
        lower(i, j) = m(i, j);
    return lower;
  }

  template int invert_lower_cpu(const lab::Matrix<float> &, lab::Matrix<float> &);
  template int invert_lower_cpu(const lab::Matrix<double> &, lab::Matrix<double> &);
  template lab::Matrix<float> lower_triangle(const lab::Matrix<float> &);
  template lab::Matrix<double> lower_triangle(const lab::Matrix<double> &);
} // namespace step3
