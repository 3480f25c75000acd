#include "gauss_jordan/gauss_jordan_cpu.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace step3
{
  template <typename T>
  int gauss_jordan_cpu(const lab::Matrix<T> &input, lab::Matrix<T> &x)
  {
    const int n = input.rows();
    lab::Matrix<double> a = lab::convert<double>(input), inverse(n, n);
    double scale = 0;
    for (int i = 0; i < n; ++i)
      {
        inverse(i, i) = 1;
        for (int j = 0; j < n; ++j)
          scale = std::max(scale, std::abs(a(i, j)));
      }
    const double tiny = n * std::numeric_limits<T>::epsilon() * scale;
    x = lab::Matrix<T>(n, n);
    for (int k = 0; k < n; ++k)
      {
        // The pivot: the first row of largest magnitude, as on the GPU.
        int p = k;
        for (int r = k + 1; r < n; ++r)
          if (std::abs(a(r, k)) > std::abs(a(p, k)))
            p = r;
        if (!(std::abs(a(p, k)) > tiny))
          return k + 1;
        // Left of column k, rows k and p are zero in A: the swap and the division start
        // at column k there, and take all of X.
        for (int c = 0; c < n; ++c)
          {
            if (c >= k)
              std::swap(a(k, c), a(p, c));
            std::swap(inverse(k, c), inverse(p, c));
          }
        const double pivot = a(k, k);
        for (int c = 0; c < n; ++c)
          {
            if (c >= k)
              a(k, c) /= pivot;
            inverse(k, c) /= pivot;
          }
#pragma omp parallel for
        for (int i = 0; i < n; ++i)
          {
            const double multiplier = a(i, k);
            if (i == k || multiplier == 0)
              continue;
            for (int c = k; c < n; ++c)
              a(i, c) -= multiplier * a(k, c);
            for (int c = 0; c < n; ++c)
              inverse(i, c) -= multiplier * inverse(k, c);
          }
      }
    x = lab::convert<T>(inverse);
    return 0;
  }

  template int gauss_jordan_cpu(const lab::Matrix<float> &, lab::Matrix<float> &);
  template int gauss_jordan_cpu(const lab::Matrix<double> &, lab::Matrix<double> &);
} // namespace step3
