#pragma once
// @sect3{A matrix that needs pivoting}
//
// A = [[d, 1], [1, 1]] with d = 1e-20, far below the machine epsilon of float and of
// double (and far above the smallest normal number of either). Its inverse is
// [[1, -1], [-1, d]] / (d - 1), almost [[-1, 1], [1, -d]], and its condition number is
// about 2.6: an easy matrix. The thesis' rule keeps d as the pivot, since it is not
// zero. Row 2 loses 1/d times row 1, and its 1 vanishes beside 1/d = 1e20: the
// second pivot is computed as -1e20, where 1 - 1e20 is meant, and that lost 1 is the
// whole information of the matrix. The computed inverse is [[0, 1], [1, -d]]: X(0, 0)
// is 0 instead of -1, and ‖A X − I‖_F / (‖A‖_F ‖X‖_F) is about 0.4. Partial pivoting
// takes the 1 below d as the pivot, its multiplier is d, and every digit is right.

#include <lab/matrix.h>

namespace step3
{
  template <typename T>
  lab::Matrix<T> unstable_example()
  {
    lab::Matrix<T> a(2, 2);
    a(0, 0) = T(1e-20);
    a(0, 1) = a(1, 0) = a(1, 1) = 1;
    return a;
  }
} // namespace step3
