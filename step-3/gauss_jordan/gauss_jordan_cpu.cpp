#include "gauss_jordan_cpu.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace step3
{
  template <typename T>
  int gauss_jordan_cpu(const lab::Matrix<T> &a_in, lab::Matrix<T> &x)
  {
    const int n = a_in.rows();
    lab::Matrix<T> a = a_in;
    x = lab::Matrix<T>(n, n);
    T scale = 0;
    for (int i = 0; i < n; ++i)
      {
        x(i, i) = 1;
        for (int j = 0; j < n; ++j)
          scale = std::max(scale, std::abs(a(i, j)));
      }
    const T threshold = n * std::numeric_limits<T>::epsilon() * scale;
    for (int k = 0; k < n; ++k)
      {
        int p = k;
        for (int r = k + 1; r < n; ++r)
          if (std::abs(a(r, k)) > std::abs(a(p, k)))
            p = r;
        if (!(std::abs(a(p, k)) > threshold))
          {
            x = lab::Matrix<T>(n, n);
            return k + 1;
          }
        for (int c = 0; c < n; ++c)
          {
            std::swap(a(k, c), a(p, c));
            std::swap(x(k, c), x(p, c));
          }
        const T pivot = a(k, k);
        for (int c = 0; c < n; ++c)
          {
            a(k, c) /= pivot;
            x(k, c) /= pivot;
          }
#pragma omp parallel for
        for (int i = 0; i < n; ++i)
          {
            const T multiplier = a(i, k);
            if (i == k || multiplier == T(0))
              continue;
            for (int c = 0; c < n; ++c)
              {
                a(i, c) -= multiplier * a(k, c);
                x(i, c) -= multiplier * x(k, c);
              }
          }
      }
    return 0;
  }

  template int gauss_jordan_cpu(const lab::Matrix<float> &, lab::Matrix<float> &);
  template int gauss_jordan_cpu(const lab::Matrix<double> &, lab::Matrix<double> &);
} // namespace step3
