#pragma once
// @sect3{Variant 10: by halves, for products as large as the matrix}
//
// Variants 4 to 9 all march across the matrix in panels: every trailing update is a
// product whose inner dimension is one panel, 256 to 1024 columns, however large n is.
// That suits a product that is fast from a small inner dimension on, such as cuBLAS's
// DGEMM; it wastes one that pays only on large ones. Step-4's kernel 20 is such a
// product: it computes a double product to DGEMM's accuracy on the integer tensor
// cores, but its conversions cost passes over the operands and the result that do not
// shrink with the inner dimension, so it beats DGEMM only from about 4096³, by 1.38× at
// 8192³ and 1.57× at 16384³.
//
// Variant 10 cuts the matrix in halves instead, the classic recursive Cholesky:
// @f[ \begin{pmatrix} A_{11} & \\ A_{21} & A_{22} \end{pmatrix} =
//     \begin{pmatrix} L_{11} & \\ L_{21} & L_{22} \end{pmatrix}
//     \begin{pmatrix} L_{11}^T & L_{21}^T \\ & L_{22}^T \end{pmatrix} @f]
//  1. A_11 = L_11 L_11ᵀ, by the same method, on the first half;
//  2. L_21 L_11ᵀ = A_21, a triangular solve for L_21, itself by halves (below);
//  3. A_22 ← A_22 − L_21 L_21ᵀ, the lower triangle only, by halves (below);
//  4. A_22 = L_22 L_22ᵀ, by the same method, on the second half.
// At n = 32768 the products of steps 2 and 3 have inner dimensions of 16384, 8192 and
// 4096, and they hold about three quarters of the flops. The flops are those of any
// Cholesky, n³/3: only their grouping changes.
//
// The recursion stops at 16 panels (8192 rows in double): variant 9 factorises such a
// half, its look-ahead hiding the panels' chain behind their updates, which halving
// cannot do. Variant 10 sets the two fields of CholeskyArgs that let variant 9 work on
// a part: the part's first column (for `info`), and a strip where every panel keeps
// the inverse of its diagonal block, X = L_pp^{-1}, which variant 9 computes anyway.
// Step 2 needs exactly those: with L_11 split the same way,
// @f[ X \begin{pmatrix} L_1^T & L_2^T \\ & L_3^T \end{pmatrix} = (B_1 \; B_2)
//     \quad\Rightarrow\quad X_1 L_1^T = B_1, \quad X_2 L_3^T = B_2 - X_1 L_2^T, @f]
// one product with the inner dimension of the first half between two solves, down to
// single panels, where X_p = B_p X_pᵀ is one product with the kept inverse.
//
// Step 3 asks for a lower triangle. A product that computes only that (cuBLAS's, here,
// in tiles of 256) is one way; variant 10 halves it while both halves are at least
// eight panels: C_21 ← C_21 − P_2 P_1ᵀ as one whole product, then C_11 and C_22 the same
// way. The whole products are the large ones a product such as kernel 20 needs.
//
// A band matrix (CholeskyArgs::bandwidth ≥ 0) gains nothing from halves, whose
// off-diagonal blocks are then mostly zero: variant 10 leaves it to variant 9.

#include "../cholesky_variants.h"

#include <cstddef>

namespace step2
{
  // Variant 10's workspace: variant 9's for the whole matrix, which also holds a copy
  // of one block column for the solve, and the strip of panel inverses, n × nb.
  template <typename T>
  std::size_t recursive_workspace(int n, int panel_width);

  // The order up to which variant 10 leaves a diagonal part to variant 9: 16 panels.
  int recursion_base(int n, int panel_width);

  template <typename T>
  void factorize_10_recursive(const CholeskyArgs<T> &args);
} // namespace step2
