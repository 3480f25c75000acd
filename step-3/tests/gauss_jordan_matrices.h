// Test matrices for step-3's Gauss–Jordan tests (CPU and GPU): singular ones with a
// known first column without a pivot, one that needs row swaps on exactly zero pivots,
// and checks on a computed X.
#pragma once

#include <lab/matrix.h>
#include <lab/test_matrices.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace gauss_jordan_test
{
  // A random n×n matrix with column j set to zero: singular, and elimination with
  // any pivoting finds column j exactly zero (info = j + 1), since every row operation
  // before it subtracts multiples of zero there.
  template <typename T>
  lab::Matrix<T> with_zero_column(int n, int j, std::uint64_t seed)
  {
    lab::Matrix<T> a = lab::random_matrix<T>(n, n, seed);
    for (int i = 0; i < n; ++i)
      a(i, j) = 0;
    return a;
  }

  // A random n×n matrix whose row r2 is a copy of row r1: singular, but rounding leaves
  // the last pivot at a few ε instead of 0, which only partial pivoting's threshold
  // (n ε max|A|) recognises: info = n.
  template <typename T>
  lab::Matrix<T> with_equal_rows(int n, int r1, int r2, std::uint64_t seed)
  {
    lab::Matrix<T> a = lab::random_matrix<T>(n, n, seed);
    for (int c = 0; c < n; ++c)
      a(r2, c) = a(r1, c);
    return a;
  }

  // The upper triangle of a diagonally dominant matrix with its rows in reverse order:
  // invertible and well conditioned, but in about the first half of the columns A(k, k)
  // is exactly zero when its turn comes, and the only nonzero candidate is the row that
  // holds the triangle's row k. Both pivoting rules must swap, to the same rows.
  template <typename T>
  lab::Matrix<T> needs_swaps(int n, std::uint64_t seed)
  {
    const lab::Matrix<T> d = lab::random_diagonally_dominant<T>(n, seed);
    lab::Matrix<T> a(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = i; j < n; ++j)
        a(n - 1 - i, j) = d(i, j);
    return a;
  }

  template <typename T>
  bool all_zero(const lab::Matrix<T> &x)
  {
    for (int i = 0; i < x.rows(); ++i)
      for (int j = 0; j < x.cols(); ++j)
        if (x(i, j) != T(0))
          return false;
    return true;
  }

  template <typename T>
  bool all_finite(const lab::Matrix<T> &x)
  {
    for (int i = 0; i < x.rows(); ++i)
      for (int j = 0; j < x.cols(); ++j)
        if (!std::isfinite(x(i, j)))
          return false;
    return true;
  }
} // namespace gauss_jordan_test
