#pragma once
// @sect3{Variant 2: GETS with the threads along the rows, in half the launches}
//
// Two changes to variant 1, each measured in the results.
//
// The mapping. X is stored by rows, so entries X(i, c) and X(i, c + 1) are neighbours
// in memory. Variant 1 gives consecutive threads consecutive rows: the 32 threads of
// a warp touch 32 entries n apart, 32 memory transactions where one would do. Here
// the work of pivot k, the (n - k - 1) × (k + 1) entries X(i, c), is numbered row by
// row and thread t takes entry t: a warp reads and writes consecutive entries of a
// row (and the pivot row X(k, :), which every row needs, comes from the cache).
//
// The launches. The pivot row need not be divided before it is used: with the
// multiplier L(i, k) / L(k, k) kept apart, row i is updated with the undivided row k,
// X(i, c) -= (L(i, k) / L(k, k)) X(k, c). Each launch reads row k and writes only
// rows below it, so there is no race, and the division of every row by its pivot
// happens once, at the end, in a single launch: n launches instead of 2n. Still one
// launch per row: what limits GETS is that row k + 1 cannot start before row k is
// done, and at n = 16384 the launches alone take tens of milliseconds.

#include "triangular/triangular_inverse.h"

namespace step3
{
  template <typename T>
  void invert_2_gets_coalesced(const InverseArgs<T> &args);
} // namespace step3
