#pragma once
// @sect3{Variant 3: blocked GETS, the elimination as matrix products}
//
// The same elimination, on block rows of b = 64 rows instead of single rows. Write
// L and X in b×b blocks L_ik and X_ik. Row k of GETS divides by the pivot L(k, k) and
// subtracts multiples of row k from the rows below; block row k multiplies by the
// inverse of the diagonal block, X_kk = L_kk^{-1}, and subtracts L_ik times block row
// k from every block row i below it. With Y, the right half of the augmented matrix
// while the elimination runs (it starts as I), block step k is
//  1. X_k,0:k = X_kk Y_k,0:k : block row k is final once multiplied by X_kk (its
//     diagonal block is X_kk itself, since Y_kk is still the identity);
//  2. Y_i,0:k+1 -= L_ik X_k,0:k+1 for all block rows i > k at once.
// Step 2 is one product of (n - (k+1)b) × (k+1)b × b: summed over k, about n³/3
// flops, all of the work, and none spent on the zero triangle. Step 1 costs b n² in
// all, little. The diagonal blocks X_kk are computed first, all at once: one thread
// block per tile, in shared memory, by the kernel step-2 wrote for its panel solve
// (step-2's diagonal_block_inverse.cuh), which is GETS itself on a 64×64 tile with a
// barrier between the division and the elimination.
//
// Y is kept in X's storage: block rows above k hold X, those below hold Y. A product
// cannot write its own input, so for step 1 block row k of Y is first copied to the
// workspace (b × n entries).
//
// What limits it: the products have an inner dimension of only b = 64, so they read
// and write C for every 64 multiply-adds (variant 4 fixes that), and the n/64 steps
// run one after another.

#include "triangular/triangular_inverse.h"

namespace step3
{
  template <typename T>
  std::size_t blocked_gets_workspace(int n);

  template <typename T>
  void invert_3_blocked_gets(const InverseArgs<T> &args);
} // namespace step3
