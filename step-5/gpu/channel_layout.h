#pragma once
// @sect3{A picture's channels as the columns of a product}
//
// A colour picture's channels lie in memory one after another: k images of n pixels,
// channel c from entry c·n on, as every method of the step reads an image. The dense
// pipeline forms the k right-hand sides in one product, B = Hᵀ G, and a product's
// output is a matrix stored by rows: B is n × k, row i the k channels' values at
// pixel i, the channels side by side. (Its input G is no problem: the channels one
// after another are Gᵀ by rows, and a product reads a transposed operand for free.)
// Before the channels go back to being images, B is transposed: k × n by rows is the
// channels one after another again. For one channel the two layouts are the same n
// numbers, and the function only copies.

#include <cuda_runtime.h>

namespace step5
{
  // channels (k images of n pixels, one after another) from columns (n × k, by rows),
  // on @p stream.
  template <typename T>
  void columns_to_channels(const T *columns, int n, int k, T *channels, cudaStream_t stream);
} // namespace step5
