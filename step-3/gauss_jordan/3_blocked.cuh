#pragma once
// @sect3{Variant 3: in place, in panels, the update as matrix products}
//
// Variants 1 and 2 spend their time moving memory: every column costs four launches
// over n rows of 2n - k entries, about 3n³ flops in all where 2n³ suffice, and none
// of it is a matrix product. Two classical changes fix both.
//
// In place. Step k turns column k of A into e_k, which holds no information, and
// fills exactly one new column of X: without swaps, X's columns right of k are still
// those of I. So column k of A can hold column k of X: step k replaces column k by
// e_k and applies its row operations to all n columns, which gives A(k, k) = 1/pivot
// and A(i, k) = -A(i, k)/pivot for the other rows, and n² multiply-adds per step, 2n³
// flops in all. At the end A holds the inverse, with one catch: row swaps exchange
// whole rows, also of the columns that already hold the inverse, and the result is
// A^{-1} with its columns permuted, T = A^{-1} P^T for the product P of the swaps
// (T (P A) = I), so A^{-1} = T P: column c of A^{-1} is column σ(c) of T, where σ(c)
// is where c ends up when the swaps are applied to it in the order they were made.
// One gather into X puts the columns in order (LAPACK's getri swaps columns instead).
//
// In panels. The columns are taken in panels of `blocked_panel` = 128. Within a panel
// K (columns k0 ... k0+b-1) the in-place steps run as above but on the panel's b
// columns only; the row swaps still exchange whole rows. The other columns C are
// left waiting, and all b steps reach them at once: the panel's row operations
// together are T_K, the identity except in the columns K, where they are what the
// panel now holds, G = T_K(:, K). So
//   C <- T_K C = C + (G - I_K) C_K,
// C_K the b rows K of C: save C_K, set those rows to zero, and add G C_K to the
// whole of C. That is a product of (n × b) by (b × (n - b)), done as two, one for the
// columns left of the panel and one for those right of it (the panel's own columns
// are the products' input and stay apart): 2n²b flops per panel, 2n³ in all, all of
// them in products through lab::Gemm. Pivoting is unchanged: the columns right of the
// panel received every earlier panel's update before their own panel starts (a
// right-looking algorithm), so the pivot search sees what variant 2 sees.
//
// What remains are the panel's four launches per column, now over n × 128 entries
// each. They are still 4n launches of a few microseconds, against 2n³ flops at tens
// of TFLOP/s: at n = 8192 about 0.1 s of launches against a few hundredths of a
// second of products, by that estimate. Making one kernel of a whole panel is the
// next step, left to try.

#include "gauss_jordan/gauss_jordan.h"

#include <cstddef>

namespace step3
{
  constexpr int blocked_panel = 128;

  // The workspace of variant 2, then the pivot rows (n), the column order of the
  // result (n) and the saved rows C_K (128 × n).
  std::size_t blocked_workspace(int n);

  template <typename T>
  void invert_3_blocked(const GaussJordanArgs<T> &args);
} // namespace step3
