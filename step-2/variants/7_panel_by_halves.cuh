#pragma once
// @sect3{Variant 7: a shorter panel chain, by halves}
//
// Variant 5 hides the panel behind the trailing update, but only while the update is
// longer than the panel. At n = 16384 in float it is not, for about the last half of
// the panels: from there on every step waits for the chain of its panel, the diagonal
// block (one thread block, 649 µs at nb = 512 on an H200), its inverse (109 µs) and
// the product below. With the trailing update made almost free (variant 6's TF32
// products) variant 5 still took about 33 ms on an H100, most of it the chain (28 ms
// of diagonal blocks, their inverses and the panel products, the intro's figures).
//
// Variant 7 changes the diagonal block: it is factorised and inverted by
// halves (recursive_diagonal_block.cuh), so that most of its flops are products and
// the one-SM kernel only sees blocks of 128 rows. The block and its inverse of 512
// rows take 443 µs instead of 758 (float; 685 instead of 1374 in double). And since
// that has no limit from shared memory, the panels can be wider than variant 5's: up
// to twice as wide (1024 columns in float, 512 in double), about n/16 columns, so
// that large matrices get fewer links in the chain and products with a longer inner
// dimension, and small ones a shorter chain. The rest of the trailing update goes in
// block columns one panel wide, which at the widest are as large as variant 5's
// double columns.
//
// On an H200 that makes it 1.06–1.52× faster than variant 5 from n = 512 on in float
// (79% of cuSOLVER's potrf at 16384, 90% at 32768), 1.03–1.15× in double; the results
// page measures its chain and its products apart and says what holds it back.
//
// Measured alternatives that did not pay (H200, n = 16384 and 32768, as a graph):
// the trailing update spread over two or four streams (within ±5%, often slower),
// and split into halves with one large product for each off-diagonal rectangle
// (within 2% of the block columns).

#include "../cholesky_variants.h"
#include "recursive_diagonal_block.cuh"

#include <cstddef>

namespace step2
{
  // The width of variant 7's panels for order n, given the least, @p panel_width.
  int panel_by_halves_width(int n, int panel_width);

  // The workspace of variant 7: variant 4's, for its panels of that width.
  template <typename T>
  std::size_t panel_by_halves_workspace(int n, int panel_width);

  // How the look-ahead loop updates the trailing matrix beyond the next panel: in block
  // columns one panel wide (variants 7 and 8), or in one product that computes only its
  // lower triangle (variant 9).
  enum class RestOfUpdate
  {
    block_columns,
    one_lower_triangle_product
  };

  // The look-ahead loop with these panels, their base blocks done as @p base says
  // (variant 8 differs from variant 7 only there), the rest of the update as @p rest
  // says (variant 9 differs from variant 8 only there).
  template <typename T>
  void factorize_by_halves(const CholeskyArgs<T> &args, BaseBlock base,
                           RestOfUpdate rest = RestOfUpdate::block_columns);

  template <typename T>
  void factorize_7_panel_by_halves(const CholeskyArgs<T> &args);
} // namespace step2
