#pragma once
// @sect3{A matrix that needs pivoting}
//
// A = [[d, 1], [1, 1]] with d far below the machine epsilon (1e-10 in float, 1e-20 in
// double). Its inverse is [[1, -1], [-1, d]] / (d - 1), about [[-1, 1], [1, -d]], and
// its condition number is about 2.6: an easy matrix. The thesis' rule keeps the pivot
// d, since it is not zero: row 2 loses 1/d times row 1, its 1 vanishes beside 1/d, and
// the computed X(0, 0) comes out 0 instead of -1, a residual near 1. Partial pivoting
// swaps the rows and gets every digit.

#include <lab/matrix.h>

namespace step3
{
  template <typename T>
  lab::Matrix<T> unstable_example()
  {
    lab::Matrix<T> a(2, 2);
    a(0, 0) = sizeof(T) == 4 ? T(1e-10) : T(1e-20);
    a(0, 1) = a(1, 0) = a(1, 1) = 1;
    return a;
  }
} // namespace step3
