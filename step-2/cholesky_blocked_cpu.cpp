#include "cholesky_blocked_cpu.h"

#include "cholesky_loop.h"

#include <algorithm>

namespace step2
{
  template <typename T>
  int cholesky_blocked_cpu(lab::Matrix<T> &a)
  {
    constexpr int tile = 64;
    const int n = a.rows();
    for (int k0 = 0; k0 < n; k0 += tile)
      {
        const int w = std::min(tile, n - k0);
        // The diagonal tile: step-1's loop, on one core.
        if (const int info = step1::cholesky_in_place(&a(k0, k0), w, a.ld()))
          return k0 + info;
        // Each row below it solves x L_kk^T = a by forward substitution.
#pragma omp parallel for schedule(static)
        for (int r = k0 + w; r < n; ++r)
          {
            T *x = &a(r, k0);
            for (int j = 0; j < w; ++j)
              {
                const T *l_j = &a(k0 + j, k0);
                T sum = x[j];
                for (int m = 0; m < j; ++m)
                  sum -= x[m] * l_j[m];
                x[j] = sum / l_j[j];
              }
          }
        // @exercise{blocked_trailing_update, 2}
        // The trailing update of a blocked Cholesky on the CPU, shared among the cores:
        // every entry (r, c) with k0 + w <= c <= r < n loses the dot product of rows r and
        // c of the panel, `a(r, k0 + m) * a(c, k0 + m)` summed over m < w. Hand the
        // tiles of `tile` x `tile` entries on or below the diagonal to the threads
        // (`#pragma omp parallel for`), each tile to one thread, so that no two
        // threads write one entry.
        const int tiles = (n - k0 - w + tile - 1) / tile;
#pragma omp parallel for schedule(dynamic)
        for (int b = 0; b < tiles * (tiles + 1) / 2; ++b)
          {
            int i = 0;
            while ((i + 1) * (i + 2) / 2 <= b)
              ++i;
            const int j = b - i * (i + 1) / 2;
            const int r0 = k0 + w + i * tile, c0 = k0 + w + j * tile;
            for (int r = r0; r < std::min(n, r0 + tile); ++r)
              for (int c = c0; c < std::min({n, c0 + tile, r + 1}); ++c)
                {
                  const T *row_r = &a(r, k0), *row_c = &a(c, k0);
                  T sum = 0;
                  for (int m = 0; m < w; ++m)
                    sum += row_r[m] * row_c[m];
                  a(r, c) -= sum;
                }
          }
        // @end-exercise
      }
    return 0;
  }

  template int cholesky_blocked_cpu(lab::Matrix<float> &);
  template int cholesky_blocked_cpu(lab::Matrix<double> &);
} // namespace step2
