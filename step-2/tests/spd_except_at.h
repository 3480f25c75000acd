#pragma once
// A test matrix that is positive definite up to a chosen column and fails there: the
// leading minors of order <= c are those of a random SPD matrix, and A(c, c) is lowered
// so that the pivot of column c becomes -1. Every correct factorisation must stop at
// column c, LAPACK's info = c + 1.
#include "cholesky_loop.h"

#include <lab/test_matrices.h>

#include <cmath>

// True when every entry of the lower triangle of @p l is finite: what a failed
// factorisation must leave behind.
template <typename T>
bool lower_triangle_is_finite(const lab::Matrix<T> &l)
{
  for (int i = 0; i < l.rows(); ++i)
    for (int j = 0; j <= i; ++j)
      if (!std::isfinite(l(i, j)))
        return false;
  return true;
}

// The SPD matrix @p a made to fail at column c.
template <typename T>
lab::Matrix<T> failing_at(lab::Matrix<double> a, int c)
{
  lab::Matrix<double> l = a;
  step1::cholesky_in_place(l.data(), a.rows(), l.ld());
  a(c, c) -= l(c, c) * l(c, c) + 1;
  return lab::convert<T>(a);
}

template <typename T>
lab::Matrix<T> spd_except_at(int n, int c, unsigned seed = 7)
{
  return failing_at<T>(lab::random_spd<double>(n, 100, seed), c);
}
