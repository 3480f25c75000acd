#pragma once
// @sect3{Gauss–Jordan inversion of a general matrix}
//
// The thesis' first inverse, and the contrast to GETS: a general square matrix A,
// reduced to I by row operations on [A | I], column by column. For column k:
//  1. choose the pivot row p >= k and swap rows k and p;
//  2. divide row k by the pivot;
//  3. subtract A(i, k) times row k from every other row i, above and below, which
//     clears column k except for its 1.
// After the last column the right half is A^{-1}. 2n³ flops in the course's count
// (LAPACK's getri, by LU, needs the same).
//
// Which pivot? The thesis swaps only when A(k, k) is exactly zero, taking the first
// nonzero below it. That is enough to avoid dividing by zero but not to avoid
// dividing by something tiny, and a tiny pivot multiplies the rounding errors of its
// row by huge multipliers; `unstable_example.h` shows a 2×2 matrix on which the result
// has no correct digit. Partial pivoting takes the entry of largest magnitude in the
// column, so that no multiplier exceeds 1: the standard, and stable in practice.
//
// Singular matrices. With partial pivoting, column k has no usable pivot when its
// largest candidate is at most n ε max|A| (relative to the largest entry of A, so that
// the test does not depend on the matrix's scale); with the thesis' rule, only when
// all candidates are exactly zero. Either way info = k + 1, like LAPACK's getrf, and
// X is set to zero.

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace step3
{
  template <typename T>
  struct GaussJordanArgs
  {
    T *a = nullptr;         // device: A (row-major), overwritten
    int n = 0;
    int lda = 0;
    T *x = nullptr;         // device: A^{-1} on return; zero when singular
    int ldx = 0;
    int *info = nullptr;    // device: 0, or k + 1 for the first column without a pivot
    T *workspace = nullptr; // workspace_elements(n) entries
    cudaStream_t stream = nullptr;
  };

  enum class Pivoting
  {
    on_exact_zero, // the thesis: swap only when the pivot is exactly 0
    partial        // the largest magnitude in the column
  };

  template <typename T>
  struct GaussJordanVariant
  {
    std::string name;
    std::string idea;
    Pivoting pivoting;
    std::size_t (*workspace_elements)(int n);
    void (*invert)(const GaussJordanArgs<T> &);
  };

  // The variants in teaching order, for float and double.
  template <typename T>
  const std::vector<GaussJordanVariant<T>> &gauss_jordan_variants();
} // namespace step3
