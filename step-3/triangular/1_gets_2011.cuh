#pragma once
// @sect3{Variant 1: GETS, the thesis' design, without its race}
//
// Gaussian elimination on the augmented matrix [L | I]. Row by row, k = 0, 1, ...:
//  1. divide row k by its pivot L(k, k);
//  2. subtract L(i, k) times row k from every row i below it, which clears column k
//     of L below the diagonal.
// When all rows are done the left half is I and the right half is L^{-1}.
//
// Most of this work need not be done. When row k becomes the pivot row, the rows
// above it have already cleared its left part up to the diagonal: its only nonzero
// left of the identity block is L(k, k). Step 2 therefore changes nothing in L except
// column k, which it clears, and the multipliers L(i, k) are the entries of the
// original L. Only the right half is really computed: X starts as I, and step 2 for
// pivot k touches columns 0 ... k of the rows below k, the only columns of row k that
// are not zero. That is the thesis' "only the columns that change": about n³/3 flops
// in total, as many as the triangular inverse needs.
//
// The thesis launches one kernel per row in which each block divides the pivot row
// and eliminates with it. Blocks of one launch run in no fixed order, so a block can
// read row k before or after another block has divided it, and the result depends
// on the schedule (the course measured a relative error of 6e-3 at n = 512). Here
// step 1 is a launch of its own: everything a launch reads was written by an earlier
// launch. That costs 2n launches. The threads are mapped as in the thesis: one column
// per row of the grid, consecutive threads on consecutive rows i. The thesis stored
// its matrices by columns, where that mapping reads memory in order; in the row-major
// X of this course a warp reads and writes 32 entries n apart.

#include "triangular/triangular_inverse.h"

namespace step3
{
  template <typename T>
  void invert_1_gets_2011(const InverseArgs<T> &args);
} // namespace step3
