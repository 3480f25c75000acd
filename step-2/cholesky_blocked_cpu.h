#pragma once
// @sect3{The CPU reference: step-1's loop, blocked, on all cores}
//
// The same three block equations as the GPU variants, on the CPU: for each diagonal
// tile, factorise it with step-1's loop (step1::cholesky_in_place), solve the rows
// below it, and update the trailing tiles, the last two spread over the cores with
// OpenMP. A tile of 64×64 doubles is 32 KB: the tiles a core works on stay in its
// caches. LAPACK's potrf (OpenBLAS), where installed, is timed beside it.

#include <lab/matrix.h>

namespace step2
{
  // Factorises @p a in place (lower triangle); returns LAPACK's info.
  template <typename T>
  int cholesky_blocked_cpu(lab::Matrix<T> &a);
} // namespace step2
