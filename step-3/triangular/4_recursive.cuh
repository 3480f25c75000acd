#pragma once
// @sect3{Variant 4: the recursive inverse, almost all of it products}
//
// Cut L in two, L = [L_11 0; L_21 L_22]. Its inverse has the same shape,
//   X = [X_11 0; X_21 X_22],  X_11 = L_11^{-1},  X_22 = L_22^{-1},
//   X_21 = -X_22 L_21 X_11,
// as multiplying out L X = I shows (block row 2: L_21 X_11 + L_22 X_21 = 0). The two
// halves are inverted the same way, down to 64×64 tiles, which step-2's tile kernel
// inverts all at once in one launch. Then, from the smallest blocks up, each X_21 is
// two triangular products (triangular_products.h): W = L_21 X_11 into the workspace,
// then X_21 = -X_22 W.
//
// The flops: at the top, two products with a triangle of n/2 rows, (n/2)³ flops each
// (a triangle is half a matrix), n³/4 in all; the two halves cost a quarter of that,
// and so on: n³/4 (1 + 1/4 + 1/16 + ...) = n³/3, the same as GETS. But here they are products of hundreds to
// thousands of rows, which run at GEMM speed; variant 3's had an inner dimension of
// 64. What is left: the tile inverses (serial within a tile, but all tiles in
// parallel) and the launches of the many small products near the leaves.

#include "triangular/triangular_inverse.h"

namespace step3
{
  template <typename T>
  std::size_t recursive_workspace(int n);

  template <typename T>
  void invert_4_recursive(const InverseArgs<T> &args);
} // namespace step3
