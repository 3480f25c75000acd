// @sect3{The Cholesky loop, for the CPU and the GPU alike}
//
// This header holds the whole algorithm of step-1: one function, compiled twice.
// The CPU reference (cholesky_cpu.cpp) calls it from ordinary C++; the GPU version
// (single_thread_cholesky.cu) calls the very same function from a kernel that runs on
// a single GPU thread. That is the first lesson of the course: CUDA C++ is C++. A
// function marked `__host__ __device__` (spelled LAB_HOST_DEVICE, so that the plain
// C++ compiler can read this header too) runs wherever it is called from.
//
// The matrix is stored by rows with leading dimension `ld`: entry (r, c) is
// `a[r * ld + c]`. Only the lower triangle of A is read, and it is overwritten by the
// factor L, column by column; the strict upper triangle is left as it was.
#pragma once

#include <lab/host_device.h>

#include <cmath>

namespace step1
{
  // For column i, first the diagonal entry, from everything to its left:
  // @f[ L_{ii} = \sqrt{A_{ii} - \sum_{k<i} L_{ik}^2}, @f]
  // then every entry below it, from the two rows' entries left of column i:
  // @f[ L_{ji} = \Bigl(A_{ji} - \sum_{k<i} L_{jk} L_{ik}\Bigr) / L_{ii},
  //     \qquad j = i+1, \dots, n-1. @f]
  // Row-major storage makes both sums dot products of contiguous pieces of rows,
  // which is kind to the CPU's caches.
  //
  // The return value follows LAPACK's `info`: 0 when A is positive definite; k > 0
  // when the leading k x k block of A is not, i.e. when the quantity under the root
  // of column k - 1 is not positive. The loop then stops at once, so the factor never
  // holds the NaN that `sqrt` of a negative number would produce. Writing the test as
  // `!(d > 0)` rather than `d <= 0` also stops on a NaN already in the input, since
  // every comparison with NaN is false.
  template <typename T>
  LAB_HOST_DEVICE int cholesky_in_place(T *a, int n, int ld)
  {
    using std::sqrt;
    // @exercise{cholesky_loop, 2}
    // The Cholesky factorisation as one loop, written once for the CPU and the GPU.
    // Overwrite the lower triangle of the row-major n x n matrix a (entry (r, c) at
    // `a[r * ld + c]`) with its factor L, column by column, by the two formulas
    // above: for column i, first L_ii from row i's entries left of the diagonal,
    // then L_ji for every row j below it. Read only the lower triangle, leave the
    // strict upper triangle as it is, and when the number under a root is not
    // positive (a NaN included) return i + 1 at once, before taking the root.
    for (int i = 0; i < n; ++i)
      {
        T *row_i = a + static_cast<long>(i) * ld;

        T diagonal = row_i[i];
        for (int k = 0; k < i; ++k)
          diagonal -= row_i[k] * row_i[k];
        if (!(diagonal > T(0)))
          return i + 1;
        const T l_ii = sqrt(diagonal);
        row_i[i] = l_ii;

        // The entries below the diagonal do not depend on each other: each needs only
        // its own row and row i. Here one thread computes them one after another; step-2
        // gives them to different threads.
        for (int j = i + 1; j < n; ++j)
          {
            T *row_j = a + static_cast<long>(j) * ld;
            T sum = row_j[i];
            for (int k = 0; k < i; ++k)
              sum -= row_j[k] * row_i[k];
            row_j[i] = sum / l_ii;
          }
      }
    // @end-exercise
    return 0;
  }
} // namespace step1
